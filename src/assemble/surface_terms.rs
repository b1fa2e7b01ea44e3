//! Contact and friction between deforming meshes in the time-stepping residual and
//! Jacobian: every (query vertex, implicit surface) pair of the model, with candidate samples
//! found by a grid search around a reference configuration, grown by a padding. Whenever an
//! evaluation point has moved more than half the padding from the reference, the candidates are
//! found again, so no sample that enters a kernel support is ever missed (paper §6) and the
//! residual is always the exact one. The Jacobian pattern comes from the candidates at the start
//! of the substep; couplings that appear later in the substep and are not in it are dropped from
//! the Jacobian (Newton then converges on the exact residual with a slightly inexact Jacobian).
//!
//! Contacts are evaluated in parallel into per-contact buffers and summed serially in contact
//! order, so results do not depend on the thread count.

use crate::contact::law::FrictionCoupling;
use crate::contact::surface::grid::SampleGrid;
use crate::contact::surface::stencil_force::{self, GapMeasure, LaggedSurfaceFriction, StencilForce};
use crate::contact::surface::{first_order, potential, surface, ImplicitSurface, Kernel};
use crate::contact::ContactLaw;
use crate::math::real::Real;
use crate::model::SurfaceQuery;
use crate::solve::pattern::BlockPattern;
use rayon::prelude::*;

mod merit;

use merit::lagged_friction;

/// Contacts whose Jacobians are computed at once (bounds the memory of the dense blocks).
const JACOBIAN_CHUNK: usize = 512;

/// A query vertex near a surface, with the samples that may reach it.
#[derive(Clone, Debug)]
struct Candidate {
    /// Index into the queries.
    query: usize,
    /// Sample indices of the surface, increasing.
    samples: Vec<u32>,
}

/// The deforming-surface contacts of one substep.
pub struct SurfaceTerms<'a> {
    law: ContactLaw,
    kernel: Kernel,
    surfaces: &'a [ImplicitSurface],
    queries: &'a [SurfaceQuery],
    q_start: &'a [f64],
    padding: f64,
    /// Positions the candidates were found at.
    reference: Vec<f64>,
    candidates: Vec<Candidate>,
    /// Per query: the side (±1) of a two-sided surface the vertex started on; 0 until known.
    side: Vec<f64>,
    /// Per query: friction frozen at the start (lagged coupling only).
    lagged: Vec<Option<LaggedSurfaceFriction>>,
    /// Vertices whose motion can change the candidates.
    tracked: Vec<u32>,
    /// How many times the candidates were found again within the substep.
    pub refreshes: u32,
    /// Seconds spent finding candidates.
    pub seconds_search: f64,
    /// Jacobians use the negative semi-definite part of the penalty's force Jacobian (the
    /// modified Newton Jacobian, see `NonlinearSystem::set_definite`).
    pub definite: bool,
    /// Friction frozen by the last [`Term::freeze_friction`](super::term::Term::freeze_friction), with each contact's μ.
    frozen: Vec<(f64, LaggedSurfaceFriction)>,
}

fn position(q: &[f64], v: u32) -> [f64; 3] {
    let i = 3 * v as usize;
    [q[i], q[i + 1], q[i + 2]]
}

impl<'a> SurfaceTerms<'a> {
    /// Sets up the substep starting at `q_start`, with candidates around `q_guess` (Newton's
    /// initial guess) within kernel radius + `padding` (m).
    pub fn new(
        law: ContactLaw,
        kernel: Kernel,
        surfaces: &'a [ImplicitSurface],
        queries: &'a [SurfaceQuery],
        q_start: &'a [f64],
        q_guess: &[f64],
        padding: f64,
    ) -> Self {
        let mut tracked: Vec<u32> = queries.iter().map(|q| q.vertex).collect();
        let mut with_queries = vec![false; surfaces.len()];
        queries.iter().for_each(|q| with_queries[q.surface as usize] = true);
        for (s, _) in with_queries.iter().enumerate().filter(|(_, w)| **w) {
            tracked.extend(surfaces[s].triangles.iter().flatten());
        }
        tracked.sort_unstable();
        tracked.dedup();
        let lagged = if law.coupling == FrictionCoupling::Lagged {
            lagged_friction(&law, kernel, surfaces, queries, q_start)
        } else {
            vec![None; queries.len()]
        };
        let mut terms = Self {
            law,
            kernel,
            surfaces,
            queries,
            q_start,
            padding,
            reference: Vec::new(),
            candidates: Vec::new(),
            side: vec![0.0; queries.len()],
            lagged,
            tracked,
            refreshes: 0,
            seconds_search: 0.0,
            definite: false,
            frozen: Vec::new(),
        };
        terms.find_candidates(q_guess);
        terms
    }

    /// The gap measure of query `k`: its side and offset.
    fn measure(&self, k: usize) -> GapMeasure {
        GapMeasure { side: self.side[k], offset: self.queries[k].offset }
    }

