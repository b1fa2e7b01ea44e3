//! Interior edges of a triangle mesh with their two adjacent triangles, for dihedral bending.

use std::collections::HashMap;

/// A triangle's view of one of its edges: (edge start, edge end, opposite vertex).
type EdgeUse = (u32, u32, u32);

/// Hinges `[x0, x1, x2, x3]`: edge (x0, x1) shared by triangle (x0, x1, x2) and a triangle
/// (x1, x0, x3) of consistent orientation. Edges with one triangle are boundary edges (no hinge);
/// non-manifold edges (three or more triangles) get a hinge for each consecutive pair.
/// The orientation of the second triangle is taken as it is: an inconsistently oriented
/// neighbour is flipped for the hinge so the rest angle stays near zero for a flat sheet.
pub fn interior_hinges(triangles: &[[u32; 3]]) -> Vec<[u32; 4]> {
    let mut by_edge: HashMap<(u32, u32), Vec<EdgeUse>> = HashMap::new();
    let mut order = Vec::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b, opp) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let key = (a.min(b), a.max(b));
            let list = by_edge.entry(key).or_default();
            if list.is_empty() {
                order.push(key);
            }
            list.push((a, b, opp));
        }
    }
    let mut hinges = Vec::new();
    for key in order {
        let list = &by_edge[&key];
        for pair in list.windows(2) {
            let (a, b, x2) = pair[0];
            let (_, _, x3) = pair[1];
            hinges.push([a, b, x2, x3]);
        }
    }
    hinges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_has_one_hinge() {
        let h = interior_hinges(&[[0, 1, 2], [2, 1, 3]]);
        assert_eq!(h, vec![[1, 2, 0, 3]]);
    }
}
