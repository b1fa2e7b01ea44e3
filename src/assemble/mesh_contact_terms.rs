//! Contact and friction against kinematic collider meshes in the time-stepping residual and
//! Jacobian, by the exact distance to the mesh (`crate::contact::collider_mesh`): every contact
//! vertex meets the mesh's closest feature with the penalty b(d) (paper Eq. 3) and the smoothed
//! Coulomb friction (Eq. 16), as it would an analytic collider. The force on a vertex depends on
//! that vertex alone (the mesh is prescribed), so the Jacobian has only diagonal blocks and the
//! pattern never grows.
//!
//! The simulated surfaces' edges meet the meshes' sharp convex edges too ([`ridge_pairs`]), so
//! that a ridge cannot cut the cloth between two vertices, and their triangles the meshes'
//! sharp corners ([`corner_pairs`]), so that a corner cannot poke through a triangle's middle;
//! those pairs couple a primitive's own vertices, whose block the elements already hold
//! ([`feature_pairs`]).
//!
//! Candidate triangles are gathered per vertex within δ + padding of a reference position and
//! gathered again for a vertex that has moved more than half the padding from it, so no
//! triangle entering the δ band is missed and the residual is always the exact one. Vertices
//! are evaluated in parallel and summed serially in query order (thread-count independent).

use super::term::{StageContext, Term};
use crate::contact::collider::vertex::{self, GapField, LaggedFriction};
use crate::contact::collider_mesh::point::HeldNormal;
use crate::contact::collider_mesh::{MeshGeometry, MeshPoint, MeshSearch, MeshTopology, BLEND_FRACTION};
use crate::contact::law::FrictionCoupling;
use crate::contact::ContactLaw;
use crate::math::real::Real;
use nalgebra::Matrix3;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

pub mod corner_pairs;
pub mod feature_pairs;
pub mod ridge_pairs;

use corner_pairs::CornerPairs;
use ridge_pairs::RidgePairs;
pub use ridge_pairs::SurfacePrimitives;

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

/// The contacts of the stage's vertices with its collider meshes.
pub struct MeshContactTerms<'a> {
    law: ContactLaw,
    meshes: &'a [StageMesh],
    queries: &'a [MeshQuery],
    fixed: &'a [bool],
    padding: f64,
    /// Per query: the position the candidates were gathered at (m).
    reference: Vec<[f64; 3]>,
    /// Per query: triangles within δ + padding of the reference, increasing.
    candidates: Vec<Vec<u32>>,
    /// Per query: friction frozen at the substep start (lagged coupling only).
    lagged: Vec<Option<LaggedFriction>>,
    /// Friction frozen by the last [`Term::freeze_friction`].
    frozen: Vec<Option<LaggedFriction>>,
    /// The surface edges against the meshes' ridges.
    ridges: RidgePairs,
    /// The surface triangles against the meshes' corners.
    corners: CornerPairs,
    /// Jacobians hold each contact's normal ([`HeldNormal`]): the modified Newton Jacobian.
    definite: bool,
    /// How many times some vertex's candidates were gathered again.
    pub refreshes: u32,
    /// Seconds spent gathering candidates.
    pub seconds_search: f64,
}

