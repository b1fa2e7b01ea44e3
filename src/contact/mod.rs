//! Contact and friction (paper §3.2–3.3, §4.4), per contact: the cubic penalty and the smoothed
//! Coulomb law with its partial derivatives ([`law`]); kinematic analytic colliders with exact
//! signed gaps and rigid poses ([`collider`]); collider meshes by the exact distance to their
//! triangles ([`collider_mesh`]); the implicit surfaces of deforming meshes and the
//! forces of a vertex against them ([`surface`]); the shells' self-contact pairs and their
//! friction ([`self_contact`]); where two collider surfaces close on a vertex to less than the
//! contact thickness ([`pinch`]). Their sums into the implicit stage are in `crate::assemble`.

pub mod collider;
pub mod collider_mesh;
pub mod friction;
pub mod law;
pub mod pair;
pub mod pinch;
pub mod self_contact;
pub mod surface;

pub use collider::{Pose, Shape, ShapeKind};
pub use law::{ContactLaw, FrictionCoupling, FrictionSmoothing};
