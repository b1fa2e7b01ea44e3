//! Solver parameters of the Rust API ([`SolverParams`]); the C API's `GripSolverParams` converts
//! to and from them in `crate::capi::types::params`.

use crate::contact::law::{ContactLaw, FrictionCoupling, FrictionSmoothing};
use crate::contact::surface::Kernel;
use crate::error::{Error, Result};
use crate::solve::linear_solver::LinearSolverKind;
use crate::solve::preconditioner::PreconditionerKind;
use crate::solve::NewtonSettings;

/// Time integrator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Integrator {
    /// Backward Euler in velocity form (paper Eq. 23). First order, L-stable.
    #[default]
    BackwardEuler,
    /// Trapezoidal rule over the full force, contact and friction included (paper Eq. 24; with
    /// lagged friction coupling Eq. 27). Second order, not L-stable.
    Trapezoidal,
    /// BDF2 (Ascher et al. 2022 Eq. 7, variable step), the first step by backward Euler. Second
    /// order, L-stable.
    Bdf2,
    /// TR-BDF2 (Ascher et al. 2022 Eq. 8): trapezoidal rule to t + h/2, then BDF2. Second order,
    /// L-stable.
    TrBdf2,
    /// SDIRK2 (Ascher et al. 2022 Eq. 9), γ = 2 − √2. Second order, L-stable.
    Sdirk2,
    /// Semi-implicit backward Euler (Baraff–Witkin; Ascher et al. 2022 §3.1): one Newton
    /// iteration of the BE stage from the start-of-step velocities, taken in full and accepted
    /// without a convergence test. First order; cheap, heavily damping, and it may go astray
    /// on large nonlinear steps where BE converges.
    SemiImplicit,
    /// Newmark's method with `newmark_beta`, `newmark_gamma` (default ¼, ½: the average
    /// acceleration rule, which is the trapezoidal rule). Second order for γ = ½.
    Newmark,
    /// The generalized-α method of Chung and Hulbert (1993) with high-frequency spectral radius
    /// `spectral_radius` ρ∞: second order, with a knob from no numerical damping (ρ∞ = 1) to
    /// the most (ρ∞ = 0) of the highest modes.
    GeneralizedAlpha,
    /// Exponential Rosenbrock–Euler (Ascher et al. 2022 Eq. 18): u₁ = u₀ + h φ₁(hJ) F(u₀) with
    /// the exact Jacobian J, φ₁ products by an adaptive Krylov method. No nonlinear solve,
    /// little artificial damping; its cost grows with the stiffness.
    ExponentialEuler,
    /// SIERE (Ascher et al. 2022 Eq. 25): exponential Rosenbrock–Euler on the `modal_count`
    /// lowest modes of (K, M), semi-implicit Euler on the rest.
    Siere,
}

/// How simulated vertices contact collider meshes (kinematic triangle meshes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColliderMeshContact {
    /// The exact signed distance to the mesh's triangles (`crate::contact::collider_mesh`):
    /// the same contact whatever the tessellation (coarse proxies, long thin triangles, fans,
    /// sharp edges and corners, open sheets and their rims). The default. Vertices that start
    /// a call inside the mesh are moved out first (`crate::integrate::separation`).
    #[default]
    Exact,
    /// The MLS implicit surface of the mesh, of kernel radius `contact_radius_multiplier` × the
    /// triangle size and weight function `contact_kernel`: smooth, but it blends across a
    /// coarse mesh's triangles (a low-poly proxy's potential spans the whole body).
    Implicit,
}

/// What a step or advance call does when a substep still fails after its last halving
/// (`SolverParams::max_substep_halvings`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FailurePolicy {
    /// The call fails (`Error::NotConverged`) and the solver is exactly as before it. The
    /// library's default: a host sees every failure and decides.
    #[default]
    Strict,
    /// The smallest substep falls back through cheaper, more robust steps until one gives a
    /// finite state, and the call goes on (`crate::integrate::fallback`): friction lagged
    /// (paper Eq. 25) when it was implicit, then no friction (μ = 0 for that substep), then
    /// Newton's best iterate (lowest residual) of a backward Euler substep without friction
    /// and without raising the contact stiffness. Each fallback taken is counted in the step
    /// report, which raises `Warnings::FALLBACK` and names the vertex where the failed solve's
    /// residual was largest. The call fails only when no fallback gives a finite state. The
    /// default of `grip run`, scene files, the Blender bake and batch jobs: a bake goes on
    /// where one substep cannot be solved to the tolerance.
    Continue,
}

