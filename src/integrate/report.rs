//! What the last step or advance did (`GripStepReport` in `grip.h`), including the warnings
//! raised by imperfect input the solver recovered from and why a failed Newton attempt failed.

/// `GripStepReport::warnings` bit: a free vertex started the call inside a collider or a mesh
/// (negative gap); the contact penalty pushes it out.
pub const GRIP_WARNING_INITIAL_PENETRATION: u32 = 1;
/// `GripStepReport::warnings` bit: a free vertex still has a negative gap at the end of the call,
/// or (with self-contact) a substep kept shells newly crossing solids' faces after its last retry.
pub const GRIP_WARNING_PENETRATION_REMAINS: u32 = 2;
/// `GripStepReport::warnings` bit: Newton failed on a substep, which was split in halves.
pub const GRIP_WARNING_SUBSTEP_HALVED: u32 = 4;
/// `GripStepReport::warnings` bit: a substep ended with a negative gap and was redone with a
/// stiffer contact penalty.
pub const GRIP_WARNING_CONTACT_RETRY: u32 = 8;
/// `GripStepReport::warnings` bit: a pinned vertex is inside a collider at the end of the call
/// (the pin wins over the contact).
pub const GRIP_WARNING_PINNED_IN_COLLIDER: u32 = 16;
/// `GripStepReport::warnings` bit: the targets of two pinned vertices of one element are
/// incompatible with it (their distance is more than twice, or less than half, the rest length);
/// the pins win and the element is strained.
pub const GRIP_WARNING_PIN_CONFLICT: u32 = 32;

/// `GripStepReport::last_failure`: no Newton attempt failed.
pub const GRIP_NEWTON_FAILURE_NONE: u32 = 0;
/// `GripStepReport::last_failure`: the iteration limit (`params.max_newton_iterations`) was reached.
pub const GRIP_NEWTON_FAILURE_ITERATION_LIMIT: u32 = 1;
/// `GripStepReport::last_failure`: the line search found no acceptable step.
pub const GRIP_NEWTON_FAILURE_LINE_SEARCH_STALL: u32 = 2;
/// `GripStepReport::last_failure`: the residual was not finite (NaN or ∞).
pub const GRIP_NEWTON_FAILURE_NON_FINITE: u32 = 3;
/// `GripStepReport::last_failure`: the linear solver gave no direction (singular Jacobian,
/// Krylov breakdown).
pub const GRIP_NEWTON_FAILURE_LINEAR_SOLVE: u32 = 4;

/// Outcome of the last `grip_solver_step` / `grip_solver_advance`, failed ones included.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GripStepReport {
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
    /// 1 if every substep converged, else 0.
    pub converged: u32,
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
    /// Bit set of `GRIP_WARNING_*` raised during the call (0: none).
    pub warnings: u32,
    /// (free vertex, collider or mesh) pairs with a negative gap at the start of the call.
    pub initial_penetrations: u32,
    /// Why the last failed Newton attempt of the call failed: one of `GRIP_NEWTON_FAILURE_*`
    /// (`GRIP_NEWTON_FAILURE_NONE` if none failed).
    pub last_failure: u32,
    /// Newton attempts that failed during the call (each split its substep or ended the call).
    pub failed_attempts: u32,
    /// Smallest gap between a free vertex and a collider or mesh at the start of the call (m)
    /// (+∞ without contact); negative means the input was penetrating.
    pub initial_deepest_gap: f64,
}

impl Default for GripStepReport {
    fn default() -> Self {
        Self {
            substeps: 0,
            newton_iterations: 0,
            max_substep_iterations: 0,
            line_search_backtracks: 0,
            linear_iterations: 0,
            converged: 0,
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
            warnings: 0,
            initial_penetrations: 0,
            last_failure: GRIP_NEWTON_FAILURE_NONE,
            failed_attempts: 0,
            initial_deepest_gap: f64::INFINITY,
        }
    }
}

impl GripStepReport {
    /// Records a Newton attempt that failed with `s.failure` (then folds in its work).
    pub fn add_failed_newton(&mut self, s: &crate::solve::NewtonStats) {
        self.failed_attempts += 1;
        self.last_failure = failure_code(s.failure);
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

/// The `GRIP_NEWTON_FAILURE_*` code of a Newton solve's failure.
pub fn failure_code(failure: Option<crate::solve::NewtonFailure>) -> u32 {
    use crate::solve::NewtonFailure;
    match failure {
        None => GRIP_NEWTON_FAILURE_NONE,
        Some(NewtonFailure::IterationLimit) => GRIP_NEWTON_FAILURE_ITERATION_LIMIT,
        Some(NewtonFailure::LineSearchStall) => GRIP_NEWTON_FAILURE_LINE_SEARCH_STALL,
        Some(NewtonFailure::NonFinite) => GRIP_NEWTON_FAILURE_NON_FINITE,
        Some(NewtonFailure::LinearSolve) => GRIP_NEWTON_FAILURE_LINEAR_SOLVE,
    }
}
