//! Contact and friction against kinematic analytic colliders (paper §3.2–3.3, §4.4): shapes with
//! exact signed gaps, rigid poses, the penalty and smoothed Coulomb laws, and the per-vertex force
//! with its exact Jacobian. The assembly into the time-stepping residual is in
//! `crate::integrate::contact_terms`.

pub mod implicit;
pub mod law;
pub mod pose;
pub mod shape;
pub mod surface_contact;
pub mod vertex_collider;

pub use law::ContactLaw;
pub use pose::Pose;
pub use shape::{GripShape, Shape};
