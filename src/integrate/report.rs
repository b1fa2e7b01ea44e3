//! What the last step or advance did ([`StepReport`]; `GripStepReport` in the C API), including the warnings
//! raised by imperfect input the solver recovered from and why a failed Newton attempt failed.

use super::fallback_report::{FailureSite, Fallback};
use super::pinch_report::PinchSite;
use crate::solve::NewtonFailure;

/// A set of warnings raised during a call (imperfect input the solver recovered from).
///
/// cbindgen:ignore
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Warnings(u32);

/// cbindgen:ignore
impl Warnings {
    /// No warning.
    pub const NONE: Self = Self(0);
    /// A free vertex started the call inside a collider or a mesh (negative gap). Deeper than
    /// the contact thickness inside an analytic collider or a collider mesh met by exact
    /// distance, it was moved out before the first substep; otherwise the contact penalty
    /// pushes it out. Such a call takes every substep by backward Euler.
    pub const INITIAL_PENETRATION: Self = Self(1);
    /// A free vertex still has a negative gap at the end of the call, or (with self-contact) a
    /// substep kept shells newly crossing solids' faces after its last retry, or a best-iterate
    /// fallback kept new intersections of shells.
    pub const PENETRATION_REMAINS: Self = Self(2);
    /// Newton failed on a substep, which was split in halves.
    pub const SUBSTEP_HALVED: Self = Self(4);
    /// A substep ended with a negative gap and was redone with a stiffer contact penalty.
    pub const CONTACT_RETRY: Self = Self(8);
    /// A pinned vertex is inside a collider at the end of the call (the pin wins over the
    /// contact).
    pub const PINNED_IN_COLLIDER: Self = Self(16);
    /// The targets of two pinned vertices of one element are incompatible with it (their
    /// distance is more than twice, or less than half, the rest length); the pins win and the
    /// element is strained.
    pub const PIN_CONFLICT: Self = Self(32);
    /// A substep still failed after its last halving and was completed by a fallback
    /// (`FailurePolicy::Continue`): lagged friction, no friction, or Newton's best iterate.
    /// `StepReport` counts each kind and names where the failed solve was worst.
    pub const FALLBACK: Self = Self(64);
    /// Two collider surfaces closed on a free vertex to less than the contact thickness
    /// (`crate::contact::pinch`; `FailurePolicy::Continue`): no position keeps it a contact
    /// thickness from both. `StepReport` counts the pinched vertices and names the worst one.
    pub const PINCH: Self = Self(128);

    /// Whether every warning of `other` is in the set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set holds any warning of `other`.
    pub fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// The set as bits (one per warning, in the order of the constants above).
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Whether the set holds no warning.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Adds the warnings of `other`.
    pub fn insert(&mut self, other: Self) {
        self.0 |= other.0;
    }
}

