//! The convex patches of a collider mesh at one stage: triangles joined across every edge that
//! is flat or convex there, split along every concave edge.
//!
//! Within a patch the exact distance (the minimum over its triangles) is C¹ outside the mesh:
//! the closest point moves continuously over faces, edges and corners. Across a concave edge it
//! is not: on the bisector of the two faces the closest point jumps from one face to the other
//! and the gap's normal turns by the edge's dihedral angle at once. The skin at a bent elbow is
//! faceted with such edges, and their force kinks stall Newton. So `super::point` takes the
//! exact minimum within each patch and blends the patches smoothly.
//!
//! An edge counts as concave when the far corner of the triangle across it lies above the
//! triangle's plane by more than sin 1° of its distance from the edge (seen from either side),
//! so that a flat floor of any tessellation is one patch, whatever its round-off. A deforming
//! mesh gets new patches at every stage.

use super::topology::MeshTopology;
use crate::math::real::{dot, norm, sub};

/// sin 1°: the turning below which an edge counts as flat.
const FLAT_SINE: f64 = 0.017_452_406_437_283_51;

/// Per triangle, the lowest triangle index of its convex patch.
pub fn convex_patches(topology: &MeshTopology, positions: &[[f64; 3]], face_normals: &[[f64; 3]]) -> Vec<u32> {
    let n = topology.triangles.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut t: u32) -> u32 {
        while parent[t as usize] != t {
            let up = parent[parent[t as usize] as usize];
            parent[t as usize] = up;
            t = up;
        }
        t
    }
    for t in 0..n {
        for (k, other) in topology.neighbours[t].iter().enumerate() {
            let Some(o) = *other else { continue };
            if (o as usize) < t || concave(topology, positions, face_normals, t, k, o as usize) {
                continue;
            }
            let (a, b) = (root(&mut parent, t as u32), root(&mut parent, o));
            // The lower index becomes the root, so the numbering does not depend on the order.
            let (low, high) = if a < b { (a, b) } else { (b, a) };
            parent[high as usize] = low;
        }
    }
    (0..n as u32).map(|t| root(&mut parent, t)).collect()
}

/// Whether the edge k of triangle `t`, shared with triangle `o`, is concave: either triangle's
/// far corner lies above the other's plane by more than `FLAT_SINE` of its distance.
fn concave(
    topology: &MeshTopology,
    positions: &[[f64; 3]],
    normals: &[[f64; 3]],
    t: usize,
    k: usize,
    o: usize,
) -> bool {
    let corner = |tri: usize, v: usize| positions[topology.triangles[tri][v] as usize];
    let edge = corner(t, k);
    let welded = |v: u32| topology.welded[v as usize];
    let shared = [welded(topology.triangles[t][k]), welded(topology.triangles[t][(k + 1) % 3])];
    // The far corner of `o`: the one not on the shared (welded) edge.
    let far_o = (0..3).find(|&v| !shared.contains(&welded(topology.triangles[o][v])));
    let far_t = corner(t, (k + 2) % 3);
    let above = |normal: [f64; 3], p: [f64; 3]| {
        let r = sub(p, edge);
        dot(normal, r) > FLAT_SINE * norm(r)
    };
    far_o.is_some_and(|v| above(normals[t], corner(o, v))) || above(normals[o], far_t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of two triangles sharing the edge (0,0,0)–(0,1,0), the second folded about it.
    fn folded(z: f64) -> (MeshTopology, Vec<[f64; 3]>, Vec<[f64; 3]>) {
        let p = vec![[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.5, 0.0], [1.0, 0.5, z]];
        let tris = [[0, 2, 1], [0, 1, 3]];
        let topology = MeshTopology::new(&p, &tris);
        let normals = tris
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|v| p[v as usize]);
                crate::math::real::unit(crate::math::real::cross(sub(b, a), sub(c, a)))
            })
            .collect();
        (topology, p, normals)
    }

    #[test]
    fn concave_edges_split_and_flat_or_convex_ones_join() {
        // Both normals are −z when flat; the second triangle folded towards −z (the side the
        // normals point to) makes a valley (concave), folded towards +z a ridge (convex).
        for (z, patches) in [(0.0, [0, 0]), (-1e-9, [0, 0]), (0.3, [0, 0]), (-0.3, [0, 1])] {
            let (t, p, n) = folded(z);
            assert!(n[0][2] < 0.0 && n[1][2] < 0.0);
            assert_eq!(convex_patches(&t, &p, &n), patches.to_vec(), "fold z = {z}");
        }
    }

    #[test]
    fn a_convex_mesh_is_one_patch() {
        let (p, t) = crate::mesh::shapes::uv_sphere(0.5, 32, 16);
        let points: Vec<[f64; 3]> = p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let tris: Vec<[u32; 3]> = t.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let topology = MeshTopology::new(&points, &tris);
        let geometry =
            super::super::geometry::MeshGeometry::new(&topology, points.clone(), vec![[0.0; 3]; points.len()]);
        assert!(geometry.patches.iter().all(|&p| p == 0));
    }
}
