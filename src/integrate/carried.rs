//! What one step/advance call hands on to the next (`CarriedState`): the contact
//! stiffnesses the retries raised, the predictor of Newton's guess, BDF2's history, and the
//! system layout with its linear solver. Everything else a call uses is either the solver's
//! state proper (positions, velocities, pins, poses) or made afresh for each call (the
//! collider meshes' search trees, the self-contact mesh, SIERE's modes).
//!
//! A call works on a clone and the solver commits it whole when the call succeeded; a failed
//! or cancelled call drops it, so the solver is exactly as it was. The clone is cheap: the
//! layout is shared (immutable once built), and the linear solver's clone shares its symbolic
//! analyses and makes its numeric values and scratch when first used (no factorization reads
//! the previous one's values, so the clone's results are bit for bit the original's).

use super::schemes::StepHistory;
use crate::assemble::SystemLayout;
use crate::solve::linear_solver::LinearSolver;
use std::sync::Arc;

/// A system layout (pattern and slots) and the linear solver set up for its pattern.
pub(crate) type LaidOutSystem = (Arc<SystemLayout>, LinearSolver);

/// Everything a call carries from one call to the next (see the module documentation).
#[derive(Clone, Default)]
pub(crate) struct CarriedState {
    /// Contact penalty stiffness κ (N/m²) of colliders and surfaces; `None` until contacts
    /// first need it and after a call that ends with no active contact (it then restarts from
    /// the initial value).
    pub contact_stiffness: Option<f64>,
    /// Self-contact stiffness κ_s (N/m²); `None` until the first call with self-contact
    /// (raised when a substep would make the shells intersect, never lowered).
    pub self_contact_stiffness: Option<f64>,
    /// Stiffness κ_b (N/m²) of the shell–solid pairs; `None` until the first call with
    /// self-contact (raised when a substep would make shells cross solids' faces, never
    /// lowered).
    pub shell_solid_stiffness: Option<f64>,
    /// Acceleration of the last accepted substep (m/s²), per coordinate (empty after the model
    /// changed): Newton's initial guess continues it.
    pub acceleration: Vec<f64>,
    /// The state one substep back, for BDF2 (`None` at the start, after the model changed or
    /// the host set positions or velocities: BDF2 then restarts with a backward Euler step).
    pub history: Option<StepHistory>,
    /// Pattern, slots and linear solver (symbolic LU or preconditioner); `None` until the
    /// first call and after objects are added, rebuilt when contacts couple vertices the
    /// pattern lacks.
    pub system: Option<LaidOutSystem>,
}

impl CarriedState {
    /// Forgets what no longer fits a model with new objects: the layout, the acceleration and
    /// BDF2's history (the stiffnesses stay).
    pub(crate) fn model_changed(&mut self) {
        self.system = None;
        self.acceleration.clear();
        self.history = None;
    }
}
