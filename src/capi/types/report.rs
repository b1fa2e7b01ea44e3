//! `GripStepReport`: the C layout of [`StepReport`], with the warnings as `GRIP_WARNING_*` bits,
//! the Newton failure as a `GRIP_NEWTON_FAILURE_*` code, the last fallback as a
//! `GRIP_FALLBACK_*` code, and the worst pinch as its place, separation and ids.

use crate::integrate::fallback_report::Fallback;
use crate::integrate::report::{StepReport, Warnings};
use crate::solve::NewtonFailure;

/// `GripStepReport::warnings` bit: a free vertex started the call inside a collider or a mesh
/// (negative gap); the contact penalty pushes it out.
pub const GRIP_WARNING_INITIAL_PENETRATION: u32 = 1;
/// `GripStepReport::warnings` bit: a free vertex still has a negative gap at the end of the call,
/// or (with self-contact) a substep kept shells newly crossing solids' faces after its last retry,
/// or a best-iterate fallback kept new intersections of shells.
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
/// `GripStepReport::warnings` bit: a substep still failed after its last halving and was
/// completed by a fallback (`GRIP_FAILURE_POLICY_CONTINUE`); `fallbacks_*` count them and
/// `fallback_object`, `fallback_vertex`, `fallback_position` say where the failed solve was
/// worst.
pub const GRIP_WARNING_FALLBACK: u32 = 64;
/// `GripStepReport::warnings` bit: two collider surfaces (two colliders, or two parts of one
/// collider mesh) closed on a free vertex to less than the contact thickness
/// (`GRIP_FAILURE_POLICY_CONTINUE`; under strict the call fails instead); `pinched_vertices`
/// counts them and `pinch_*` say where the surfaces were closest.
pub const GRIP_WARNING_PINCH: u32 = 128;

/// `GripStepReport::last_fallback`: no fallback was taken.
pub const GRIP_FALLBACK_NONE: u32 = 0;
/// `GripStepReport::last_fallback`: a substep solved with friction lagged (paper Eq. 25).
pub const GRIP_FALLBACK_LAGGED_FRICTION: u32 = 1;
/// `GripStepReport::last_fallback`: a substep solved without friction (μ = 0 over it).
pub const GRIP_FALLBACK_FRICTIONLESS: u32 = 2;
/// `GripStepReport::last_fallback`: a frictionless backward Euler substep that took Newton's
/// best unconverged iterate (lowest residual), the contact stiffness not raised.
pub const GRIP_FALLBACK_BEST_ITERATE: u32 = 3;

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
    /// 1 if the call succeeded with every substep converged, else 0 (also after a call that
    /// took a substep's best unconverged iterate, `fallbacks_best_iterate` > 0).
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
    /// Substeps solved with friction lagged (paper Eq. 25) after the implicit-friction solve
    /// still failed at the smallest substep (`GRIP_FAILURE_POLICY_CONTINUE`).
    pub fallbacks_lagged: u32,
    /// Substeps solved without friction (μ = 0 over the substep) after the solves with friction
    /// failed at the smallest substep (`GRIP_FAILURE_POLICY_CONTINUE`).
    pub fallbacks_frictionless: u32,
    /// Substeps that took Newton's best unconverged iterate of a frictionless backward Euler
    /// substep, the contact stiffness not raised, after every other fallback failed
    /// (`GRIP_FAILURE_POLICY_CONTINUE`).
    pub fallbacks_best_iterate: u32,
    /// The last fallback of the call: one of `GRIP_FALLBACK_*` (`GRIP_FALLBACK_NONE` if none).
    pub last_fallback: u32,
    /// Id of the object where the solve that failed before the last fallback was worst (the
    /// free vertex with the largest residual per unit mass); 0 when there is none.
    pub fallback_object: u32,
    /// That vertex's index within `fallback_object` (0 when there is none).
    pub fallback_vertex: u32,
    /// That vertex's position at the start of the failed substep (m; zeros when there is none).
    pub fallback_position: [f64; 3],
    /// Where the surfaces of the call's worst pinch were closest: the pinched vertex's position
    /// at the end of its substep (m; zeros when there was no pinch).
    pub pinch_position: [f64; 3],
    /// That pinch's separation: the distance between the two surfaces' points nearest the
    /// vertex (m), under the contact thickness (0 when there was no pinch).
    pub pinch_separation: f64,
    /// Free vertices that two collider surfaces closed on to less than the contact thickness,
    /// the most at the end of any one substep (0: no pinch; `GRIP_WARNING_PINCH`).
    pub pinched_vertices: u32,
    /// Substeps of the call that ended with a pinched vertex (0: no pinch).
    pub pinch_substeps: u32,
    /// Id of the simulated object of the worst pinch's vertex (0 when there was no pinch).
    pub pinch_object: u32,
    /// That vertex's index within `pinch_object` (0 when there was no pinch).
    pub pinch_vertex: u32,
    /// Ids of the two colliders or collider meshes that closed on it; equal ids mean two parts
    /// of one collider mesh (zeros when there was no pinch).
    pub pinch_colliders: [u32; 2],
}

