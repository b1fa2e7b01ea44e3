//! The one term of the implicit stage for any contact kind: its stencils (and its friction
//! lagged at the substep's start) evaluated in parallel into per-stencil slots and added in
//! stencil order ([`crate::assemble::scatter`]), so results do not depend on the thread count.
//!
//! −f is the kind's −F (contact and friction, paper Eq. 3, 16); the merit takes the penalty
//! energies plus h times the dissipation potential of the friction frozen by
//! [`Term::freeze_friction`] (the kind's frames at the freezing point, or the lagged ones), so
//! that its gradient in v is the residual (paper Eq. 24); the Jacobian takes each stencil's
//! block and −h dF/dv of the lagged friction.

use super::{CandidateCache, ContactKind, Frozen, JacobianBlock, JacobianStage, StencilGap};
use crate::assemble::scatter;
use crate::assemble::term::{StageContext, Term};
use crate::math::real::Real;
use rayon::prelude::*;

/// Stencils whose Jacobian blocks are held at once (bounds the memory of large dense blocks).
const JACOBIAN_CHUNK: usize = 512;

/// All contacts of one kind in one stage.
pub struct ContactTerm<K: ContactKind> {
    kind: K,
    cache: CandidateCache<K::Stencil>,
    /// Friction frozen at the substep's start (lagged coupling, paper Eq. 25).
    lagged: Vec<Frozen<K>>,
    /// Friction frozen by the last [`Term::freeze_friction`] (implicit coupling).
    frozen: Vec<Frozen<K>>,
    /// The blocks of one chunk of stencils, kept between calls.
    blocks: Vec<Option<JacobianBlock<K>>>,
}

impl<K: ContactKind> ContactTerm<K> {
    /// The contacts of `kind` with candidates gathered around `q_guess` (m) and, with lagged
    /// friction, the friction frozen at the substep's start `q_start` (m).
    pub fn new(mut kind: K, q_start: &[f64], q_guess: &[f64]) -> Self {
        let cache = CandidateCache::new(&mut kind, q_guess);
        let lagged = if kind.lagged_friction() { kind.lagged(q_start, &cache) } else { Vec::new() };
        Self { kind, cache, lagged, frozen: Vec::new(), blocks: Vec::new() }
    }

    /// The kind.
    pub fn kind(&self) -> &K {
        &self.kind
    }

    /// The candidate stencils (fresh for the last refreshed positions).
    pub fn candidates(&self) -> &[K::Stencil] {
        self.cache.stencils()
    }

    /// The friction lagged at the substep's start.
    pub fn lagged(&self) -> &[Frozen<K>] {
        &self.lagged
    }

    /// How many times candidates were gathered again after the first gather.
    pub fn refreshes(&self) -> u32 {
        self.cache.refreshes
    }

    /// The stage's summary of this kind at `q` (m): the smallest gap (m; +∞ without one) and
    /// how many stencils are active contacts.
    pub fn gap_summary(&mut self, q: &[f64], fixed: &[bool]) -> (f64, u32) {
        self.cache.refresh(&mut self.kind, q);
        let kind = &self.kind;
        let gaps: Vec<Option<StencilGap>> = self.cache.stencils().par_iter().map(|s| kind.gap(s, q, fixed)).collect();
        let deepest = gaps.iter().flatten().map(|g| g.gap).fold(f64::INFINITY, f64::min);
        (deepest, gaps.iter().flatten().filter(|g| g.active).count() as u32)
    }

    fn frozen_for_merit(&self) -> &[Frozen<K>] {
        if self.kind.lagged_friction() {
            &self.lagged
        } else {
            &self.frozen
        }
    }
}

impl<K: ContactKind> Term for ContactTerm<K> {
    fn refresh(&mut self, q: &[f64]) {
        self.cache.refresh(&mut self.kind, q);
    }

    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        let kind = &self.kind;
        let local: Vec<Option<(K::Vertices, K::Values<T>)>> =
            self.cache.stencils().par_iter().map(|s| kind.force(s, q, v)).collect();
        let law = kind.law();
        let lagged: Vec<K::Values<T>> = self.lagged.par_iter().map(|f| f.forces(law, v)).collect();
        let stencils = local.iter().flatten().map(|(vertices, values)| (vertices, values));
        scatter::add_vectors(stencils.chain(self.lagged.iter().map(|f| &f.vertices).zip(&lagged)), -scale, out);
    }

    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
        self.cache.refresh(&mut self.kind, q);
        let kind = &self.kind;
        let energies: Vec<f64> = self.cache.stencils().par_iter().map(|s| kind.energy(s, q)).collect();
        let law = kind.law();
        let friction: Vec<f64> = self.frozen_for_merit().par_iter().map(|f| f.potential(law, v)).collect();
        energies.iter().sum::<f64>() + stage.h * friction.iter().sum::<f64>()
    }

    fn freeze_friction(&mut self, q: &[f64]) {
        if self.kind.lagged_friction() {
            return;
        }
        self.cache.refresh(&mut self.kind, q);
        let kind = &self.kind;
        self.frozen = self.cache.stencils().par_iter().filter_map(|s| kind.freeze(s, q)).collect();
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
        self.cache.refresh(&mut self.kind, q);
        let kind = &self.kind;
        let (layout, fixed) = (stage.layout, stage.fixed);
        let context = JacobianStage { q_base: stage.q_start, h: stage.h, fixed, definite: stage.definite };
        let mut dropped = 0;
        for chunk in self.cache.stencils().chunks(JACOBIAN_CHUNK) {
            self.blocks.clear();
            self.blocks.par_extend(chunk.par_iter().map(|s| kind.jacobian(s, &context, q, v)));
            for (vertices, block, scale) in self.blocks.iter().flatten() {
                dropped += scatter::add_matrix(vertices.as_ref(), block, None, *scale, layout, fixed, jac);
            }
        }
        for chunk in self.lagged.chunks(JACOBIAN_CHUNK) {
            self.blocks.clear();
            let h = stage.h;
            self.blocks
                .par_extend(chunk.par_iter().map(|f| Some((f.vertices.clone(), kind.frozen_jacobian(f, v), -h))));
            for (vertices, block, scale) in self.blocks.iter().flatten() {
                dropped += scatter::add_matrix(vertices.as_ref(), block, None, *scale, layout, fixed, jac);
            }
        }
        dropped
    }

    fn gaps(&mut self, q: &[f64], fixed: &[bool]) -> Option<(f64, u32)> {
        self.kind.reports_gaps().then(|| self.gap_summary(q, fixed))
    }

    fn closest_shell_pair(&mut self, q: &[f64]) -> Option<f64> {
        self.cache.refresh(&mut self.kind, q);
        let kind = &self.kind;
        let d: Vec<Option<f64>> = self.cache.stencils().par_iter().map(|s| kind.shell_distance(s, q)).collect();
        d.into_iter().flatten().reduce(f64::min)
    }

    fn intersections(&self, q: &[f64]) -> Option<usize> {
        self.kind.intersections(q)
    }

    fn stencils(&self) -> Vec<Vec<u32>> {
        if !K::COUPLES {
            return Vec::new();
        }
        let kind = &self.kind;
        let mut out: Vec<Vec<u32>> = self.cache.stencils().iter().map(|s| kind.coupling(s)).collect();
        out.extend(self.lagged.iter().map(|f| f.vertices.as_ref().to_vec()));
        out
    }

    fn seconds_search(&self) -> f64 {
        self.cache.seconds
    }

    fn has_friction(&self) -> bool {
        self.kind.has_friction()
    }
}
