//! Time integration: forces and their Jacobians summed over the model, the implicit stage built
//! from them (backward Euler is one stage), and the schemes that chain stages.

pub mod backward_euler;
pub mod contact_terms;
pub mod element_terms;
pub mod layout;
pub mod schemes;
pub mod self_contact_mesh;
pub mod self_contact_terms;
pub mod shell_solid;
pub mod stage;
pub mod surface_terms;
pub mod volume_terms;

pub use backward_euler::BackwardEuler;
pub use layout::SystemLayout;
pub use stage::ImplicitStage;