/// Parameters of a solver, fixed at creation. Start from `SolverParams::default()`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverParams {
    /// Largest substep (s) that `Solver::advance` takes (> 0). Default 1/240 s.
    pub time_step: f64,
    /// Gravitational acceleration (m/s²). Default (0, 0, −9.81): Z up, as in Blender.
    pub gravity: [f64; 3],
    /// Newton iteration limit per substep (≥ 1). Default 50.
    pub max_newton_iterations: u32,
    /// Backtracking halvings allowed per Newton iteration (≥ 1). Default 30.
    pub max_line_search_steps: u32,
    /// A substep whose Newton solve fails is split into two halves, at most this many times
    /// (0..=20); then the call fails (not converged). Default 4 (h/16).
    pub max_substep_halvings: u32,
    /// Newton stops when ‖r‖₂ ≤ residual_tolerance · ‖r(vₜ)‖₂, relative to the residual at the
    /// start-of-step velocities (or at Newton's predicted initial guess, if larger) (in (0, 1),
    /// dimensionless). Default 1e-6.
    pub residual_tolerance: f64,
    /// Newton also stops after a full step whose largest velocity change is below this (m/s)
    /// (≥ 0; 0 disables). Default 1e-6 m/s.
    pub velocity_tolerance: f64,
    /// Linear solver of each Newton iteration. Default direct sparse LU.
    pub linear_solver: LinearSolverKind,
    /// Time integrator. Default backward Euler.
    pub integrator: Integrator,
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
    /// where neither body has its own μ (`Solver::set_object_friction`) and no override
    /// (`Solver::set_friction`) is set; in the geometric mean of a pair where one body has its own
    /// μ, the other counts as this (`crate::model::friction`). Default 0.3.
    pub default_friction: f64,
    /// Pre-sliding transition of the friction. Default quadratic (Eq. 14).
    pub friction_smoothing: FrictionSmoothing,
    /// Implicit or lagged friction. Default implicit (Eq. 23).
    pub friction_coupling: FrictionCoupling,
    /// Times a substep is redone with a stiffer κ when it ends with a negative gap, or with a 4×
    /// stiffer self-contact κ_s when it ends with more intersecting shell triangles than it
    /// started with (0..=50). Default 8.
    pub max_contact_retries: u32,
    /// Kernel radius of the implicit contact surfaces of meshes, as a multiple of each
    /// triangle's size (its largest centroid-to-corner distance at rest) (in [1, 10],
    /// dimensionless). Larger blends more neighbouring triangles into a smoother surface.
    /// Default 2.
    pub contact_radius_multiplier: f64,
    /// The weight function of the implicit contact surfaces. Default near-interpolating.
    pub contact_kernel: Kernel,
    /// How simulated vertices contact collider meshes: the exact signed distance to their
    /// triangles, or their implicit surface. Default exact.
    pub collider_mesh_contact: ColliderMeshContact,
    /// The preconditioner of the iterative linear solver. Default sparse Cholesky.
    pub preconditioner: PreconditionerKind,
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
    /// (`Solver::set_object_self_contact`; a pair of shells A and B is then (δ_A + δ_B)/2 thick).
    pub self_contact_thickness: f64,
    /// Newmark β (dimensionless, in (0, 1]) of [`Integrator::Newmark`]. Default ¼.
    pub newmark_beta: f64,
    /// Newmark γ (dimensionless, in [½, 1]) of [`Integrator::Newmark`]; second order only at ½,
    /// γ > ½ damps. Default ½.
    pub newmark_gamma: f64,
    /// Spectral radius ρ∞ at infinite frequency (dimensionless, in [0, 1]) of
    /// [`Integrator::GeneralizedAlpha`]: 1 damps nothing (the trapezoidal rule), 0 annihilates
    /// the highest modes in one step. Default 0.8.
    pub spectral_radius: f64,
    /// Modes s (1..=200) that [`Integrator::Siere`] integrates exponentially: the lowest
    /// eigenpairs of (K, M), computed at the start of every call (`Solver::step`,
    /// `Solver::advance`: each frame of a bake). Default 10.
    pub modal_count: u32,
    /// Semi-implicit stages: every implicit stage of the integrator takes one full Newton
    /// iteration from the start-of-step velocities, accepted without a convergence test (the
    /// semi-implicit variant of BE, TR, BDF2, TR-BDF2, SDIRK2, Newmark and generalized-α;
    /// ignored by the exponential methods). Default off.
    pub semi_implicit: bool,
    /// Self-contact of shells. Default off. Its friction between two
    /// shells (or a shell and itself) is 0 unless set by both shells' own μ
    /// (`Solver::set_object_friction`) or overridden (`Solver::set_friction`),
    /// with `friction_epsilon`, `friction_smoothing` and `friction_coupling` as for all contact.
    /// When on, shells also meet the boundary faces of solids through shell-vertex–face and
    /// edge–edge pairs at δ_s/2 with a gap signed by the solid's outward side (beside the
    /// implicit-surface contact, which is queried at vertices only), so that a shell edge
    /// cannot pass under a solid's edge; their friction is the implicit surface's μ between the
    /// two objects.
    pub self_contact: bool,
    /// What a call does when a substep still fails after its last halving: fail and change
    /// nothing, or fall back to cheaper, more robust steps and go on. Default strict.
    pub failure_policy: FailurePolicy,
}

