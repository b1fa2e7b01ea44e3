//! A vertex against a deforming body's implicit surface (paper §3.2): every (query vertex,
//! surface) pair of the model, with the penalty on the MLS potential's gap and smoothed
//! Coulomb friction against the surface vertices under it
//! (`crate::contact::surface::stencil_force`). A stencil is a query vertex with the candidate
//! samples whose kernel support may reach it; its vertices are the query's and the samples'.
//!
//! The candidates come from a grid search around a reference configuration, grown by a
//! padding, as one gather unit over the query vertices and the surfaces' vertices, so no
//! sample that enters a kernel support is ever missed (paper §6). The Jacobian pattern comes
//! from the candidates at the guess; couplings that appear later in the substep and are not in
//! it are dropped from the Jacobian (Newton then converges on the exact residual with a
//! slightly inexact Jacobian).

use super::stage::{ContactStage, SurfaceStage};
use super::{position, CandidateCache, ContactKind, Frozen, JacobianBlock, JacobianStage, StencilGap, Units};
use crate::contact::surface::grid::SampleGrid;
use crate::contact::surface::stencil_force::{self, GapMeasure, StencilForce};
use crate::contact::surface::{first_order, potential, surface, ImplicitSurface, Kernel};
use crate::contact::{ContactLaw, FrictionCoupling};
use crate::math::real::Real;
use crate::model::SurfaceQuery;
use nalgebra::Dyn;
use rayon::prelude::*;

/// A query vertex near a surface, with the samples that may reach it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Index into the queries.
    pub query: usize,
    /// Sample indices of the surface, increasing.
    pub samples: Vec<u32>,
}

/// The deforming-surface contacts of one stage.
pub struct SurfaceQueries<'a> {
    law: ContactLaw,
    kernel: Kernel,
    surfaces: &'a [ImplicitSurface],
    queries: &'a [SurfaceQuery],
    q_start: &'a [f64],
    padding: f64,
    /// Per query: the side (±1) of a two-sided surface the vertex started on; 0 until known.
    side: Vec<f64>,
}

impl<'a> SurfaceQueries<'a> {
    /// The surface contacts of `stage`, `None` without any.
    pub fn of(stage: &ContactStage<'a>) -> Option<Self> {
        let s: &SurfaceStage<'a> = stage.surfaces.as_ref().filter(|s| !s.queries.is_empty())?;
        Some(Self {
            law: stage.law,
            kernel: s.kernel,
            surfaces: s.surfaces,
            queries: s.queries,
            q_start: stage.q_start,
            padding: s.padding,
            side: vec![0.0; s.queries.len()],
        })
    }

    /// The gap measure of query `k`: its side and offset.
    fn measure(&self, k: usize) -> GapMeasure {
        GapMeasure { side: self.side[k], offset: self.queries[k].offset }
    }

    /// The background value φ₀ of query `k`'s potential: its surface's far gap on the side the
    /// query is on (negative on the back of a two-sided surface), so the gap blends to +far.
    fn far(&self, k: usize) -> f64 {
        let side = if self.side[k] == 0.0 { 1.0 } else { self.side[k] };
        side * self.surfaces[self.queries[k].surface as usize].far
    }

    fn implicit(&self) -> bool {
        self.law.coupling != FrictionCoupling::Lagged
    }

    /// Penalty and implicit friction of candidate `c` at end positions `q` with step `h` (s),
    /// with its Jacobian (the modified one when `definite`) if asked.
    fn evaluate(
        &self,
        c: &Candidate,
        q: &[f64],
        v: &[f64],
        h: f64,
        jacobian: bool,
        definite: bool,
    ) -> Option<StencilForce> {
        let query = &self.queries[c.query];
        let surface = &self.surfaces[query.surface as usize];
        let measure = self.measure(c.query);
        // Second derivatives only for the exact Jacobian of a contact inside the band d < δ.
        let second = |phi: f64| jacobian && !definite && measure.gap(phi) < self.law.delta;
        let pot =
            potential::evaluate_where(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query), second)?;
        stencil_force::end_of_step_force(&self.law, query.mu, &pot, measure, v, h, self.implicit(), jacobian, definite)
    }
}

