//! Solver parameters, shared by the Rust API and the C API (`GripSolverParams` in `grip.h`).

use crate::contact::law::{GRIP_FRICTION_COUPLING_LAGGED, GRIP_FRICTION_SMOOTHING_RATIONAL};
use crate::contact::surface::kernel::GRIP_KERNEL_CUBIC;
use crate::error::{Error, Result};
use crate::solve::linear_solver::{GRIP_LINEAR_SOLVER_DIRECT_LU, GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE};
use crate::solve::preconditioner::GRIP_PRECONDITIONER_BLOCK_JACOBI;

/// Time integrator: backward Euler in velocity form (paper Eq. 23). First order, L-stable.
pub const GRIP_INTEGRATOR_BACKWARD_EULER: u32 = 0;
/// Time integrator: trapezoidal rule over the full force, contact and friction included (paper
/// Eq. 24; with lagged friction coupling Eq. 27). Second order, not L-stable.
pub const GRIP_INTEGRATOR_TRAPEZOIDAL: u32 = 1;
/// Time integrator: BDF2 (Ascher et al. 2022 Eq. 7, variable step), the first step by backward
/// Euler. Second order, L-stable.
pub const GRIP_INTEGRATOR_BDF2: u32 = 2;
/// Time integrator: TR-BDF2 (Ascher et al. 2022 Eq. 8): trapezoidal rule to t + h/2, then BDF2.
/// Second order, L-stable.
pub const GRIP_INTEGRATOR_TR_BDF2: u32 = 3;
/// Time integrator: SDIRK2 (Ascher et al. 2022 Eq. 9), γ = 2 − √2. Second order, L-stable.
pub const GRIP_INTEGRATOR_SDIRK2: u32 = 4;
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
    /// Friction coefficient μ (≥ 0) of pairs without `grip_solver_set_friction`. Default 0.3.
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
    /// rest_clearance`). Default 0.001 m.
    pub self_contact_thickness: f64,
    /// Self-contact of shells: 0 = off, 1 = on. Default 0. Its friction between two
    /// shells (or a shell and itself) is set with `grip_solver_set_friction` (default μ = 0),
    /// with `friction_epsilon`, `friction_smoothing` and `friction_coupling` as for all contact.
    /// When on, shells also meet the boundary faces of solids through shell-vertex–face and
    /// edge–edge pairs at δ_s/2 with a gap signed by the solid's outward side (beside the
    /// implicit-surface contact, which is queried at vertices only), so that a shell edge
    /// cannot pass under a solid's edge; their friction is the implicit surface's μ between the
    /// two objects.
    pub self_contact: u32,
    /// Written by `grip_solver_params_default()`; do not change.
    pub struct_tag: u32,
}

impl Default for GripSolverParams {
    fn default() -> Self {
        Self {
            time_step: 1.0 / 240.0,
            gravity: [0.0, 0.0, -9.81],
            max_newton_iterations: 50,
            max_line_search_steps: 30,
            max_substep_halvings: 4,
            residual_tolerance: 1e-6,
            velocity_tolerance: 1e-6,
            linear_solver: GRIP_LINEAR_SOLVER_DIRECT_LU,
            integrator: GRIP_INTEGRATOR_BACKWARD_EULER,
            worker_count: 0,
            contact_thickness: 1e-3,
            contact_stiffness: 0.0,
            friction_epsilon: 1e-4,
            default_friction: 0.3,
            friction_smoothing: 0,
            friction_coupling: 0,
            max_contact_retries: 8,
            contact_radius_multiplier: 2.0,
            contact_kernel: 0,
            preconditioner: 0,
            max_linear_iterations: 500,
            forcing_max: 0.5,
            self_contact_thickness: 1e-3,
            self_contact: 0,
            struct_tag: GRIP_SOLVER_PARAMS_TAG,
        }
    }
}

