//! Nonlinear and linear solvers: the fixed sparsity pattern, faer's sparse LU with symbolic reuse,
//! and damped Newton (paper Algorithm 1).

pub mod best_iterate;
pub mod bicgstab;
pub mod direct_lu;
pub mod direction;
pub mod krylov_phi;
pub mod linear_solver;
pub mod linearized;
pub mod modal_basis;
pub mod newton;
pub mod nonlinear_system;
pub mod pattern;
pub mod preconditioner;
pub mod sparse_cholesky;

pub use direct_lu::DirectLu;
pub use newton::{NewtonFailure, NewtonOutcome, NewtonSettings, NewtonStats, NonlinearSystem};
pub use pattern::BlockPattern;
