//! Order of accuracy of every integrator on a contact-free nonlinear mass–spring (a tet apex): the
//! error at t = 1 s against a fine SDIRK2 reference falls with slope ≈ 1 for backward Euler, SI
//! and SIERE (one mode of three), and ≈ 2 for TR, BDF2, TR-BDF2, SDIRK2, Newmark (average
//! acceleration), generalized-α and ERE (Ascher et al. 2022 §3; `theoretical_order`), fitted over
//! 4 step sizes.

use grip::analytic::integrator_order::{reference, study, STEPS};

#[test]
fn integrators_converge_at_their_theoretical_order() {
    let reference = reference(&STEPS).unwrap();
    let results = study(&STEPS, &reference).unwrap();
    for r in &results {
        eprintln!("{}: errors {:?} m, order {:.3}", r.name, r.errors, r.order);
    }
    for r in &results {
        let expected = r.theory;
        assert!((r.order - expected).abs() < 0.25, "{}: order {:.3}, expected ≈ {expected}", r.name, r.order);
    }
}

/// Every integrator gives the same answer with the matrix-free inexact Newton as with the
/// direct LU (the stages are one residual, differentiated exactly by dual numbers).
#[test]
fn integrators_agree_between_newton_variants() {
    use grip::analytic::integrator_order::{run_with, INTEGRATORS};
    use grip::solve::linear_solver::LinearSolverKind;
    for (integrator, name) in INTEGRATORS {
        let direct = run_with(integrator, 0.02, LinearSolverKind::DirectLu).unwrap();
        let free = run_with(integrator, 0.02, LinearSolverKind::IterativeMatrixFree).unwrap();
        let diff = direct.iter().zip(&free).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(diff < 1e-8, "{name}: direct and matrix-free Newton differ by {diff:e} m");
    }
}

/// The semi-implicit variant of SDIRK2 (`params.semi_implicit`): one Newton iteration per
/// implicit stage, so two per step, and it converges: each stage stops one Newton step short of
/// its solution, an error quadratic in the step's velocity change, so at least first order (on
/// this mildly nonlinear spring one step from vₜ nearly solves each stage, and the measured
/// slope is SDIRK2's 2).
#[test]
fn semi_implicit_stages_take_one_newton_iteration_each_and_converge() {
    use grip::analytic::integrator_order::{log_slope, params, run_params, DURATION};
    use grip::solve::linear_solver::LinearSolverKind;
    use grip::Integrator;
    let reference = reference(&STEPS).unwrap();
    let mut errors = Vec::new();
    for h in STEPS {
        let p = grip::SolverParams { semi_implicit: true, ..params(Integrator::Sdirk2, h, LinearSolverKind::DirectLu) };
        let (q, iterations) = run_params(&p).unwrap();
        assert_eq!(iterations as f64, 2.0 * (DURATION / h).round(), "h = {h}");
        let error = q.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        errors.push(error);
    }
    let order = log_slope(&STEPS, &errors);
    eprintln!("semi-implicit SDIRK2: errors {errors:?} m, order {order:.3}");
    assert!(order > 0.9, "order {order:.3}");
}
