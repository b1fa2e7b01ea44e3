//! What is simulated: parameters, materials, objects and the physical model assembled from them.

pub mod codes;
pub mod contact_setup;
pub mod material;
pub mod objects;
pub mod params;
pub mod volume_penalty;

pub use contact_setup::SurfaceQuery;
pub use material::Material;
pub use objects::{Model, Object, ObjectKind};
pub use params::{Integrator, SolverParams};
