//! What one step/advance call hands on to the next (`CarriedState`): the contact
//! stiffnesses the retries raised, the predictor of Newton's guess, BDF2's history, and the
//! system layout with its linear solver. Everything else a call uses is either the solver's
//! state proper (positions, velocities, pins, poses) or made afresh for each call (the
//! collider meshes' search trees, the self-contact mesh, SIERE's modes).
//!
//! A call works on its own copy (`CarriedState::for_call`) and the solver commits it whole
//! when the call succeeded; a failed or cancelled call drops it, so the solver is exactly as it
//! was. The copy takes the system itself (pattern, symbolic analyses, factor storage), so that
//! no large buffer exists twice while the call runs; the solver keeps what the system was built
//! from, the contact couplings of its pattern (`LayoutCouplings`), and a call after a failed
//! one builds the same system again from them: the same pattern gives the same orderings and
//! factors, so it continues bit for bit as if the failed call had not been made.

use super::schemes::StepHistory;
use crate::assemble::SystemLayout;
use crate::error::Result;
use crate::model::{Model, SolverParams};
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
    /// first call, after objects are added, while a call works on it and after a failed call;
    /// rebuilt when contacts couple vertices the pattern lacks.
    pub system: Option<LaidOutSystem>,
    /// What the system in use was built from (`None`: no system yet); kept while `system` is
    /// away, so that the same one can be built again.
    pub layout: Option<Arc<LayoutCouplings>>,
}

/// The vertex pairs coupled in a system's pattern by contacts and not by any element (`None`:
/// a pattern of the elements alone, built before any contact): from these and the model, the
/// pattern, and so the orderings of its analyses, are built again exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LayoutCouplings(pub Option<Vec<(u32, u32)>>);

impl LayoutCouplings {
    /// The couplings of `layout`: the pairs (a < b) in its pattern and not in its element
    /// pattern, when contacts took part in building it.
    pub(crate) fn of(layout: &SystemLayout) -> Self {
        let Some(elements) = layout.element_pattern.as_ref() else { return Self(None) };
        let full = &layout.pattern;
        let mut pairs = Vec::new();
        for b in 0..full.vertex_count as u32 {
            let own = elements.block_rows(b);
            for &a in full.block_rows(b).iter().filter(|&&a| a < b) {
                if own.binary_search(&a).is_err() {
                    pairs.push((a, b));
                }
            }
        }
        Self(Some(pairs))
    }

    /// The system of `model` with these couplings, its linear solver as `params` select.
    pub(crate) fn build(&self, model: &Model, params: &SolverParams) -> Result<LaidOutSystem> {
        let mut stencils: Vec<Vec<u32>> = Vec::new();
        if let Some(pairs) = &self.0 {
            stencils.extend(pairs.iter().map(|&(a, b)| vec![a, b]));
            if stencils.is_empty() && model.vertex_count() > 0 {
                // Contacts that coupled nothing beyond the elements: keep the separate element
                // pattern all the same (one vertex adds only its own diagonal block).
                stencils.push(vec![0]);
            }
        }
        let layout = SystemLayout::new(model, &stencils);
        let linear = layout.linear_solver(params, None)?;
        Ok((Arc::new(layout), linear))
    }
}

impl CarriedState {
    /// The copy a call works on: every value, and the system itself, taken from this one
    /// (which keeps [`CarriedState::layout`] to build it again should the call fail).
    pub(crate) fn for_call(&mut self) -> Self {
        let system = self.system.take();
        Self { system, ..self.clone() }
    }

    /// The system, built from [`CarriedState::layout`] (the elements alone without one) when
    /// this state has none at hand.
    pub(crate) fn ensure_system(&mut self, model: &Model, params: &SolverParams) -> Result<()> {
        if self.system.is_none() {
            let couplings = self.layout.get_or_insert_with(|| Arc::new(LayoutCouplings(None)));
            self.system = Some(couplings.build(model, params)?);
        }
        Ok(())
    }

    /// Forgets what no longer fits a model with new objects: the layout, the acceleration and
    /// BDF2's history (the stiffnesses stay).
    pub(crate) fn model_changed(&mut self) {
        self.system = None;
        self.layout = None;
        self.acceleration.clear();
        self.history = None;
    }
}
