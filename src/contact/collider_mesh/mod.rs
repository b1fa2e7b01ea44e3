//! Contact with kinematic collider meshes by the exact distance to their triangles: each
//! simulated contact vertex meets the feature (face, edge or corner) of the mesh closest to it,
//! under the same cubic penalty and smoothed Coulomb friction as an analytic collider (paper
//! Eq. 3, 16). The answer does not depend on how the surface is tessellated: a flat floor of two
//! triangles or of a thousand slivers, an n-gon cap fanned into long thin triangles, triangles
//! far larger or smaller than the cloth's edges all give the gap of the surface itself.
//!
//! - [`topology`]: welded connectivity and closedness, built once per mesh;
//! - [`geometry`]: the mesh at one stage, with face normals and angle-weighted pseudonormals;
//! - [`patches`]: its convex patches near a point at that stage, split along concave edges;
//! - [`ridges`]: its sharp convex edges at that stage, where simulated edges meet the mesh;
//! - [`corners`]: its sharp convex vertices, where simulated triangles meet the mesh;
//! - [`search`]: a bounding-volume hierarchy over the triangles swept over the substep;
//! - [`feature`]: the signed distance to one triangle's face, edge or corner;
//! - [`point`]: one vertex's gap, normal and surface velocity as a
//!   [`crate::contact::collider::vertex::GapField`], blended across medial surfaces and across
//!   the patches' concave edges.

pub mod corners;
pub mod feature;
pub mod geometry;
pub mod patches;
pub mod point;
pub mod ridges;
pub mod search;
pub mod topology;

pub use geometry::{ClosestFeature, MeshGeometry};
pub use point::MeshPoint;
pub(crate) use point::BLEND_FRACTION;
pub use search::MeshSearch;
pub use topology::MeshTopology;

/// A mesh at rest for unit tests: its topology and its geometry at `points` (flat, m), still.
#[cfg(test)]
pub(crate) fn still_mesh(points: &[f64], triangles: &[u32]) -> (MeshTopology, MeshGeometry) {
    let p = crate::mesh::triples(points);
    let topology = MeshTopology::new(&p, &crate::mesh::triangle_list(triangles));
    let n = p.len();
    let geometry = MeshGeometry::new(&topology, p, vec![[0.0; 3]; n]);
    (topology, geometry)
}
