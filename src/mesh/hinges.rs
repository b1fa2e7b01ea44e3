//! Edges of a triangle mesh with the triangles on either side: interior hinges for dihedral
//! bending, and the faces beside each edge of a solid's boundary (`crate::contact::self_contact::shell_solid`).

use std::collections::HashMap;

/// Every edge of `triangles`, its end points in increasing order, with the indices of the
/// triangles that have it (increasing); edges in the order they first appear.
pub fn faces_by_edge(triangles: &[[u32; 3]]) -> Vec<([u32; 2], Vec<u32>)> {
    let mut slot: HashMap<[u32; 2], usize> = HashMap::new();
    let mut edges: Vec<([u32; 2], Vec<u32>)> = Vec::new();
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let key = [a.min(b), a.max(b)];
            let n = *slot.entry(key).or_insert_with(|| {
                edges.push((key, Vec::new()));
                edges.len() - 1
            });
            edges[n].1.push(i as u32);
        }
    }
    edges
}

/// Hinges `[x0, x1, x2, x3]`: edge (x0, x1) shared by triangle (x0, x1, x2) and a triangle
/// (x1, x0, x3) of consistent orientation. Edges with one triangle are boundary edges (no hinge);
/// non-manifold edges (three or more triangles) get a hinge for each consecutive pair.
/// The orientation of the second triangle is taken as it is: an inconsistently oriented
/// neighbour is flipped for the hinge so the rest angle stays near zero for a flat sheet.
pub fn interior_hinges(triangles: &[[u32; 3]]) -> Vec<[u32; 4]> {
    // Triangle i's view of `edge`: (edge start, edge end) in its own order, opposite vertex.
    let view = |i: u32, edge: [u32; 2]| {
        let t = triangles[i as usize];
        let same = |k: usize| {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            [a.min(b), a.max(b)] == edge
        };
        let k = (0..3).find(|&k| same(k)).unwrap_or(0);
        (t[k], t[(k + 1) % 3], t[(k + 2) % 3])
    };
    let mut hinges = Vec::new();
    for (edge, faces) in faces_by_edge(triangles) {
        for pair in faces.windows(2) {
            let (a, b, x2) = view(pair[0], edge);
            let (_, _, x3) = view(pair[1], edge);
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

    /// A fan of three triangles about edge 0–1 (non-manifold) and a boundary edge: edges in
    /// order of appearance, faces increasing; two hinges on the shared edge.
    #[test]
    fn edges_list_their_faces() {
        let t = [[0, 1, 2], [1, 0, 3], [0, 1, 4]];
        let edges = faces_by_edge(&t);
        assert_eq!(edges[0], ([0, 1], vec![0, 1, 2]));
        assert_eq!(edges[1], ([1, 2], vec![0]));
        assert_eq!(edges.len(), 7);
        assert_eq!(interior_hinges(&t), vec![[0, 1, 2, 3], [1, 0, 3, 4]]);
    }
}
