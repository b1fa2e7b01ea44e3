//! Mesh topology: input validation, shell hinges, boundary surfaces of tet meshes, the exact
//! triangle–triangle intersection checker, a bounding-volume hierarchy.

pub mod boundary;
pub(crate) mod bvh;
pub mod closest_point;
pub mod generate;
pub mod hinges;
pub mod intersection;
pub(crate) mod intersection_grid;
pub(crate) mod predicates;
pub mod pseudonormal;
pub mod shapes;
pub mod tetrahedralize;
pub mod validate;

pub use boundary::boundary_triangles;
pub use hinges::interior_hinges;
pub use intersection::{intersecting_pairs, intersecting_pairs_between};
pub use validate::{validate_positions, validate_tets, validate_triangles, MeshError};

/// Flat corner indices (3 per triangle) as triangles.
#[cfg(test)]
pub(crate) fn triangle_list(flat: &[u32]) -> Vec<[u32; 3]> {
    flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
}

/// Flat coordinates (3 per vertex, in m) as points.
pub(crate) fn triples(flat: &[f64]) -> Vec<[f64; 3]> {
    flat.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}
