//! The boundary surface of a tet mesh: faces owned by exactly one tet, oriented outward.

use std::collections::HashMap;

/// Faces of tet (a, b, c, d) with outward orientation when the tet is positively oriented
/// (det[b−a, c−a, d−a] > 0).
const TET_FACES: [[usize; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

/// Boundary triangles of a tet mesh (faces that appear in one tet only), in a deterministic order.
pub fn boundary_triangles(tets: &[[u32; 4]]) -> Vec<[u32; 3]> {
    let mut count: HashMap<[u32; 3], (u32, usize)> = HashMap::with_capacity(tets.len() * 2);
    let mut order = Vec::with_capacity(tets.len() * 4);
    for t in tets {
        for f in TET_FACES {
            let tri = [t[f[0]], t[f[1]], t[f[2]]];
            let mut key = tri;
            key.sort_unstable();
            let entry = count.entry(key).or_insert((0, order.len()));
            if entry.0 == 0 {
                order.push(tri);
            }
            entry.0 += 1;
        }
    }
    order
        .into_iter()
        .filter(|tri| {
            let mut key = *tri;
            key.sort_unstable();
            count[&key].0 == 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_tet_has_four_boundary_faces_and_two_tets_share_one() {
        assert_eq!(boundary_triangles(&[[0, 1, 2, 3]]).len(), 4);
        assert_eq!(boundary_triangles(&[[0, 1, 2, 3], [1, 2, 3, 4]]).len(), 6);
    }
}
