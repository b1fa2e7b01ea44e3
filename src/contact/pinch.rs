//! Pinches: where two collider surfaces close on a simulated vertex to less than the contact
//! thickness δ. Two analytic colliders, two collider meshes, or two parts of one collider mesh
//! (a skinned arm's crook folding on itself) then leave the vertex no position at least δ from
//! both, so its contact penalties push against each other and no step can satisfy them.
//!
//! A vertex's contacts are the nearest point of every analytic collider within δ and of every
//! collider-mesh triangle within δ, each with the surface's outward unit normal there (the
//! shape's gradient, a triangle's face normal by its winding). Two contacts pinch the vertex
//! when they face each other across it:
//!
//! - their normals oppose: n₁·n₂ < [`FACING_COSINE`];
//! - each surface point lies in front of the other surface: (p₂ − p₁)·n₁ ≥ 0 and
//!   (p₁ − p₂)·n₂ ≥ 0, which leaves out the two faces of a collider thinner than δ (a vertex
//!   above a thin closed plate is near its top and its bottom, whose normals oppose too);
//! - they belong to different colliders, or to triangles of one mesh that share no (welded)
//!   corner, so that the two faces of a sharp edge or a cone's tip are not a pinch;
//! - the surfaces' separation across the vertex, the distance |p₁ − p₂| between the two
//!   nearest points, is below δ.
//!
//! The vertex is tested by its nearest points, not by which side of each surface it is on, so a
//! pinched vertex that the penalty let through one surface is still found.

use crate::math::real::{cross, dot, norm, sub, unit};
use crate::mesh::bvh::{Aabb, Bvh};
use crate::mesh::closest_point::{closest_on_triangle, point_at};

/// Two contacts face each other when the cosine of the angle between their normals is below
/// this (the normals more than 120° apart).
///
/// cbindgen:ignore
pub const FACING_COSINE: f64 = -0.5;

/// One surface near a vertex: its nearest point and outward normal there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceContact {
    /// Id of the collider or collider mesh (as the host knows it).
    pub collider: u32,
    /// For a collider-mesh triangle, its corners' welded vertex ids within the mesh (corners
    /// that share an id are one point); `None` for an analytic collider.
    pub corners: Option<[u32; 3]>,
    /// The surface point nearest the vertex (m).
    pub point: [f64; 3],
    /// The surface's outward unit normal there.
    pub normal: [f64; 3],
}

impl SurfaceContact {
    /// Whether `self` and `other` are parts of one surface that meet: the same analytic
    /// collider, or triangles of one mesh sharing a corner.
    fn adjacent(&self, other: &Self) -> bool {
        if self.collider != other.collider {
            return false;
        }
        match (self.corners, other.corners) {
            (Some(a), Some(b)) => a.iter().any(|c| b.contains(c)),
            _ => true,
        }
    }
}

/// The pair of `contacts` that pinches their vertex with the smallest separation under `delta`
/// (m), as (first, second, separation in m), the first of equals in the contacts' order; `None`
/// when no pair faces each other closer than `delta`.
pub fn facing_pair(contacts: &[SurfaceContact], delta: f64) -> Option<(usize, usize, f64)> {
    let mut best: Option<(usize, usize, f64)> = None;
    for (i, a) in contacts.iter().enumerate() {
        for (j, b) in contacts.iter().enumerate().skip(i + 1) {
            if a.adjacent(b) || !(dot(a.normal, b.normal) < FACING_COSINE) {
                continue;
            }
            let across = sub(b.point, a.point);
            if dot(across, a.normal) < 0.0 || dot(across, b.normal) > 0.0 {
                continue;
            }
            let separation = norm(across);
            if separation < delta && best.is_none_or(|(_, _, s)| separation < s) {
                best = Some((i, j, separation));
            }
        }
    }
    best
}

/// One collider mesh where it is: its triangles (global vertex indices) and a tree over them.
pub(crate) struct MeshNow {
    id: u32,
    triangles: Vec<[usize; 3]>,
    welded: Vec<[u32; 3]>,
    boxes: Vec<Aabb>,
    bvh: Bvh,
}

impl MeshNow {
    /// Collider mesh `id` with `triangles` (global vertex indices into `q`, m) whose corners
    /// have the welded ids `welded` (corners sharing an id are one point); `None` without
    /// triangles.
    pub(crate) fn new(id: u32, triangles: Vec<[usize; 3]>, welded: Vec<[u32; 3]>, q: &[f64]) -> Option<Self> {
        let boxes: Vec<Aabb> = triangles.iter().map(|t| Aabb::of_points(&t.map(|v| corner(q, v)))).collect();
        if boxes.is_empty() {
            return None;
        }
        let bvh = Bvh::new(&boxes);
        Some(Self { id, triangles, welded, boxes, bvh })
    }
}

/// A pinched vertex: the vertex (global index), the two surfaces and their separation (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PinchedVertex {
    /// Global index of the vertex.
    pub vertex: usize,
    /// Ids of the two colliders or collider meshes (equal: two parts of one mesh).
    pub colliders: [u32; 2],
    /// The surfaces' separation across the vertex, |p₁ − p₂| (m).
    pub separation: f64,
}

