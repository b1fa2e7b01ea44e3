//! The sharp convex edges (ridges) of a collider mesh at one stage, which a simulated surface's
//! *edges* meet as well as its vertices.
//!
//! Vertex contact alone keeps every cloth vertex out of the mesh, but not the straight edge
//! between two of them: across a ridge of turning angle θ, a cloth edge of length L resting on
//! both faces passes about (L/4)·θ below the ridge line, and once that exceeds the vertices' gap
//! the ridge cuts the cloth between its vertices. Measured with vertex contact alone: 972 cloth
//! triangles crossing the 33° edges of the 11-gon tube in the authors' tube-cloth scene, 968
//! crossing the 11.25° edges of sphere-and-floor's 32-segment UV sphere under 8 cm cloth
//! edges, up to 233 per frame crossing the skinned limb in sleeve-on-limb-mesh. So every ridge
//! carries the edge–edge penalty of self-contact against the surface edges near it, with the
//! gap signed by its two faces ([`crate::contact::pair::SolidSide`]).
//!
//! A dense mesh's faceting turns by a degree or two per edge; edge–edge pairs on all of those
//! would add a penalty per collider edge a cloth edge crosses, so that the force would grow
//! with the tessellation, and cost a pair per crossing. So each ridge's penalty is weighted by
//! w(θ) = smoothstep((θ − θ₀)/(θ₁ − θ₀)), θ₀ = `RIDGE_START` (5°), θ₁ = `RIDGE_FULL` (10°):
//! 0 on a dense body (the 101,760-triangle sphere of dense-collider turns by 1.1°, a
//! 128-segment sphere by 2.8°), 1 from a 32-segment sphere's 11.25° to a box's 90°. The
//! weight depends on the mesh alone (prescribed), so the energy stays smooth in the unknowns.
//!
//! An open mesh's rim (an edge of one triangle, or of more than two: a table top's edge, a
//! floor's border) is a full ridge too, between the face and the rim's *end*, the plane through
//! the edge along the face's normal, of outward normal m = the face's in-plane normal away from
//! it. Vertex contact takes the space behind an open mesh's face as inside and the space beyond
//! its rim as outside (`super::feature`): the wedge behind both planes is that inside, so an edge
//! that a fast substep carries through the rim line is pushed back out, and a cloth hanging over
//! the rim, beside it, is outside. Without rim ridges a table top's edge cut 48 triangles of a
//! 0.6 m cloth falling over it in the first frame it touched (it falls 3.4 mm a 1/240 s substep,
//! more than δ = 2 mm).

use super::topology::MeshTopology;
use crate::math::real::{cross, dot, norm, sub};

/// Turning angle (rad) below which an edge carries no ridge penalty: 5°.
pub(crate) const RIDGE_START: f64 = 5.0 * std::f64::consts::PI / 180.0;

/// Turning angle (rad) from which an edge carries the full ridge penalty: 10°.
pub(crate) const RIDGE_FULL: f64 = 10.0 * std::f64::consts::PI / 180.0;

/// One convex edge of a collider mesh turning by more than `RIDGE_START` (5°).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ridge {
    /// Its end corners (object-local vertex indices, as the first triangle lists them).
    pub corners: [u32; 2],
    /// Outward unit normals of the two faces that meet there.
    pub normals: [[f64; 3]; 2],
    /// Penalty weight w(θ) in (0, 1] (dimensionless).
    pub weight: f64,
    /// An open mesh's rim: `normals` are its face's and its end's (in the face's plane,
    /// across the edge, away from the face).
    pub rim: bool,
}

/// The ridges of a mesh at one stage, and per triangle and edge slot k the ridge there
/// (`u32::MAX` for none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ridges {
    /// Every ridge, once, in triangle order.
    pub list: Vec<Ridge>,
    /// Per triangle and edge k (corners k → k + 1 mod 3): the index into `list`, or `u32::MAX`.
    pub of_triangle: Vec<[u32; 3]>,
    /// Per welded vertex: the first two rim ridges through it (indices into `list`, or
    /// `u32::MAX`).
    pub rim_at_vertex: Vec<[u32; 2]>,
}

