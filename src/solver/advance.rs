//! Time stepping: `step` (one implicit step) and `advance` (substeps of at most
//! `params.time_step`, pin targets interpolated linearly over the substeps). Works on copies of
//! the state and commits only when every substep converged.

use super::{GripStepReport, Solver};
use crate::error::{Error, Result};
use crate::integrate::backward_euler::{BackwardEuler, DampingMatrices};
use crate::integrate::{element_terms, SystemLayout};
use crate::scene::Model;
use crate::solve::{newton, DirectLu, NewtonSettings};
use std::time::Instant;

/// Most substeps one `advance` may take.
pub const MAX_SUBSTEPS: usize = 1_000_000;

/// ½ vᵀMv [J].
pub fn kinetic_energy(model: &Model, v: &[f64]) -> f64 {
    model.mass.iter().zip(v.chunks_exact(3)).map(|(m, v)| 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])).sum()
}

/// W(q) [J]: elastic energy of every element.
pub fn elastic_energy(model: &Model, q: &[f64]) -> f64 {
    element_terms::energy(&model.tets.elements, q)
        + element_terms::energy(&model.membranes.elements, q)
        + element_terms::energy(&model.hinges.elements, q)
}

impl Solver {
    /// One implicit step of `dt` seconds.
    pub fn step(&mut self, dt: f64) -> Result<()> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::invalid(format!("dt must be finite and > 0 s, got {dt}")));
        }
        self.run(1, dt)
    }

    /// Advances by `duration` seconds in equal substeps of at most `params.time_step`.
    pub fn advance(&mut self, duration: f64) -> Result<()> {
        if !(duration.is_finite() && duration > 0.0) {
            return Err(Error::invalid(format!("duration must be finite and > 0 s, got {duration}")));
        }
        let n = (duration / self.params.time_step * (1.0 - 1e-12)).ceil().max(1.0);
        if n > MAX_SUBSTEPS as f64 {
            return Err(Error::invalid(format!(
                "duration {duration} s needs {n} substeps of {} s (limit {MAX_SUBSTEPS})",
                self.params.time_step
            )));
        }
        self.run(n as usize, duration / n)
    }

    fn run(&mut self, substeps: usize, h: f64) -> Result<()> {
        let started = Instant::now();
        let mut report = GripStepReport {
            pinned_vertices: self.pinned.iter().filter(|p| **p).count() as u32,
            ..Default::default()
        };
        let pool = self.pool.clone();
        let result = pool.install(|| -> Result<(Vec<f64>, Vec<f64>)> {
            if self.layout.is_none() {
                let t = Instant::now();
                let layout = SystemLayout::new(&self.model);
                let lu = DirectLu::new(&layout.pattern)?;
                self.layout = Some((layout, lu));
                report.seconds_factorization += t.elapsed().as_secs_f64();
            }
            let Solver { params, model, q, v, pinned, target, layout, progress, .. } = &mut *self;
            let (layout, lu) = layout.as_mut().ok_or_else(|| Error::Panic("no system layout".into()))?;
            let settings = NewtonSettings {
                max_iterations: params.max_newton_iterations,
                max_line_search_steps: params.max_line_search_steps,
                residual_tolerance: params.residual_tolerance,
                velocity_tolerance: params.velocity_tolerance,
            };
            let q_begin = q.clone();
            let (mut q, mut v) = (q.clone(), v.clone());
            let mut v_fixed = vec![0.0; v.len()];
            for s in 0..substeps {
                let frac = (s + 1) as f64 / substeps as f64;
                for (i, _) in pinned.iter().enumerate().filter(|(_, p)| **p) {
                    for k in 0..3 {
                        let d = 3 * i + k;
                        let goal = match target[i] {
                            Some(t) => q_begin[d] + (t[k] - q_begin[d]) * frac,
                            None => q_begin[d],
                        };
                        v_fixed[d] = (goal - q[d]) / h;
                        v[d] = v_fixed[d];
                    }
                }
                let damping = DampingMatrices::new(model, &q);
                let v_start = v.clone();
                let mut system =
                    BackwardEuler::new(model, layout, &q, &v_start, h, params.gravity, pinned, &v_fixed, &damping);
                let max_it = params.max_newton_iterations as f64;
                let mut on_iteration = |k: u32| match progress.as_mut() {
                    Some(cb) => cb((s as f64 + (k as f64 / max_it).min(1.0)) / substeps as f64),
                    None => false,
                };
                let nnz = layout.pattern.nnz();
                let outcome =
                    newton::solve(&mut system, lu, nnz, &mut v, &settings, &mut on_iteration);
                match outcome {
                    Ok(o) => report.add_substep(&o.stats),
                    Err((e, stats)) => {
                        report.add_substep(&stats);
                        let e = match e {
                            Error::NotConverged(m) => Error::NotConverged(format!(
                                "substep {} of {substeps} (h = {h:.3e} s): {m}; the solver is unchanged",
                                s + 1
                            )),
                            other => other,
                        };
                        return Err(e);
                    }
                }
                if let Some(cb) = progress.as_mut() {
                    if cb((s + 1) as f64 / substeps as f64) && s + 1 < substeps {
                        return Err(Error::Cancelled("cancelled by the progress callback".into()));
                    }
                }
                q = system.positions(&v);
            }
            Ok((q, v))
        });
        report.simulated_time = h * report.substeps as f64;
        let outcome = match result {
            Ok((q, v)) => {
                self.q = q;
                self.v = v;
                self.target.iter_mut().for_each(|t| *t = None);
                report.converged = 1;
                Ok(())
            }
            Err(e) => Err(e),
        };
        report.kinetic_energy = kinetic_energy(&self.model, &self.v);
        report.elastic_energy = self.pool.install(|| elastic_energy(&self.model, &self.q));
        report.seconds_total = started.elapsed().as_secs_f64();
        self.report = report;
        outcome
    }
}
