//! What is simulated: parameters, materials, objects and the physical model assembled from them,
//! with the friction coefficient of every pair resolved once ([`friction`]), each shell's
//! self-contact settings ([`self_contact`]) and the soft pins ([`soft_pins`]).

pub mod contact_setup;
pub mod friction;
pub mod material;
pub mod objects;
pub mod params;
pub mod self_contact;
pub mod soft_pins;
pub mod volume_penalty;

pub use contact_setup::SurfaceQuery;
pub use friction::FrictionTable;
pub use material::Material;
pub use objects::{Model, Object, ObjectKind};
pub use params::{ColliderMeshContact, FailurePolicy, Integrator, SolverParams};
pub use self_contact::ObjectSelfContact;
