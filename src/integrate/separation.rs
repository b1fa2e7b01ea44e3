//! Free vertices that start a call deeper than the contact thickness δ inside an analytic
//! collider or a collider mesh (met by exact distance) are moved out before the first substep,
//! along the gap's normal, to [`CLEARANCE`] δ outside, their velocity into the collider removed.
//! Shallower ones are left to the contact penalty, which pushes them out within a step without
//! the jump a move would make.
//!
//! The contact penalty b(d) = κ(δ − d)³ (paper §3.2) is meant for gaps within the contact
//! thickness δ. A vertex that starts centimetres deep feels a force many orders of magnitude
//! beyond any other: backward Euler throws the cloth off at metres per second, and the
//! integrators that use the force at the start of the step explicitly (TR, TR-BDF2, SDIRK2)
//! fail every step. Separating first gives every integrator a state it can step; the report
//! keeps the penetration it started with (`StepReport::initial_penetrations`).

use crate::contact::collider::vertex::{ColliderMotion, GapField};
use crate::contact::collider_mesh::{MeshGeometry, MeshPoint, MeshSearch, MeshTopology};
use crate::contact::{Pose, Shape};
use crate::model::{Model, ObjectKind};

/// Gap (in contact thicknesses δ) a vertex is moved to. An edge of length L between two vertices
/// moved onto a surface of curvature radius R sags L²/8R into it: 3δ clears edges up to
/// √(24 δ R) (12 cm on a 20 cm sphere with δ = 3 mm), which a collider mesh's ridges and corners
/// would otherwise meet from inside. Moved only to δ/2, a cloth half swallowed by a sphere
/// failed its first step with backward Euler even at h/1024.
///
/// cbindgen:ignore
pub const CLEARANCE: f64 = 3.0;

/// Rounds of separation: a vertex moved out of one collider may land in another.
const ROUNDS: usize = 4;

/// What the separation moved: the count of vertices and the deepest gap (m) they started at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separated {
    /// Vertices moved.
    pub vertices: u32,
    /// Of them, vertices moved out of a collider mesh.
    pub out_of_meshes: u32,
    /// The most negative gap among them (m); +∞ when none moved.
    pub deepest: f64,
}

/// A collider mesh at the start of a call.
struct StillMesh {
    topology: std::sync::Arc<MeshTopology>,
    geometry: MeshGeometry,
    search: MeshSearch,
}

impl StillMesh {
    /// The signed gap (m) and unit normal at `x` from the closest feature, if the vertex is to
    /// be separated: every inside point of a closed mesh, and of an open one (whose inside is
    /// the solid walled behind its faces and rim) only within `reach` (m) of its surface,
    /// where its contact acts; deeper under an open sheet is most likely meant to be below it.
    fn inside(&self, x: [f64; 3], reach: f64) -> Option<(f64, [f64; 3])> {
        let closest = self.search.closest(&self.topology, &self.geometry, x)?;
        let (d, n) = MeshPoint::of(&self.topology, &self.geometry, &closest).gap(x);
        (d < 0.0 && (self.topology.closed || -d <= reach)).then_some((d, n))
    }
}

/// Moves every free contact vertex of `q` (m) with a gap below −`thickness` to a gap of
/// [`CLEARANCE`] × `thickness` along the gap's normal, and removes the component of its
/// velocity in `v` (m/s) that points into the collider. Colliders: `shapes` at `poses`, and
/// with `exact_meshes` the model's collider meshes at their positions in `q`; open meshes only
/// within `reach` (m).
#[allow(clippy::too_many_arguments)]
pub fn separate(
    model: &Model,
    shapes: &[Shape],
    poses: &[Pose],
    exact_meshes: bool,
    pinned: &[bool],
    thickness: f64,
    reach: f64,
    q: &mut [f64],
    v: &mut [f64],
) -> Separated {
    let motions: Vec<ColliderMotion> =
        shapes.iter().zip(poses).map(|(s, p)| ColliderMotion::new(*s, *p, *p, 1.0)).collect();
    let meshes: Vec<StillMesh> = if exact_meshes { still_meshes(model, q) } else { Vec::new() };
    let vertices: Vec<usize> =
        model.contact_vertices().into_iter().map(|(v, _)| v as usize).filter(|&v| !pinned[v]).collect();
    let mut moved = vec![false; pinned.len()];
    let mut out_of_meshes = vec![false; pinned.len()];
    let mut deepest = f64::INFINITY;
    for _ in 0..ROUNDS {
        let mut any = false;
        for &i in &vertices {
            let x = [q[3 * i], q[3 * i + 1], q[3 * i + 2]];
            // The deepest gap below −δ: (d, n, from a mesh).
            let analytic = motions.iter().map(|m| m.gap(x)).map(|(d, n)| (d, n, false));
            let mesh = meshes.iter().filter_map(|m| m.inside(x, reach)).map(|(d, n)| (d, n, true));
            let deepest_here =
                analytic.chain(mesh).filter(|g| g.0 < -thickness).reduce(|a, g| if a.0 <= g.0 { a } else { g });
            let Some((d, n, from_mesh)) = deepest_here else { continue };
            // At a point without a direction out (a sphere's centre), move up.
            let n = if n.iter().all(|x| x.is_finite()) && n.iter().map(|x| x * x).sum::<f64>() > 0.25 {
                n
            } else {
                [0.0, 0.0, 1.0]
            };
            let target = CLEARANCE * thickness;
            out_of_meshes[i] |= from_mesh;
            let inward = (0..3).map(|k| v[3 * i + k] * n[k]).sum::<f64>().min(0.0);
            for k in 0..3 {
                q[3 * i + k] += (target - d) * n[k];
                v[3 * i + k] -= inward * n[k];
            }
            deepest = deepest.min(d);
            moved[i] = true;
            any = true;
        }
        if !any {
            break;
        }
    }
    let count = |flags: &[bool]| flags.iter().filter(|m| **m).count() as u32;
    Separated { vertices: count(&moved), out_of_meshes: count(&out_of_meshes), deepest }
}

/// Every collider mesh of `model` at its positions in `q`, still, with its search tree.
fn still_meshes(model: &Model, q: &[f64]) -> Vec<StillMesh> {
    model
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ColliderMesh)
        .filter_map(|o| {
            let topology = o.mesh_topology.clone()?;
            let points: Vec<[f64; 3]> = (o.first_vertex..o.first_vertex + o.vertex_count)
                .map(|i| [q[3 * i], q[3 * i + 1], q[3 * i + 2]])
                .collect();
            let geometry = MeshGeometry::new(&topology, points, vec![[0.0; 3]; o.vertex_count]);
            let search = MeshSearch::new(&topology, &geometry, &geometry);
            Some(StillMesh { topology, geometry, search })
        })
        .collect()
}
