//! Exact triangle–triangle intersection checker for triangle meshes (shells, boundary surfaces,
//! collider meshes): which pairs of triangles intersect, decided from the exact signs of
//! Shewchuk's adaptive orientation predicates (`predicates.rs`, the `robust` crate) with no
//! tolerance, after a uniform-grid broad phase (`intersection_grid.rs`). Used by tests and by
//! the `intersecting_pairs` column of `grip`'s `stats.csv`. Positions are in metres; the answer
//! does not depend on the unit (it is invariant under scaling by powers of two, and exact).
//!
//! # What counts as intersecting
//! Triangles are closed sets (boundary included). For two triangles of one mesh, by the
//! vertices (indices) they share:
//! - **none**: they intersect iff they share a point; touching at a single point or along a
//!   segment counts (a vertex on the other's face, crossing edges, coplanar triangles meeting
//!   at a corner), a gap of any positive size does not;
//! - **one vertex v**: iff they share a point other than v (an edge of one passes through or
//!   touches the other, or they overlap in a common plane around v); a fan of triangles about
//!   v, at any angles, is not reported;
//! - **an edge**: iff they are coplanar and their third vertices lie strictly on the same side
//!   of the shared edge (the cloth folded flat onto itself); a hinge at any dihedral angle,
//!   flat (180°) included, is not reported;
//! - **all three vertices** (a duplicated triangle): always.
//!
//! Triangles of two different meshes share no vertex and follow the first rule. The neighbour
//! rules assume non-degenerate triangles with three distinct vertices (as
//! [`super::validate_triangles`] and the solver require); a zero-area triangle is tested
//! exactly as the union of its edges against a non-degenerate one, and two zero-area triangles
//! are never reported. A triangle with a non-finite coordinate is never reported.

use super::intersection_grid::{candidate_pairs, Box3};
use super::predicates::{meet_beyond_edge, meet_beyond_vertex, triangles_meet, P3};
use rayon::prelude::*;

/// Whether triangles `t` and `u` (vertex indices into `positions` in m) of one mesh intersect,
/// with the rules for neighbours of the module documentation (shared vertex: only if they also
/// meet elsewhere; shared edge: only if folded flat onto each other). Exact. Indices must be in
/// range.
pub fn triangles_intersect(positions: &[[f64; 3]], t: [u32; 3], u: [u32; 3]) -> bool {
    let p = |v: u32| positions[v as usize];
    let shared: Vec<(usize, usize)> =
        (0..3).flat_map(|i| (0..3).filter(move |&j| t[i] == u[j]).map(move |j| (i, j))).collect();
    match shared.as_slice() {
        [] => triangles_meet(t.map(p), u.map(p)),
        &[(i, j)] => {
            let (a, b) = (t[(i + 1) % 3], t[(i + 2) % 3]);
            let (c, d) = (u[(j + 1) % 3], u[(j + 2) % 3]);
            meet_beyond_vertex(p(t[i]), p(a), p(b), p(c), p(d))
        }
        &[(i0, j0), (i1, _)] => {
            let a = t[3 - i0 - i1];
            let b = u.iter().copied().find(|&x| !t.contains(&x)).unwrap_or(u[j0]);
            meet_beyond_edge(p(t[i0]), p(t[i1]), p(a), p(b))
        }
        // The same three vertices.
        _ => true,
    }
}

