//! Nonlinear and linear solvers: the fixed sparsity pattern, faer's sparse LU with symbolic reuse,
//! and damped Newton (paper Algorithm 1).

pub mod direct_lu;
pub mod newton;
pub mod pattern;

pub use direct_lu::DirectLu;
pub use newton::{NewtonOutcome, NewtonSettings, NewtonStats, NonlinearSystem};
pub use pattern::BlockPattern;
