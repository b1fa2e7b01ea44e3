//! The implicit stage's nonlinear system assembled from its terms (paper Eq. 23, 24): residual,
//! merit, Jacobian and Jacobian products, each term summed over its stencils — elastic
//! elements, volume penalties, and every kind of contact ([`contact`]) — and the linear
//! system's layout.

pub mod contact;
pub mod element_terms;
pub mod layout;
pub mod scatter;
pub mod stage;
pub mod term;
pub mod terms;
pub mod volume_terms;

pub use element_terms::DampingMatrices;
pub use layout::SystemLayout;
pub use stage::ImplicitStage;