/// Mean edge length (m) of the finite triangles (each triangle's three edges; an edge shared
/// by two triangles counts twice), or 0 when there is none.
fn mean_edge_length(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for t in triangles {
        let c = t.map(|v| positions[v as usize]);
        let edges = [0, 1, 2].map(|k| {
            let (a, b) = (c[k], c[(k + 1) % 3]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
        });
        if edges.iter().all(|e| e.is_finite()) {
            sum += edges.iter().sum::<f64>();
            count += 3;
        }
    }
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

/// The bounding box (m) of triangle `t` (exact: minima and maxima of its coordinates).
fn bounding_box(positions: &[[f64; 3]], t: [u32; 3]) -> Box3 {
    let c = t.map(|v| positions[v as usize]);
    let lo: P3 = std::array::from_fn(|k| c[0][k].min(c[1][k]).min(c[2][k]));
    let hi: P3 = std::array::from_fn(|k| c[0][k].max(c[1][k]).max(c[2][k]));
    [lo, hi]
}

/// The pairs (i, j), i < j, of intersecting triangles of one mesh (rules of the module
/// documentation) for which `consider(i, j)` holds, sorted. Broad phase: a uniform grid with
/// cells of the mean edge length over the triangles' bounding boxes; narrow phase in parallel.
pub(crate) fn intersecting_pairs_where(
    positions: &[[f64; 3]],
    triangles: &[[u32; 3]],
    consider: impl Fn(u32, u32) -> bool,
) -> Vec<(u32, u32)> {
    let boxes: Vec<Box3> = triangles.iter().map(|&t| bounding_box(positions, t)).collect();
    let candidates = candidate_pairs(&boxes, mean_edge_length(positions, triangles), consider);
    let mut pairs: Vec<(u32, u32)> = candidates
        .into_par_iter()
        .filter(|&(i, j)| triangles_intersect(positions, triangles[i as usize], triangles[j as usize]))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// The pairs (i, j), i < j, of intersecting triangles of one mesh, sorted: `positions` (m),
/// `triangles` indices into them (in range). Triangles sharing a vertex are reported only if
/// they also meet elsewhere, triangles sharing an edge only if folded flat onto each other (see
/// the module documentation); touching counts. Exact (orientation predicates, no tolerance).
/// O(n) for a cloth without intersections: a uniform grid over the triangles' bounding boxes,
/// cells of the mean edge length.
pub fn intersecting_pairs(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> Vec<(u32, u32)> {
    intersecting_pairs_where(positions, triangles, |_, _| true)
}

/// The pairs (i, j) of intersecting triangles i of mesh a and j of mesh b, sorted: positions
/// (in m) and triangles (indices into the mesh's own positions, in range) of each mesh. The
/// meshes share no vertex, so every pair that shares a point is reported, touching included.
/// Exact; same broad phase as [`intersecting_pairs`].
pub fn intersecting_pairs_between(
    a_positions: &[[f64; 3]],
    a_triangles: &[[u32; 3]],
    b_positions: &[[f64; 3]],
    b_triangles: &[[u32; 3]],
) -> Vec<(u32, u32)> {
    let (na, offset) = (a_triangles.len() as u32, a_positions.len() as u32);
    let positions: Vec<[f64; 3]> = a_positions.iter().chain(b_positions).copied().collect();
    let triangles: Vec<[u32; 3]> =
        a_triangles.iter().copied().chain(b_triangles.iter().map(|t| t.map(|v| v + offset))).collect();
    let pairs = intersecting_pairs_where(&positions, &triangles, |i, j| i < na && j >= na);
    pairs.into_iter().map(|(i, j)| (i, j - na)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether two separate triangles (no shared vertex) intersect.
    fn apart(t: [P3; 3], u: [P3; 3]) -> bool {
        let positions: Vec<P3> = t.iter().chain(&u).copied().collect();
        triangles_intersect(&positions, [0, 1, 2], [3, 4, 5])
    }

    const T: [P3; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    /// A vertical triangle through (0.2, 0.2) crossing the plane z = 0 at height `z`.
    fn post(z: f64) -> [P3; 3] {
        [[0.2, 0.2, z], [0.3, 0.2, z + 1.0], [0.2, 0.3, z + 1.0]]
    }

    #[test]
    fn crossing_touching_and_separated_triangles() {
        assert!(apart(T, post(-0.5))); // crossing
        assert!(apart(T, post(0.0))); // a vertex on the face: touching counts
        assert!(!apart(T, post(1e-300))); // any positive gap separates
        assert!(!apart(T, post(2.0)));
        // Edge on edge: the vertical triangle's edge crosses the hypotenuse at (0.5, 0.5, 0), its
        // only common point with T; moved 1 cm along x it misses.
        let edge = [[0.0, 0.0, -1.0], [1.0, 1.0, 1.0], [2.0, 2.0, -1.0]];
        assert!(apart(T, edge));
        assert!(!apart(T, edge.map(|p| [p[0] + 0.01, p[1], p[2]])));
        // Order and orientation do not matter.
        assert!(apart(post(-0.5), [T[2], T[1], T[0]]));
    }

    #[test]
    fn coplanar_triangles() {
        let shifted = |dx: f64, dy: f64| T.map(|p| [p[0] + dx, p[1] + dy, 0.0]);
        assert!(apart(T, shifted(0.3, 0.3))); // overlapping
        assert!(apart(T, shifted(0.5, 0.5))); // touching at (0.5, 0.5): a corner on the hypotenuse
        assert!(!apart(T, shifted(0.5 + 1e-15, 0.5)));
        assert!(!apart(T, shifted(2.0, 0.0))); // disjoint
        assert!(apart(T, shifted(1.0, 0.0))); // corner to corner
                                              // One holding the other: no edges cross.
        let small = [[0.1, 0.1, 0.0], [0.2, 0.1, 0.0], [0.1, 0.2, 0.0]];
        assert!(apart(T, small) && apart(small, T));
        // A star of David: the edges cross, no vertex inside the other.
        let up = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 1.8, 0.0]];
        let down = [[0.0, 1.2, 0.0], [1.0, -0.6, 0.0], [2.0, 1.2, 0.0]];
        assert!(apart(up, down));
        // Exactly coplanar in a tilted plane (dyadic coordinates, no rounding): overlapping, and
        // disjoint by 2⁻³⁰ m.
        let tilt = |p: P3| [p[0], p[1], 0.25 * p[0] + 0.5 * p[1]];
        assert!(apart(T.map(tilt), shifted(0.25, 0.25).map(tilt)));
        assert!(!apart(T.map(tilt), shifted(0.75, 0.25 + 0.5f64.powi(30)).map(tilt)));
        assert!(apart(T.map(tilt), shifted(0.75, 0.25).map(tilt)));
    }

    /// Naive double-precision det[a − d, b − d, c − d].
    fn naive_orient3d(a: P3, b: P3, c: P3, d: P3) -> f64 {
        let [x, y, z] = [a, b, c].map(|p| [p[0] - d[0], p[1] - d[1], p[2] - d[2]]);
        x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) + x[2] * (y[0] * z[1] - y[1] * z[0])
    }

    /// A vertex 2⁻⁵⁷ m ≈ 6.9e-18 m off the plane x = y of a large triangle: the naive
    /// determinant rounds it onto the plane (the pair would "touch"), the exact test keeps it
    /// on its side.
    #[test]
    fn a_vertex_a_few_attometres_off_the_plane() {
        let u = [[0.0, 0.0, -1.0], [24.0, 24.0, -1.0], [0.125, 0.125, 1.0]];
        let ulp = 0.5f64.powi(57);
        // x − y = +ulp: strictly on the side x > y, as are the other two vertices.
        let p = [0.05 + 3.0 * ulp, 0.05 + 2.0 * ulp, -0.9];
        assert_eq!(naive_orient3d(u[0], u[1], u[2], p), 0.0, "the naive determinant is fooled");
        let t = [p, [1.0, 0.0, -0.8], [1.0, 0.0, -1.0]];
        assert!(!apart(t, u) && !apart(u, t));
        // The mirror image p' (x − y = −ulp) is on the other side: the triangle crosses.
        let q = [p[1], p[0], p[2]];
        assert!(apart([q, t[1], t[2]], u));
        // A sliver 1e-17 m high, with a triangle in the plane x = 0.5 reaching down to y = 0.9e-17
        // (crosses it) or stopping at 1.1e-17 (misses its apex by 1e-18).
        let sliver = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1e-17, 0.0]];
        let wall = |y: f64| [[0.5, y, -1.0], [0.5, y, 1.0], [0.5, 1.0, 0.0]];
        assert!(apart(sliver, wall(0.9e-17)));
        assert!(apart(sliver, wall(1e-17)));
        assert!(!apart(sliver, wall(1.1e-17)));
    }

    #[test]
    fn neighbours_sharing_a_vertex_or_an_edge() {
        let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.5]];
        // A fan about vertex 0, and a hinge along edge 0–1 (flat or bent): never.
        assert!(!triangles_intersect(&p, [0, 1, 2], [0, 3, 4]));
        assert!(!triangles_intersect(&p, [0, 1, 2], [0, 4, 1]));
        let flat = [p[0], p[1], p[2], [0.5, -1.0, 0.0]];
        assert!(!triangles_intersect(&flat, [0, 1, 2], [0, 3, 1]));
        // The same hinge folded flat onto itself: the third vertex on the same side.
        let folded = [p[0], p[1], p[2], [0.6, 0.3, 0.0]];
        assert!(triangles_intersect(&folded, [0, 1, 2], [1, 0, 3]));
        let almost = [p[0], p[1], p[2], [0.6, 0.3, 1e-20]];
        assert!(!triangles_intersect(&almost, [0, 1, 2], [1, 0, 3]));
        // Sharing vertex 0: the other triangle's far edge pierces the first one.
        let pierce = [p[0], p[1], p[2], [0.3, 0.3, 1.0], [0.3, 0.3, -1.0]];
        assert!(triangles_intersect(&pierce, [0, 1, 2], [0, 3, 4]));
        // Sharing vertex 0 and overlapping in the plane around it.
        let overlap = [p[0], p[1], p[2], [1.0, 1.0, 0.0], [2.0, 0.5, 0.0]];
        assert!(triangles_intersect(&overlap, [0, 1, 2], [0, 3, 4]));
        // Sharing vertex 0, an edge leaving it lies on the other triangle's edge 0–1.
        let along = [p[0], p[1], p[2], [0.5, 0.0, 0.0], [0.5, -1.0, 1.0]];
        assert!(triangles_intersect(&along, [0, 1, 2], [0, 3, 4]));
        // A duplicated triangle.
        assert!(triangles_intersect(&p, [0, 1, 2], [2, 0, 1]));
    }
}
