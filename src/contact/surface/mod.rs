//! Smooth implicit contact surfaces of triangle meshes (paper §3.2, after Larionov et al. 2021):
//! a local moving-least-squares potential φ over samples at triangle centroids, with exact first
//! and second derivatives in the query point and in the surface's vertices, and the neighbour
//! search that finds the samples near a query.

pub mod first_order;
pub mod grid;
pub mod kernel;
pub mod potential;
pub mod sample;
pub mod stencil_force;
pub mod surface;

pub use kernel::Kernel;
pub use potential::{Potential, PotentialSecond};
pub use surface::ImplicitSurface;