impl std::ops::BitOr for Warnings {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Warnings {
    fn bitor_assign(&mut self, other: Self) {
        self.insert(other);
    }
}

/// Outcome of the last `Solver::step` / `Solver::advance`, failed ones included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepReport {
    /// Substeps completed (after any halvings).
    pub substeps: u32,
    /// Newton iterations summed over substeps, failed attempts included.
    pub newton_iterations: u32,
    /// Most Newton iterations in any one substep.
    pub max_substep_iterations: u32,
    /// Line-search step halvings summed over substeps.
    pub line_search_backtracks: u32,
    /// Linear-solver iterations summed over substeps: one per Newton direction for the direct
    /// sparse LU (a factorisation and solve), Krylov iterations for an iterative solver.
    pub linear_iterations: u32,
    /// Whether the call succeeded with every substep converged: false after a failed call,
    /// and after a call that accepted a substep's best unconverged iterate
    /// (`fallbacks_best_iterate` > 0).
    pub converged: bool,
    /// Number of pinned vertices.
    pub pinned_vertices: u32,
    /// Times a substep was split in two after Newton failed on it.
    pub substep_halvings: u32,
    /// (vertex, collider) pairs closer than the contact thickness at the end.
    pub active_contacts: u32,
    /// Substeps redone with a stiffer contact penalty because they ended with a negative gap, or
    /// (self-contact) with more intersecting shell triangles than they started with.
    pub contact_retries: u32,
    /// Smallest gap between a free vertex and a collider at the end in m (+∞ without colliders);
    /// negative means penetration.
    pub deepest_gap: f64,
    /// Penalty stiffness κ in use at the end in N/m² (0 before the first step with colliders).
    pub contact_stiffness: f64,
    /// Largest final relative residual ‖r‖/‖r(v₀)‖ over completed substeps.
    pub residual: f64,
    /// Largest final absolute residual ‖r‖₂ over completed substeps (kg·m/s).
    pub residual_abs: f64,
    /// Simulated time covered (s).
    pub simulated_time: f64,
    /// Wall-clock seconds for the whole call.
    pub seconds_total: f64,
    /// Seconds assembling Jacobians.
    pub seconds_assembly: f64,
    /// Seconds in sparse LU factorizations (and symbolic analysis, when the pattern changed).
    pub seconds_factorization: f64,
    /// Seconds in triangular solves.
    pub seconds_solve: f64,
    /// Seconds evaluating residuals, line searches included.
    pub seconds_residual: f64,
    /// Seconds finding contact candidates between deforming meshes (grid searches).
    pub seconds_contact_search: f64,
    /// Kinetic energy ½ vᵀMv at the end (J).
    pub kinetic_energy: f64,
    /// Elastic energy W(q) at the end (J).
    pub elastic_energy: f64,
    /// Warnings raised during the call (empty: none).
    pub warnings: Warnings,
    /// (free vertex, collider or mesh) pairs with a negative gap at the start of the call.
    pub initial_penetrations: u32,
    /// Why the last failed Newton attempt of the call failed (`None` if none failed).
    pub last_failure: Option<NewtonFailure>,
    /// Newton attempts that failed during the call (each split its substep or ended the call).
    pub failed_attempts: u32,
    /// Smallest gap between a free vertex and a collider or mesh at the start of the call (m)
    /// (+∞ without contact); negative means the input was penetrating.
    pub initial_deepest_gap: f64,
    /// Substeps solved with friction lagged (paper Eq. 25) after the implicit-friction solve
    /// still failed at the smallest substep (`FailurePolicy::Continue`).
    pub fallbacks_lagged: u32,
    /// Substeps solved without friction (μ = 0 over the substep) after the solves with friction
    /// failed at the smallest substep (`FailurePolicy::Continue`).
    pub fallbacks_frictionless: u32,
    /// Substeps that took Newton's best unconverged iterate of a frictionless backward Euler
    /// substep, the contact stiffness not raised, after every other fallback failed
    /// (`FailurePolicy::Continue`).
    pub fallbacks_best_iterate: u32,
    /// The last fallback of the call (`None` if none was taken).
    pub last_fallback: Option<Fallback>,
    /// Where the solve that failed before the last fallback was worst (`None` if no fallback
    /// was taken, or the residual named no free vertex).
    pub fallback_site: Option<FailureSite>,
    /// Free vertices that two collider surfaces closed on to less than the contact thickness
    /// (`Warnings::PINCH`), the most at the end of any one substep of the call (0: none).
    pub pinched_vertices: u32,
    /// Substeps of the call that ended with a pinched vertex.
    pub pinch_substeps: u32,
    /// The call's pinched vertex whose surfaces were closest (`None` without a pinch).
    pub pinch_site: Option<PinchSite>,
}

impl Default for StepReport {
    fn default() -> Self {
        Self {
            substeps: 0,
            newton_iterations: 0,
            max_substep_iterations: 0,
            line_search_backtracks: 0,
            linear_iterations: 0,
            converged: false,
            pinned_vertices: 0,
            substep_halvings: 0,
            active_contacts: 0,
            contact_retries: 0,
            deepest_gap: f64::INFINITY,
            contact_stiffness: 0.0,
            residual: 0.0,
            residual_abs: 0.0,
            simulated_time: 0.0,
            seconds_total: 0.0,
            seconds_assembly: 0.0,
            seconds_factorization: 0.0,
            seconds_solve: 0.0,
            seconds_residual: 0.0,
            seconds_contact_search: 0.0,
            kinetic_energy: 0.0,
            elastic_energy: 0.0,
            warnings: Warnings::NONE,
            initial_penetrations: 0,
            last_failure: None,
            failed_attempts: 0,
            initial_deepest_gap: f64::INFINITY,
            fallbacks_lagged: 0,
            fallbacks_frictionless: 0,
            fallbacks_best_iterate: 0,
            last_fallback: None,
            fallback_site: None,
            pinched_vertices: 0,
            pinch_substeps: 0,
            pinch_site: None,
        }
    }
}

impl StepReport {
    /// Records a Newton attempt that failed with `s.failure` (then folds in its work).
    pub fn add_failed_newton(&mut self, s: &crate::solve::NewtonStats) {
        self.failed_attempts += 1;
        self.last_failure = s.failure;
        self.add_failed_attempt(s);
    }

    /// Folds in the work of a substep attempt that did not count (it is retried or the call fails).
    pub fn add_failed_attempt(&mut self, s: &crate::solve::NewtonStats) {
        self.newton_iterations += s.iterations;
        self.max_substep_iterations = self.max_substep_iterations.max(s.iterations);
        self.line_search_backtracks += s.backtracks;
        self.linear_iterations += s.linear_iterations;
        self.seconds_assembly += s.seconds_assembly;
        self.seconds_factorization += s.seconds_factorization;
        self.seconds_solve += s.seconds_solve;
        self.seconds_residual += s.seconds_residual;
    }

    /// Folds one substep's Newton statistics in.
    pub fn add_substep(&mut self, s: &crate::solve::NewtonStats) {
        self.substeps += 1;
        self.residual = self.residual.max(s.relative_residual);
        self.residual_abs = self.residual_abs.max(s.residual);
        self.add_failed_attempt(s);
    }
}