impl Default for GripStepReport {
    fn default() -> Self {
        Self::from(&StepReport::default())
    }
}

/// The `GRIP_NEWTON_FAILURE_*` code of a Newton solve's failure.
pub fn failure_code(failure: Option<NewtonFailure>) -> u32 {
    match failure {
        None => GRIP_NEWTON_FAILURE_NONE,
        Some(NewtonFailure::IterationLimit) => GRIP_NEWTON_FAILURE_ITERATION_LIMIT,
        Some(NewtonFailure::LineSearchStall) => GRIP_NEWTON_FAILURE_LINE_SEARCH_STALL,
        Some(NewtonFailure::NonFinite) => GRIP_NEWTON_FAILURE_NON_FINITE,
        Some(NewtonFailure::LinearSolve) => GRIP_NEWTON_FAILURE_LINEAR_SOLVE,
    }
}

/// The `GRIP_FALLBACK_*` code of a call's last fallback.
pub fn fallback_code(fallback: Option<Fallback>) -> u32 {
    match fallback {
        None => GRIP_FALLBACK_NONE,
        Some(Fallback::LaggedFriction) => GRIP_FALLBACK_LAGGED_FRICTION,
        Some(Fallback::Frictionless) => GRIP_FALLBACK_FRICTIONLESS,
        Some(Fallback::BestIterate) => GRIP_FALLBACK_BEST_ITERATE,
    }
}

/// The `GRIP_WARNING_*` bits of `warnings`.
pub fn warning_bits(warnings: Warnings) -> u32 {
    [
        (Warnings::INITIAL_PENETRATION, GRIP_WARNING_INITIAL_PENETRATION),
        (Warnings::PENETRATION_REMAINS, GRIP_WARNING_PENETRATION_REMAINS),
        (Warnings::SUBSTEP_HALVED, GRIP_WARNING_SUBSTEP_HALVED),
        (Warnings::CONTACT_RETRY, GRIP_WARNING_CONTACT_RETRY),
        (Warnings::PINNED_IN_COLLIDER, GRIP_WARNING_PINNED_IN_COLLIDER),
        (Warnings::PIN_CONFLICT, GRIP_WARNING_PIN_CONFLICT),
        (Warnings::FALLBACK, GRIP_WARNING_FALLBACK),
        (Warnings::PINCH, GRIP_WARNING_PINCH),
    ]
    .into_iter()
    .filter(|(w, _)| warnings.contains(*w))
    .fold(0, |bits, (_, bit)| bits | bit)
}

impl From<&StepReport> for GripStepReport {
    fn from(r: &StepReport) -> Self {
        Self {
            substeps: r.substeps,
            newton_iterations: r.newton_iterations,
            max_substep_iterations: r.max_substep_iterations,
            line_search_backtracks: r.line_search_backtracks,
            linear_iterations: r.linear_iterations,
            converged: r.converged as u32,
            pinned_vertices: r.pinned_vertices,
            substep_halvings: r.substep_halvings,
            active_contacts: r.active_contacts,
            contact_retries: r.contact_retries,
            deepest_gap: r.deepest_gap,
            contact_stiffness: r.contact_stiffness,
            residual: r.residual,
            residual_abs: r.residual_abs,
            simulated_time: r.simulated_time,
            seconds_total: r.seconds_total,
            seconds_assembly: r.seconds_assembly,
            seconds_factorization: r.seconds_factorization,
            seconds_solve: r.seconds_solve,
            seconds_residual: r.seconds_residual,
            seconds_contact_search: r.seconds_contact_search,
            kinetic_energy: r.kinetic_energy,
            elastic_energy: r.elastic_energy,
            warnings: warning_bits(r.warnings),
            initial_penetrations: r.initial_penetrations,
            last_failure: failure_code(r.last_failure),
            failed_attempts: r.failed_attempts,
            initial_deepest_gap: r.initial_deepest_gap,
            fallbacks_lagged: r.fallbacks_lagged,
            fallbacks_frictionless: r.fallbacks_frictionless,
            fallbacks_best_iterate: r.fallbacks_best_iterate,
            last_fallback: fallback_code(r.last_fallback),
            fallback_object: r.fallback_site.map_or(0, |s| s.object),
            fallback_vertex: r.fallback_site.map_or(0, |s| s.vertex),
            fallback_position: r.fallback_site.map_or([0.0; 3], |s| s.position),
            pinch_position: r.pinch_site.map_or([0.0; 3], |s| s.position),
            pinch_separation: r.pinch_site.map_or(0.0, |s| s.separation),
            pinched_vertices: r.pinched_vertices,
            pinch_substeps: r.pinch_substeps,
            pinch_object: r.pinch_site.map_or(0, |s| s.object),
            pinch_vertex: r.pinch_site.map_or(0, |s| s.vertex),
            pinch_colliders: r.pinch_site.map_or([0; 2], |s| s.colliders),
        }
    }
}
