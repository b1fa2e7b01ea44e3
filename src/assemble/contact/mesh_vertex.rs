//! A vertex against a collider mesh by the exact distance (`crate::contact::collider_mesh`):
//! every contact vertex meets the mesh's closest feature with the penalty b(d) (paper Eq. 3)
//! and the smoothed Coulomb friction (Eq. 16), as it would an analytic collider. The force on a
//! vertex depends on that vertex alone (the mesh is prescribed), so the Jacobian has only
//! diagonal blocks and the pattern never grows ([`super::vertex_contacts`]). The surfaces'
//! edges and triangles meet the
//! meshes' sharp ridges and corners too (`super::mesh_ridge`, `super::mesh_corner`).
//!
//! Each free vertex is a gather unit: its candidate triangles are those within δ + padding of
//! where it was gathered (or, behind the mesh, within its distance plus the padding), so no
//! triangle entering the δ band is missed.

use super::stage::{ContactStage, MeshQuery, MeshStage, StageMesh};
use super::vertex_contacts::{KinematicSurface, VertexContacts};
use super::{position, Units};
use crate::contact::collider::vertex::{FrozenVertexFriction, GapField};
use crate::contact::collider_mesh::{MeshPoint, BLEND_FRACTION};
use crate::contact::ContactLaw;
use rayon::prelude::*;

/// One vertex's candidate triangles of one mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshVertexStencil {
    /// Index of the query.
    pub query: u32,
    /// Triangles within reach where the vertex was gathered, increasing.
    pub triangles: Vec<u32>,
}

/// The collider meshes of a stage as the kinematic surface its vertices meet.
pub struct MeshSurfaces {
    law: ContactLaw,
    stage: MeshStage,
    /// The query of each gather unit (the free vertices').
    unit_queries: Vec<u32>,
}

/// The contacts of the stage's vertices with its collider meshes.
pub type MeshVertices = VertexContacts<MeshSurfaces>;

/// The triangles of `mesh` within `reach` (m) of `x`; for a point behind the mesh (inside a
/// closed one, behind an open one's winding) and beyond that reach, those within its distance
/// plus `padding` (m), which hold its closest feature wherever it moves within half the
/// padding: a vertex that Newton's guess or an iterate takes through the contact layer in one
/// step is pushed back, not lost.
fn candidates(mesh: &StageMesh, x: [f64; 3], reach: f64, padding: f64) -> Vec<u32> {
    let (topology, stage) = (&*mesh.topology, &mesh.stage);
    let near = mesh.search.within(topology, stage, x, reach);
    if !near.is_empty() {
        return near;
    }
    let Some(closest) = mesh.search.closest(topology, stage, x) else { return near };
    if stage.side(topology, x, &[closest.triangle]) > 0.0 {
        return near;
    }
    mesh.search.within(topology, stage, x, closest.distance2.sqrt() + padding)
}

impl VertexContacts<MeshSurfaces> {
    /// The vertex contacts of `stage`'s collider meshes, `None` without any.
    pub fn of(stage: &ContactStage) -> Option<Self> {
        let meshes = stage.meshes.clone()?;
        let unit_queries = (0..meshes.queries.len() as u32)
            .filter(|&k| !stage.fixed[meshes.queries[k as usize].vertex as usize])
            .collect();
        Some(VertexContacts(MeshSurfaces { law: stage.law, stage: meshes, unit_queries }))
    }
}

impl MeshSurfaces {
    fn mesh(&self, query: &MeshQuery) -> &StageMesh {
        &self.stage.meshes[query.mesh as usize]
    }
}

impl KinematicSurface for MeshSurfaces {
    type Stencil = MeshVertexStencil;
    type Field<'s> = MeshPoint;
    const HOLD_NORMAL: bool = true;

    fn law(&self) -> &ContactLaw {
        &self.law
    }

    /// One unit per free query, tracking its vertex.
    fn units(&self) -> Units {
        let queries = &self.stage.queries;
        Units::each(self.unit_queries.iter().map(|&k| [queries[k as usize].vertex]), self.stage.padding)
    }

    fn gather(&mut self, units: &[usize], q: &[f64]) -> Vec<Vec<MeshVertexStencil>> {
        let reach = self.law.delta + self.stage.padding;
        units
            .par_iter()
            .map(|&u| {
                let k = self.unit_queries[u];
                let query = &self.stage.queries[k as usize];
                let triangles = candidates(self.mesh(query), position(q, query.vertex), reach, self.stage.padding);
                if triangles.is_empty() {
                    Vec::new()
                } else {
                    vec![MeshVertexStencil { query: k, triangles }]
                }
            })
            .collect()
    }

    /// Per free query with μ > 0: the friction at its closest feature of the mesh at the
    /// substep's start.
    fn lagged(&self, q_start: &[f64]) -> Vec<FrozenVertexFriction> {
        self.unit_queries
            .par_iter()
            .filter_map(|&k| {
                let query = &self.stage.queries[k as usize];
                if query.mu == 0.0 {
                    return None;
                }
                let mesh = self.mesh(query);
                let x = position(q_start, query.vertex);
                let c = mesh.search.closest(&mesh.topology, &mesh.start, x)?;
                let point = MeshPoint::of(&mesh.topology, &mesh.start, &c);
                Some(point.frozen(&self.law, query.mu, query.vertex, x)).filter(|f| f.lambda > 0.0)
            })
            .collect()
    }

    fn has_friction(&self) -> bool {
        self.stage.queries.iter().any(|q| q.mu > 0.0)
    }

    fn vertex(&self, s: &MeshVertexStencil) -> (u32, f64) {
        let query = &self.stage.queries[s.query as usize];
        (query.vertex, query.mu)
    }

    /// The stencil's candidate triangles blended at `x` (`MeshPoint::at`).
    fn field<'s>(&'s self, s: &'s MeshVertexStencil, x: [f64; 3]) -> Option<MeshPoint> {
        let mesh = self.mesh(&self.stage.queries[s.query as usize]);
        MeshPoint::at(&mesh.topology, &mesh.stage, &s.triangles, x, BLEND_FRACTION * self.law.delta)
    }
}
