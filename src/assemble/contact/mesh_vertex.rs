//! A vertex against a collider mesh by the exact distance (`crate::contact::collider_mesh`):
//! every contact vertex meets the mesh's closest feature with the penalty b(d) (paper Eq. 3)
//! and the smoothed Coulomb friction (Eq. 16), as it would an analytic collider. The force on a
//! vertex depends on that vertex alone (the mesh is prescribed), so the Jacobian has only
//! diagonal blocks and the pattern never grows. The surfaces' edges and triangles meet the
//! meshes' sharp ridges and corners too (`super::mesh_ridge`, `super::mesh_corner`).
//!
//! Each free vertex is a gather unit: its candidate triangles are those within δ + padding of
//! where it was gathered (or, behind the mesh, within its distance plus the padding), so no
//! triangle entering the δ band is missed.

use super::stage::{ContactStage, MeshQuery, MeshStage, StageMesh};
use super::{position, CandidateCache, ContactKind, Frozen, JacobianStage, StencilGap, Units};
use crate::contact::collider::vertex::{self, GapField};
use crate::contact::collider_mesh::point::HeldNormal;
use crate::contact::collider_mesh::{MeshPoint, BLEND_FRACTION};
use crate::contact::ContactLaw;
use crate::math::real::Real;
use nalgebra::U3;
use rayon::prelude::*;

/// One vertex's candidate triangles of one mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshVertexStencil {
    /// Index of the query.
    pub query: u32,
    /// Triangles within reach where the vertex was gathered, increasing.
    pub triangles: Vec<u32>,
}

/// The contacts of the stage's vertices with its collider meshes.
pub struct MeshVertices<'a> {
    law: ContactLaw,
    stage: MeshStage,
    /// The query of each gather unit (the free vertices').
    unit_queries: Vec<u32>,
    lifetime: std::marker::PhantomData<&'a ()>,
}

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

impl<'a> MeshVertices<'a> {
    /// The vertex contacts of `stage`'s collider meshes, `None` without any.
    pub fn of(stage: &ContactStage<'a>) -> Option<Self> {
        let meshes = stage.meshes.clone()?;
        let unit_queries =
            (0..meshes.queries.len() as u32).filter(|&k| !stage.fixed[meshes.queries[k as usize].vertex as usize]).collect();
        Some(Self { law: stage.law, stage: meshes, unit_queries, lifetime: std::marker::PhantomData })
    }

    fn query(&self, s: &MeshVertexStencil) -> &MeshQuery {
        &self.stage.queries[s.query as usize]
    }

    fn mesh(&self, query: &MeshQuery) -> &StageMesh {
        &self.stage.meshes[query.mesh as usize]
    }

    /// The stencil's contact at `x` (m): its candidate triangles blended (`MeshPoint::at`).
    fn point(&self, s: &MeshVertexStencil, x: [f64; 3]) -> Option<MeshPoint> {
        let mesh = self.mesh(self.query(s));
        MeshPoint::at(&mesh.topology, &mesh.stage, &s.triangles, x, BLEND_FRACTION * self.law.delta)
    }

    /// The stencil's contact at `x` (m) when it exerts a penalty there (d < δ).
    fn active(&self, s: &MeshVertexStencil, x: [f64; 3]) -> Option<MeshPoint> {
        self.point(s, x).filter(|p| p.gap(x).0 < self.law.delta)
    }

}

impl ContactKind for MeshVertices<'_> {
    type Stencil = MeshVertexStencil;
    type Vertices = [u32; 1];
    type Values<T: Real + Send + Sync> = [T; 3];
    type Block = nalgebra::Matrix3<f64>;
    type Weights = [f64; 1];

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
    fn lagged(&self, q_start: &[f64], _candidates: &CandidateCache<MeshVertexStencil>) -> Vec<Frozen<Self>> {
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

    fn force<T: Real + Send + Sync>(&self, s: &MeshVertexStencil, q: &[T], v: &[T]) -> Option<([u32; 1], [T; 3])> {
        let query = self.query(s);
        let x = position(q, query.vertex);
        let p = self.active(s, x.map(|t| t.re()))?;
        Some(([query.vertex], vertex::force(&self.law, &p, self.stencil_mu(query.mu), x, position(v, query.vertex))))
    }

    fn energy(&self, s: &MeshVertexStencil, q: &[f64]) -> f64 {
        let x = position(q, self.query(s).vertex);
        self.active(s, x).map_or(0.0, |p| self.law.energy(p.gap(x).0))
    }

    /// −h dF/dv into the vertex's diagonal block along x = q̂ + h v, with the normal held when
    /// definite ([`HeldNormal`]: near a convex edge or corner the normal turns over a length
    /// equal to the gap, and that turning makes the exact Jacobian indefinite).
    fn jacobian(
        &self,
        s: &MeshVertexStencil,
        stage: &JacobianStage,
        q: &[f64],
        v: &[f64],
    ) -> Option<([u32; 1], Self::Block)> {
        let query = self.query(s);
        let x = position(q, query.vertex);
        let p = self.active(s, x)?;
        let (x_base, u, mu) = (position(stage.q_base, query.vertex), position(v, query.vertex), self.stencil_mu(query.mu));
        let (_, j) = if stage.definite {
            vertex::force_and_jacobian_along(&self.law, &HeldNormal::at(&p, x), mu, x_base, u, stage.h)
        } else {
            vertex::force_and_jacobian_along(&self.law, &p, mu, x_base, u, stage.h)
        };
        Some(([query.vertex], j * -stage.h))
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block {
        f.jacobian(&self.law, v, U3)
    }

    fn freeze(&self, s: &MeshVertexStencil, q: &[f64]) -> Option<Frozen<Self>> {
        let query = self.query(s);
        let x = position(q, query.vertex);
        (query.mu > 0.0)
            .then(|| self.active(s, x))
            .flatten()
            .map(|p| p.frozen(&self.law, query.mu, query.vertex, x))
            .filter(|f| f.lambda > 0.0)
    }

    fn gap(&self, s: &MeshVertexStencil, q: &[f64], _fixed: &[bool]) -> Option<StencilGap> {
        let x = position(q, self.query(s).vertex);
        let gap = self.point(s, x)?.gap(x).0;
        Some(StencilGap { gap, active: gap < self.law.delta })
    }

    fn reports_gaps(&self) -> bool {
        true
    }
}
