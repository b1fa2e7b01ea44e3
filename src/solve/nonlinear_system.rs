//! What Newton solves and what it reports: the [`NonlinearSystem`] in the velocity unknowns
//! (residual, Jacobian, merit and the optional hooks of the globalisation), Newton's settings,
//! its statistics and why a solve failed.

/// A square nonlinear system in the velocity unknowns, with its Jacobian in a fixed pattern.
pub trait NonlinearSystem {
    /// Writes r(v) into `out`.
    fn residual(&mut self, v: &[f64], out: &mut [f64]);
    /// Writes the values of J(v) = ∂r/∂v into `jac` (in the solver's pattern).
    fn jacobian(&mut self, v: &[f64], jac: &mut [f64]);
    /// With `true`, later [`NonlinearSystem::jacobian`] calls return a modified Jacobian whose
    /// energy Hessians are made positive semi-definite (a safeguard far from the solution);
    /// `false` restores the exact one. Systems without such terms ignore it.
    fn set_definite(&mut self, _definite: bool) {}
    /// A merit function m whose gradient equals r at the point of the last
    /// [`NonlinearSystem::freeze_merit`] (an incremental potential), for the line search;
    /// `None` when the system has none (the line search then uses ‖r‖ alone).
    fn merit(&mut self, _v: &[f64]) -> Option<f64> {
        None
    }
    /// Freezes the non-potential parts of the merit function (friction) at `v`.
    fn freeze_merit(&mut self, _v: &[f64]) {}
    /// Dense low-rank terms of J(v) left out of [`NonlinearSystem::jacobian`]: J = J_sparse +
    /// Σ c u uᵀ over the returned (c, u). The linear solvers apply them exactly (the direct LU by
    /// Sherman–Morrison–Woodbury); matrix-free products must already include them.
    fn low_rank(&mut self, _v: &[f64]) -> Vec<(f64, Vec<f64>)> {
        Vec::new()
    }
    /// Number of defects at `v` that Newton must not add to: the shells' intersecting triangle
    /// pairs when self-contact is on (the cubic penalty is finite at d = 0, so a long step could
    /// carry a vertex through a triangle, beyond which the unsigned-distance penalty pushes it
    /// further through). The line search refuses a trial point with more than the current
    /// iterate has. Systems without such a count return 0.
    fn intersections(&mut self, _v: &[f64]) -> usize {
        0
    }
    /// Writes J(v) x into `out` without assembling J (matrix-free); `false` when unsupported.
    fn jacobian_product(&mut self, _v: &[f64], _x: &[f64], _out: &mut [f64]) -> bool {
        false
    }
}

/// Stopping and damping settings.
#[derive(Clone, Copy, Debug)]
pub struct NewtonSettings {
    /// Iteration limit.
    pub max_iterations: u32,
    /// Halvings per line search.
    pub max_line_search_steps: u32,
    /// Relative residual tolerance.
    pub residual_tolerance: f64,
    /// Velocity-change tolerance in m/s (0 disables).
    pub velocity_tolerance: f64,
    /// Largest block-Jacobi velocity error (m/s) at which a solve whose line search stalls, or
    /// that reaches the iteration limit, within `newton::NEAR_TOLERANCE` × the residual
    /// tolerance still ends as converged (0 disables). The solver sets it to half the friction
    /// smoothing velocity ε, the velocity resolution of the smoothed Coulomb law (which cannot
    /// tell sticking from sliding below ε).
    pub stall_velocity_tolerance: f64,
    /// Residual norm the tolerance is relative to when it exceeds ‖r‖ at the initial guess (a
    /// predicted guess can be so good that a tolerance relative to it is below round-off).
    pub reference_residual: f64,
    /// Largest forcing term σ_max of inexact Newton (paper Algorithm 2), in (0, 1).
    pub forcing_max: f64,
    /// A solve that fails (but for a cancellation) ends at its iterate of lowest ‖r‖₂, the
    /// initial guess included, with that residual in its statistics (+∞ when no iterate had a
    /// finite one), rather than at its last iterate: for a caller that accepts the best
    /// unconverged answer (the failsafe's last fallback). False: the last iterate.
    pub end_at_best: bool,
}

/// What one Newton solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NewtonStats {
    /// Newton iterations (Jacobian factorizations).
    pub iterations: u32,
    /// Step halvings in all line searches.
    pub backtracks: u32,
    /// Linear-solver iterations: one per factorised solve for the direct LU.
    pub linear_iterations: u32,
    /// Final ‖r‖₂ / ‖r(v₀)‖₂ (0 when r(v₀) = 0).
    pub relative_residual: f64,
    /// Final ‖r‖₂ (kg·m/s).
    pub residual: f64,
    /// Seconds assembling Jacobians.
    pub seconds_assembly: f64,
    /// Seconds in numeric LU.
    pub seconds_factorization: f64,
    /// Seconds in triangular solves.
    pub seconds_solve: f64,
    /// Seconds evaluating residuals (line search included).
    pub seconds_residual: f64,
    /// Why the solve failed (`None` when it did not).
    pub failure: Option<NewtonFailure>,
}

/// Why a Newton solve failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewtonFailure {
    /// The iteration limit was reached.
    IterationLimit,
    /// The line search found no acceptable step.
    LineSearchStall,
    /// The residual was not finite (NaN or ∞).
    NonFinite,
    /// The linear solver gave no direction (singular Jacobian, Krylov breakdown).
    LinearSolve,
}

/// How a solve ended when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonOutcome {
    /// Statistics.
    pub stats: NewtonStats,
}