    /// The background value φ₀ of query `k`'s potential: its surface's far gap on the side the
    /// query is on (negative on the back of a two-sided surface), so the gap blends to +far.
    fn far(&self, k: usize) -> f64 {
        let side = if self.side[k] == 0.0 { 1.0 } else { self.side[k] };
        side * self.surfaces[self.queries[k].surface as usize].far
    }

    /// Finds the candidates again when `q` has moved more than half the padding from the
    /// reference (then no sample within a support can have been missed).
    pub fn ensure_fresh(&mut self, q: &[f64]) {
        let limit = 0.25 * self.padding * self.padding;
        let stale = self.tracked.iter().any(|&v| {
            let (a, b) = (position(q, v), position(&self.reference, v));
            (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>() > limit
        });
        if stale {
            self.refreshes += 1;
            self.find_candidates(q);
        }
    }

    fn find_candidates(&mut self, q: &[f64]) {
        let started = std::time::Instant::now();
        self.reference = q.to_vec();
        let mut candidates = Vec::new();
        let mut start = 0;
        while start < self.queries.len() {
            let s = self.queries[start].surface as usize;
            let end = start + self.queries[start..].iter().take_while(|x| x.surface as usize == s).count();
            let surface = &self.surfaces[s];
            let grid = SampleGrid::new(
                (0..surface.triangles.len()).map(|i| surface.centroid(i, q)).collect(),
                surface.radius.iter().map(|r| r + self.padding).collect(),
            );
            let found: Vec<Candidate> = (start..end)
                .into_par_iter()
                .filter_map(|k| {
                    let samples = grid.query(&position(q, self.queries[k].vertex));
                    (!samples.is_empty()).then_some(Candidate { query: k, samples })
                })
                .collect();
            candidates.extend(found);
            start = end;
        }
        for c in &candidates {
            let query = &self.queries[c.query];
            let surface = &self.surfaces[query.surface as usize];
            if self.side[c.query] == 0.0 {
                self.side[c.query] =
                    if surface.two_sided { start_side(self.surfaces, query, &c.samples, self.q_start) } else { 1.0 };
            }
        }
        self.candidates = candidates;
        self.seconds_search += started.elapsed().as_secs_f64();
    }

    /// The vertex groups whose blocks the Jacobian may couple: per candidate, the query vertex
    /// and every vertex of its samples; per lagged friction, its frozen stencil.
    pub fn stencils(&self) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = self
            .candidates
            .iter()
            .map(|c| {
                let q = &self.queries[c.query];
                let tris = &self.surfaces[q.surface as usize].triangles;
                let mut s = vec![q.vertex];
                s.extend(c.samples.iter().flat_map(|&i| tris[i as usize]));
                s.sort_unstable();
                s.dedup();
                s
            })
            .collect();
        out.extend(self.lagged.iter().flatten().map(|l| l.stencil.clone()));
        out
    }

