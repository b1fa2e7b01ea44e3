//! Contact and friction forces of every (vertex, collider) pair in the time-stepping residual and
//! Jacobian. Pairs are evaluated in parallel into per-pair slots and summed serially in pair order,
//! so results do not depend on the thread count.

use super::term::{StageContext, Term};
use crate::contact::collider::vertex::{self, ColliderMotion, GapField, LaggedFriction};
use crate::contact::law::FrictionCoupling;
use crate::contact::ContactLaw;
use crate::math::real::Real;
use crate::solve::pattern::BlockSlot;
use nalgebra::Matrix3;
use rayon::prelude::*;

/// A potential contact: a simulated vertex against a collider, with their friction coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPair {
    /// Global vertex index.
    pub vertex: u32,
    /// Index of the collider in the substep's motions.
    pub collider: u32,
    /// Friction coefficient μ.
    pub mu: f64,
}

/// Everything the contact terms need for one substep.
pub struct ContactTerms<'a> {
    /// Penalty and friction laws.
    pub law: ContactLaw,
    /// Each collider's motion over the substep.
    pub motions: Vec<ColliderMotion>,
    /// The potential contacts.
    pub pairs: &'a [ContactPair],
    /// Per pair, friction frozen at the start of the substep (lagged coupling only).
    pub lagged: Vec<LaggedFriction>,
}

fn position<T: Copy>(q: &[T], i: u32) -> [T; 3] {
    let i = 3 * i as usize;
    [q[i], q[i + 1], q[i + 2]]
}

impl<'a> ContactTerms<'a> {
    /// The same pairs with every collider frozen at its start pose (`ColliderMotion::at_start`):
    /// forces at the start of the substep.
    pub fn at_start(&self) -> Self {
        let motions = self.motions.iter().map(|m| m.at_start()).collect();
        Self { law: self.law, motions, pairs: self.pairs, lagged: self.lagged.clone() }
    }

    /// Sets up the substep starting at positions `q_start`.
    pub fn new(law: ContactLaw, motions: Vec<ColliderMotion>, pairs: &'a [ContactPair], q_start: &[f64]) -> Self {
        let lagged = if law.coupling == FrictionCoupling::Lagged {
            pairs.par_iter().map(|p| motions[p.collider as usize].lagged(&law, position(q_start, p.vertex))).collect()
        } else {
            Vec::new()
        };
        Self { law, motions, pairs, lagged }
    }

    fn lagged(&self, pair: usize) -> Option<&LaggedFriction> {
        self.lagged.get(pair)
    }

