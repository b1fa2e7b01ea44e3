//! The merit of deforming-surface contact (penalty energy plus the frozen friction's
//! dissipation potential, paper Eq. 24), friction frozen at the start for lagged coupling
//! (paper Eq. 25), and the contact as a stage [`Term`].

use super::{position, start_side, SurfaceTerms};
use crate::assemble::term::{StageContext, Term};
use crate::contact::law::FrictionCoupling;
use crate::contact::surface::grid::SampleGrid;
use crate::contact::surface::stencil_force::{GapMeasure, LaggedSurfaceFriction};
use crate::contact::surface::{potential, ImplicitSurface, Kernel};
use crate::contact::ContactLaw;
use crate::math::real::Real;
use crate::model::SurfaceQuery;
use rayon::prelude::*;

impl SurfaceTerms<'_> {
    /// Friction frozen at end positions `q` for the Newton merit function, with each pair's μ:
    /// the implicit coupling's normal, force and weights at `q` (candidates needing a fresh
    /// search are searched again first), or the lagged data of lagged coupling.
    pub fn frozen_friction(&mut self, q: &[f64]) -> Vec<(f64, LaggedSurfaceFriction)> {
        if self.law.coupling == FrictionCoupling::Lagged {
            return self
                .lagged
                .iter()
                .enumerate()
                .filter_map(|(k, l)| l.as_ref().map(|l| (self.queries[k].mu, l.clone())))
                .filter(|(mu, _)| *mu > 0.0)
                .collect();
        }
        self.ensure_fresh(q);
        self.candidates
            .par_iter()
            .filter_map(|c| {
                let query = &self.queries[c.query];
                if query.mu <= 0.0 {
                    return None;
                }
                let surface = &self.surfaces[query.surface as usize];
                let pot =
                    potential::evaluate(surface, self.kernel, query.vertex, &c.samples, q, self.far(c.query), false)?;
                LaggedSurfaceFriction::new(&self.law, &pot, self.measure(c.query)).map(|f| (query.mu, f))
            })
            .collect()
    }

    /// Σ b(d) at end positions `q` plus `h` Σ D(v) of the friction frozen in `frozen` (J): the
    /// deforming-surface part of the merit function.
    pub fn potential(&mut self, q: &[f64], v: &[f64], h: f64, frozen: &[(f64, LaggedSurfaceFriction)]) -> f64 {
        self.ensure_fresh(q);
        let penalty: Vec<f64> = self
            .candidates
            .par_iter()
            .map(|c| {
                let query = &self.queries[c.query];
                let surface = &self.surfaces[query.surface as usize];
                let x = position(q, query.vertex);
                potential::value(surface, self.kernel, &x, &c.samples, q, self.far(c.query))
                    .map_or(0.0, |phi| self.law.energy(self.measure(c.query).gap(phi)))
            })
            .collect();
        let friction: Vec<f64> = frozen
            .par_iter()
            .map(|(mu, f)| self.law.friction_potential(*mu, f.lambda, f.normal, f.relative_velocity(v)))
            .collect();
        penalty.iter().sum::<f64>() + h * friction.iter().sum::<f64>()
    }
}

/// Friction frozen at `q_start` for every query (lagged coupling, paper Eq. 25).
pub(super) fn lagged_friction(
    law: &ContactLaw,
    kernel: Kernel,
    surfaces: &[ImplicitSurface],
    queries: &[SurfaceQuery],
    q_start: &[f64],
) -> Vec<Option<LaggedSurfaceFriction>> {
    let grids: Vec<SampleGrid> = surfaces
        .iter()
        .map(|s| SampleGrid::new((0..s.triangles.len()).map(|i| s.centroid(i, q_start)).collect(), s.radius.clone()))
        .collect();
    queries
        .par_iter()
        .map(|query| {
            let surface = &surfaces[query.surface as usize];
            let samples = grids[query.surface as usize].query(&position(q_start, query.vertex));
            let side = if surface.two_sided { start_side(surfaces, query, &samples, q_start) } else { 1.0 };
            let pot = potential::evaluate(surface, kernel, query.vertex, &samples, q_start, side * surface.far, false)?;
            LaggedSurfaceFriction::new(law, &pot, GapMeasure { side, offset: query.offset })
        })
        .collect()
}

/// Contact and friction between deforming meshes as a stage term: −f = −F_c, merit Σ b(d) +
/// h Σ D_f with friction frozen by [`Term::freeze_friction`], Jacobian −h ∂F_c/∂v.
impl Term for SurfaceTerms<'_> {
    fn refresh(&mut self, q: &[f64]) {
        self.ensure_fresh(q);
    }

    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        self.add_forces(q, v, scale, out);
    }

    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
        let frozen = std::mem::take(&mut self.frozen);
        let phi = self.potential(q, v, stage.h, &frozen);
        self.frozen = frozen;
        phi
    }

    fn freeze_friction(&mut self, q: &[f64]) {
        self.frozen = self.frozen_friction(q);
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
        self.ensure_fresh(q);
        SurfaceTerms::add_jacobian(self, q, v, stage.h, stage.h, stage.fixed, &stage.layout.pattern, jac)
    }
}
