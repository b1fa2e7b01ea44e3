//! The linear solve of each Newton iteration, J p = −r: faer's sparse LU (exact; paper
//! Algorithm 1), or preconditioned BiCGSTAB to the relative tolerance the inexact Newton method
//! asks for (its forcing term; paper Algorithm 2), with J applied as the assembled sparse matrix.

use super::bicgstab;
use super::direct_lu::DirectLu;
use super::pattern::{BlockPattern, BlockSlot};
use super::preconditioner::Preconditioner;
use crate::error::{Error, Result};
use std::time::Instant;

/// Which linear solver each Newton iteration uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinearSolverKind {
    /// Damped Newton with faer's sparse LU (paper Algorithm 1).
    #[default]
    DirectLu,
    /// Inexact Newton with preconditioned BiCGSTAB and Eisenstat–Walker forcing (paper
    /// Algorithm 2), J applied as the assembled sparse matrix.
    Iterative,
    /// As [`LinearSolverKind::Iterative`], with J x computed matrix-free by forward-mode
    /// automatic differentiation of the residual (paper §4.3); the assembled Jacobian only feeds
    /// the preconditioner.
    IterativeMatrixFree,
}

/// What one linear solve cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinearSolveCost {
    /// Iterations (1 for the direct solver).
    pub iterations: u32,
    /// Seconds factorising (LU, or building the preconditioner).
    pub seconds_factorization: f64,
    /// Seconds solving (triangular solves, or the Krylov iterations).
    pub seconds_solve: f64,
}

/// A linear solver set up for one system pattern. A clone shares the symbolic analyses and
/// makes its numeric values and scratch when first used: no solve reads what an earlier one
/// left in them, so the clone solves bit for bit like the original.
#[derive(Clone)]
pub enum LinearSolver {
    /// Sparse LU with the symbolic analysis of the pattern.
    Direct(DirectLu),
    /// BiCGSTAB.
    Iterative {
        /// Preconditioner for the pattern.
        preconditioner: Preconditioner,
        /// Iteration limit per solve.
        max_iterations: u32,
        /// J x by forward-mode AD of the residual instead of the assembled matrix.
        matrix_free: bool,
    },
}

impl LinearSolver {
    /// Whether solves honour the forcing tolerance (inexact Newton) rather than being exact.
    pub fn inexact(&self) -> bool {
        matches!(self, Self::Iterative { .. })
    }

    /// Whether a preconditioner that cannot be built falls back to a simpler one
    /// ([`Preconditioner::allow_fallback`]) instead of failing the solve.
    pub fn allow_fallback(&mut self, allow: bool) {
        if let Self::Iterative { preconditioner, .. } = self {
            preconditioner.allow_fallback(allow);
        }
    }

    /// Whether J x comes from the caller's matrix-free product rather than the assembled J.
    pub fn matrix_free(&self) -> bool {
        matches!(self, Self::Iterative { matrix_free: true, .. })
    }

    /// p ≈ −J⁻¹ r for J = A + Σ c u uᵀ, A with values `jac` in `pattern` (`diagonal`: each
    /// vertex's diagonal slot) and the dense rank-one terms `low_rank` (c, u), to relative
    /// residual `forcing` (ignored by the direct solver). `product`, when given, computes J x in
    /// place of the assembled matrix (which then only feeds the preconditioner). The direct
    /// solver applies the rank-one terms exactly by the Sherman–Morrison–Woodbury identity
    /// J⁻¹b = y − Z(I + C UᵀZ)⁻¹C Uᵀy, y = A⁻¹b, Z = A⁻¹U, reusing A's factorization.
    #[allow(clippy::too_many_arguments)]
    pub fn direction(
        &mut self,
        pattern: &BlockPattern,
        diagonal: &[BlockSlot],
        jac: &[f64],
        low_rank: &[(f64, Vec<f64>)],
        r: &[f64],
        forcing: f64,
        p: &mut [f64],
        product: Option<&mut dyn FnMut(&[f64], &mut [f64])>,
    ) -> Result<LinearSolveCost> {
        let mut cost = LinearSolveCost::default();
        match self {
            Self::Direct(lu) => {
                let t = Instant::now();
                lu.factorize(jac)?;
                cost.seconds_factorization = t.elapsed().as_secs_f64();
                let t = Instant::now();
                p.iter_mut().zip(r).for_each(|(pi, ri)| *pi = -ri);
                lu.solve_in_place(p)?;
                woodbury(lu, low_rank, p)?;
                cost.seconds_solve = t.elapsed().as_secs_f64();
                cost.iterations = 1;
            }
            Self::Iterative { preconditioner, max_iterations, .. } => {
                let t = Instant::now();
                preconditioner.update(pattern, jac, diagonal)?;
                cost.seconds_factorization = t.elapsed().as_secs_f64();
                let t = Instant::now();
                let b: Vec<f64> = r.iter().map(|x| -x).collect();
                let mut assembled = |x: &[f64], y: &mut [f64]| {
                    pattern.multiply(jac, x, y);
                    for (c, u) in low_rank {
                        let s = c * dot(u, x);
                        y.iter_mut().zip(u).for_each(|(yi, ui)| *yi += s * ui);
                    }
                };
                let apply: &mut dyn FnMut(&[f64], &mut [f64]) = match product {
                    Some(f) => f,
                    None => &mut assembled,
                };
                let mut precondition = |z: &mut [f64]| preconditioner.apply(z);
                let out = bicgstab::solve(apply, &mut precondition, &b, p, forcing, *max_iterations);
                cost.seconds_solve = t.elapsed().as_secs_f64();
                cost.iterations = out.iterations;
                // A direction that does not even reduce the linear residual is useless.
                if !(out.relative_residual < 1.0) {
                    return Err(Error::NotConverged(format!(
                        "BiCGSTAB did not reduce the linear residual in {} iterations (relative {:.2e})",
                        out.iterations, out.relative_residual
                    )));
                }
            }
        }
        if p.iter().any(|x| !x.is_finite()) {
            return Err(Error::NotConverged("Newton direction is not finite (singular Jacobian)".into()));
        }
        Ok(cost)
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Turns y = A⁻¹b (in `p`) into (A + U C Uᵀ)⁻¹b by Sherman–Morrison–Woodbury:
/// y − Z (I + C UᵀZ)⁻¹ C Uᵀy with Z = A⁻¹U (one more solve per rank-one term).
fn woodbury(lu: &mut DirectLu, low_rank: &[(f64, Vec<f64>)], p: &mut [f64]) -> Result<()> {
    let terms: Vec<&(f64, Vec<f64>)> = low_rank.iter().filter(|(c, _)| *c != 0.0).collect();
    if terms.is_empty() {
        return Ok(());
    }
    let k = terms.len();
    let mut z = Vec::with_capacity(k);
    for (_, u) in &terms {
        let mut zi = u.clone();
        lu.solve_in_place(&mut zi)?;
        z.push(zi);
    }
    let mut small = nalgebra::DMatrix::<f64>::identity(k, k);
    let mut rhs = nalgebra::DVector::<f64>::zeros(k);
    for (i, (c, u)) in terms.iter().enumerate() {
        for j in 0..k {
            small[(i, j)] += c * dot(u, &z[j]);
        }
        rhs[i] = c * dot(u, p);
    }
    let w = small
        .lu()
        .solve(&rhs)
        .ok_or_else(|| Error::NotConverged("singular low-rank update of the Newton Jacobian".into()))?;
    for (j, zj) in z.iter().enumerate() {
        p.iter_mut().zip(zj).for_each(|(pi, zi)| *pi -= w[j] * zi);
    }
    Ok(())
}
