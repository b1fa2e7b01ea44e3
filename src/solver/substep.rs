//! One substep of backward Euler from fraction f₀ to f₁ of a step/advance call, retried as two
//! half substeps when Newton fails (paper §4.2: singular Jacobians "can often be eliminated by
//! decreasing the time step"), up to `params.max_substep_halvings` times.

use super::{GripStepReport, ProgressFn};
use crate::error::{Error, Result};
use crate::integrate::backward_euler::{BackwardEuler, DampingMatrices};
use crate::integrate::SystemLayout;
use crate::scene::Model;
use crate::solve::{newton, DirectLu, NewtonSettings};

/// Everything a substep needs that does not change during a call.
pub(super) struct Substepper<'a> {
    pub model: &'a Model,
    pub layout: &'a SystemLayout,
    pub lu: &'a mut DirectLu,
    pub settings: NewtonSettings,
    pub gravity: [f64; 3],
    pub pinned: &'a [bool],
    pub target: &'a [Option<[f64; 3]>],
    /// Positions at the start of the call (pin goals interpolate from here).
    pub q_begin: &'a [f64],
    pub max_halvings: u32,
    pub progress: Option<&'a mut ProgressFn>,
    pub report: &'a mut GripStepReport,
}

impl Substepper<'_> {
    /// Integrates `(q, v)` over fractions `[f0, f1]` of the call, `h` seconds, halving on failure.
    /// On error `(q, v)` are unspecified (the caller discards them).
    pub fn interval(&mut self, q: &mut Vec<f64>, v: &mut Vec<f64>, f0: f64, f1: f64, h: f64, depth: u32) -> Result<()> {
        match self.try_substep(q, v, f0, f1, h) {
            Err(Error::NotConverged(_)) if depth < self.max_halvings => {
                self.report.substep_halvings += 1;
                let mid = 0.5 * (f0 + f1);
                self.interval(q, v, f0, mid, 0.5 * h, depth + 1)?;
                self.interval(q, v, mid, f1, 0.5 * h, depth + 1)
            }
            Err(Error::NotConverged(m)) => Err(Error::NotConverged(format!(
                "{m} (substep of h = {h:.3e} s at {:.1}% of the call, after {depth} halvings)",
                100.0 * f0
            ))),
            other => other,
        }
    }

    /// Prescribed velocities of pinned vertices: reach `q_begin + (target − q_begin) f1` in `h`.
    fn pin_velocities(&self, q: &[f64], f1: f64, h: f64) -> Vec<f64> {
        let mut v_fixed = vec![0.0; q.len()];
        for (i, _) in self.pinned.iter().enumerate().filter(|(_, p)| **p) {
            for k in 0..3 {
                let d = 3 * i + k;
                let goal = match self.target[i] {
                    Some(t) => self.q_begin[d] + (t[k] - self.q_begin[d]) * f1,
                    None => self.q_begin[d],
                };
                v_fixed[d] = (goal - q[d]) / h;
            }
        }
        v_fixed
    }

    fn try_substep(&mut self, q: &mut Vec<f64>, v: &mut Vec<f64>, f0: f64, f1: f64, h: f64) -> Result<()> {
        let v_fixed = self.pin_velocities(q, f1, h);
        let mut v_new = v.clone();
        for (i, _) in self.pinned.iter().enumerate().filter(|(_, p)| **p) {
            v_new[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
        }
        let damping = DampingMatrices::new(self.model, q);
        let mut system =
            BackwardEuler::new(self.model, self.layout, q, v, h, self.gravity, self.pinned, &v_fixed, &damping);
        let max_it = self.settings.max_iterations as f64;
        let progress = &mut self.progress;
        let mut on_iteration = |k: u32| match progress.as_mut() {
            Some(cb) => cb(f0 + (f1 - f0) * (k as f64 / max_it).min(1.0)),
            None => false,
        };
        let nnz = self.layout.pattern.nnz();
        let outcome = newton::solve(&mut system, self.lu, nnz, &mut v_new, &self.settings, &mut on_iteration);
        match outcome {
            Ok(o) => {
                self.report.add_substep(&o.stats);
                self.report.simulated_time += h;
                let q_new = system.positions(&v_new);
                *q = q_new;
                *v = v_new;
                Ok(())
            }
            Err((e, stats)) => {
                self.report.add_failed_attempt(&stats);
                Err(e)
            }
        }
    }
}
