//! The collider meshes over a call (exact-distance contact, `crate::contact::collider_mesh`):
//! which contact vertices can meet which mesh, and each mesh's search tree, moved to every
//! stage's sweep of the mesh (refitted, not rebuilt) before the stage's contact terms are made.

use super::call::Call;
use super::work::AttemptWork;
use crate::assemble::contact::stage::{MeshQuery, MeshStage, StageMesh, SurfacePrimitives};
use crate::contact::collider_mesh::{MeshGeometry, MeshSearch, MeshTopology};
use crate::model::{Model, ObjectKind};
use std::sync::Arc;
use std::time::Instant;

/// One collider mesh over a call.
pub(crate) struct MeshOverCall {
    /// First global vertex of the mesh.
    first_vertex: usize,
    /// Its vertex count.
    vertex_count: usize,
    /// Its connectivity.
    topology: Arc<MeshTopology>,
    /// Its search tree, once a stage has swept it.
    search: Option<Arc<MeshSearch>>,
    /// The simulated surface edges and triangles, which meet its ridges and corners.
    surface: Arc<SurfacePrimitives>,
}

/// The collider meshes of a call and the potential contacts with them.
pub(crate) struct ColliderMeshesOverCall {
    /// The meshes, in object order.
    meshes: Vec<MeshOverCall>,
    /// Every (contact vertex, mesh) pair, grouped by mesh, vertices increasing; μ from the
    /// model's friction table.
    pub queries: Arc<Vec<MeshQuery>>,
    /// Candidate search padding (m).
    pub padding: f64,
    /// The meshes meet the contact vertices only, not the edges and triangles between them:
    /// for a call whose vertices started inside a mesh and were moved out
    /// (`super::separation`), since the edges between them may still pass through it.
    pub vertices_only: bool,
}

/// The friction coefficients of a call's contacts with its collider meshes: μ of every (vertex,
/// mesh) query and, per mesh, of the simulated surface's edges and triangles against it.
pub(crate) struct MeshFriction {
    queries: Arc<Vec<MeshQuery>>,
    surfaces: Vec<Arc<SurfacePrimitives>>,
}

/// `surface` with μ = 0 on every edge and triangle.
fn frictionless_surface(surface: &SurfacePrimitives) -> SurfacePrimitives {
    let SurfacePrimitives { edges, edge_mu, triangles, triangle_mu, rest } = surface;
    SurfacePrimitives {
        edges: edges.clone(),
        edge_mu: vec![0.0; edge_mu.len()],
        triangles: triangles.clone(),
        triangle_mu: vec![0.0; triangle_mu.len()],
        rest: rest.clone(),
    }
}

impl ColliderMeshesOverCall {
    /// Whether any contact with the meshes has friction (μ > 0).
    pub(crate) fn has_friction(&self) -> bool {
        let surfaces =
            self.meshes.iter().any(|m| m.surface.edge_mu.iter().chain(&m.surface.triangle_mu).any(|&mu| mu > 0.0));
        surfaces || self.queries.iter().any(|q| q.mu > 0.0)
    }

    /// Sets μ = 0 on every contact with the meshes; returns the coefficients it replaced, for
    /// [`Self::restore_friction`].
    pub(crate) fn remove_friction(&mut self) -> MeshFriction {
        let queries: Vec<MeshQuery> =
            self.queries.iter().map(|&MeshQuery { vertex, mesh, mu: _ }| MeshQuery { vertex, mesh, mu: 0.0 }).collect();
        let saved = MeshFriction {
            queries: std::mem::replace(&mut self.queries, Arc::new(queries)),
            surfaces: self.meshes.iter().map(|m| m.surface.clone()).collect(),
        };
        for m in &mut self.meshes {
            m.surface = Arc::new(frictionless_surface(&m.surface));
        }
        saved
    }

    /// Puts back the coefficients [`Self::remove_friction`] replaced.
    pub(crate) fn restore_friction(&mut self, saved: MeshFriction) {
        self.queries = saved.queries;
        for (m, surface) in self.meshes.iter_mut().zip(saved.surfaces) {
            m.surface = surface;
        }
    }

