//! A vertex against an analytic collider (paper Eq. 3, 16; `crate::contact::collider::vertex`):
//! every (contact vertex, collider) pair of the model is a one-vertex stencil, with the penalty
//! on the collider's exact signed gap and the smoothed Coulomb friction against its surface's
//! velocity. The pairs are fixed, so they are gathered once; the Jacobian has only the
//! vertices' diagonal blocks.

use super::stage::ContactStage;
use super::{position, CandidateCache, ContactKind, Frozen, JacobianStage, StencilGap, Units};
use crate::contact::collider::vertex::{self, ColliderMotion, GapField};
use crate::contact::ContactLaw;
use crate::math::real::Real;
use nalgebra::U3;
use rayon::prelude::*;

/// A potential contact: a simulated vertex against a collider, with their friction coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPair {
    /// Global vertex index.
    pub vertex: u32,
    /// Index of the collider in the stage's motions.
    pub collider: u32,
    /// Friction coefficient μ.
    pub mu: f64,
}

/// The contacts of the stage's vertices with its analytic colliders.
pub struct ColliderVertices<'a> {
    law: ContactLaw,
    motions: Vec<ColliderMotion>,
    pairs: &'a [ContactPair],
}

impl<'a> ColliderVertices<'a> {
    /// The pairs of `stage`'s analytic colliders, `None` without any.
    pub fn of(stage: &ContactStage<'a>) -> Option<Self> {
        let c = stage.colliders.as_ref().filter(|c| !c.pairs.is_empty())?;
        Some(Self { law: stage.law, motions: c.motions.clone(), pairs: c.pairs })
    }

    fn motion(&self, p: &ContactPair) -> &ColliderMotion {
        &self.motions[p.collider as usize]
    }

    /// The pair's gap (m) at positions `q`.
    fn gap_at(&self, p: &ContactPair, q: &[f64]) -> f64 {
        self.motion(p).gap(position(q, p.vertex)).0
    }

}

impl ContactKind for ColliderVertices<'_> {
    type Stencil = ContactPair;
    type Vertices = [u32; 1];
    type Values<T: Real + Send + Sync> = [T; 3];
    type Block = nalgebra::Matrix3<f64>;
    type Weights = [f64; 1];

    fn law(&self) -> &ContactLaw {
        &self.law
    }

    /// One unit that tracks no vertex: the pairs are gathered once.
    fn units(&self) -> Units {
        Units::one(Vec::new(), 0.0)
    }

    fn gather(&mut self, _units: &[usize], _q: &[f64]) -> Vec<Vec<ContactPair>> {
        vec![self.pairs.to_vec()]
    }

    fn lagged(&self, q_start: &[f64], _candidates: &CandidateCache<ContactPair>) -> Vec<Frozen<Self>> {
        self.pairs
            .par_iter()
            .filter(|p| p.mu > 0.0)
            .map(|p| self.motion(p).lagged(&self.law, p.mu, p.vertex, position(q_start, p.vertex)))
            .filter(|f| f.lambda > 0.0)
            .collect()
    }

    fn has_friction(&self) -> bool {
        self.pairs.iter().any(|p| p.mu > 0.0)
    }

    fn force<T: Real + Send + Sync>(&self, p: &ContactPair, q: &[T], v: &[T]) -> Option<([u32; 1], [T; 3])> {
        let x = position(q, p.vertex);
        (self.motion(p).gap(x.map(|t| t.re())).0 < self.law.delta).then(|| {
            ([p.vertex], vertex::force(&self.law, self.motion(p), self.stencil_mu(p.mu), x, position(v, p.vertex)))
        })
    }

    fn energy(&self, p: &ContactPair, q: &[f64]) -> f64 {
        self.law.energy(self.gap_at(p, q))
    }

    /// −h dF/dv along x = q̂ + h v, into the vertex's diagonal block.
    fn jacobian(&self, p: &ContactPair, stage: &JacobianStage, q: &[f64], v: &[f64]) -> Option<([u32; 1], Self::Block)> {
        if stage.fixed[p.vertex as usize] || !(self.gap_at(p, q) < self.law.delta) {
            return None;
        }
        let (x_base, u) = (position(stage.q_base, p.vertex), position(v, p.vertex));
        let (_, j) = vertex::force_and_jacobian_along(&self.law, self.motion(p), self.stencil_mu(p.mu), x_base, u, stage.h);
        Some(([p.vertex], j * -stage.h))
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block {
        f.jacobian(&self.law, v, U3)
    }

    fn freeze(&self, p: &ContactPair, q: &[f64]) -> Option<Frozen<Self>> {
        (p.mu > 0.0)
            .then(|| self.motion(p).frozen(&self.law, p.mu, p.vertex, position(q, p.vertex)))
            .filter(|f| f.lambda > 0.0)
    }

    fn gap(&self, p: &ContactPair, q: &[f64], fixed: &[bool]) -> Option<StencilGap> {
        if fixed[p.vertex as usize] {
            return None;
        }
        let gap = self.gap_at(p, q);
        Some(StencilGap { gap, active: gap < self.law.delta })
    }

    fn reports_gaps(&self) -> bool {
        true
    }
}
