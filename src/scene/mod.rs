//! What is simulated: parameters, materials, objects and the physical model assembled from them.

pub mod material;
pub mod model;
pub mod params;

pub use material::GripMaterial;
pub use model::{Model, Object, ObjectKind};
pub use params::GripSolverParams;
