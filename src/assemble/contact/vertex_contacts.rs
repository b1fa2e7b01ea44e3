//! A vertex against a kinematic surface met through a gap field
//! (`crate::contact::collider::vertex::GapField`): the penalty b(d) on the signed gap (paper
//! Eq. 3) and the smoothed Coulomb friction against the surface's prescribed velocity (Eq. 16,
//! 23), on a one-vertex stencil, whose Jacobian is the vertex's diagonal block. What the surface
//! is — an analytic collider on its path (`super::collider_vertex`), a collider mesh's closest
//! features (`super::mesh_vertex`) — and how its stencils are gathered is a
//! [`KinematicSurface`]; [`VertexContacts`] is the contact kind of any of them.

use super::{position, CandidateCache, ContactKind, Frozen, JacobianBlock, JacobianStage, StencilGap, Units};
use crate::contact::collider::vertex::{self, FrozenVertexFriction, GapField};
use crate::contact::collider_mesh::point::HeldNormal;
use crate::contact::ContactLaw;
use crate::math::real::Real;
use nalgebra::{Matrix3, U3};

/// A kinematic surface that vertices meet: its stencils and the gap field each meets.
pub trait KinematicSurface: Send + Sync {
    /// A candidate contact of one vertex.
    type Stencil: Send + Sync;
    /// The gap field a stencil meets.
    type Field<'s>: GapField
    where
        Self: 's;
    /// Whether Newton's modified Jacobian holds the gap's normal and the surface's velocity
    /// ([`HeldNormal`]): where the normal turns over a length equal to the gap (a mesh's convex
    /// edges and corners), that turning makes the exact Jacobian indefinite.
    const HOLD_NORMAL: bool;

    /// The penalty and friction law.
    fn law(&self) -> &ContactLaw;
    /// The gather units (see [`ContactKind::units`]).
    fn units(&self) -> Units;
    /// The stencils of `units` at positions `q` (m).
    fn gather(&mut self, units: &[usize], q: &[f64]) -> Vec<Vec<Self::Stencil>>;
    /// The friction of every vertex frozen at the substep's start `q_start` (m), those with μ = 0
    /// or no normal force left out (lagged coupling, paper Eq. 25).
    fn lagged(&self, q_start: &[f64]) -> Vec<FrozenVertexFriction>;
    /// Whether any contact can have friction.
    fn has_friction(&self) -> bool;
    /// The stencil's vertex and friction coefficient μ.
    fn vertex(&self, stencil: &Self::Stencil) -> (u32, f64);
    /// The gap field `stencil` meets near `x` (m); `None` when none is near.
    fn field<'s>(&'s self, stencil: &'s Self::Stencil, x: [f64; 3]) -> Option<Self::Field<'s>>;
}

/// The contacts of vertices with a kinematic surface `S`.
pub struct VertexContacts<S>(pub S);

impl<S: KinematicSurface> VertexContacts<S> {
    /// The stencil's vertex, μ and field at positions `q` (m) when it exerts a penalty there
    /// (d < δ).
    fn active<'s>(&'s self, s: &'s S::Stencil, q: &[f64]) -> Option<(u32, f64, [f64; 3], S::Field<'s>)> {
        let (vertex, mu) = self.0.vertex(s);
        let x = position(q, vertex);
        let field = self.0.field(s, x)?;
        (field.gap(x).0 < self.0.law().delta).then_some((vertex, mu, x, field))
    }
}

impl<S: KinematicSurface> ContactKind for VertexContacts<S> {
    type Stencil = S::Stencil;
    type Vertices = [u32; 1];
    type Values<T: Real + Send + Sync> = [T; 3];
    type Block = Matrix3<f64>;
    type Weights = [f64; 1];

    fn law(&self) -> &ContactLaw {
        self.0.law()
    }

    fn units(&self) -> Units {
        self.0.units()
    }

    fn gather(&mut self, units: &[usize], q: &[f64]) -> Vec<Vec<S::Stencil>> {
        self.0.gather(units, q)
    }

    fn lagged(&self, q_start: &[f64], _candidates: &CandidateCache<S::Stencil>) -> Vec<Frozen<Self>> {
        self.0.lagged(q_start)
    }

    fn has_friction(&self) -> bool {
        self.0.has_friction()
    }

    /// λn plus, with implicit coupling, the friction −μλ η(v̄), within the contact thickness.
    fn force<T: Real + Send + Sync>(&self, s: &S::Stencil, q: &[T], v: &[T]) -> Option<([u32; 1], [T; 3])> {
        let (vertex, mu) = self.0.vertex(s);
        let x = position(q, vertex);
        let re = x.map(|t| t.re());
        let field = self.0.field(s, re)?;
        (field.gap(re).0 < self.law().delta)
            .then(|| ([vertex], vertex::force(self.law(), &field, self.stencil_mu(mu), x, position(v, vertex))))
    }

    fn energy(&self, s: &S::Stencil, q: &[f64]) -> f64 {
        self.active(s, q).map_or(0.0, |(_, _, x, field)| self.law().energy(field.gap(x).0))
    }

    /// −h dF/dv along x = q̂ + h v into the vertex's diagonal block; with the normal held when
    /// definite where the surface asks for it.
    fn jacobian(&self, s: &S::Stencil, stage: &JacobianStage, q: &[f64], v: &[f64]) -> Option<JacobianBlock<Self>> {
        let (vertex, mu, x, field) = self.active(s, q)?;
        if stage.fixed[vertex as usize] {
            return None;
        }
        let (x_base, u, mu) = (position(stage.q_base, vertex), position(v, vertex), self.stencil_mu(mu));
        let (_, j) = if stage.definite && S::HOLD_NORMAL {
            vertex::force_and_jacobian_along(self.law(), &HeldNormal::at(&field, x), mu, x_base, u, stage.h)
        } else {
            vertex::force_and_jacobian_along(self.law(), &field, mu, x_base, u, stage.h)
        };
        Some(([vertex], j, -stage.h))
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Matrix3<f64> {
        f.jacobian(self.law(), v, U3)
    }

    fn freeze(&self, s: &S::Stencil, q: &[f64]) -> Option<Frozen<Self>> {
        let (vertex, mu, x, field) = self.active(s, q).filter(|a| a.1 > 0.0)?;
        Some(field.frozen(self.law(), mu, vertex, x)).filter(|f| f.lambda > 0.0)
    }

    /// The gap of a free vertex's contact.
    fn gap(&self, s: &S::Stencil, q: &[f64], fixed: &[bool]) -> Option<StencilGap> {
        let (vertex, _) = self.0.vertex(s);
        if fixed[vertex as usize] {
            return None;
        }
        let x = position(q, vertex);
        let gap = self.0.field(s, x)?.gap(x).0;
        Some(StencilGap { gap, active: gap < self.law().delta })
    }

    fn reports_gaps(&self) -> bool {
        true
    }
}
