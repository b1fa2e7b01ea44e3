//! Self-intersection test of a triangle surface: a bounding-volume hierarchy finds the pairs of
//! triangles whose boxes touch, and the exact pair test of the intersection checker
//! ([`crate::mesh::intersection::triangles_intersect`]) decides each pair: triangles that share
//! an edge may meet only along it, triangles that share a vertex only at it, other pairs not at
//! all (touching counts as intersecting).

use crate::mesh::bvh::{Aabb, Bvh};
use crate::mesh::intersection::triangles_intersect;
use rayon::prelude::*;

/// The first pair (i, j), i < j, of triangles that intersect, in lexicographic order, or `None`.
/// Triangles must be non-degenerate, with indices in range, and not repeat a vertex.
pub(super) fn first_intersection(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> Option<(usize, usize)> {
    let corners = |t: usize| triangles[t].map(|v| positions[v as usize]);
    let boxes: Vec<Aabb> = (0..triangles.len()).map(|t| Aabb::of_points(&corners(t))).collect();
    let bvh = Bvh::new(&boxes);
    (0..triangles.len()).into_par_iter().find_map_first(|i| {
        let mut candidates = Vec::new();
        bvh.for_each_overlap(&boxes, &boxes[i], |j| {
            if j as usize > i {
                candidates.push(j as usize);
            }
        });
        candidates.sort_unstable();
        candidates.into_iter().find(|&j| triangles_intersect(positions, triangles[i], triangles[j])).map(|j| (i, j))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An octahedron with radius 1 (8 outward triangles).
    fn octahedron() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
        let (p, t) = crate::mesh::shapes::octahedron(1.0);
        (crate::mesh::triples(&p), crate::mesh::triangle_list(&t))
    }

    #[test]
    fn closed_surface_has_no_intersection_and_a_pierced_one_does() {
        let (mut p, mut t) = octahedron();
        assert_eq!(first_intersection(&p, &t), None);
        // A second octahedron, shifted so it pierces the first.
        let n = p.len() as u32;
        let (q, u) = octahedron();
        p.extend(q.iter().map(|x| [x[0] + 0.5, x[1] + 0.3, x[2] + 0.1]));
        t.extend(u.iter().map(|x| x.map(|v| v + n)));
        let (i, j) = first_intersection(&p, &t).expect("intersection");
        assert!(i < 8 && j >= 8, "{i} {j}");
        // Far apart: none.
        for x in p.iter_mut().skip(6) {
            x[0] += 10.0;
        }
        assert_eq!(first_intersection(&p, &t), None);
    }

    #[test]
    fn a_corner_pushed_through_the_opposite_face_is_found() {
        // Unit cube, corner v = x + 2y + 4z, two outward triangles per face.
        let mut p: Vec<[f64; 3]> = (0..8).map(|v| [(v & 1) as f64, ((v >> 1) & 1) as f64, (v >> 2) as f64]).collect();
        let t = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        assert_eq!(first_intersection(&p, &t), None);
        p[7] = [0.6, 0.55, -0.5]; // the top corner now pokes out through the bottom face
        assert!(first_intersection(&p, &t).is_some());
    }
}
