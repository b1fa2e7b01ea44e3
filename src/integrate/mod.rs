//! Time stepping: one step/advance call as a pipeline ([`call`]: context, state, output),
//! what it hands on to the next call ([`carried`]), each substep with its retries
//! ([`retries`], [`self_contact`]), the integrators as chains of implicit stages
//! ([`schemes`], [`stages`]), the collider meshes' search trees ([`collider_meshes`]), Newton
//! on one stage ([`newton_stage`]) from its initial guess ([`guess`]), with a fallback by
//! friction-smoothing continuation ([`continuation`]), the failsafe of a substep that still
//! fails after its last halving ([`fallback`], [`frictionless`], [`fallback_report`]), pinches
//! of the cloth between colliders ([`pinch_report`]), what the input did wrong ([`warnings`]), what a call did ([`report`]) and what an attempt at a
//! substep did besides its answer ([`work`]).

pub mod call;
pub mod carried;
pub mod collider_meshes;
pub mod continuation;
pub mod exponential;
pub mod fallback;
pub mod fallback_report;
pub mod frictionless;
pub mod guess;
pub mod newmark;
pub mod newton_stage;
pub mod pinch_report;
pub mod pinch_scan;
pub mod report;
pub mod retries;
pub mod schemes;
pub mod self_contact;
pub mod separation;
pub mod siere;
pub mod stage_terms;
pub mod stages;
pub mod warnings;
pub mod work;

pub use fallback_report::{FailureSite, Fallback};
pub use pinch_report::PinchSite;
pub use report::{StepReport, Warnings};

/// Called between Newton iterations and after each substep with the fraction of the call done,
/// on the thread that called `step`/`advance`; `true` cancels.
pub type ProgressFn = Box<dyn FnMut(f64) -> bool + Send>;