impl GripSolverParams {
    /// Checks every field; the error names the field and the value.
    pub fn validate(&self) -> Result<()> {
        if self.struct_tag != GRIP_SOLVER_PARAMS_TAG {
            return Err(Error::invalid("params.struct_tag is not set: start from grip_solver_params_default()"));
        }
        if !(self.time_step.is_finite() && self.time_step > 0.0) {
            return Err(Error::invalid(format!("params.time_step must be finite and > 0 s, got {}", self.time_step)));
        }
        if let Some(g) = self.gravity.iter().find(|g| !g.is_finite()) {
            return Err(Error::invalid(format!("params.gravity must be finite, got {g}")));
        }
        if self.max_newton_iterations == 0 || self.max_newton_iterations > 100_000 {
            return Err(Error::invalid(format!(
                "params.max_newton_iterations must be in 1..=100000, got {}",
                self.max_newton_iterations
            )));
        }
        if self.max_line_search_steps == 0 || self.max_line_search_steps > 60 {
            return Err(Error::invalid(format!(
                "params.max_line_search_steps must be in 1..=60, got {}",
                self.max_line_search_steps
            )));
        }
        if self.max_substep_halvings > 20 {
            return Err(Error::invalid(format!(
                "params.max_substep_halvings must be in 0..=20, got {}",
                self.max_substep_halvings
            )));
        }
        if !(self.residual_tolerance.is_finite() && self.residual_tolerance > 0.0 && self.residual_tolerance < 1.0) {
            return Err(Error::invalid(format!(
                "params.residual_tolerance must be in (0, 1), got {}",
                self.residual_tolerance
            )));
        }
        if !(self.velocity_tolerance.is_finite() && self.velocity_tolerance >= 0.0) {
            return Err(Error::invalid(format!(
                "params.velocity_tolerance must be finite and >= 0 m/s, got {}",
                self.velocity_tolerance
            )));
        }
        if self.linear_solver > GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE {
            return Err(Error::invalid(format!("params.linear_solver: unknown value {}", self.linear_solver)));
        }
        if self.integrator > GRIP_INTEGRATOR_SDIRK2 {
            return Err(Error::invalid(format!("params.integrator: unknown value {}", self.integrator)));
        }
        if self.worker_count > 1024 {
            return Err(Error::invalid(format!("params.worker_count must be <= 1024, got {}", self.worker_count)));
        }
        self.validate_contact()
    }

    fn validate_contact(&self) -> Result<()> {
        let positive = |name: &str, x: f64, unit: &str, max: f64| {
            if x > 0.0 && x <= max {
                Ok(())
            } else {
                Err(Error::invalid(format!("params.{name} must be > 0 {unit} and <= {max:e}, got {x}")))
            }
        };
        positive("contact_thickness", self.contact_thickness, "m", 1e3)?;
        positive("friction_epsilon", self.friction_epsilon, "m/s", 1e3)?;
        if !(self.contact_stiffness >= 0.0 && self.contact_stiffness <= 1e30) {
            return Err(Error::invalid(format!(
                "params.contact_stiffness must be >= 0 N/m² (0 = automatic) and <= 1e30, got {}",
                self.contact_stiffness
            )));
        }
        if !(self.default_friction >= 0.0 && self.default_friction <= 100.0) {
            return Err(Error::invalid(format!(
                "params.default_friction must be in [0, 100], got {}",
                self.default_friction
            )));
        }
        if self.friction_smoothing > GRIP_FRICTION_SMOOTHING_RATIONAL {
            return Err(Error::invalid(format!(
                "params.friction_smoothing: unknown value {}",
                self.friction_smoothing
            )));
        }
        if self.friction_coupling > GRIP_FRICTION_COUPLING_LAGGED {
            return Err(Error::invalid(format!("params.friction_coupling: unknown value {}", self.friction_coupling)));
        }
        if !(self.contact_radius_multiplier >= 1.0 && self.contact_radius_multiplier <= 10.0) {
            return Err(Error::invalid(format!(
                "params.contact_radius_multiplier must be in [1, 10], got {}",
                self.contact_radius_multiplier
            )));
        }
        if self.contact_kernel > GRIP_KERNEL_CUBIC {
            return Err(Error::invalid(format!("params.contact_kernel: unknown value {}", self.contact_kernel)));
        }
        if self.preconditioner > GRIP_PRECONDITIONER_BLOCK_JACOBI {
            return Err(Error::invalid(format!("params.preconditioner: unknown value {}", self.preconditioner)));
        }
        if self.max_linear_iterations == 0 || self.max_linear_iterations > 100_000 {
            return Err(Error::invalid(format!(
                "params.max_linear_iterations must be in 1..=100000, got {}",
                self.max_linear_iterations
            )));
        }
        if !(self.forcing_max > 0.0 && self.forcing_max < 1.0) {
            return Err(Error::invalid(format!("params.forcing_max must be in (0, 1), got {}", self.forcing_max)));
        }
        positive("self_contact_thickness", self.self_contact_thickness, "m", 1e3)?;
        if self.self_contact > 1 {
            return Err(Error::invalid(format!("params.self_contact must be 0 or 1, got {}", self.self_contact)));
        }
        if self.max_contact_retries > 50 {
            return Err(Error::invalid(format!(
                "params.max_contact_retries must be in 0..=50, got {}",
                self.max_contact_retries
            )));
        }
        Ok(())
    }
}
