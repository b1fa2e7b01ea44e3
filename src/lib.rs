//! grip: cloth and soft-body dynamics with fully implicit frictional contact
//! (Larionov et al. 2022, "Fully implicit frictional dynamics with soft constraints").
//!
//! Layout: the top-level modules form layers, listed here lowest first; each layer uses only
//! the layers before it in this list (`tests/layers.rs` checks the imports and this list):
//!
//! - `math`: small-vector arithmetic, forward-mode automatic differentiation
//! - `error`: the crate's error type
//! - `mesh`: mesh validation, topology, geometry, tetrahedralization
//! - `solve`: Newton and the linear solvers, over any nonlinear system
//! - `energy`: elastic energies of single elements
//! - `contact`: contact and friction laws: colliders, implicit surfaces, self-contact
//! - `model`: what is simulated: parameters, materials, objects
//! - `assemble`: one implicit stage's residual, merit and Jacobian from the model's terms
//! - `integrate`: time stepping: schemes, substeps, retries, the report
//! - `solver`: the Rust API: state, step/advance, checkpoints
//! - `analytic`: experiments with closed-form answers
//! - `io`: mesh files (OBJ, VTK, USD) and previews
//! - `scene`: scenes, scene files, motions, the frame driver (feature `scene`)
//! - `capi`: the C API (`include/grip.h`)
//!
//! The `grip` command line is the package `grip-cli` in `cli/`.
//! Units are SI throughout: m, kg, s, N, Pa.

#![warn(missing_docs)]
// `!(x > 0.0)` is deliberate throughout: it is true for NaN, which must be refused too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
// Units in docs are written "(m)" or "in m": "[m]" would be read as an intra-doc link.
#![deny(rustdoc::broken_intra_doc_links)]

pub mod analytic;
pub mod assemble;
pub mod capi;
pub mod contact;
pub mod energy;
pub mod error;
pub mod integrate;
pub mod io;
pub mod math;
pub mod mesh;
pub mod model;
#[cfg(feature = "scene")]
pub mod scene;
pub mod solve;
pub mod solver;

pub use error::{Error, Result};
pub use integrate::{FailureSite, Fallback, PinchSite};
pub use model::{ColliderMeshContact, FailurePolicy, Integrator, Material, SolverParams};
pub use solver::{Solver, StepReport, Warnings};
