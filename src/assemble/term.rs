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

    /// jac += the term's blocks of J = ∂r/∂v at velocities `v` (m/s), positions `q`, into the
    /// layout's values (rows and columns of fixed vertices left out); returns how many blocks
    /// were left out because the pattern lacks them.
    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32;

    /// The smallest gap (m) at positions `q` and how many contacts are active, for a term that
    /// reports gaps (contact with colliders, collider meshes and deforming surfaces; `fixed`
    /// vertices per vertex); `None` for the others.
    fn gaps(&mut self, _q: &[f64], _fixed: &[bool]) -> Option<(f64, u32)> {
        None
    }

    /// The smallest distance (m) at `q` between two shells' primitives in contact, whose
    /// unsigned distance's kink at 0 Newton's line search cannot cross; `None` without one.
    fn closest_shell_pair(&mut self, _q: &[f64]) -> Option<f64> {
        None
    }

    /// How many triangle pairs of shells intersect at `q` (m), for a term that counts them
    /// (Newton's line search refuses steps that add any).
    fn intersections(&self, _q: &[f64]) -> Option<usize> {
        None
    }

    /// Groups of vertices whose blocks the term couples beyond the elements' (the Jacobian's
    /// pattern must hold them).
    fn stencils(&self) -> Vec<Vec<u32>> {
        Vec::new()
    }

    /// Seconds the term spent finding contact candidates.
    fn seconds_search(&self) -> f64 {
        0.0
    }

    /// Whether any contact of the term can have friction (μ > 0).
    fn has_friction(&self) -> bool {
        false
    }

    /// Dense low-rank parts of the Jacobian kept out of its pattern, as (c, u) pairs standing for
    /// c u uᵀ, at positions `q` (m) with `scale` on c, rows of `fixed` vertices zero.
    fn low_rank(&self, _q: &[f64], _scale: f64, _fixed: &[bool]) -> Vec<(f64, Vec<f64>)> {
        Vec::new()
    }
}