impl Default for SolverParams {
    fn default() -> Self {
        Self {
            time_step: 1.0 / 240.0,
            gravity: [0.0, 0.0, -9.81],
            max_newton_iterations: 50,
            max_line_search_steps: 30,
            max_substep_halvings: 4,
            residual_tolerance: 1e-6,
            velocity_tolerance: 1e-6,
            linear_solver: LinearSolverKind::DirectLu,
            integrator: Integrator::BackwardEuler,
            worker_count: 0,
            contact_thickness: 1e-3,
            contact_stiffness: 0.0,
            friction_epsilon: 1e-4,
            default_friction: 0.3,
            friction_smoothing: FrictionSmoothing::Quadratic,
            friction_coupling: FrictionCoupling::Implicit,
            max_contact_retries: 8,
            contact_radius_multiplier: 2.0,
            contact_kernel: Kernel::Interpolating,
            collider_mesh_contact: ColliderMeshContact::Exact,
            preconditioner: PreconditionerKind::Cholesky,
            max_linear_iterations: 500,
            forcing_max: 0.5,
            self_contact_thickness: 1e-3,
            self_contact: false,
            newmark_beta: 0.25,
            newmark_gamma: 0.5,
            spectral_radius: 0.8,
            modal_count: 10,
            semi_implicit: false,
            failure_policy: FailurePolicy::Strict,
        }
    }
}

impl SolverParams {
    /// The law of contact with colliders and deforming surfaces: thickness `contact_thickness`,
    /// stiffness `kappa` (N/m²), and the friction fields.
    pub fn contact_law(&self, kappa: f64) -> ContactLaw {
        self.law(kappa, self.contact_thickness)
    }

    /// The law of self-contact: thickness `self_contact_thickness`, stiffness `kappa` (N/m²),
    /// and the same friction fields as every other contact.
    pub fn self_contact_law(&self, kappa: f64) -> ContactLaw {
        self.law(kappa, self.self_contact_thickness)
    }

    /// Newton's settings: iteration and line-search limits, tolerances, forcing.
    pub fn newton_settings(&self) -> NewtonSettings {
        NewtonSettings {
            max_iterations: self.max_newton_iterations,
            max_line_search_steps: self.max_line_search_steps,
            residual_tolerance: self.residual_tolerance,
            velocity_tolerance: self.velocity_tolerance,
            stall_velocity_tolerance: 0.5 * self.friction_epsilon,
            reference_residual: 0.0,
            forcing_max: self.forcing_max,
            end_at_best: false,
        }
    }

    fn law(&self, kappa: f64, delta: f64) -> ContactLaw {
        ContactLaw {
            kappa,
            delta,
            epsilon: self.friction_epsilon,
            smoothing: self.friction_smoothing,
            coupling: self.friction_coupling,
        }
    }

    /// κ₀ (N/m²) of contact among `vertices` of masses `mass` (kg) at thickness `delta` (m):
    /// `contact_stiffness` when set, else the stiffness that holds the heaviest one's weight
    /// ([`ContactLaw::weight_holding_stiffness`]).
    pub fn initial_stiffness(&self, mass: &[f64], vertices: impl Iterator<Item = u32>, delta: f64) -> f64 {
        if self.contact_stiffness > 0.0 {
            return self.contact_stiffness;
        }
        let heaviest = vertices.map(|v| mass[v as usize]).fold(0.0, f64::max);
        ContactLaw::weight_holding_stiffness(heaviest, self.gravity, delta)
    }

    /// Checks every numeric field; the error names the field and the value.
    pub fn validate(&self) -> Result<()> {
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
        self.validate_integrator()?;
        if self.worker_count > 1024 {
            return Err(Error::invalid(format!("params.worker_count must be <= 1024, got {}", self.worker_count)));
        }
        self.validate_contact()
    }

    fn validate_integrator(&self) -> Result<()> {
        if !(self.newmark_beta > 0.0 && self.newmark_beta <= 1.0) {
            return Err(Error::invalid(format!("params.newmark_beta must be in (0, 1], got {}", self.newmark_beta)));
        }
        if !(self.newmark_gamma >= 0.5 && self.newmark_gamma <= 1.0) {
            return Err(Error::invalid(format!(
                "params.newmark_gamma must be in [0.5, 1], got {}",
                self.newmark_gamma
            )));
        }
        if !(self.spectral_radius >= 0.0 && self.spectral_radius <= 1.0) {
            return Err(Error::invalid(format!(
                "params.spectral_radius must be in [0, 1], got {}",
                self.spectral_radius
            )));
        }
        if self.modal_count == 0 || self.modal_count > 200 {
            return Err(Error::invalid(format!("params.modal_count must be in 1..=200, got {}", self.modal_count)));
        }
        Ok(())
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
        if !(self.contact_radius_multiplier >= 1.0 && self.contact_radius_multiplier <= 10.0) {
            return Err(Error::invalid(format!(
                "params.contact_radius_multiplier must be in [1, 10], got {}",
                self.contact_radius_multiplier
            )));
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
        positive("self_contact_thickness", self.self_contact_thickness, "m", super::self_contact::MAX_THICKNESS)?;
        if self.max_contact_retries > 50 {
            return Err(Error::invalid(format!(
                "params.max_contact_retries must be in 0..=50, got {}",
                self.max_contact_retries
            )));
        }
        Ok(())
    }
}
