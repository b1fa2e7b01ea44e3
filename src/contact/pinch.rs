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

use super::collider::vertex::{ColliderMotion, GapField};
use crate::math::real::{cross, dot, norm, sub, unit};
use crate::mesh::bvh::{Aabb, Bvh};
use crate::mesh::closest_point::{closest_on_triangle, point_at};
use crate::model::{Model, ObjectKind};

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
struct MeshNow {
    id: u32,
    triangles: Vec<[usize; 3]>,
    welded: Vec<[u32; 3]>,
    boxes: Vec<Aabb>,
    bvh: Bvh,
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

/// Finds the pinched free contact vertices of `model` at positions `q` (m, collider meshes'
/// vertices included), with its analytic colliders at `colliders` (their motions, of which the
/// end pose counts) and contact thickness `delta` (m). Vertices where `pinned` holds are left
/// out. Serial and in vertex order: the answer does not depend on threads.
pub fn scan(model: &Model, colliders: &[ColliderMotion], q: &[f64], pinned: &[bool], delta: f64) -> PinchScan {
    let meshes = meshes_at(model, q);
    // An analytic collider never pinches with itself: without meshes it takes two.
    if (meshes.is_empty() && colliders.len() < 2) || !(delta > 0.0) {
        return PinchScan::default();
    }
    let mut out = PinchScan::default();
    let mut contacts = Vec::new();
    for (vertex, _) in model.contact_vertices() {
        let vertex = vertex as usize;
        if pinned[vertex] {
            continue;
        }
        let x = [q[3 * vertex], q[3 * vertex + 1], q[3 * vertex + 2]];
        contacts.clear();
        for (motion, c) in colliders.iter().zip(&model.colliders) {
            let (d, n): (f64, [f64; 3]) = motion.gap(x);
            if d.abs() < delta && n.iter().all(|x| x.is_finite()) {
                let point = std::array::from_fn(|k| x[k] - d * n[k]);
                contacts.push(SurfaceContact { collider: c.id, corners: None, point, normal: n });
            }
        }
        for m in &meshes {
            mesh_contacts(m, q, x, delta, &mut contacts);
        }
        if let Some((a, b, separation)) = facing_pair(&contacts, delta) {
            out.vertices += 1;
            if out.worst.is_none_or(|w| separation < w.separation) {
                let colliders = [contacts[a].collider, contacts[b].collider];
                out.worst = Some(PinchedVertex { vertex, colliders, separation });
            }
        }
    }
    out
}

fn corner(q: &[f64], v: usize) -> [f64; 3] {
    [q[3 * v], q[3 * v + 1], q[3 * v + 2]]
}

/// Every collider mesh of `model` at positions `q` (m).
fn meshes_at(model: &Model, q: &[f64]) -> Vec<MeshNow> {
    let mut meshes = Vec::new();
    for o in model.objects.iter().filter(|o| o.kind == ObjectKind::ColliderMesh) {
        let triangles: Vec<[usize; 3]> = o.surface.iter().map(|t| t.map(|v| o.first_vertex + v as usize)).collect();
        let welded = o
            .surface
            .iter()
            .map(|t| t.map(|v| o.mesh_topology.as_ref().map_or(v, |topology| topology.welded[v as usize])))
            .collect();
        let boxes: Vec<Aabb> = triangles.iter().map(|t| Aabb::of_points(&t.map(|v| corner(q, v)))).collect();
        if boxes.is_empty() {
            continue;
        }
        let bvh = Bvh::new(&boxes);
        meshes.push(MeshNow { id: o.id, triangles, welded, boxes, bvh });
    }
    meshes
}

/// Appends the triangles of `mesh` within `delta` (m) of `x` (m) to `contacts`, in triangle
/// order; collapsed triangles are left out.
fn mesh_contacts(mesh: &MeshNow, q: &[f64], x: [f64; 3], delta: f64, contacts: &mut Vec<SurfaceContact>) {
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

    /// A model of two plates (collider meshes, the upper one facing down) `gap` apart with a
    /// two-triangle cloth halfway between: its positions and the ids of floor, lid and cloth.
    fn plates(gap: f64) -> (Model, Vec<f64>, [u32; 3]) {
        let mut m = Model::new(0.0);
        let square = |z: f64| vec![-1.0, -1.0, z, 1.0, -1.0, z, 1.0, 1.0, z, -1.0, 1.0, z];
        let floor = m.add_collider_mesh(&square(0.0), &[0, 1, 2, 0, 2, 3]).unwrap();
        let lid = m.add_collider_mesh(&square(gap), &[0, 2, 1, 0, 3, 2]).unwrap();
        let cloth = square(0.5 * gap).iter().map(|x| 0.1 * x).collect::<Vec<f64>>();
        let cloth = m.add_shell(&cloth, &[0, 1, 2, 0, 2, 3], &crate::Material::default()).unwrap();
        let q = m.rest.iter().flatten().copied().collect();
        (m, q, [floor, lid, cloth])
    }

    /// The scan finds every cloth vertex pinched between plates 1 mm apart under δ = 2 mm, with
    /// the plates' ids and their separation, and none under δ = 1 mm or for pinned vertices.
    #[test]
    fn the_scan_finds_the_vertices_between_two_meshes() {
        let (m, q, [floor, lid, cloth]) = plates(1e-3);
        let n = q.len() / 3;
        let found = scan(&m, &[], &q, &vec![false; n], 2e-3);
        assert_eq!(found.vertices, 4);
        let worst = found.worst.unwrap();
        let first_cloth = m.objects.iter().find(|o| o.id == cloth).unwrap().first_vertex;
        assert_eq!((worst.vertex, worst.colliders), (first_cloth, [floor, lid]));
        assert!((worst.separation - 1e-3).abs() < 1e-15);
        assert_eq!(scan(&m, &[], &q, &vec![false; n], 1e-3), PinchScan::default());
        assert_eq!(scan(&m, &[], &q, &vec![true; n], 2e-3), PinchScan::default());
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