    /// The collider meshes of `model` with the contact vertices that meet them, searched with
    /// `padding` (m); `None` when there are none.
    pub(crate) fn new(model: &Model, padding: f64) -> Option<Self> {
        let vertices = model.contact_vertices();
        let mut meshes = Vec::new();
        let mut queries = Vec::new();
        let rest: Arc<Vec<f64>> = Arc::new(model.rest.iter().flatten().copied().collect());
        for o in model.objects.iter().filter(|o| o.kind == ObjectKind::ColliderMesh) {
            let Some(topology) = o.mesh_topology.clone() else { continue };
            let mesh = meshes.len() as u32;
            queries.extend(vertices.iter().map(|&(vertex, owner)| MeshQuery {
                vertex,
                mesh,
                mu: model.friction.pair(owner, o.id),
            }));
            meshes.push(MeshOverCall {
                first_vertex: o.first_vertex,
                vertex_count: o.vertex_count,
                topology,
                search: None,
                surface: Arc::new(SurfacePrimitives::of_model(model, o.id, rest.clone())),
            });
        }
        (!meshes.is_empty() && !queries.is_empty()).then(|| Self {
            meshes,
            queries: Arc::new(queries),
            padding,
            vertices_only: false,
        })
    }

    /// Every mesh over one stage: at `q_start` (m) at the substep's start, and at
    /// `q_hat + h v_fixed` (m) at the stage's end, with the corners' prescribed velocities
    /// `v_fixed` (m/s).
    pub(crate) fn stage(&mut self, q_start: &[f64], q_hat: &[f64], h: f64, v_fixed: &[f64]) -> Vec<StageMesh> {
        let vertices_only = self.vertices_only;
        self.meshes
            .iter_mut()
            .map(|m| {
                let range = 3 * m.first_vertex..3 * (m.first_vertex + m.vertex_count);
                let points = |f: &dyn Fn(usize) -> f64| -> Vec<[f64; 3]> {
                    range.clone().step_by(3).map(|i| [f(i), f(i + 1), f(i + 2)]).collect()
                };
                let start = points(&|i| q_start[i]);
                let end = points(&|i| q_hat[i] + h * v_fixed[i]);
                let velocity = points(&|i| v_fixed[i]);
                let start = MeshGeometry::new(&m.topology, start, velocity.clone());
                let stage = MeshGeometry::new(&m.topology, end, velocity);
                let search = match m.search.as_mut() {
                    Some(s) => {
                        Arc::make_mut(s).update(&m.topology, &start, &stage);
                        s.clone()
                    }
                    None => m.search.insert(Arc::new(MeshSearch::new(&m.topology, &start, &stage))).clone(),
                };
                StageMesh {
                    topology: m.topology.clone(),
                    search,
                    start,
                    stage,
                    first_vertex: m.first_vertex as u32,
                    surface: if vertices_only { Arc::new(SurfacePrimitives::default()) } else { m.surface.clone() },
                }
            })
            .collect()
    }
}

impl Call<'_> {
    /// The collider meshes over one stage ([`ColliderMeshesOverCall::stage`]) with the queries and
    /// the search padding, `None` without collider meshes; the time goes into `work` as contact
    /// search.
    pub(crate) fn collider_mesh_stage(
        &mut self,
        q_start: &[f64],
        q_hat: &[f64],
        h: f64,
        v_fixed: &[f64],
        work: &mut AttemptWork,
    ) -> Option<MeshStage> {
        let t = Instant::now();
        let m = self.state.collider_meshes.as_mut()?;
        let meshes = Arc::new(m.stage(q_start, q_hat, h, v_fixed));
        let stage = MeshStage { meshes, queries: m.queries.clone(), padding: m.padding };
        work.seconds_contact_search += t.elapsed().as_secs_f64();
        Some(stage)
    }
}
