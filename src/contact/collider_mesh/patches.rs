//! The convex patches of a collider mesh near a point: triangles joined across every edge that
//! is flat or convex, split along every concave edge.
//!
//! Within a patch the exact distance (the minimum over its triangles) is C¹ outside the mesh:
//! the closest point moves continuously over faces, edges and corners. Across a concave edge it
//! is not: on the bisector of the two faces the closest point jumps from one face to the other
//! and the gap's normal turns by the edge's dihedral angle at once. The skin at a bent elbow is
//! faceted with such edges, and their force kinks stall Newton. So `super::point` takes the
//! exact minimum within each patch and blends the patches smoothly.
//!
//! Patches are local: the triangles near one point (a contact's candidates) joined across the
//! flat or convex edges *between them*. Joined over the whole mesh, a closed mesh would be one
//! patch whatever its creases (the floor and the wall of an L-shaped block, or the two sides of
//! a bent elbow's crook, meet convexly around its back), and the kink would stay.
//!
//! An edge counts as concave when the far corner of the triangle across it lies above the
//! triangle's plane by more than sin 1° of its distance from the edge (seen from either side),
//! so that a flat floor of any tessellation is one patch, whatever its round-off. A deforming
//! mesh gets new joins at every stage.

use super::topology::MeshTopology;
use crate::math::real::{dot, norm, sub};

/// sin 1°: the turning below which an edge counts as flat.
const FLAT_SINE: f64 = 0.017_452_406_437_283_51;

/// Per triangle, per edge k (from corner k to corner k + 1): whether the triangle across it is
/// joined to it in a convex patch (the edge is flat or convex). Rim edges are not joined.
pub fn convex_joins(topology: &MeshTopology, positions: &[[f64; 3]], face_normals: &[[f64; 3]]) -> Vec<[bool; 3]> {
    (0..topology.triangles.len())
        .map(|t| {
            [0, 1, 2].map(|k| {
                topology.neighbours[t][k].is_some_and(|o| !concave(topology, positions, face_normals, t, k, o as usize))
            })
        })
        .collect()
}

/// Per entry of `triangles` (distinct triangle indices), the position in `triangles` of the
/// first member of its local convex patch: the triangles listed joined across the `joins` edges
/// between listed triangles only.
pub fn local_patches(topology: &MeshTopology, joins: &[[bool; 3]], triangles: &[u32]) -> Vec<u32> {
    let n = triangles.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    let mut sorted: Vec<(u32, u32)> = triangles.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
    sorted.sort_unstable();
    for (i, &t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let Some(o) = topology.neighbours[t as usize][k].filter(|_| joins[t as usize][k]) else { continue };
            let Ok(at) = sorted.binary_search_by_key(&o, |&(tri, _)| tri) else { continue };
            let (a, b) = (root(&mut parent, i as u32), root(&mut parent, sorted[at].1));
            // The lower position becomes the root, so the numbering does not depend on the order
            // in which joins are met.
            let (low, high) = if a < b { (a, b) } else { (b, a) };
            parent[high as usize] = low;
        }
    }
    (0..n as u32).map(|i| root(&mut parent, i)).collect()
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
            let joins = convex_joins(&t, &p, &n);
            assert_eq!(local_patches(&t, &joins, &[0, 1]), patches.to_vec(), "fold z = {z}");
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
        let all: Vec<u32> = (0..tris.len() as u32).collect();
        assert!(local_patches(&topology, &geometry.convex_joins, &all).iter().all(|&p| p == 0));
    }

    /// An L-shaped block (a floor slab and a wall, closed): its one concave edge splits the
    /// triangles near it into the floor's and the wall's patches, though the whole mesh is
    /// joined convexly around the back.
    #[test]
    fn a_closed_meshs_crease_splits_the_patches_near_it() {
        let (p, t) = crate::mesh::shapes::l_block(1.0, 0.05);
        let points: Vec<[f64; 3]> = p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let tris: Vec<[u32; 3]> = t.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let topology = MeshTopology::new(&points, &tris);
        assert!(topology.closed);
        let geometry =
            super::super::geometry::MeshGeometry::new(&topology, points.clone(), vec![[0.0; 3]; points.len()]);
        // Side quads 2 (the floor's top, x ≥ 0, z = 0) and 3 (the wall's front, x = 0, z ≥ 0).
        let (floor, wall) = ([4, 5], [6, 7]);
        let near = [floor[0], floor[1], wall[0], wall[1]];
        assert_eq!(local_patches(&topology, &geometry.convex_joins, &near), vec![0, 0, 2, 2]);
        // The whole mesh listed: one patch, joined around the back.
        let all: Vec<u32> = (0..tris.len() as u32).collect();
        assert!(local_patches(&topology, &geometry.convex_joins, &all).iter().all(|&p| p == 0));
    }
}
