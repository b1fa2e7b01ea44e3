//! `GripSolverParams`: the C layout of [`SolverParams`], with codes for its choices and a tag
//! that tells a struct from `grip_solver_params_default()` apart from uninitialised memory.

use super::codes;
use crate::error::{Error, Result};
use crate::model::params::SolverParams;

/// Value of `GripSolverParams::struct_tag` written by `grip_solver_params_default()`.
pub const GRIP_SOLVER_PARAMS_TAG: u32 = 0x4752_5031;

/// Parameters of a solver, fixed at creation. Always start from `grip_solver_params_default()`
/// (the solver refuses a struct whose `struct_tag` it did not write).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GripSolverParams {
    /// Largest substep (s) that `grip_solver_advance` takes (> 0). Default 1/240 s.
    pub time_step: f64,
    /// Gravitational acceleration (m/s²). Default (0, 0, −9.81): Z up, as in Blender.
    pub gravity: [f64; 3],
    /// Newton iteration limit per substep (≥ 1). Default 50.
    pub max_newton_iterations: u32,
    /// Backtracking halvings allowed per Newton iteration (≥ 1). Default 30.
    pub max_line_search_steps: u32,
    /// A substep whose Newton solve fails is split into two halves, at most this many times
    /// (0..=20); then the call fails with `GRIP_STATUS_NOT_CONVERGED`. Default 4 (h/16).
    pub max_substep_halvings: u32,
    /// Newton stops when ‖r‖₂ ≤ residual_tolerance · ‖r(vₜ)‖₂, relative to the residual at the
    /// start-of-step velocities (or at Newton's predicted initial guess, if larger) (in (0, 1),
    /// dimensionless). Default 1e-6.
    pub residual_tolerance: f64,
    /// Newton also stops after a full step whose largest velocity change is below this (m/s)
    /// (≥ 0; 0 disables). Default 1e-6 m/s.
    pub velocity_tolerance: f64,
    /// One of `GRIP_LINEAR_SOLVER_*`. Default `GRIP_LINEAR_SOLVER_DIRECT_LU`.
    pub linear_solver: u32,
    /// One of `GRIP_INTEGRATOR_*`. Default `GRIP_INTEGRATOR_BACKWARD_EULER`.
    pub integrator: u32,
    /// Threads for assembly (0 = all cores). Results do not depend on it.
    pub worker_count: u32,
    /// Contact thickness δ in m (> 0): the penalty b(d) = κ(δ − d)³ acts where the gap d < δ
    /// (paper §3.2). Resting contacts settle near δ/2. Default 0.001 m.
    pub contact_thickness: f64,
    /// Initial penalty stiffness κ in N/m² (≥ 0; 0 = automatic: the weight of the heaviest
    /// contact vertex held at gap δ/2). Raised after any step that ends with a negative gap
    /// (paper §4.4), and back to this value once no contact is active. Default 0.
    pub contact_stiffness: f64,
    /// Stick–slip velocity ε in m/s (> 0) of the smoothed Coulomb law: below it friction fades
    /// (paper Eq. 14–15); a sticking vertex creeps at a fraction of ε. Default 1e-4 m/s.
    pub friction_epsilon: f64,
    /// Friction coefficient μ (dimensionless, 0 ≤ μ ≤ 100) of every pair but shell–shell ones
    /// where neither body has its own μ (`grip_solver_set_object_friction`) and no override
    /// (`grip_solver_set_friction`) is set; in the geometric mean of a pair where one body has
    /// its own μ, the other counts as this. Default 0.3.
    pub default_friction: f64,
    /// One of `GRIP_FRICTION_SMOOTHING_*`. Default quadratic (Eq. 14).
    pub friction_smoothing: u32,
    /// One of `GRIP_FRICTION_COUPLING_*`. Default implicit (Eq. 23).
    pub friction_coupling: u32,
    /// Times a substep is redone with a stiffer κ when it ends with a negative gap, or with a 4×
    /// stiffer self-contact κ_s when it ends with more intersecting shell triangles than it
    /// started with (0..=50). Default 8.
    pub max_contact_retries: u32,
    /// Kernel radius of the implicit contact surfaces of meshes, as a multiple of each
    /// triangle's size (its largest centroid-to-corner distance at rest) (in [1, 10],
    /// dimensionless). Larger blends more neighbouring triangles into a smoother surface.
    /// Default 2.
    pub contact_radius_multiplier: f64,
    /// One of `GRIP_KERNEL_*`: the weight function of the implicit contact surfaces.
    /// Default `GRIP_KERNEL_INTERPOLATING`.
    pub contact_kernel: u32,
    /// One of `GRIP_COLLIDER_MESH_CONTACT_*`: how simulated vertices contact collider meshes
    /// (`grip_solver_add_collider_mesh`). `GRIP_COLLIDER_MESH_CONTACT_EXACT`: the exact signed
    /// distance to the mesh's triangles; `GRIP_COLLIDER_MESH_CONTACT_IMPLICIT`: the mesh's
    /// implicit surface (kernel radius `contact_radius_multiplier` × the triangle size, weight
    /// function `contact_kernel`). Default `GRIP_COLLIDER_MESH_CONTACT_EXACT`.
    pub collider_mesh_contact: u32,
    /// One of `GRIP_PRECONDITIONER_*`: the preconditioner of the iterative linear solver.
    /// Default `GRIP_PRECONDITIONER_CHOLESKY`.
    pub preconditioner: u32,
    /// BiCGSTAB iteration limit per Newton iteration (1..=100000). Default 500.
    pub max_linear_iterations: u32,
    /// Largest forcing term σ_max of inexact Newton: each BiCGSTAB solve stops at a relative
    /// residual σ_k = min((‖r_k‖/‖r_{k−1}‖)^φ, σ_max) (paper Algorithm 2) (in (0, 1),
    /// dimensionless). Default 0.5.
    pub forcing_max: f64,
    /// Self-contact thickness δ_s in m (> 0, at most 1e3): shells repel themselves and each
    /// other with the penalty b(d) = κ_s(δ_s − d)³ of vertex–triangle and edge–edge distances
    /// d < δ_s (paper §3.2, Eq. 3). Pairs one edge apart that are closer than δ_s at rest are
    /// left out; pairs farther apart in the mesh are not, so keep δ_s below their rest
    /// distances (on a regular mesh, the shortest shell edge; `energy::self_contact::filter::
    /// rest_clearance`). Default 0.001 m: the thickness of every shell that has none of its own
    /// (`grip_solver_set_object_self_contact`; a pair of shells A and B is then (δ_A + δ_B)/2 thick).
    pub self_contact_thickness: f64,
    /// Self-contact of shells: 0 = off, 1 = on. Default 0. Its friction between two
    /// shells (or a shell and itself) is 0 unless set by both shells' own μ
    /// (`grip_solver_set_object_friction`) or overridden (`grip_solver_set_friction`),
    /// with `friction_epsilon`, `friction_smoothing` and `friction_coupling` as for all contact.
    /// When on, shells also meet the boundary faces of solids through shell-vertex–face and
    /// edge–edge pairs at δ_s/2 with a gap signed by the solid's outward side (beside the
    /// implicit-surface contact, which is queried at vertices only), so that a shell edge
    /// cannot pass under a solid's edge; their friction is the implicit surface's μ between the
    /// two objects.
    pub self_contact: u32,
    /// Newmark β (dimensionless, in (0, 1]) of `GRIP_INTEGRATOR_NEWMARK`. Default 0.25.
    pub newmark_beta: f64,
    /// Newmark γ (dimensionless, in [0.5, 1]) of `GRIP_INTEGRATOR_NEWMARK`; second order only
    /// at 0.5, larger values damp. Default 0.5.
    pub newmark_gamma: f64,
    /// Spectral radius ρ∞ at infinite frequency (dimensionless, in [0, 1]) of
    /// `GRIP_INTEGRATOR_GENERALIZED_ALPHA`: 1 damps nothing, 0 annihilates the highest modes
    /// in one step. Default 0.8.
    pub spectral_radius: f64,
    /// Modes s (1..=200) that `GRIP_INTEGRATOR_SIERE` integrates exponentially: the lowest
    /// eigenpairs of (K, M), computed at the start of every step/advance call. Default 10.
    pub modal_count: u32,
    /// Semi-implicit stages: 0 = off, 1 = every implicit stage takes one full Newton iteration
    /// from the start-of-step velocities, accepted without a convergence test. Default 0.
    pub semi_implicit: u32,
    /// One of `GRIP_FAILURE_POLICY_*`: what a call does when a substep still fails after its
    /// last halving. `GRIP_FAILURE_POLICY_STRICT`: the call fails with
    /// `GRIP_STATUS_NOT_CONVERGED` and nothing changes; `GRIP_FAILURE_POLICY_CONTINUE`: the
    /// substep falls back to friction lagged (paper Eq. 25), then no friction, then Newton's
    /// best iterate, and the call goes on (`GripStepReport::fallbacks_*`). Default
    /// `GRIP_FAILURE_POLICY_STRICT`.
    pub failure_policy: u32,
    /// Written by `grip_solver_params_default()`; do not change.
    pub struct_tag: u32,
}