fn position<T: Copy>(q: &[T], i: u32) -> [T; 3] {
    let i = 3 * i as usize;
    [q[i], q[i + 1], q[i + 2]]
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

impl<'a> MeshContactTerms<'a> {
    /// The contacts of `queries` against `meshes`, with substep-start positions `q_start` (m),
    /// candidates gathered around `q_guess` (m) with reach δ + `padding` (m); `fixed` vertices
    /// take no part.
    pub fn new(
        law: ContactLaw,
        meshes: &'a [StageMesh],
        queries: &'a [MeshQuery],
        fixed: &'a [bool],
        q_start: &[f64],
        q_guess: &[f64],
        padding: f64,
    ) -> Self {
        let started = Instant::now();
        let lagged = queries
            .par_iter()
            .map(|query| {
                if law.coupling != FrictionCoupling::Lagged || query.mu == 0.0 {
                    return None;
                }
                let mesh = &meshes[query.mesh as usize];
                let x = position(q_start, query.vertex);
                let c = mesh.search.closest(&mesh.topology, &mesh.start, x)?;
                Some(MeshPoint::of(&mesh.topology, &mesh.start, &c).frozen(&law, x))
            })
            .collect();
        let mut terms = Self {
            law,
            meshes,
            queries,
            fixed,
            padding,
            reference: vec![[f64::INFINITY; 3]; queries.len()],
            candidates: vec![Vec::new(); queries.len()],
            lagged,
            frozen: Vec::new(),
            ridges: RidgePairs::new(meshes, &law, fixed, q_guess, padding)
                .with_start(meshes, &law, fixed, q_start, padding),
            corners: CornerPairs::new(meshes, &law, fixed, q_guess, padding)
                .with_start(meshes, &law, fixed, q_start, padding),
            definite: false,
            refreshes: 0,
            seconds_search: started.elapsed().as_secs_f64(),
        };
        terms.gather(q_guess, true);
        if log::log_enabled!(log::Level::Debug) {
            log::debug!(
                "collider meshes: {} of {} vertex queries near a triangle, {} edge–ridge pairs and {} triangle–corner pairs (smallest gaps {:.3e} and {:.3e} m at the guess)",
                terms.candidates.iter().filter(|c| !c.is_empty()).count(),
                queries.len(),
                terms.ridges.pairs().len(),
                terms.corners.pairs().len(),
                terms.ridges.smallest_gap(q_guess, 0.0),
                terms.corners.smallest_gap(q_guess, 0.0)
            );
        }
        terms
    }

    /// Gathers the candidates of every query (`all`) or of those whose vertex in `q` is more
    /// than half the padding from its reference.
    fn gather(&mut self, q: &[f64], all: bool) {
        let started = Instant::now();
        let limit = 0.25 * self.padding * self.padding;
        let reach = self.law.delta + self.padding;
        let (meshes, queries, fixed) = (self.meshes, self.queries, self.fixed);
        let fresh: Vec<Option<([f64; 3], Vec<u32>)>> = (0..queries.len())
            .into_par_iter()
            .map(|k| {
                let query = &queries[k];
                let x = position(q, query.vertex);
                let moved: f64 = (0..3).map(|i| (x[i] - self.reference[k][i]).powi(2)).sum();
                let stale = all || !(moved <= limit);
                if fixed[query.vertex as usize] || !stale {
                    return None;
                }
                let mesh = &meshes[query.mesh as usize];
                Some((x, candidates(mesh, x, reach, self.padding)))
            })
            .collect();
        let mut any = false;
        for (k, f) in fresh.into_iter().enumerate() {
            if let Some((x, c)) = f {
                self.reference[k] = x;
                self.candidates[k] = c;
                any = true;
            }
        }
        if !all {
            any |= self.ridges.gather(meshes, &self.law, fixed, q, self.padding);
            any |= self.corners.gather(meshes, &self.law, fixed, q, self.padding);
        }
        if any && !all {
            self.refreshes += 1;
        }
        self.seconds_search += started.elapsed().as_secs_f64();
    }

    /// Gathers candidates again for the vertices of `q` (m) that moved more than half the
    /// padding from where they were gathered.
    pub fn ensure_fresh(&mut self, q: &[f64]) {
        self.gather(q, false);
    }

    fn lagged(&self, k: usize) -> Option<&LaggedFriction> {
        self.lagged.get(k).and_then(Option::as_ref)
    }

    /// Query `k`'s contact at position `x` (m): its closest candidate feature, or, for a vertex
    /// whose lagged friction acts while no triangle is near, the mesh's closest feature.
    fn point(&self, k: usize, x: [f64; 3]) -> Option<MeshPoint> {
        let query = &self.queries[k];
        let mesh = &self.meshes[query.mesh as usize];
        let tau = BLEND_FRACTION * self.law.delta;
        let near = MeshPoint::at(&mesh.topology, &mesh.stage, &self.candidates[k], x, tau);
        near.or_else(|| {
            self.lagged(k)?;
            let c = mesh.search.closest(&mesh.topology, &mesh.stage, x)?;
            Some(MeshPoint::of(&mesh.topology, &mesh.stage, &c))
        })
    }

    /// Query `k`'s contact at `x` (m) when it can exert a force there.
    fn active(&self, k: usize, x: [f64; 3]) -> Option<MeshPoint> {
        let query = &self.queries[k];
        if self.fixed[query.vertex as usize] {
            return None;
        }
        let p = self.point(k, x)?;
        vertex::is_active(&self.law, &p, query.mu, self.lagged(k), x).then_some(p)
    }

    /// out −= scale · F(q, v) for every query (F: contact plus friction force on the vertex),
    /// over [`Real`].
    pub fn add_forces<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        let forces: Vec<Option<[T; 3]>> = (0..self.queries.len())
            .into_par_iter()
            .map(|k| {
                let query = &self.queries[k];
                let x = position(q, query.vertex);
                let p = self.active(k, x.map(|t| t.re()))?;
                Some(vertex::force(&self.law, &p, query.mu, self.lagged(k), x, position(v, query.vertex)))
            })
            .collect();
        for (query, f) in self.queries.iter().zip(&forces) {
            if let Some(f) = f {
                for k in 0..3 {
                    out[3 * query.vertex as usize + k] -= f[k] * scale;
                }
            }
        }
        self.ridges.add_gradient(q, scale, out);
        self.ridges.add_friction(&self.law, v, scale, out);
        self.corners.add_gradient(q, scale, out);
        self.corners.add_friction(&self.law, v, scale, out);
    }

    /// The smallest gap (m) of the free vertices at positions `q` among the queries with
    /// candidates, and of the surface edges at the ridges and triangles at the corners (∞
    /// without any), and how many
    /// vertices are within the contact thickness.
    pub fn gap_summary(&self, q: &[f64]) -> (f64, u32) {
        let gaps: Vec<f64> = (0..self.queries.len())
            .into_par_iter()
            .filter(|&k| !self.fixed[self.queries[k].vertex as usize])
            .filter_map(|k| {
                let x = position(q, self.queries[k].vertex);
                let mesh = &self.meshes[self.queries[k].mesh as usize];
                let tau = BLEND_FRACTION * self.law.delta;
                MeshPoint::at(&mesh.topology, &mesh.stage, &self.candidates[k], x, tau).map(|p| p.gap(x).0)
            })
            .collect();
        let features = self.ridges.smallest_gap(q, self.law.kappa).min(self.corners.smallest_gap(q, self.law.kappa));
        let deepest = gaps.iter().copied().fold(features, f64::min);
        (deepest, gaps.iter().filter(|&&d| d < self.law.delta).count() as u32)
    }
}

