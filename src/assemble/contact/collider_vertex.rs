//! A vertex against an analytic collider (paper Eq. 3, 16; `crate::contact::collider::vertex`):
//! every (contact vertex, collider) pair of the model is a one-vertex stencil, with the penalty
//! on the collider's exact signed gap and the smoothed Coulomb friction against its surface's
//! velocity. The pairs are fixed, so they are gathered once; the Jacobian has only the
//! vertices' diagonal blocks.

use super::stage::ContactStage;
use super::vertex_contacts::{KinematicSurface, VertexContacts};
use super::{position, Units};
use crate::contact::collider::vertex::{ColliderMotion, FrozenVertexFriction};
use crate::contact::ContactLaw;
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

/// The analytic colliders of a stage as the kinematic surface its vertices meet.
pub struct ColliderSurfaces<'a> {
    law: ContactLaw,
    motions: Vec<ColliderMotion>,
    pairs: &'a [ContactPair],
}

/// The contacts of the stage's vertices with its analytic colliders.
pub type ColliderVertices<'a> = VertexContacts<ColliderSurfaces<'a>>;

impl<'a> VertexContacts<ColliderSurfaces<'a>> {
    /// The pairs of `stage`'s analytic colliders, `None` without any.
    pub fn of(stage: &ContactStage<'a>) -> Option<Self> {
        let c = stage.colliders.as_ref().filter(|c| !c.pairs.is_empty())?;
        Some(VertexContacts(ColliderSurfaces { law: stage.law, motions: c.motions.clone(), pairs: c.pairs }))
    }
}

impl KinematicSurface for ColliderSurfaces<'_> {
    type Stencil = ContactPair;
    type Field<'s>
        = &'s ColliderMotion
    where
        Self: 's;
    const HOLD_NORMAL: bool = false;

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

    /// Per pair with μ > 0: its friction at the substep's start, with the collider's velocity
    /// there by the forward difference of its motion.
    fn lagged(&self, q_start: &[f64]) -> Vec<FrozenVertexFriction> {
        self.pairs
            .par_iter()
            .filter(|p| p.mu > 0.0)
            .map(|p| self.motions[p.collider as usize].lagged(&self.law, p.mu, p.vertex, position(q_start, p.vertex)))
            .filter(|f| f.lambda > 0.0)
            .collect()
    }

    fn has_friction(&self) -> bool {
        self.pairs.iter().any(|p| p.mu > 0.0)
    }

    fn vertex(&self, p: &ContactPair) -> (u32, f64) {
        (p.vertex, p.mu)
    }

    fn field<'s>(&'s self, p: &'s ContactPair, _x: [f64; 3]) -> Option<&'s ColliderMotion> {
        Some(&self.motions[p.collider as usize])
    }
}
