//! Damped Newton on r(v) = 0 (paper Algorithm 1): J(v_k) p_k = −r(v_k) by sparse LU, then
//! backtracking on ‖r‖₂ until ‖r(v_k + α p_k)‖ ≤ (1 − c₁α)‖r(v_k)‖ (c₁ = 10⁻⁴).
//! Globalisation for contact and buckling cloth, where the exact J is indefinite and its steps
//! overshoot into the cubic penalty: the line search also accepts a sufficient decrease of the
//! system's merit function (its incremental potential with friction frozen at v_k, so that
//! ∇m(v_k) = r(v_k)); after a refused full step the next iteration uses the system's modified
//! Jacobian (positive semi-definite energy Hessians, `NonlinearSystem::set_definite`), a descent
//! direction for that merit; an accepted full step brings the exact J back, so convergence near
//! the solution stays quadratic. A watchdog drops the merit while ‖r‖ stops improving (frozen
//! friction makes it a different function at each iterate). The solution is the root of the
//! exact residual either way.
//! Trial iterates with more intersecting shell triangles than the current iterate
//! (`NonlinearSystem::intersections`) are refused like those that do not decrease.
//! ShouldStop: ‖r‖₂ ≤ tol_r ‖r(v₀)‖₂, or a full step (α = 1) changing no velocity by more than tol_v.
//! A solve that cannot go on (its line search stalls, or it reaches the iteration limit) still
//! ends as converged when it is within `NEAR_TOLERANCE` times tol_r and every vertex's
//! block-Jacobi velocity error ‖D_i⁻¹ r_i‖ is below `stall_velocity_tolerance`: the iterate is
//! then as good as the physics can tell (see [`NewtonSettings::stall_velocity_tolerance`]), and
//! halving the step would cost more iterations for no better answer.

use super::best_iterate::BestIterate;
use super::direction::direction;
use super::pattern::BlockSlot;
use crate::error::{Error, Result};
use nalgebra::{Matrix3, Vector3};
use std::time::Instant;

pub use super::direction::LinearSystem;
pub use super::linearized::{linearized_solve, semi_implicit_step};
pub use super::nonlinear_system::{NewtonFailure, NewtonOutcome, NewtonSettings, NewtonStats, NonlinearSystem};

