//! Time integration: forces and their Jacobians summed over the model, and the backward Euler
//! residual built from them.

pub mod backward_euler;
pub mod contact_terms;
pub mod element_terms;
pub mod layout;
pub mod surface_terms;

pub use backward_euler::BackwardEuler;
pub use layout::SystemLayout;
