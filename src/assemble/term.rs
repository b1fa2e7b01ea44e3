//! The interface every term of the implicit stage implements: elastic energies, Rayleigh
//! damping, volume penalties, and contact with friction against colliders, deforming surfaces
//! and the shells themselves.
//!
//! A term contributes to the stage's residual r(v) = M(v − v̂) − e − h f(q̂ + h v, v) through its
//! share of −f (paper Eq. 23), to the merit Φ(v) through its energy and (frozen) dissipation
//! potential, and to the Jacobian J(v) = ∂r/∂v through its blocks. Forces are written over
//! [`Real`] so that the same code gives the residual (`f64`) and exact Jacobian products (dual
//! numbers, paper §4.3). Dispatch is static: the stage holds its terms in
//! [`super::terms::Terms`], one field per kind, since generic methods rule out trait objects.

use super::layout::SystemLayout;
use crate::math::real::Real;

/// What every term sees of the stage it belongs to.
pub struct StageContext<'a> {
    /// Base positions q̂ (m): the stage's positions are q = q̂ + h v.
    pub q_start: &'a [f64],
    /// Effective step h (s).
    pub h: f64,
    /// Per vertex: velocity prescribed (pinned); their rows and columns are left out of J.
    pub fixed: &'a [bool],
    /// Pattern and per-element slots of the Jacobian.
    pub layout: &'a SystemLayout,
    /// Elastic Hessians replaced by positive semi-definite stand-ins (the modified Newton
    /// Jacobian far from the solution).
    pub definite: bool,
}

/// One term of the implicit stage.
pub trait Term: Send + Sync {
    /// Gathers contact candidates again where positions `q` (m) need it (a no-op for terms
    /// with a fixed stencil list).
    fn refresh(&mut self, _q: &[f64]) {}

    /// out += scale · (−f), the term's negative force (N) at positions `q` (m) and velocities
    /// `v` (m/s), over any [`Real`]; candidates must be fresh for `q` (see [`Term::refresh`]).
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]);

    /// The term's share of the merit Φ (J) at q = q̂ + h v: its energy, plus h times its
    /// dissipation potential (friction with the sliding basis and normal force frozen by the last
    /// [`Term::freeze_friction`]), so that ∇_v of the sum is the residual.
    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64;

    /// Freezes the friction's sliding basis and normal force at positions `q` (m) for
    /// [`Term::merit`] (a no-op for terms without friction).
    fn freeze_friction(&mut self, _q: &[f64]) {}

    /// Chooses between the exact Jacobian blocks and positive semi-definite stand-ins, for
    /// terms that keep the choice themselves (others read [`StageContext::definite`]).
    fn set_definite(&mut self, _definite: bool) {}

    /// jac += the term's blocks of J = ∂r/∂v at velocities `v` (m/s), positions `q`, into the
    /// layout's values (rows and columns of fixed vertices left out); returns how many blocks
    /// were left out because the pattern lacks them.
    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32;
}
