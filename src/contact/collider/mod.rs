//! Kinematic analytic colliders: shapes with exact signed gaps ([`shape`]), rigid poses
//! ([`pose`]), and one vertex's contact and friction force against a moving collider with its
//! exact Jacobian ([`vertex`]).

pub mod pose;
pub mod shape;
pub mod vertex;

pub use pose::Pose;
pub use shape::{Shape, ShapeKind};
