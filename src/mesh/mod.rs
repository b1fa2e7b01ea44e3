//! Mesh topology: input validation, shell hinges, boundary surfaces of tet meshes, the exact
//! triangle–triangle intersection checker.

pub mod boundary;
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

/// Flat coordinates (3 per vertex, in m) as points.
pub(crate) fn triples(flat: &[f64]) -> Vec<[f64; 3]> {
    flat.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}
