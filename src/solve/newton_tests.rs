//! Tests of damped Newton (`super`): its line search against a wall it may not cross, and its
//! stall test.

use super::*;
use crate::solve::linear_solver::LinearSolver;
use crate::solve::{BlockPattern, DirectLu};

/// r(v) = v − (1, 1, 1) with J = I on one vertex; iterates with v₀ > `wall` count one
/// intersection (a stand-in for shells passing through each other).
struct Walled {
    wall: f64,
}

impl NonlinearSystem for Walled {
    fn residual(&mut self, v: &[f64], out: &mut [f64]) {
        out.iter_mut().zip(v).for_each(|(o, x)| *o = x - 1.0);
    }
    fn jacobian(&mut self, _v: &[f64], jac: &mut [f64]) {
        // The dense 3×3 block of one vertex, column-major.
        jac.iter_mut().enumerate().for_each(|(k, j)| *j = if k % 4 == 0 { 1.0 } else { 0.0 });
    }
    fn intersections(&mut self, v: &[f64]) -> usize {
        usize::from(v[0] > self.wall)
    }
}

fn run(wall: f64, v: &mut [f64]) -> std::result::Result<NewtonOutcome, (Error, NewtonStats)> {
    let pattern = BlockPattern::new(1, std::iter::once(&[0u32][..]));
    let mut solver = LinearSolver::Direct(DirectLu::new(&pattern).expect("LU"));
    let diagonal = [pattern.slot(0, 0).expect("diagonal")];
    let mut linear = LinearSystem { solver: &mut solver, pattern: &pattern, diagonal: &diagonal };
    let settings = NewtonSettings {
        max_iterations: 20,
        max_line_search_steps: 10,
        residual_tolerance: 1e-10,
        velocity_tolerance: 0.0,
        stall_velocity_tolerance: 0.0,
        reference_residual: 0.0,
        forcing_max: 0.5,
        end_at_best: false,
    };
    solve(&mut Walled { wall }, &mut linear, v, &settings, &mut never_cancel)
}

/// r(v) = v − (1, 1, 1) with the wrong-signed Jacobian −I: every direction goes uphill, so
/// the line search stalls at once, with the block-Jacobi velocity error ‖r‖.
struct Backwards;

impl NonlinearSystem for Backwards {
    fn residual(&mut self, v: &[f64], out: &mut [f64]) {
        out.iter_mut().zip(v).for_each(|(o, x)| *o = x - 1.0);
    }
    fn jacobian(&mut self, _v: &[f64], jac: &mut [f64]) {
        jac.iter_mut().enumerate().for_each(|(k, j)| *j = if k % 4 == 0 { -1.0 } else { 0.0 });
    }
}

/// A stalled solve ends as converged only when its residual is within `NEAR_TOLERANCE` of
/// the tolerance and its velocity error below `stall_velocity_tolerance`; otherwise it
/// fails as a stall.
#[test]
fn a_stall_near_the_solution_ends_as_converged() {
    let pattern = BlockPattern::new(1, std::iter::once(&[0u32][..]));
    let diagonal = [pattern.slot(0, 0).expect("diagonal")];
    // ‖r(v₀)‖ = 3e-4 · √3 ≈ 5.2e-4, relative to r0 = 10: 5.2e-5.
    let stall = |residual_tolerance: f64, stall_velocity_tolerance: f64| {
        let mut solver = LinearSolver::Direct(DirectLu::new(&pattern).expect("LU"));
        let mut linear = LinearSystem { solver: &mut solver, pattern: &pattern, diagonal: &diagonal };
        let settings = NewtonSettings {
            max_iterations: 20,
            max_line_search_steps: 10,
            residual_tolerance,
            velocity_tolerance: 0.0,
            stall_velocity_tolerance,
            reference_residual: 10.0,
            forcing_max: 0.5,
            end_at_best: false,
        };
        let mut v = vec![1.0 + 3e-4; 3];
        solve(&mut Backwards, &mut linear, &mut v, &settings, &mut never_cancel).map_err(|(_, s)| s.failure)
    };
    assert!(stall(1e-5, 1e-3).is_ok(), "within 10× of the tolerance, error 5.2e-4 m/s < 1e-3");
    assert_eq!(stall(1e-5, 1e-4).err(), Some(Some(NewtonFailure::LineSearchStall)), "error above 1e-4 m/s");
    assert_eq!(stall(1e-6, 1e-3).err(), Some(Some(NewtonFailure::LineSearchStall)), "52× the tolerance");
    assert_eq!(stall(1e-5, 0.0).err(), Some(Some(NewtonFailure::LineSearchStall)), "the test switched off");
}

/// The line search refuses every trial point with more intersections than the iterate:
/// with the wall at v₀ = 0.5 Newton never steps past it (and fails instead of converging
/// to the root behind it); an iterate that already intersects may move on as long as the
/// count does not grow; without the wall one full step reaches the root.
#[test]
fn line_search_never_adds_intersections() {
    let mut v = vec![0.0; 3];
    let (_, stats) = run(0.5, &mut v).expect_err("the root is behind the wall");
    assert_eq!(stats.failure, Some(NewtonFailure::LineSearchStall));
    assert!(v[0] <= 0.5 && v[0] > 0.4, "stopped at the wall: {v:?}");
    let mut v = vec![0.7, 0.0, 0.0];
    run(0.5, &mut v).expect("already past the wall: the count stays 1");
    assert!((v[0] - 1.0).abs() < 1e-12);
    let mut v = vec![0.0; 3];
    let outcome = run(2.0, &mut v).expect("no wall before the root");
    assert_eq!(outcome.stats.iterations, 1);
}
