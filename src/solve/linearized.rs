//! Newton's linear step without the rest of Newton: the single full step of the semi-implicit
//! methods and the linear solve with the step's Jacobian that SIERE needs.

use super::direction::{direction, LinearSystem};
use super::nonlinear_system::{NewtonFailure, NewtonOutcome, NewtonStats, NonlinearSystem};
use crate::error::{Error, Result};
use std::time::Instant;

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Relative linear residual of the single iteration of [`semi_implicit_step`] for an iterative
/// solver: a semi-implicit step is only as good as its one linear solve.
const SEMI_IMPLICIT_FORCING: f64 = 1e-8;

/// One full Newton step from `v` (overwritten), without line search or convergence test: the
/// semi-implicit method of Baraff and Witkin (Ascher et al. 2022 §3.1) when `v` is the
/// start-of-step velocity. The Jacobian is the modified one, its energy Hessians projected onto
/// the PSD cone (as Baraff and Witkin filter theirs): with no line search to fall back on, an
/// indefinite Jacobian of buckling cloth would send the step anywhere. Fails only when the step
/// is not finite.
pub fn semi_implicit_step(
    system: &mut dyn NonlinearSystem,
    linear: &mut LinearSystem,
    v: &mut [f64],
) -> std::result::Result<NewtonOutcome, (Error, NewtonStats)> {
    let n = v.len();
    let mut stats = NewtonStats::default();
    let (mut r, mut p) = (vec![0.0; n], vec![0.0; n]);
    let mut jac = vec![0.0; linear.pattern.nnz()];
    let t = Instant::now();
    system.residual(v, &mut r);
    stats.seconds_residual += t.elapsed().as_secs_f64();
    let r0 = norm(&r);
    if !r0.is_finite() {
        stats.failure = Some(NewtonFailure::NonFinite);
        return Err((
            Error::NotConverged("residual at the start of the semi-implicit step is not finite".into()),
            stats,
        ));
    }
    stats.iterations = 1;
    if let Err(e) = direction(system, linear, v, &r, true, SEMI_IMPLICIT_FORCING, &mut jac, &mut p, &mut stats) {
        stats.failure = Some(NewtonFailure::LinearSolve);
        return Err((e, stats));
    }
    v.iter_mut().zip(&p).for_each(|(vi, pi)| *vi += pi);
    let t = Instant::now();
    system.residual(v, &mut r);
    stats.seconds_residual += t.elapsed().as_secs_f64();
    stats.residual = norm(&r);
    stats.relative_residual = if r0 > 0.0 { stats.residual / r0 } else { 0.0 };
    if !stats.residual.is_finite() {
        stats.failure = Some(NewtonFailure::NonFinite);
        return Err((Error::NotConverged("the semi-implicit step is not finite".into()), stats));
    }
    Ok(NewtonOutcome { stats })
}

/// x = J(v)⁻¹ b with the system's modified Jacobian at `v` (energy Hessians projected onto the
/// PSD cone, as in [`semi_implicit_step`]): the linear solve of the semi-implicit part of SIERE.
pub fn linearized_solve(
    system: &mut dyn NonlinearSystem,
    linear: &mut LinearSystem,
    v: &[f64],
    b: &[f64],
    stats: &mut NewtonStats,
) -> Result<Vec<f64>> {
    let minus_b: Vec<f64> = b.iter().map(|x| -x).collect();
    let mut x = vec![0.0; b.len()];
    let mut jac = vec![0.0; linear.pattern.nnz()];
    direction(system, linear, v, &minus_b, true, SEMI_IMPLICIT_FORCING, &mut jac, &mut x, stats)?;
    Ok(x)
}