/// Armijo constant of the backtracking line search.
const ARMIJO_C1: f64 = 1e-4;
/// Exponent φ = (1 + √5)/2 of the Eisenstat–Walker forcing term.
const GOLDEN_RATIO: f64 = 1.618_033_988_749_895;
/// Iterations in a row without a new lowest ‖r‖ after which the merit function is left out of
/// the line search until ‖r‖ improves.
const WATCHDOG: u32 = 4;
/// A new lowest ‖r‖ resets the watchdog only when it is below this fraction of the previous
/// lowest: a cycle of merit-accepted steps that returns to nearly the same iterate (friction
/// switching a vertex between stick and slip and back) must not count as progress.
const WATCHDOG_PROGRESS: f64 = 0.9;
/// How far above the residual tolerance a solve that cannot go on may end, as a factor of
/// tol_r ‖r(v₀)‖₂, when its velocity errors pass the per-vertex test.
pub(crate) const NEAR_TOLERANCE: f64 = 10.0;

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// The largest block-Jacobi velocity error max_i ‖D_i⁻¹ r_i‖ (m/s) over the vertices, D_i the
/// 3×3 diagonal block of vertex i in `jac` (mass, its own elastic and contact stiffness): the
/// velocity change that would cancel vertex i's residual impulse r_i (kg·m/s) with its
/// neighbours held. A singular block counts as an infinite error.
fn block_jacobi_velocity_error(jac: &[f64], diagonal: &[BlockSlot], r: &[f64]) -> f64 {
    let mut worst = 0.0f64;
    for (i, slot) in diagonal.iter().enumerate() {
        let block = Matrix3::from_fn(|a, b| jac[(slot.start + b as u32 * slot.stride + a as u32) as usize]);
        let r_i = Vector3::new(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
        let error = block.try_inverse().map_or(f64::INFINITY, |inverse| (inverse * r_i).norm());
        worst = worst.max(error);
    }
    worst
}

/// Whether a solve that cannot go on ends as converged at residual `r` (norm `r_norm`) with the
/// Jacobian `jac` of its last direction (see the module documentation).
fn good_enough(
    settings: &NewtonSettings,
    r0: f64,
    r_norm: f64,
    jac: &[f64],
    diagonal: &[BlockSlot],
    r: &[f64],
) -> bool {
    if settings.stall_velocity_tolerance <= 0.0 || r_norm > NEAR_TOLERANCE * settings.residual_tolerance * r0 {
        return false;
    }
    let error = block_jacobi_velocity_error(jac, diagonal, r);
    log::debug!("Newton cannot go on at a velocity error of {error:.3e} m/s");
    error <= settings.stall_velocity_tolerance
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Runs damped Newton from `v` (overwritten with the solution). `progress(k)` is called after each
/// iteration and returns `true` to cancel. On error `v` holds the last iterate (callers roll
/// back), or with `settings.end_at_best` the iterate of lowest ‖r‖₂ (but after a cancellation).
///
/// Line search: α is halved until ‖r(v_k + αp)‖ ≤ (1 − c₁α)‖r(v_k)‖ or, when the system has a
/// merit function m (`NonlinearSystem::merit`, frozen at v_k) on which p descends (rᵀp < 0),
/// m(v_k + αp) ≤ m(v_k) + c₁α rᵀp. An exact-Jacobian direction that ascends the merit or
/// whose line search fails is replaced by the modified (definite) one.
pub fn solve(
    system: &mut dyn NonlinearSystem,
    linear: &mut LinearSystem,
    v: &mut [f64],
    settings: &NewtonSettings,
    progress: &mut dyn FnMut(u32) -> bool,
) -> std::result::Result<NewtonOutcome, (Error, NewtonStats)> {
    let mut best = settings.end_at_best.then(BestIterate::default);
    let outcome = iterate(system, linear, v, settings, progress, best.as_mut());
    match (outcome, best) {
        (Err((e, mut stats)), Some(best)) if !matches!(e, Error::Cancelled(_)) => {
            best.restore(v, &mut stats);
            Err((e, stats))
        }
        (outcome, _) => outcome,
    }
}

/// The iterations of [`solve`], offering every iterate with its residual to `best_iterate` when
/// given.
fn iterate(
    system: &mut dyn NonlinearSystem,
    linear: &mut LinearSystem,
    v: &mut [f64],
    settings: &NewtonSettings,
    progress: &mut dyn FnMut(u32) -> bool,
    mut best_iterate: Option<&mut BestIterate>,
) -> std::result::Result<NewtonOutcome, (Error, NewtonStats)> {
    let n = v.len();
    let mut stats = NewtonStats::default();
    let mut r = vec![0.0; n];
    let mut r_trial = vec![0.0; n];
    let mut p = vec![0.0; n];
    let mut v_trial = vec![0.0; n];
    let mut jac = vec![0.0; linear.pattern.nnz()];
    // Inexact Newton (Algorithm 2): forcing σ_k = min((‖r_k‖/‖r_{k−1}‖)^φ, σ_max), φ = (1 + √5)/2.
    let inexact = linear.solver.inexact();
    let mut r_previous = f64::NAN;

    let t = Instant::now();
    system.residual(v, &mut r);
    stats.seconds_residual += t.elapsed().as_secs_f64();
    let r_guess = norm(&r);
    let r0 = r_guess.max(settings.reference_residual);
    if !r_guess.is_finite() {
        stats.failure = Some(NewtonFailure::NonFinite);
        return Err((Error::NotConverged("residual at the initial guess is not finite".into()), stats));
    }
    let mut r_norm = r_guess;
    let relative = |rn: f64| if r0 > 0.0 { rn / r0 } else { 0.0 };
    if let Some(b) = best_iterate.as_deref_mut() {
        b.offer(r_norm, relative(r_norm), v);
    }
    let mut definite = false;
    let (mut best, mut since_best) = (r_norm, 0);
    let mut crossed = system.intersections(v);
    loop {
        stats.residual = r_norm;
        stats.relative_residual = relative(r_norm);
        if r_norm <= settings.residual_tolerance * r0 {
            return Ok(NewtonOutcome { stats });
        }
        if stats.iterations >= settings.max_iterations {
            if stats.iterations > 0 && good_enough(settings, r0, r_norm, &jac, linear.diagonal, &r) {
                return Ok(NewtonOutcome { stats });
            }
            let msg = format!(
                "Newton did not converge in {} iterations (relative residual {:.3e}, tolerance {:.1e})",
                stats.iterations, stats.relative_residual, settings.residual_tolerance
            );
            stats.failure = Some(NewtonFailure::IterationLimit);
            return Err((Error::NotConverged(msg), stats));
        }
        stats.iterations += 1;
        let mut sigma = if inexact {
            let ratio = (r_norm / r_previous).powf(GOLDEN_RATIO);
            if ratio.is_finite() {
                ratio.min(settings.forcing_max)
            } else {
                settings.forcing_max
            }
        } else {
            0.0
        };
        if let Err(e) = direction(system, linear, v, &r, definite, sigma, &mut jac, &mut p, &mut stats) {
            if definite {
                stats.failure = Some(NewtonFailure::LinearSolve);
                return Err((e, stats));
            }
            // The exact Jacobian gave no usable direction: retry with the modified one.
            definite = true;
            continue;
        }
        // The merit function may accept steps that raise ‖r‖ (it is frozen at v_k, so it is not one
        // function over the iterations): it is left out after `WATCHDOG` such iterations in a row
        // without a new lowest ‖r‖, until ‖r‖ improves again.
        let t = Instant::now();
        let use_merit = since_best < WATCHDOG;
        let mut m0 = None;
        if use_merit {
            system.freeze_merit(v);
            m0 = system.merit(v);
        }
        let mut slope = dot(&r, &p);
        stats.seconds_residual += t.elapsed().as_secs_f64();
        if m0.is_some() && slope >= 0.0 && !definite {
            definite = true;
            if let Err(e) = direction(system, linear, v, &r, definite, sigma, &mut jac, &mut p, &mut stats) {
                stats.failure = Some(NewtonFailure::LinearSolve);
                return Err((e, stats));
            }
            slope = dot(&r, &p);
        }
        let t = Instant::now();
        let mut alpha = 1.0;
        let mut accepted = false;
        let mut all_non_finite = true;
        for _ in 0..settings.max_line_search_steps {
            v_trial.iter_mut().zip(v.iter().zip(&p)).for_each(|(vt, (vi, pi))| *vt = vi + alpha * pi);
            system.residual(&v_trial, &mut r_trial);
            let trial = norm(&r_trial);
            all_non_finite &= !trial.is_finite();
            let mut ok = trial.is_finite() && trial <= (1.0 - ARMIJO_C1 * alpha * (1.0 - sigma)) * r_norm;
            if let (false, true, Some(m0)) = (ok, trial.is_finite() && slope < 0.0, m0) {
                ok = system.merit(&v_trial).is_some_and(|m| m.is_finite() && m <= m0 + ARMIJO_C1 * alpha * slope);
            }
            if ok {
                let trial_crossed = system.intersections(&v_trial);
                ok = trial_crossed <= crossed;
                if ok {
                    crossed = trial_crossed;
                }
            }
            if ok {
                accepted = true;
                r_previous = r_norm;
                r_norm = trial;
                // The forcing the accepted step achieved (Algorithm 2, line 16).
                sigma = 1.0 - alpha * (1.0 - sigma);
                break;
            }
            alpha *= 0.5;
            stats.backtracks += 1;
        }
        stats.seconds_residual += t.elapsed().as_secs_f64();
        if !accepted {
            if !definite {
                // The exact Jacobian's direction led nowhere: retry from here with the modified one.
                definite = true;
                continue;
            }
            if good_enough(settings, r0, r_norm, &jac, linear.diagonal, &r) {
                return Ok(NewtonOutcome { stats });
            }
            let msg = format!(
                "line search stalled at iteration {} (relative residual {:.3e})",
                stats.iterations,
                relative(r_norm)
            );
            // Every trial residual not finite: the step blew up rather than stalled.
            stats.failure =
                if all_non_finite { Some(NewtonFailure::NonFinite) } else { Some(NewtonFailure::LineSearchStall) };
            return Err((Error::NotConverged(msg), stats));
        }
        let dv_max = p.iter().fold(0.0f64, |m, x| m.max(x.abs())) * alpha;
        log::debug!(
            "Newton iteration {}: relative residual {:.3e}, step {alpha}, definite {definite}, largest velocity change {dv_max:.3e} m/s",
            stats.iterations,
            relative(r_norm)
        );
        v.copy_from_slice(&v_trial);
        std::mem::swap(&mut r, &mut r_trial);
        if let Some(b) = best_iterate.as_deref_mut() {
            b.offer(r_norm, relative(r_norm), v);
        }
        if progress(stats.iterations) {
            return Err((Error::Cancelled("cancelled by the progress callback".into()), stats));
        }
        // A refused full step: the next iteration uses the modified Jacobian; an accepted full
        // step brings the exact one back.
        definite = alpha < 1.0;
        if r_norm < WATCHDOG_PROGRESS * best {
            best = r_norm;
            since_best = 0;
        } else {
            since_best += 1;
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

#[cfg(test)]
#[path = "newton_tests.rs"]
mod tests;