impl Default for GripSolverParams {
    fn default() -> Self {
        Self::from(&SolverParams::default())
    }
}

impl From<&SolverParams> for GripSolverParams {
    fn from(p: &SolverParams) -> Self {
        Self {
            time_step: p.time_step,
            gravity: p.gravity,
            max_newton_iterations: p.max_newton_iterations,
            max_line_search_steps: p.max_line_search_steps,
            max_substep_halvings: p.max_substep_halvings,
            residual_tolerance: p.residual_tolerance,
            velocity_tolerance: p.velocity_tolerance,
            linear_solver: codes::linear_solver_code(p.linear_solver),
            integrator: codes::integrator_code(p.integrator),
            worker_count: p.worker_count,
            contact_thickness: p.contact_thickness,
            contact_stiffness: p.contact_stiffness,
            friction_epsilon: p.friction_epsilon,
            default_friction: p.default_friction,
            friction_smoothing: codes::friction_smoothing_code(p.friction_smoothing),
            friction_coupling: codes::friction_coupling_code(p.friction_coupling),
            max_contact_retries: p.max_contact_retries,
            contact_radius_multiplier: p.contact_radius_multiplier,
            contact_kernel: codes::kernel_code(p.contact_kernel),
            collider_mesh_contact: codes::collider_mesh_contact_code(p.collider_mesh_contact),
            preconditioner: codes::preconditioner_code(p.preconditioner),
            max_linear_iterations: p.max_linear_iterations,
            forcing_max: p.forcing_max,
            self_contact_thickness: p.self_contact_thickness,
            self_contact: p.self_contact as u32,
            newmark_beta: p.newmark_beta,
            newmark_gamma: p.newmark_gamma,
            spectral_radius: p.spectral_radius,
            modal_count: p.modal_count,
            semi_implicit: p.semi_implicit as u32,
            failure_policy: codes::failure_policy_code(p.failure_policy),
            struct_tag: GRIP_SOLVER_PARAMS_TAG,
        }
    }
}

