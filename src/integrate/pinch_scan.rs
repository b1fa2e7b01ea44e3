//! The pinch scan of a model's state (`crate::contact::pinch` for what a pinch is): every free
//! contact vertex of the model against its analytic colliders where they are and its collider
//! meshes where their vertices are.

use crate::contact::collider::vertex::{ColliderMotion, GapField};
use crate::contact::pinch::{facing_pair, mesh_contacts, MeshNow, PinchScan, PinchedVertex, SurfaceContact};
use crate::model::{Model, ObjectKind};

/// Finds the pinched free contact vertices of `model` at positions `q` (m, collider meshes'
/// vertices included), with its analytic colliders at `colliders` (their motions, of which the
/// end pose counts) and contact thickness `delta` (m). Vertices where `pinned` holds are left
/// out. Serial and in vertex order: the answer does not depend on threads.
pub(crate) fn scan(model: &Model, colliders: &[ColliderMotion], q: &[f64], pinned: &[bool], delta: f64) -> PinchScan {
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
        meshes.extend(MeshNow::new(o.id, triangles, welded, q));
    }
    meshes
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
