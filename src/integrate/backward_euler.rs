//! Backward Euler in velocity form (paper Eq. 23): the implicit stage with base (qₜ, vₜ), no
//! explicit part and the full step (see `stage`). Kept as its own name for callers and tests.

pub use super::stage::{BackwardEuler, DampingMatrices};
