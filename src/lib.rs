//! grip: cloth and soft-body dynamics with fully implicit frictional contact
//! (Larionov et al. 2022, "Fully implicit frictional dynamics with soft constraints").
//!
//! Layout: `energy` (element energies with exact derivatives), `mesh` (validation and topology),
//! `model` (parameters, materials, the model), `contact` (colliders, contact and friction laws), `integrate` (time-stepping residuals),
//! `solve` (Newton and linear solvers), `solver` (the Rust API), `io` (OBJ, VTK, previews),
//! `scene` (feature `scene`: scenes, scene files, motions, the frame driver), `capi` (the C API
//! in `include/grip.h`). The `grip` command line is the package `grip-cli` in `cli/`.
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
pub use model::{ColliderMeshContact, Integrator, Material, SolverParams};
pub use solver::{Solver, StepReport, Warnings};