impl Term for MeshContactTerms<'_> {
    fn refresh(&mut self, q: &[f64]) {
        self.ensure_fresh(q);
    }

    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        self.add_forces(q, v, scale, out);
    }

    /// Σ b(d) + h Σ D(v) with the friction frozen by the last `freeze_friction` (J).
    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
        self.ensure_fresh(q);
        let terms: Vec<f64> = (0..self.queries.len())
            .into_par_iter()
            .map(|k| {
                let query = &self.queries[k];
                let x = position(q, query.vertex);
                let Some(p) = self.active(k, x) else { return 0.0 };
                let mut e = self.law.energy(p.gap(x).0);
                if let Some(Some(f)) = self.frozen.get(k) {
                    let vv = position(v, query.vertex);
                    let v_rel = [0, 1, 2].map(|i| vv[i] - f.collider_velocity[i]);
                    e += stage.h * self.law.friction_potential(query.mu, f.lambda, f.normal, v_rel);
                }
                e
            })
            .collect();
        terms.iter().sum::<f64>()
            + self.ridges.energy(q)
            + self.ridges.friction_potential(&self.law, v, stage.h)
            + self.corners.energy(q)
            + self.corners.friction_potential(&self.law, v, stage.h)
    }

    fn freeze_friction(&mut self, q: &[f64]) {
        self.ensure_fresh(q);
        self.frozen = (0..self.queries.len())
            .into_par_iter()
            .map(|k| {
                let query = &self.queries[k];
                let frozen = match self.lagged(k) {
                    Some(l) => *l,
                    None => self.active(k, position(q, query.vertex))?.frozen(&self.law, position(q, query.vertex)),
                };
                (query.mu > 0.0 && frozen.lambda > 0.0).then_some(frozen)
            })
            .collect();
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
    }

    /// −h dF/dv into the vertices' diagonal blocks, along x = q̂ + h v, with the normal held
    /// when definite; h² ∇²W of the ridge and corner pairs into the edges' and triangles'
    /// blocks.
    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
        self.ensure_fresh(q);
        let blocks: Vec<Option<Matrix3<f64>>> = (0..self.queries.len())
            .into_par_iter()
            .map(|k| {
                let query = &self.queries[k];
                let x = position(q, query.vertex);
                let p = self.active(k, x)?;
                let x_base = position(stage.q_start, query.vertex);
                let vk = position(v, query.vertex);
                let (law, mu, lagged, h) = (&self.law, query.mu, self.lagged(k), stage.h);
                Some(if self.definite {
                    vertex::force_and_jacobian_along(law, &HeldNormal::at(&p, x), mu, lagged, x_base, vk, h).1
                } else {
                    vertex::force_and_jacobian_along(law, &p, mu, lagged, x_base, vk, h).1
                })
            })
            .collect();
        for (query, b) in self.queries.iter().zip(&blocks) {
            if let Some(b) = b {
                let slot = stage.layout.diagonal_slots[query.vertex as usize];
                for col in 0..3u32 {
                    for row in 0..3u32 {
                        jac[(slot.start + col * slot.stride + row) as usize] -=
                            stage.h * b[(row as usize, col as usize)];
                    }
                }
            }
        }
        let (h, pattern, fixed) = (stage.h, &stage.layout.pattern, stage.fixed);
        self.ridges.add_hessian(q, h * h, self.definite, pattern, fixed, jac)
            + self.ridges.add_friction_jacobian(&self.law, v, h, pattern, fixed, jac)
            + self.corners.add_hessian(q, h * h, self.definite, pattern, fixed, jac)
            + self.corners.add_friction_jacobian(&self.law, v, h, pattern, fixed, jac)
    }
}
