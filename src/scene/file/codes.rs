//! The numbers by which scene files choose the integrator (`integrator`) and the linear solver
//! (`linear_solver`) in `[solver]`: the same as the C API's `GRIP_INTEGRATOR_*` and
//! `GRIP_LINEAR_SOLVER_*` codes (a test in `crate::capi::types::codes` keeps them equal), so that
//! a scene file and a C host mean the same by them.

use crate::model::params::Integrator;
use crate::solve::linear_solver::LinearSolverKind;

/// Integrators by number.
/// cbindgen:ignore
pub const INTEGRATORS: [(u32, Integrator); 10] = [
    (0, Integrator::BackwardEuler),
    (1, Integrator::Trapezoidal),
    (2, Integrator::Bdf2),
    (3, Integrator::TrBdf2),
    (4, Integrator::Sdirk2),
    (5, Integrator::SemiImplicit),
    (6, Integrator::Newmark),
    (7, Integrator::GeneralizedAlpha),
    (8, Integrator::ExponentialEuler),
    (9, Integrator::Siere),
];

/// Linear solvers by number.
/// cbindgen:ignore
pub const LINEAR_SOLVERS: [(u32, LinearSolverKind); 3] =
    [(0, LinearSolverKind::DirectLu), (1, LinearSolverKind::Iterative), (2, LinearSolverKind::IterativeMatrixFree)];

/// The integrator numbered `code`, if any.
pub fn integrator(code: u32) -> Option<Integrator> {
    INTEGRATORS.iter().find(|(c, _)| *c == code).map(|(_, i)| *i)
}

/// The number of `integrator`.
pub fn integrator_code(integrator: Integrator) -> u32 {
    INTEGRATORS.iter().find(|(_, i)| *i == integrator).map_or(u32::MAX, |(c, _)| *c)
}

/// The linear solver numbered `code`, if any.
pub fn linear_solver(code: u32) -> Option<LinearSolverKind> {
    LINEAR_SOLVERS.iter().find(|(c, _)| *c == code).map(|(_, k)| *k)
}

/// The number of `kind`.
pub fn linear_solver_code(kind: LinearSolverKind) -> u32 {
    LINEAR_SOLVERS.iter().find(|(_, k)| *k == kind).map_or(u32::MAX, |(c, _)| *c)
}