impl ContactKind for SurfaceQueries<'_> {
    type Stencil = Candidate;
    type Vertices = Vec<u32>;
    type Values<T: Real + Send + Sync> = Vec<T>;
    type Block = nalgebra::DMatrix<f64>;
    type Weights = Vec<f64>;
    const COUPLES: bool = true;

    fn law(&self) -> &ContactLaw {
        &self.law
    }

    /// One unit over the query vertices and the vertices of every surface with queries.
    fn units(&self) -> Units {
        let mut tracked: Vec<u32> = self.queries.iter().map(|q| q.vertex).collect();
        let mut with_queries = vec![false; self.surfaces.len()];
        self.queries.iter().for_each(|q| with_queries[q.surface as usize] = true);
        for (s, _) in with_queries.iter().enumerate().filter(|(_, w)| **w) {
            tracked.extend(self.surfaces[s].triangles.iter().flatten());
        }
        tracked.sort_unstable();
        tracked.dedup();
        Units::one(tracked, self.padding)
    }

    /// The candidates of every query at `q` (m): per surface, a grid of its samples' centroids
    /// with their kernel radii grown by the padding. A query's side of a two-sided surface is
    /// set when it is first found.
    fn gather(&mut self, _units: &[usize], q: &[f64]) -> Vec<Vec<Candidate>> {
        let mut candidates = Vec::new();
        let mut start = 0;
        while start < self.queries.len() {
            let s = self.queries[start].surface as usize;
            let end = start + self.queries[start..].iter().take_while(|x| x.surface as usize == s).count();
            let surface = &self.surfaces[s];
            let grid = SampleGrid::new(
                (0..surface.triangles.len()).map(|i| surface.centroid(i, q)).collect(),
                surface.radius.iter().map(|r| r + self.padding).collect(),
            );
            let found: Vec<Candidate> = (start..end)
                .into_par_iter()
                .filter_map(|k| {
                    let samples = grid.query(&position(q, self.queries[k].vertex));
                    (!samples.is_empty()).then_some(Candidate { query: k, samples })
                })
                .collect();
            candidates.extend(found);
            start = end;
        }
        for c in &candidates {
            let query = &self.queries[c.query];
            let surface = &self.surfaces[query.surface as usize];
            if self.side[c.query] == 0.0 {
                self.side[c.query] =
                    if surface.two_sided { start_side(self.surfaces, query, &c.samples, self.q_start) } else { 1.0 };
            }
        }
        vec![candidates]
    }

    /// Per query with μ > 0: the friction at the substep's start `q_start` (m), from its own
    /// samples there (paper Eq. 25).
    fn lagged(&self, q_start: &[f64], _candidates: &CandidateCache<Candidate>) -> Vec<Frozen<Self>> {
        let (law, kernel, surfaces) = (&self.law, self.kernel, self.surfaces);
        let grids: Vec<SampleGrid> = surfaces
            .iter()
            .map(|s| {
                SampleGrid::new((0..s.triangles.len()).map(|i| s.centroid(i, q_start)).collect(), s.radius.clone())
            })
            .collect();
        let frozen: Vec<Option<Frozen<Self>>> = self
            .queries
            .par_iter()
            .map(|query| {
                let surface = &surfaces[query.surface as usize];
                let samples = grids[query.surface as usize].query(&position(q_start, query.vertex));
                let side = if surface.two_sided { start_side(surfaces, query, &samples, q_start) } else { 1.0 };
                let pot =
                    potential::evaluate(surface, kernel, query.vertex, &samples, q_start, side * surface.far, false)?;
                let measure = GapMeasure { side, offset: query.offset };
                (query.mu > 0.0).then(|| stencil_force::frozen_friction(law, query.mu, &pot, measure)).flatten()
            })
            .collect();
        frozen.into_iter().flatten().collect()
    }

    fn has_friction(&self) -> bool {
        self.queries.iter().any(|q| q.mu > 0.0)
    }

    fn force<T: Real + Send + Sync>(&self, c: &Candidate, q: &[T], v: &[T]) -> Option<(Vec<u32>, Vec<T>)> {
        let query = &self.queries[c.query];
        let surface = &self.surfaces[query.surface as usize];
        let pot = first_order::evaluate(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query))?;
        let f = stencil_force::stencil_force(&self.law, query.mu, &pot, self.measure(c.query), v, self.implicit())?;
        Some((pot.stencil, f))
    }

    fn energy(&self, c: &Candidate, q: &[f64]) -> f64 {
        let query = &self.queries[c.query];
        let surface = &self.surfaces[query.surface as usize];
        let x = position(q, query.vertex);
        potential::value(surface, self.kernel, &x, &c.samples, q, self.far(c.query))
            .map_or(0.0, |phi| self.law.energy(self.measure(c.query).gap(phi)))
    }

    /// −h dF/dv (penalty and implicit friction) on the potential's stencil.
    fn jacobian(&self, c: &Candidate, stage: &JacobianStage, q: &[f64], v: &[f64]) -> Option<JacobianBlock<Self>> {
        let f = self.evaluate(c, q, v, stage.h, true, stage.definite)?;
        Some((f.stencil, f.jacobian?, -stage.h))
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block {
        f.jacobian(&self.law, v, Dyn(3 * f.vertices.len()))
    }

    fn freeze(&self, c: &Candidate, q: &[f64]) -> Option<Frozen<Self>> {
        let query = &self.queries[c.query];
        if query.mu <= 0.0 {
            return None;
        }
        let surface = &self.surfaces[query.surface as usize];
        let pot = potential::evaluate(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query), false)?;
        stencil_force::frozen_friction(&self.law, query.mu, &pot, self.measure(c.query))
    }

    /// The gap of a contact with a free vertex.
    fn gap(&self, c: &Candidate, q: &[f64], fixed: &[bool]) -> Option<StencilGap> {
        let query = &self.queries[c.query];
        let surface = &self.surfaces[query.surface as usize];
        let free = !fixed[query.vertex as usize]
            || c.samples.iter().any(|&i| surface.triangles[i as usize].iter().any(|&v| !fixed[v as usize]));
        if !free {
            return None;
        }
        let x = position(q, query.vertex);
        let phi = potential::value(surface, self.kernel, &x, &c.samples, q, self.far(c.query))?;
        let gap = self.measure(c.query).gap(phi);
        Some(StencilGap { gap, active: gap < self.law.delta })
    }

    fn reports_gaps(&self) -> bool {
        true
    }

    /// The query vertex and every vertex of its samples.
    fn coupling(&self, c: &Candidate) -> Vec<u32> {
        let q = &self.queries[c.query];
        let tris = &self.surfaces[q.surface as usize].triangles;
        let mut s = vec![q.vertex];
        s.extend(c.samples.iter().flat_map(|&i| tris[i as usize]));
        s.sort_unstable();
        s.dedup();
        s
    }
}

