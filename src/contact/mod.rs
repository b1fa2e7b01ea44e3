//! Contact and friction against kinematic analytic colliders (paper §3.2–3.3, §4.4): shapes with
//! exact signed gaps, rigid poses, the penalty and smoothed Coulomb laws, and the per-vertex force
//! with its exact Jacobian. The assembly into the time-stepping residual is in
//! `crate::assemble::contact_terms`.

pub mod collider;
pub mod law;
pub mod self_contact;
pub mod surface;

pub use collider::{Pose, Shape, ShapeKind};
pub use law::{ContactLaw, FrictionCoupling, FrictionSmoothing};