/// What a scan of a state found: how many free vertices are pinched, and the one whose
/// surfaces are closest (the first of equals in vertex order).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PinchScan {
    /// Pinched free vertices.
    pub vertices: u32,
    /// The pinched vertex with the smallest separation, if any.
    pub worst: Option<PinchedVertex>,
}

fn corner(q: &[f64], v: usize) -> [f64; 3] {
    [q[3 * v], q[3 * v + 1], q[3 * v + 2]]
}

/// Appends the triangles of `mesh` within `delta` (m) of `x` (m) to `contacts`, in triangle
/// order; collapsed triangles are left out.
pub(crate) fn mesh_contacts(mesh: &MeshNow, q: &[f64], x: [f64; 3], delta: f64, contacts: &mut Vec<SurfaceContact>) {
    let mut near = Vec::new();
    mesh.bvh.for_each_overlap(&mesh.boxes, &Aabb { min: x, max: x }.inflated(delta), |t| near.push(t));
    near.sort_unstable();
    for t in near {
        let corners = mesh.triangles[t as usize].map(|v| corner(q, v));
        let normal = unit(cross(sub(corners[1], corners[0]), sub(corners[2], corners[0])));
        let point = point_at(corners, closest_on_triangle(x, corners).0);
        let ok = normal.iter().chain(&point).all(|x| x.is_finite()) && norm(normal) > 0.5;
        if ok && norm(sub(x, point)) < delta {
            contacts.push(SurfaceContact { collider: mesh.id, corners: Some(mesh.welded[t as usize]), point, normal });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analytic(collider: u32, point: [f64; 3], normal: [f64; 3]) -> SurfaceContact {
        SurfaceContact { collider, corners: None, point, normal }
    }

    fn triangle(collider: u32, corners: [u32; 3], point: [f64; 3], normal: [f64; 3]) -> SurfaceContact {
        SurfaceContact { collider, corners: Some(corners), point, normal }
    }

    /// Two plates 1 mm apart facing each other pinch a vertex between them under δ = 2 mm, not
    /// under δ = 1 mm; plates 3 mm apart do not.
    #[test]
    fn facing_plates_closer_than_delta_pinch() {
        let floor = analytic(1, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        let lid = analytic(2, [0.0, 0.0, 1e-3], [0.0, 0.0, -1.0]);
        let (a, b, s) = facing_pair(&[floor, lid], 2e-3).unwrap();
        assert_eq!((a, b), (0, 1));
        assert!((s - 1e-3).abs() < 1e-15);
        assert_eq!(facing_pair(&[floor, lid], 1e-3), None);
        let far = analytic(2, [0.0, 0.0, 3e-3], [0.0, 0.0, -1.0]);
        assert_eq!(facing_pair(&[floor, far], 2e-3), None);
    }

    /// Normals less than 120° apart (a vertex in a right-angled corner) do not pinch; the two
    /// faces of a plate thinner than δ (normals opposed, each behind the other) do not either.
    #[test]
    fn corners_and_thin_plates_do_not_pinch() {
        let floor = analytic(1, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        let wall = analytic(2, [-5e-4, 0.0, 5e-4], [1.0, 0.0, 0.0]);
        assert_eq!(facing_pair(&[floor, wall], 2e-3), None);
        let top = triangle(3, [0, 1, 2], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        let bottom = triangle(3, [3, 4, 5], [0.0, 0.0, -5e-4], [0.0, 0.0, -1.0]);
        assert_eq!(facing_pair(&[top, bottom], 2e-3), None);
    }

    /// Two parts of one mesh folded onto each other pinch (the same id twice); two triangles
    /// sharing a corner (a sharp edge's faces) never do.
    #[test]
    fn one_mesh_folded_on_itself_pinches_but_not_across_an_edge() {
        let lower = triangle(4, [0, 1, 2], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        let upper = triangle(4, [5, 6, 7], [0.0, 0.0, 8e-4], [0.0, 0.0, -1.0]);
        let (_, _, s) = facing_pair(&[lower, upper], 2e-3).unwrap();
        assert!((s - 8e-4).abs() < 1e-15);
        let neighbour = triangle(4, [2, 8, 9], [0.0, 0.0, 8e-4], [0.0, 0.0, -1.0]);
        assert_eq!(facing_pair(&[lower, neighbour], 2e-3), None);
    }

    /// Of several facing pairs the closest one is chosen.
    #[test]
    fn the_closest_pair_is_chosen() {
        let floor = analytic(1, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]);
        let lid = analytic(2, [0.0, 0.0, 1.5e-3], [0.0, 0.0, -1.0]);
        let fold = triangle(3, [0, 1, 2], [0.0, 0.0, 6e-4], [0.0, 0.0, -1.0]);
        assert_eq!(facing_pair(&[floor, lid, fold], 2e-3).map(|(a, b, _)| (a, b)), Some((0, 2)));
    }
}
