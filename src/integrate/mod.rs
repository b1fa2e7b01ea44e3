//! Time stepping: the integrators as chains of implicit stages ([`schemes`], [`stages`]), one
//! substep with its retries ([`substep`], [`retries`], [`self_contact`]), what the input did
//! wrong ([`warnings`]) and what a call did ([`report`]).

pub mod report;
pub mod retries;
pub mod schemes;
pub mod self_contact;
pub mod stages;
pub mod substep;
pub mod warnings;

pub use report::{StepReport, Warnings};

/// Called between Newton iterations and after each substep with the fraction of the call done,
/// on the thread that called `step`/`advance`; `true` cancels.
pub type ProgressFn = Box<dyn FnMut(f64) -> bool + Send>;