/// `Some(x)`, or the error "params.`field`: unknown value `code`".
fn known<T>(x: Option<T>, field: &str, code: u32) -> Result<T> {
    x.ok_or_else(|| Error::invalid(format!("params.{field}: unknown value {code}")))
}

impl TryFrom<&GripSolverParams> for SolverParams {
    type Error = Error;

    /// Checks the struct tag and every code; the numeric ranges are checked by
    /// [`SolverParams::validate`] (when the solver is created).
    fn try_from(p: &GripSolverParams) -> Result<Self> {
        if p.struct_tag != GRIP_SOLVER_PARAMS_TAG {
            return Err(Error::invalid("params.struct_tag is not set: start from grip_solver_params_default()"));
        }
        let linear_solver = known(codes::linear_solver(p.linear_solver), "linear_solver", p.linear_solver)?;
        let integrator = known(codes::integrator(p.integrator), "integrator", p.integrator)?;
        let friction_smoothing =
            known(codes::friction_smoothing(p.friction_smoothing), "friction_smoothing", p.friction_smoothing)?;
        let friction_coupling =
            known(codes::friction_coupling(p.friction_coupling), "friction_coupling", p.friction_coupling)?;
        let contact_kernel = known(codes::kernel(p.contact_kernel), "contact_kernel", p.contact_kernel)?;
        let collider_mesh_contact = known(
            codes::collider_mesh_contact(p.collider_mesh_contact),
            "collider_mesh_contact",
            p.collider_mesh_contact,
        )?;
        let preconditioner = known(codes::preconditioner(p.preconditioner), "preconditioner", p.preconditioner)?;
        let failure_policy = known(codes::failure_policy(p.failure_policy), "failure_policy", p.failure_policy)?;
        let self_contact = match p.self_contact {
            0 => false,
            1 => true,
            other => return Err(Error::invalid(format!("params.self_contact must be 0 or 1, got {other}"))),
        };
        let semi_implicit = match p.semi_implicit {
            0 => false,
            1 => true,
            other => return Err(Error::invalid(format!("params.semi_implicit must be 0 or 1, got {other}"))),
        };
        Ok(Self {
            time_step: p.time_step,
            gravity: p.gravity,
            max_newton_iterations: p.max_newton_iterations,
            max_line_search_steps: p.max_line_search_steps,
            max_substep_halvings: p.max_substep_halvings,
            residual_tolerance: p.residual_tolerance,
            velocity_tolerance: p.velocity_tolerance,
            linear_solver,
            integrator,
            worker_count: p.worker_count,
            contact_thickness: p.contact_thickness,
            contact_stiffness: p.contact_stiffness,
            friction_epsilon: p.friction_epsilon,
            default_friction: p.default_friction,
            friction_smoothing,
            friction_coupling,
            max_contact_retries: p.max_contact_retries,
            contact_radius_multiplier: p.contact_radius_multiplier,
            contact_kernel,
            collider_mesh_contact,
            preconditioner,
            max_linear_iterations: p.max_linear_iterations,
            forcing_max: p.forcing_max,
            self_contact_thickness: p.self_contact_thickness,
            self_contact,
            newmark_beta: p.newmark_beta,
            newmark_gamma: p.newmark_gamma,
            spectral_radius: p.spectral_radius,
            modal_count: p.modal_count,
            semi_implicit,
            failure_policy,
        })
    }
}
