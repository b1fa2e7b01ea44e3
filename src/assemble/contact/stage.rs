//! What the contact kinds of one implicit stage are built from ([`ContactStage`]): the law, the
//! pinned vertices, the substep's start, and each kind's own inputs — the analytic colliders'
//! motions over the stage, the collider meshes swept over it, the deforming surfaces, the
//! shells' self-contact. The integrators fill it in one place; each kind takes what it needs
//! (`crate::assemble::terms`).

use super::collider_vertex::ContactPair;
use crate::contact::collider::vertex::ColliderMotion;
use crate::contact::collider_mesh::{MeshGeometry, MeshSearch, MeshTopology};
use crate::contact::self_contact::contact_mesh::SelfContactMesh;
use crate::contact::surface::{ImplicitSurface, Kernel};
use crate::contact::ContactLaw;
use crate::model::{Model, ObjectKind, SurfaceQuery};
use std::sync::Arc;

/// The contact inputs of one implicit stage.
pub struct ContactStage<'a> {
    /// Penalty and friction law of colliders, collider meshes and deforming surfaces (κ in use).
    pub law: ContactLaw,
    /// Per vertex: velocity prescribed (pinned).
    pub fixed: &'a [bool],
    /// Positions at the substep's start (m): lagged friction is frozen there.
    pub q_start: &'a [f64],
    /// Analytic colliders, if any.
    pub colliders: Option<ColliderStage<'a>>,
    /// Collider meshes met by the exact distance, if any.
    pub meshes: Option<MeshStage>,
    /// Deforming bodies' implicit surfaces and the vertices that meet them, if any.
    pub surfaces: Option<SurfaceStage<'a>>,
    /// The shells' self-contact, if on.
    pub self_contact: Option<SelfContactStage<'a>>,
}

impl<'a> ContactStage<'a> {
    /// A stage without contacts (law `law` for its records, `fixed` vertices, the substep
    /// starting at `q_start`).
    pub fn none(law: ContactLaw, fixed: &'a [bool], q_start: &'a [f64]) -> Self {
        Self { law, fixed, q_start, colliders: None, meshes: None, surfaces: None, self_contact: None }
    }
}

/// The analytic colliders over one stage.
pub struct ColliderStage<'a> {
    /// Each collider's motion over the stage.
    pub motions: Vec<ColliderMotion>,
    /// Every (contact vertex, collider) pair.
    pub pairs: &'a [ContactPair],
}

/// The deforming surfaces over a call.
#[derive(Clone, Copy)]
pub struct SurfaceStage<'a> {
    /// Implicit surface of each object.
    pub surfaces: &'a [ImplicitSurface],
    /// Potential contacts, grouped by surface.
    pub queries: &'a [SurfaceQuery],
    /// MLS kernel.
    pub kernel: Kernel,
    /// Candidate search padding (m).
    pub padding: f64,
}

/// The shells' self-contact over one stage.
#[derive(Clone, Copy)]
pub struct SelfContactStage<'a> {
    /// Shell triangles (and solids' boundary faces), topology, thicknesses and friction.
    pub mesh: &'a SelfContactMesh,
    /// The law of pairs of shells: κ_s in use, δ_min.
    pub law: ContactLaw,
    /// The law of shell–solid pairs: κ_b in use, δ_b.
    pub solid: ContactLaw,
    /// Candidate padding (m).
    pub padding: f64,
}

/// A potential contact: a simulated vertex against a collider mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshQuery {
    /// Global vertex index.
    pub vertex: u32,
    /// Index of the mesh in the stage's [`StageMesh`] list.
    pub mesh: u32,
    /// Friction coefficient μ of the pair.
    pub mu: f64,
}

/// One collider mesh over one stage.
#[derive(Clone)]
pub struct StageMesh {
    /// Connectivity (object-local corners).
    pub topology: Arc<MeshTopology>,
    /// Triangles swept from `start` to `stage`.
    pub search: Arc<MeshSearch>,
    /// The mesh at the start of the substep (lagged friction).
    pub start: MeshGeometry,
    /// The mesh at the end of the stage, with the corners' prescribed velocities.
    pub stage: MeshGeometry,
    /// Global index of the mesh's first vertex.
    pub first_vertex: u32,
    /// The simulated surface edges and triangles that meet the mesh's ridges and corners.
    pub surface: Arc<SurfacePrimitives>,
}

/// The collider meshes over one stage, with the vertices that can meet them.
#[derive(Clone)]
pub struct MeshStage {
    /// The meshes, in object order.
    pub meshes: Arc<Vec<StageMesh>>,
    /// Every (contact vertex, mesh) pair, grouped by mesh.
    pub queries: Arc<Vec<MeshQuery>>,
    /// Candidate search padding (m).
    pub padding: f64,
}

/// The edges and triangles of every simulated surface (shells' triangles, solids' boundary
/// faces) that can meet one collider mesh's ridges and corners, with their friction against it
/// and every vertex's rest position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SurfacePrimitives {
    /// Each edge once (global vertex indices, lower first), increasing.
    pub edges: Vec<[u32; 2]>,
    /// Per edge: μ between its object and the mesh (dimensionless).
    pub edge_mu: Vec<f64>,
    /// Each surface triangle (global vertex indices), in object order.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: μ between its object and the mesh (dimensionless).
    pub triangle_mu: Vec<f64>,
    /// Rest positions of all vertices (flat, 3 per vertex, m): the mollifier's threshold.
    pub rest: Arc<Vec<f64>>,
}

impl SurfacePrimitives {
    /// The surface edges and triangles of every shell and solid of `model` against the
    /// collider mesh of object id `mesh`; `rest` is the model's rest positions, flat.
    pub fn of_model(model: &Model, mesh: u32, rest: Arc<Vec<f64>>) -> Self {
        let mut edges: Vec<([u32; 2], u32)> = Vec::new();
        let (mut triangles, mut triangle_mu) = (Vec::new(), Vec::new());
        for o in model.objects.iter().filter(|o| matches!(o.kind, ObjectKind::Shell | ObjectKind::Solid)) {
            let first = o.first_vertex as u32;
            let mu = model.friction.pair(o.id, mesh);
            for t in &o.surface {
                for k in 0..3 {
                    let (a, b) = (t[k] + first, t[(k + 1) % 3] + first);
                    edges.push(([a.min(b), a.max(b)], o.id));
                }
                triangles.push([t[0] + first, t[1] + first, t[2] + first]);
                triangle_mu.push(mu);
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let edge_mu = edges.iter().map(|&(_, owner)| model.friction.pair(owner, mesh)).collect();
        Self { edges: edges.into_iter().map(|(e, _)| e).collect(), edge_mu, triangles, triangle_mu, rest }
    }
}