    /// Penalty and implicit friction of candidate `c` at end positions `q`, and the lagged
    /// friction of query `c.query` if any.
    fn evaluate(&self, c: &Candidate, q: &[f64], v: &[f64], h: f64, jacobian: bool) -> Option<StencilForce> {
        let query = &self.queries[c.query];
        let surface = &self.surfaces[query.surface as usize];
        let measure = self.measure(c.query);
        // Second derivatives only for the exact Jacobian of a contact inside the band d < δ.
        let second = |phi: f64| jacobian && !self.definite && measure.gap(phi) < self.law.delta;
        let pot =
            potential::evaluate_where(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query), second)?;
        let implicit = self.law.coupling != FrictionCoupling::Lagged;
        stencil_force::end_of_step_force(&self.law, query.mu, &pot, measure, v, h, implicit, jacobian, self.definite)
    }

    /// Every contribution at `q`, `v`: candidates' penalty (and implicit friction) first, then
    /// lagged frictions, each in order.
    fn contributions(
        &self,
        range: std::ops::Range<usize>,
        q: &[f64],
        v: &[f64],
        h: f64,
        jacobian: bool,
    ) -> Vec<Option<StencilForce>> {
        let lagged: Vec<(usize, &LaggedSurfaceFriction)> =
            self.lagged.iter().enumerate().filter_map(|(k, l)| l.as_ref().map(|l| (k, l))).collect();
        let total = self.candidates.len() + lagged.len();
        (range.start..range.end.min(total))
            .into_par_iter()
            .map(|i| match self.candidates.get(i) {
                Some(c) => self.evaluate(c, q, v, h, jacobian),
                None => {
                    let (k, l) = lagged[i - self.candidates.len()];
                    let mu = self.queries[k].mu;
                    (mu > 0.0).then(|| stencil_force::lagged_friction_force(&self.law, mu, l, v, jacobian))
                }
            })
            .collect()
    }

    fn contribution_count(&self) -> usize {
        self.candidates.len() + self.lagged.iter().flatten().count()
    }

    /// out −= scale · F(q, v) over all contacts, over [`Real`] (`f64` for the residual, dual
    /// numbers for matrix-free Jacobian products). Candidates must be fresh for the values of `q`
    /// (see [`SurfaceTerms::ensure_fresh`]).
    pub fn add_forces<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        let implicit = self.law.coupling != FrictionCoupling::Lagged;
        let penalty: Vec<Option<(Vec<u32>, Vec<T>)>> = self
            .candidates
            .par_iter()
            .map(|c| {
                let query = &self.queries[c.query];
                let surface = &self.surfaces[query.surface as usize];
                let pot = first_order::evaluate(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query))?;
                let f = stencil_force::stencil_force(&self.law, query.mu, &pot, self.measure(c.query), v, implicit)?;
                Some((pot.stencil, f))
            })
            .collect();
        let lagged: Vec<(&[u32], Vec<T>)> = self
            .lagged
            .par_iter()
            .enumerate()
            .filter_map(|(k, l)| {
                let (l, mu) = (l.as_ref()?, self.queries[k].mu);
                (mu > 0.0).then(|| (l.stencil.as_slice(), stencil_force::lagged_friction_generic(&self.law, mu, l, v)))
            })
            .collect();
        let all = penalty.iter().flatten().map(|(s, f)| (s.as_slice(), f)).chain(lagged.iter().map(|(s, f)| (*s, f)));
        for (stencil, force) in all {
            for (a, &vertex) in stencil.iter().enumerate() {
                for k in 0..3 {
                    out[3 * vertex as usize + k] -= force[3 * a + k] * scale;
                }
            }
        }
    }

    /// jac −= scale · dF/dv over all contacts, into `pattern`'s values, skipping fixed
    /// vertices; returns how many blocks were dropped because the pattern lacks them.
    #[allow(clippy::too_many_arguments)]
    pub fn add_jacobian(
        &self,
        q: &[f64],
        v: &[f64],
        h: f64,
        scale: f64,
        fixed: &[bool],
        pattern: &BlockPattern,
        jac: &mut [f64],
    ) -> u32 {
        let mut dropped = 0;
        let total = self.contribution_count();
        for start in (0..total).step_by(JACOBIAN_CHUNK) {
            for f in self.contributions(start..start + JACOBIAN_CHUNK, q, v, h, true).into_iter().flatten() {
                if let Some(m) = &f.jacobian {
                    dropped += pattern.add_stencil_matrix(&f.stencil, |i, j| m[(i, j)], -scale, fixed, jac);
                }
            }
        }
        dropped
    }

    /// The smallest gap (m) at `q` over contacts with a free vertex (∞ without contacts), and
    /// how many contacts are within the contact thickness.
    pub fn gap_summary(&self, q: &[f64], fixed: &[bool]) -> (f64, u32) {
        let gaps: Vec<Option<f64>> = self
            .candidates
            .par_iter()
            .map(|c| {
                let query = &self.queries[c.query];
                let surface = &self.surfaces[query.surface as usize];
                let free = !fixed[query.vertex as usize]
                    || c.samples.iter().any(|&i| surface.triangles[i as usize].iter().any(|&v| !fixed[v as usize]));
                if !free {
                    return None;
                }
                let x = position(q, query.vertex);
                potential::value(surface, self.kernel, &x, &c.samples, q, self.far(c.query))
                    .map(|phi| self.measure(c.query).gap(phi))
            })
            .collect();
        let deepest = gaps.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        (deepest, gaps.iter().flatten().filter(|&&d| d < self.law.delta).count() as u32)
    }
}

/// |n_S · n̂| below which a solid's vertex meets a shell too obliquely for its outward normal
/// to tell the side (`start_side`).
const GRAZING: f64 = 0.3;

/// The side (±1) of a two-sided surface that `query`'s vertex is on at `q_start`. A solid's
/// vertex (`query.own_surface`) is on the side its outward normal n̂ faces away from: −sign(n_S·n̂)
/// with n_S the normal of the nearest candidate sample — whichever side of the shell's plane it
/// is on at `q_start`, since with its gap offset it may end a step past the mid-surface, and a
/// side taken from that position would then push it on through. Otherwise (and for a grazing
/// n̂) the sign of its distance to that plane (+1 on the plane).
fn start_side(surfaces: &[ImplicitSurface], query: &SurfaceQuery, samples: &[u32], q_start: &[f64]) -> f64 {
    let surface = &surfaces[query.surface as usize];
    let x = position(q_start, query.vertex);
    let nearest = samples.iter().min_by(|&&a, &&b| {
        let da = surface::dist(&surface.centroid(a as usize, q_start), &x);
        let db = surface::dist(&surface.centroid(b as usize, q_start), &x);
        da.total_cmp(&db)
    });
    let Some(&i) = nearest else { return 1.0 };
    let d = surface.plane_distance(i as usize, &x, q_start);
    let outward = query.own_surface.and_then(|o| surfaces[o as usize].vertex_normal(query.vertex, q_start));
    if let Some(n) = outward {
        let along = surface.plane_distance(i as usize, &[x[0] + n[0], x[1] + n[1], x[2] + n[2]], q_start) - d;
        if along.abs() > GRAZING {
            return if along > 0.0 { -1.0 } else { 1.0 };
        }
    }
    if d < 0.0 {
        -1.0
    } else {
        1.0
    }
}