/// w(θ): smoothstep from [`RIDGE_START`] to [`RIDGE_FULL`].
pub(crate) fn weight(turning: f64) -> f64 {
    let s = ((turning - RIDGE_START) / (RIDGE_FULL - RIDGE_START)).clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

impl Ridges {
    /// The ridges of `topology` with corners at `positions` (m) and unit `face_normals`: the
    /// rim (edges without exactly one neighbour), and the edges shared by exactly two
    /// triangles that are convex (the far corner of each triangle lies below the other's plane)
    /// and turn by θ = acos(n₁ · n₂) > `RIDGE_START` (5°).
    pub fn new(topology: &MeshTopology, positions: &[[f64; 3]], face_normals: &[[f64; 3]]) -> Self {
        let n = topology.triangles.len();
        let mut list = Vec::new();
        let mut of_triangle = vec![[u32::MAX; 3]; n];
        for t in 0..n {
            for k in 0..3 {
                let tri = topology.triangles[t];
                let Some(o) = topology.neighbours[t][k] else {
                    let Some(end) = rim_end(topology, positions, face_normals, t, k) else { continue };
                    of_triangle[t][k] = list.len() as u32;
                    let normals = [face_normals[t], end];
                    list.push(Ridge { corners: [tri[k], tri[(k + 1) % 3]], normals, weight: 1.0, rim: true });
                    continue;
                };
                let o = o as usize;
                if o < t {
                    continue;
                }
                let (nt, no) = (face_normals[t], face_normals[o]);
                let turning = dot(nt, no).clamp(-1.0, 1.0).acos();
                let w = weight(turning);
                if !(w > 0.0) || !convex(topology, positions, face_normals, t, k, o) {
                    continue;
                }
                let index = list.len() as u32;
                list.push(Ridge { corners: [tri[k], tri[(k + 1) % 3]], normals: [nt, no], weight: w, rim: false });
                of_triangle[t][k] = index;
                if let Some(ko) = slot_across(topology, t, k, o) {
                    of_triangle[o][ko] = index;
                }
            }
        }
        let mut rim_at_vertex = vec![[u32::MAX; 2]; topology.welded.len()];
        for (i, ridge) in list.iter().enumerate().filter(|(_, r)| r.rim) {
            for corner in ridge.corners {
                let slots = &mut rim_at_vertex[topology.welded[corner as usize] as usize];
                if let Some(free) = slots.iter_mut().find(|s| **s == u32::MAX) {
                    *free = i as u32;
                }
            }
        }
        Self { list, of_triangle, rim_at_vertex }
    }

    /// The ridges on the edges of `triangles`, each once, increasing.
    pub fn on(&self, triangles: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> =
            triangles.iter().flat_map(|&t| self.of_triangle[t as usize]).filter(|&r| r != u32::MAX).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The outward unit normal of the end of rim edge k of triangle `t`: across the edge in the
/// face's plane, away from the triangle's far corner; `None` for a degenerate triangle.
fn rim_end(
    topology: &MeshTopology,
    positions: &[[f64; 3]],
    normals: &[[f64; 3]],
    t: usize,
    k: usize,
) -> Option<[f64; 3]> {
    let corner = |v: usize| positions[topology.triangles[t][v] as usize];
    let (a, b, far) = (corner(k), corner((k + 1) % 3), corner((k + 2) % 3));
    let m = cross(sub(b, a), normals[t]);
    let length = norm(m);
    if !(length > 0.0) {
        return None;
    }
    let m = [0, 1, 2].map(|i| m[i] / length);
    Some(if dot(m, sub(far, a)) > 0.0 { m.map(|x| -x) } else { m })
}

/// The edge slot of triangle `o` that is edge k of triangle `t` (welded corners).
fn slot_across(topology: &MeshTopology, t: usize, k: usize, o: usize) -> Option<usize> {
    let w = |tri: usize, v: usize| topology.welded[topology.triangles[tri][v] as usize];
    let (a, b) = (w(t, k), w(t, (k + 1) % 3));
    (0..3).find(|&ko| {
        let (c, d) = (w(o, ko), w(o, (ko + 1) % 3));
        (c == a && d == b) || (c == b && d == a)
    })
}

/// Whether edge k of triangle `t`, shared with `o`, is convex: each triangle's far corner lies
/// below the other's plane.
fn convex(topology: &MeshTopology, positions: &[[f64; 3]], normals: &[[f64; 3]], t: usize, k: usize, o: usize) -> bool {
    let corner = |tri: usize, v: usize| positions[topology.triangles[tri][v] as usize];
    let on_edge = corner(t, k);
    let below = |normal: [f64; 3], p: [f64; 3]| {
        let r = sub(p, on_edge);
        dot(normal, r) < -1e-9 * norm(r)
    };
    let far_o = slot_across(topology, t, k, o).map(|ko| corner(o, (ko + 2) % 3));
    far_o.is_some_and(|p| below(normals[t], p)) && below(normals[o], corner(t, (k + 2) % 3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::collider_mesh::still_mesh as geometry;

    /// An octagonal prism with fan caps: its 8 side edges (45°) and 16 cap rims (90°) are full
    /// ridges; the fans' spokes (flat) and the side faces' diagonals (flat) are none.
    #[test]
    fn a_prism_has_its_sharp_edges_and_no_flat_ones() {
        let (p, t) = crate::mesh::shapes::prism(0.5, 0.0, 1.0, 8);
        let (topology, geometry) = geometry(&p, &t);
        assert!(topology.closed);
        let r = &geometry.ridges;
        assert_eq!(r.list.len(), 24, "{:?}", r.list);
        assert!(r.list.iter().all(|x| x.weight == 1.0));
        for ridge in &r.list {
            let [a, b] = ridge.corners.map(|v| geometry.positions[v as usize]);
            let along = sub(b, a);
            // A side edge runs along the axis x, a cap's rim across it.
            let side = along[0].abs() > 0.99 * norm(along);
            let rim = along[0].abs() < 1e-12;
            assert!(side || rim, "{ridge:?}");
        }
        // Every ridge is listed by both of its triangles.
        let uses = r.of_triangle.iter().flatten().filter(|&&i| i != u32::MAX).count();
        assert_eq!(uses, 48);
    }

    /// A dense body's faceting carries no ridge: a 128-segment UV sphere turns by 2.8° at most.
    #[test]
    fn a_fine_sphere_has_no_ridges() {
        let (p, t) = crate::mesh::shapes::uv_sphere(0.5, 128, 64);
        let (_, geometry) = geometry(&p, &t);
        assert!(geometry.ridges.list.is_empty());
    }

    /// A roof of two triangles folded about their shared edge: convex folds are ridges with the
    /// smoothstep weight, valleys never.
    #[test]
    fn a_fold_is_a_ridge_by_its_angle_and_a_valley_never() {
        for (degrees, expected) in [(4.0f64, None), (7.5, Some(0.5)), (30.0, Some(1.0)), (-30.0, None)] {
            let a: f64 = degrees.to_radians();
            // Two unit-wide faces meeting along the y axis, each tilted by a/2 down from it.
            let (s, c) = ((a / 2.0).sin(), (a / 2.0).cos());
            let points = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -c, 0.5, -s, c, 0.5, -s];
            let (_, geometry) = geometry(&points, &[0, 1, 2, 0, 3, 1]);
            let w = geometry.ridges.list.iter().find(|r| !r.rim).map(|r| r.weight);
            match (w, expected) {
                (None, None) => {}
                (Some(w), Some(e)) => assert!((w - e).abs() < 1e-9, "{degrees}°: {w}"),
                _ => panic!("{degrees}°: {w:?}"),
            }
        }
    }
}
