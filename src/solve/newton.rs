//! Damped Newton on r(v) = 0 (paper Algorithm 1): J(v_k) p_k = −r(v_k) by sparse LU, then
//! backtracking on ‖r‖₂ until ‖r(v_k + α p_k)‖ ≤ (1 − c₁α)‖r(v_k)‖ (c₁ = 10⁻⁴).
//! ShouldStop: ‖r‖₂ ≤ tol_r ‖r(v₀)‖₂, or a full step (α = 1) changing no velocity by more than tol_v.

use super::direct_lu::DirectLu;
use crate::error::{Error, Result};
use std::time::Instant;

/// Armijo constant of the backtracking line search.
const ARMIJO_C1: f64 = 1e-4;

/// A square nonlinear system in the velocity unknowns, with its Jacobian in a fixed pattern.
pub trait NonlinearSystem {
    /// Writes r(v) into `out`.
    fn residual(&mut self, v: &[f64], out: &mut [f64]);
    /// Writes the values of J(v) = ∂r/∂v into `jac` (in the solver's pattern).
    fn jacobian(&mut self, v: &[f64], jac: &mut [f64]);
}

/// Stopping and damping settings.
#[derive(Clone, Copy, Debug)]
pub struct NewtonSettings {
    /// Iteration limit.
    pub max_iterations: u32,
    /// Halvings per line search.
    pub max_line_search_steps: u32,
    /// Relative residual tolerance.
    pub residual_tolerance: f64,
    /// Velocity-change tolerance [m/s] (0 disables).
    pub velocity_tolerance: f64,
    /// Residual norm the tolerance is relative to when it exceeds ‖r‖ at the initial guess (a
    /// predicted guess can be so good that a tolerance relative to it is below round-off).
    pub reference_residual: f64,
}

/// What one Newton solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NewtonStats {
    /// Newton iterations (Jacobian factorizations).
    pub iterations: u32,
    /// Step halvings in all line searches.
    pub backtracks: u32,
    /// Final ‖r‖₂ / ‖r(v₀)‖₂ (0 when r(v₀) = 0).
    pub relative_residual: f64,
    /// Final ‖r‖₂ [kg·m/s].
    pub residual: f64,
    /// Seconds assembling Jacobians.
    pub seconds_assembly: f64,
    /// Seconds in numeric LU.
    pub seconds_factorization: f64,
    /// Seconds in triangular solves.
    pub seconds_solve: f64,
    /// Seconds evaluating residuals (line search included).
    pub seconds_residual: f64,
}

/// How a solve ended when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonOutcome {
    /// Statistics.
    pub stats: NewtonStats,
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Runs damped Newton from `v` (overwritten with the solution). `progress(k)` is called after each
/// iteration and returns `true` to cancel. On error `v` holds the last iterate; callers roll back.
pub fn solve(
    system: &mut dyn NonlinearSystem,
    lu: &mut DirectLu,
    nnz: usize,
    v: &mut [f64],
    settings: &NewtonSettings,
    progress: &mut dyn FnMut(u32) -> bool,
) -> std::result::Result<NewtonOutcome, (Error, NewtonStats)> {
    let n = v.len();
    let mut stats = NewtonStats::default();
    let mut r = vec![0.0; n];
    let mut r_trial = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut v_trial = vec![0.0; n];
    let mut jac = vec![0.0; nnz];

    let t = Instant::now();
    system.residual(v, &mut r);
    stats.seconds_residual += t.elapsed().as_secs_f64();
    let r_guess = norm(&r);
    let r0 = r_guess.max(settings.reference_residual);
    if !r_guess.is_finite() {
        return Err((Error::NotConverged("residual at the initial guess is not finite".into()), stats));
    }
    let mut r_norm = r_guess;
    let relative = |rn: f64| if r0 > 0.0 { rn / r0 } else { 0.0 };
    loop {
        stats.residual = r_norm;
        stats.relative_residual = relative(r_norm);
        if r_norm <= settings.residual_tolerance * r0 {
            return Ok(NewtonOutcome { stats });
        }
        if stats.iterations >= settings.max_iterations {
            let msg = format!(
                "Newton did not converge in {} iterations (relative residual {:.3e}, tolerance {:.1e})",
                stats.iterations, stats.relative_residual, settings.residual_tolerance
            );
            return Err((Error::NotConverged(msg), stats));
        }
        stats.iterations += 1;

        let t = Instant::now();
        system.jacobian(v, &mut jac);
        stats.seconds_assembly += t.elapsed().as_secs_f64();
        let t = Instant::now();
        if let Err(e) = lu.factorize(&jac) {
            return Err((e, stats));
        }
        stats.seconds_factorization += t.elapsed().as_secs_f64();
        let t = Instant::now();
        p.iter_mut().zip(&r).for_each(|(pi, ri)| *pi = -ri);
        if let Err(e) = lu.solve_in_place(&mut p) {
            return Err((e, stats));
        }
        stats.seconds_solve += t.elapsed().as_secs_f64();
        if p.iter().any(|x| !x.is_finite()) {
            return Err((Error::NotConverged("Newton direction is not finite (singular Jacobian)".into()), stats));
        }

        let t = Instant::now();
        let mut alpha = 1.0;
        let mut accepted = false;
        for _ in 0..settings.max_line_search_steps {
            v_trial.iter_mut().zip(v.iter().zip(&p)).for_each(|(vt, (vi, pi))| *vt = vi + alpha * pi);
            system.residual(&v_trial, &mut r_trial);
            let trial = norm(&r_trial);
            if trial.is_finite() && trial <= (1.0 - ARMIJO_C1 * alpha) * r_norm {
                accepted = true;
                r_norm = trial;
                break;
            }
            alpha *= 0.5;
            stats.backtracks += 1;
        }
        stats.seconds_residual += t.elapsed().as_secs_f64();
        if !accepted {
            let msg = format!(
                "line search stalled at iteration {} (relative residual {:.3e})",
                stats.iterations,
                relative(r_norm)
            );
            return Err((Error::NotConverged(msg), stats));
        }
        let dv_max = p.iter().fold(0.0f64, |m, x| m.max(x.abs())) * alpha;
        log::debug!(
            "Newton iteration {}: relative residual {:.3e}, step {alpha}, largest velocity change {dv_max:.3e} m/s",
            stats.iterations,
            relative(r_norm)
        );
        v.copy_from_slice(&v_trial);
        std::mem::swap(&mut r, &mut r_trial);
        if progress(stats.iterations) {
            return Err((Error::Cancelled("cancelled by the progress callback".into()), stats));
        }
        if alpha == 1.0 && dv_max <= settings.velocity_tolerance {
            stats.residual = r_norm;
            stats.relative_residual = relative(r_norm);
            return Ok(NewtonOutcome { stats });
        }
    }
}

/// Convenience for callers that never cancel.
pub fn never_cancel(_: u32) -> bool {
    false
}

#[allow(dead_code)]
fn _assert_object_safe(_: &dyn NonlinearSystem) {}

/// Maps the error half of [`solve`] to a plain error.
pub fn into_result(r: std::result::Result<NewtonOutcome, (Error, NewtonStats)>) -> Result<NewtonOutcome> {
    r.map_err(|(e, _)| e)
}
