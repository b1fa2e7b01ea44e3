//! The implicit stage's nonlinear system assembled from the model's terms: residual, merit,
//! Jacobian and Jacobian products (paper Eq. 23, 24), with each kind of term (elastic elements,
//! volume penalties, contact against colliders, collider meshes, deforming surfaces and self-contact) summed over
//! its stencils, and the linear system's layout.

pub mod contact_terms;
pub mod element_terms;
pub mod layout;
pub mod mesh_contact_terms;
pub mod self_contact_terms;
pub mod stage;
pub mod surface_terms;
pub mod term;
pub mod terms;
pub mod volume_terms;

pub use element_terms::DampingMatrices;
pub use layout::SystemLayout;
pub use stage::{BackwardEuler, ImplicitStage};