    /// out −= scale · F(q, v) for every pair (F: contact plus friction force on the vertex), over
    /// [`Real`] (`f64` for the residual, dual numbers for matrix-free Jacobian products).
    pub fn add_forces<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        let forces: Vec<Option<[T; 3]>> = (0..self.pairs.len())
            .into_par_iter()
            .map(|k| {
                let p = &self.pairs[k];
                let m = &self.motions[p.collider as usize];
                let x = position(q, p.vertex);
                vertex::is_active(&self.law, m, p.mu, self.lagged(k), x.map(|t| t.re()))
                    .then(|| vertex::force(&self.law, m, p.mu, self.lagged(k), x, position(v, p.vertex)))
            })
            .collect();
        for (p, f) in self.pairs.iter().zip(&forces) {
            if let Some(f) = f {
                for k in 0..3 {
                    out[3 * p.vertex as usize + k] -= f[k] * scale;
                }
            }
        }
    }

    /// jac −= scale · dF/dv for every pair, into the vertices' diagonal blocks (fixed vertices
    /// skipped). `q_base` and `dxdv` (s) define x = q_base + dxdv · v.
    #[allow(clippy::too_many_arguments)]
    pub fn add_jacobian(
        &self,
        q_base: &[f64],
        q: &[f64],
        v: &[f64],
        dxdv: f64,
        scale: f64,
        fixed: &[bool],
        diagonal: &[BlockSlot],
        jac: &mut [f64],
    ) {
        let blocks: Vec<Option<Matrix3<f64>>> = (0..self.pairs.len())
            .into_par_iter()
            .map(|k| {
                let p = &self.pairs[k];
                let m = &self.motions[p.collider as usize];
                if fixed[p.vertex as usize]
                    || !vertex::is_active(&self.law, m, p.mu, self.lagged(k), position(q, p.vertex))
                {
                    return None;
                }
                let (_, j) = vertex::force_and_jacobian_along(
                    &self.law,
                    m,
                    p.mu,
                    self.lagged(k),
                    position(q_base, p.vertex),
                    position(v, p.vertex),
                    dxdv,
                );
                Some(j)
            })
            .collect();
        for (p, b) in self.pairs.iter().zip(&blocks) {
            if let Some(b) = b {
                let slot = diagonal[p.vertex as usize];
                for col in 0..3u32 {
                    for row in 0..3u32 {
                        jac[(slot.start + col * slot.stride + row) as usize] -= scale * b[(row as usize, col as usize)];
                    }
                }
            }
        }
    }

    /// Friction of every pair frozen at end positions `q` for the Newton merit function (see
    /// `BackwardEuler::merit`): the implicit coupling's normal, force and collider velocity at
    /// `q`, or the lagged data of lagged coupling; `None` for pairs without friction.
    pub fn frozen_friction(&self, q: &[f64]) -> Vec<Option<LaggedFriction>> {
        (0..self.pairs.len())
            .into_par_iter()
            .map(|k| {
                let p = &self.pairs[k];
                let frozen = match self.lagged(k) {
                    Some(l) => *l,
                    None => self.motions[p.collider as usize].frozen(&self.law, position(q, p.vertex)),
                };
                (p.mu > 0.0 && frozen.lambda > 0.0).then_some(frozen)
            })
            .collect()
    }

    /// Σ b(d) at end positions `q` plus `h` Σ D(v) of the friction frozen in `frozen` (J): the
    /// contact part of the merit function.
    pub fn potential(&self, q: &[f64], v: &[f64], h: f64, frozen: &[Option<LaggedFriction>]) -> f64 {
        let terms: Vec<f64> = (0..self.pairs.len())
            .into_par_iter()
            .map(|k| {
                let p = &self.pairs[k];
                let mut e = self.law.energy(self.motions[p.collider as usize].gap(position(q, p.vertex)).0);
                if let Some(Some(f)) = frozen.get(k) {
                    let vv = position(v, p.vertex);
                    let v_rel = [0, 1, 2].map(|i| vv[i] - f.collider_velocity[i]);
                    e += h * self.law.friction_potential(p.mu, f.lambda, f.normal, v_rel);
                }
                e
            })
            .collect();
        terms.iter().sum()
    }

    /// The smallest gap (m) over pairs of free vertices at end positions `q` (∞ without pairs),
    /// and how many pairs are within the contact thickness.
    pub fn gap_summary(&self, q: &[f64], fixed: &[bool]) -> (f64, u32) {
        let gaps: Vec<f64> = self
            .pairs
            .par_iter()
            .filter(|p| !fixed[p.vertex as usize])
            .map(|p| self.motions[p.collider as usize].gap(position(q, p.vertex)).0)
            .collect();
        let deepest = gaps.iter().copied().fold(f64::INFINITY, f64::min);
        (deepest, gaps.iter().filter(|&&d| d < self.law.delta).count() as u32)
    }
}

/// Contact and friction against analytic colliders as a stage term: −f = −F_c (paper Eq. 3, 16),
/// merit Σ b(d) + h Σ D_f with friction frozen by [`Term::freeze_friction`], Jacobian −h ∂F_c/∂v
/// into the vertices' diagonal blocks.
pub struct ColliderContact<'a> {
    terms: &'a ContactTerms<'a>,
    frozen: Vec<Option<LaggedFriction>>,
}

impl<'a> ColliderContact<'a> {
    /// The term of the substep's `terms`.
    pub fn new(terms: &'a ContactTerms<'a>) -> Self {
        Self { terms, frozen: Vec::new() }
    }
}

impl Term for ColliderContact<'_> {
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        self.terms.add_forces(q, v, scale, out);
    }

    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
        self.terms.potential(q, v, stage.h, &self.frozen)
    }

    fn freeze_friction(&mut self, q: &[f64]) {
        self.frozen = self.terms.frozen_friction(q);
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
        let diagonal = &stage.layout.diagonal_slots;
        self.terms.add_jacobian(stage.q_start, q, v, stage.h, stage.h, stage.fixed, diagonal, jac);
        0
    }
}
