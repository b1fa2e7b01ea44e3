//! Order of accuracy of the time integrators on a contact-free nonlinear mass–spring: the apex
//! of one neo-Hookean tet whose base is pinned, vibrating with large strain from an initial
//! velocity, with Rayleigh mass damping. The error at t = 1 s is the largest vertex distance from a
//! reference run with SDIRK2 at a step 16× smaller than the smallest tested; the order is the
//! least-squares slope of log(error) over log(h). Theory (Ascher et al. 2022 §3.1): 1 for BE,
//! 2 for TR, BDF2, TR-BDF2 and SDIRK2; 1 for SI (one Newton iteration of BE); 2 for Newmark with
//! γ = ½ and for generalized-α; 2 for ERE with the exact Jacobian on this autonomous problem
//! (Hochbruck, Ostermann and Schweitzer 2009: the remainder F(u) − J(u₀)u has no linear part at
//! u₀, so the local error is O(h³)); SIERE runs with one mode of the three, so its semi-implicit
//! complement makes it first order.

use crate::error::Result;
use crate::solve::linear_solver::LinearSolverKind;
use crate::solver::VertexAttribute;
use crate::{Integrator, Material, Solver, SolverParams};

/// The integrators, with their names.
///
/// cbindgen:ignore
pub const INTEGRATORS: [(Integrator, &str); 10] = [
    (Integrator::BackwardEuler, "BE"),
    (Integrator::Trapezoidal, "TR"),
    (Integrator::Bdf2, "BDF2"),
    (Integrator::TrBdf2, "TR-BDF2"),
    (Integrator::Sdirk2, "SDIRK2"),
    (Integrator::SemiImplicit, "SI"),
    (Integrator::Newmark, "Newmark"),
    (Integrator::GeneralizedAlpha, "gen-α"),
    (Integrator::ExponentialEuler, "ERE"),
    (Integrator::Siere, "SIERE"),
];

/// The theoretical order of `integrator` on this problem (see the module documentation).
pub fn theoretical_order(integrator: Integrator) -> f64 {
    match integrator {
        Integrator::BackwardEuler | Integrator::SemiImplicit | Integrator::Siere => 1.0,
        _ => 2.0,
    }
}

/// Modes SIERE integrates exponentially here: one of the apex's three degrees of freedom.
///
/// cbindgen:ignore
pub const SIERE_MODES: u32 = 1;

/// Step sizes (s) of the study (ratio 2).
///
/// cbindgen:ignore
pub const STEPS: [f64; 4] = [0.04, 0.02, 0.01, 0.005];

/// Simulated time (s).
///
/// cbindgen:ignore
pub const DURATION: f64 = 1.0;

/// Positions (m) of the mass–spring after `DURATION` with `integrator` at step `h` (direct LU).
pub fn run(integrator: Integrator, h: f64) -> Result<Vec<f64>> {
    run_with(integrator, h, LinearSolverKind::DirectLu)
}

/// As [`run`] with the given linear solver.
pub fn run_with(integrator: Integrator, h: f64, linear_solver: LinearSolverKind) -> Result<Vec<f64>> {
    run_params(&params(integrator, h, linear_solver)).map(|(q, _)| q)
}

/// The study's solver parameters for `integrator` at step `h`.
pub fn params(integrator: Integrator, h: f64, linear_solver: LinearSolverKind) -> SolverParams {
    SolverParams {
        linear_solver,
        time_step: h,
        integrator,
        residual_tolerance: 1e-10,
        velocity_tolerance: 1e-12,
        max_newton_iterations: 100,
        max_substep_halvings: 0,
        worker_count: 1,
        gravity: [0.0; 3],
        modal_count: SIERE_MODES,
        ..Default::default()
    }
}

/// Positions (m) of the mass–spring after `DURATION` with `params`, and the Newton iterations
/// it took.
pub fn run_params(params: &SolverParams) -> Result<(Vec<f64>, u32)> {
    let mut solver = Solver::new(params)?;
    // One tet of 0.1 m legs with its base pinned: the apex is a 3-DOF nonlinear (neo-Hookean)
    // mass–spring, E = 15 Pa, ρ = 1000 kg/m³, free vibration at ≈ 1 Hz with up to ≈ 25 %
    // strain; no gravity (it would flatten so soft a tet).
    let p = [0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1];
    let material = Material {
        youngs_modulus: 15.0,
        poisson_ratio: 0.3,
        density: 1000.0,
        damping_alpha: 0.5,
        damping_beta: 0.0,
        ..Default::default()
    };
    let id = solver.add_solid(&p, &[0, 1, 2, 3], &material)?;
    solver.set_vertex_attribute(id, VertexAttribute::Pinned, &[1.0, 1.0, 1.0, 0.0])?;
    let v = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.12, 0.05, -0.1];
    solver.set_vertex_attribute(id, VertexAttribute::Velocity, &v)?;
    solver.advance(DURATION)?;
    Ok((solver.positions(id)?.to_vec(), solver.report().newton_iterations))
}

/// Errors at each of `steps` and the fitted order of one integrator.
#[derive(Clone, Debug)]
pub struct OrderStudy {
    /// Integrator name.
    pub name: &'static str,
    /// Largest vertex distance from the reference at t = 1 s (m), per step.
    pub errors: Vec<f64>,
    /// Least-squares slope of log(error) against log(h).
    pub order: f64,
    /// The theoretical order.
    pub theory: f64,
}

/// Least-squares slope of log y over log x.
pub fn log_slope(x: &[f64], y: &[f64]) -> f64 {
    let lx: Vec<f64> = x.iter().map(|v| v.ln()).collect();
    let ly: Vec<f64> = y.iter().map(|v| v.ln()).collect();
    let n = lx.len() as f64;
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxy: f64 = lx.iter().zip(&ly).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = lx.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// The reference positions: SDIRK2 at a step 16× smaller than the smallest of `steps`.
pub fn reference(steps: &[f64]) -> Result<Vec<f64>> {
    let smallest = steps.iter().copied().fold(f64::INFINITY, f64::min);
    run(Integrator::Sdirk2, smallest / 16.0)
}

/// Runs the study of every integrator over `steps` against `reference`.
pub fn study(steps: &[f64], reference: &[f64]) -> Result<Vec<OrderStudy>> {
    INTEGRATORS
        .iter()
        .map(|&(integrator, name)| {
            let errors = steps
                .iter()
                .map(|&h| {
                    let q = run(integrator, h)?;
                    Ok(q.chunks_exact(3)
                        .zip(reference.chunks_exact(3))
                        .map(|(a, b)| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt())
                        .fold(0.0, f64::max))
                })
                .collect::<Result<Vec<f64>>>()?;
            Ok(OrderStudy { name, order: log_slope(steps, &errors), errors, theory: theoretical_order(integrator) })
        })
        .collect()
}