/// |n_S · n̂| below which a solid's vertex meets a shell too obliquely for its outward normal
/// to tell the side (`start_side`).
const GRAZING: f64 = 0.3;

/// The side (±1) of a two-sided surface that `query`'s vertex is on at `q_start`. A solid's
/// vertex (`query.own_surface`) is on the side its outward normal n̂ faces away from: −sign(n_S·n̂)
/// with n_S the normal of the nearest candidate sample — whichever side of the shell's plane it
/// is on at `q_start`, since with its gap offset it may end a step past the mid-surface, and a
/// side taken from that position would then push it on through. Otherwise (and for a grazing
/// n̂) the sign of its distance to that plane (+1 on the plane).
fn start_side(surfaces: &[ImplicitSurface], query: &SurfaceQuery, samples: &[u32], q_start: &[f64]) -> f64 {
    let surface = &surfaces[query.surface as usize];
    let x = position(q_start, query.vertex);
    let nearest = samples.iter().min_by(|&&a, &&b| {
        let da = surface::dist(&surface.centroid(a as usize, q_start), &x);
        let db = surface::dist(&surface.centroid(b as usize, q_start), &x);
        da.total_cmp(&db)
    });
    let Some(&i) = nearest else { return 1.0 };
    let d = surface.plane_distance(i as usize, &x, q_start);
    let outward = query.own_surface.and_then(|o| surfaces[o as usize].vertex_normal(query.vertex, q_start));
    if let Some(n) = outward {
        let along = surface.plane_distance(i as usize, &[x[0] + n[0], x[1] + n[1], x[2] + n[2]], q_start) - d;
        if along.abs() > GRAZING {
            return if along > 0.0 { -1.0 } else { 1.0 };
        }
    }
    if d < 0.0 {
        -1.0
    } else {
        1.0
    }
}
