//! What the last step or advance did (`GripStepReport` in `grip.h`).

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
    /// Substeps redone with a stiffer contact penalty because they ended with a negative gap.
    pub contact_retries: u32,
    /// Smallest gap between a free vertex and a collider at the end [m] (+∞ without colliders);
    /// negative means penetration.
    pub deepest_gap: f64,
    /// Penalty stiffness κ in use at the end [N/m²] (0 before the first step with colliders).
    pub contact_stiffness: f64,
    /// Largest final relative residual ‖r‖/‖r(v₀)‖ over completed substeps.
    pub residual: f64,
    /// Largest final absolute residual ‖r‖₂ over completed substeps [kg·m/s].
    pub residual_abs: f64,
    /// Simulated time covered [s].
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
    /// Kinetic energy ½ vᵀMv at the end [J].
    pub kinetic_energy: f64,
    /// Elastic energy W(q) at the end [J].
    pub elastic_energy: f64,
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
        }
    }
}

impl GripStepReport {
    /// Folds in the work of a substep attempt that failed (it is retried or the call fails).
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
