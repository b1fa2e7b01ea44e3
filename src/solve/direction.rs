//! The Newton direction: p ≈ −J⁻¹ r from the system's exact or modified Jacobian, through the
//! linear solver set up for the Jacobian's pattern.

use super::linear_solver::LinearSolver;
use super::nonlinear_system::{NewtonStats, NonlinearSystem};
use super::pattern::{BlockPattern, BlockSlot};
use crate::error::Result;
use std::time::Instant;

/// The linear solver, its system pattern and each vertex's diagonal slot in it.
pub struct LinearSystem<'a> {
    /// Direct or iterative solver, set up for `pattern`.
    pub solver: &'a mut LinearSolver,
    /// The Jacobian's pattern.
    pub pattern: &'a BlockPattern,
    /// Diagonal block of each vertex.
    pub diagonal: &'a [BlockSlot],
}

/// Computes p ≈ −J⁻¹ r (to relative residual `forcing` for an iterative solver) with the exact
/// (or, when `definite`, the modified) Jacobian at `v`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn direction(
    system: &mut dyn NonlinearSystem,
    linear: &mut LinearSystem,
    v: &[f64],
    r: &[f64],
    definite: bool,
    forcing: f64,
    jac: &mut [f64],
    p: &mut [f64],
    stats: &mut NewtonStats,
) -> Result<()> {
    let t = Instant::now();
    system.set_definite(definite);
    system.jacobian(v, jac);
    let low_rank = system.low_rank(v);
    stats.seconds_assembly += t.elapsed().as_secs_f64();
    let matrix_free = linear.solver.matrix_free() && !definite;
    // Matrix-free products give the exact J: the modified (definite) one stays assembled.
    let mut product = |x: &[f64], y: &mut [f64]| {
        system.jacobian_product(v, x, y);
    };
    let product: Option<&mut dyn FnMut(&[f64], &mut [f64])> = if matrix_free { Some(&mut product) } else { None };
    // With the modified Jacobian there is nothing left to fall back on: a preconditioner that
    // no shift makes definite gives way to block Jacobi rather than end the solve.
    linear.solver.allow_fallback(definite);
    let cost = linear.solver.direction(linear.pattern, linear.diagonal, jac, &low_rank, r, forcing, p, product)?;
    stats.seconds_factorization += cost.seconds_factorization;
    stats.seconds_solve += cost.seconds_solve;
    stats.linear_iterations += cost.iterations;
    Ok(())
}
