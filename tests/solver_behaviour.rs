//! Solver-level behaviour: determinism across thread counts, cancellation and failed steps
//! leave the state untouched, pin targets are reached, Newton converges in few iterations.

use grip::mesh::generate::{box_tets, grid_cloth};
use grip::solve::linear_solver::LinearSolverKind;
use grip::solver::VertexAttribute;
use grip::{Error, Material, Solver, SolverParams};

fn scene(params: &SolverParams) -> (Solver, u32, u32) {
    let mut s = Solver::new(params).unwrap();
    let (p, t) = grid_cloth(1.0, 1.0, 12, 12);
    let cloth =
        s.add_shell(&p, &t, &Material { bending_stiffness: 1e-4, damping_beta: 1e-3, ..Default::default() }).unwrap();
    let mut pins = vec![0.0; p.len() / 3];
    pins[0] = 1.0;
    pins[12] = 1.0;
    s.set_vertex_attribute(cloth, VertexAttribute::Pinned, &pins).unwrap();
    let (p, t) = box_tets([0.2, 0.2, 0.2], [2, 2, 2], [0.0, 0.5, 0.0]);
    let solid = s
        .add_solid(
            &p,
            &t,
            &Material { density: 1000.0, youngs_modulus: 1e5, poisson_ratio: 0.45, ..Default::default() },
        )
        .unwrap();
    (s, cloth, solid)
}

fn state(s: &Solver, ids: &[u32]) -> Vec<u64> {
    ids.iter()
        .flat_map(|&id| {
            s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).map(|x| x.to_bits()).collect::<Vec<_>>()
        })
        .collect()
}

/// Parallel assembly, and with the iterative solver the parallel Cholesky preconditioner,
/// reduce in a fixed order.
#[test]
fn results_are_bit_identical_for_1_2_and_4_threads() {
    for linear_solver in [LinearSolverKind::DirectLu, LinearSolverKind::Iterative] {
        let mut results = Vec::new();
        for workers in [1, 2, 4] {
            let (mut s, c, b) = scene(&SolverParams { worker_count: workers, linear_solver, ..Default::default() });
            s.advance(0.1).unwrap();
            results.push(state(&s, &[c, b]));
        }
        assert!(results[0] == results[1] && results[1] == results[2], "linear solver {linear_solver:?}");
    }
}

#[test]
fn cancelling_leaves_the_state_unchanged() {
    let (mut s, c, b) = scene(&SolverParams::default());
    s.advance(0.02).unwrap();
    let before = state(&s, &[c, b]);
    let mut calls = 0;
    s.set_progress(Some(Box::new(move |f| {
        assert!((0.0..=1.0).contains(&f));
        calls += 1;
        calls >= 3
    })));
    assert!(matches!(s.advance(0.05), Err(Error::Cancelled(_))));
    assert_eq!(before, state(&s, &[c, b]));
    s.set_progress(None);
    s.advance(0.05).unwrap();
    assert_ne!(before, state(&s, &[c, b]));
}

#[test]
fn a_step_that_does_not_converge_is_rolled_back_and_reported() {
    let params = SolverParams {
        max_newton_iterations: 1,
        max_substep_halvings: 0,
        residual_tolerance: 1e-14,
        velocity_tolerance: 0.0,
        ..Default::default()
    };
    let (mut s, c, b) = scene(&params);
    let before = state(&s, &[c, b]);
    match s.advance(0.05) {
        Err(Error::NotConverged(m)) => assert!(m.contains("did not converge") && m.contains("unchanged"), "{m}"),
        other => panic!("expected NotConverged, got {other:?}"),
    }
    assert_eq!(before, state(&s, &[c, b]));
    assert!(!s.report().converged);
    // One iteration of the stage's solve, one of the friction-smoothing continuation's at 10 ε.
    assert_eq!(s.report().newton_iterations, 2);
}

/// Friction against a collider mesh (exact distance, the default) counts as friction for the
/// fallback of a failed stage: with one Newton iteration allowed and no halving, the step's
/// solve fails and the friction-smoothing continuation takes one more iteration at 10 ε before
/// the call fails; without friction it does not.
#[test]
fn friction_against_a_collider_mesh_reaches_the_friction_continuation() {
    for (mu, iterations) in [(0.4, 2), (0.0, 1)] {
        let mut s = Solver::new(&SolverParams { default_friction: mu, ..one_newton_iteration() }).unwrap();
        let floor = [-1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
        s.add_collider_mesh(&floor, &[0, 1, 2, 0, 2, 3]).unwrap();
        let (p, t) = grid_cloth(0.5, 0.5, 6, 6);
        let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2], 0.0005]).collect();
        let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
        slide_until_the_call_fails(&mut s, cloth, p.len() / 3, mu, iterations);
    }
}

/// One Newton iteration per solve, no halving, tolerances no iterate meets.
fn one_newton_iteration() -> SolverParams {
    SolverParams {
        max_newton_iterations: 1,
        max_substep_halvings: 0,
        residual_tolerance: 1e-14,
        velocity_tolerance: 0.0,
        ..Default::default()
    }
}

/// Sets the `count` vertices of `cloth` sliding at 0.2 m/s along x and checks that the call
/// fails after `iterations` Newton iterations (friction coefficient `mu`, for the messages).
fn slide_until_the_call_fails(s: &mut Solver, cloth: u32, count: usize, mu: f64, iterations: u32) {
    let v: Vec<f64> = (0..3 * count).map(|i| if i % 3 == 0 { 0.2 } else { 0.0 }).collect();
    s.set_vertex_attribute(cloth, VertexAttribute::Velocity, &v).unwrap();
    assert!(matches!(s.advance(0.01), Err(Error::NotConverged(_))), "μ = {mu}");
    assert_eq!(s.report().newton_iterations, iterations, "μ = {mu}: {:?}", s.report());
}

/// So does friction between shells (self-contact): two cloth squares 0.5 mm apart, the lower
/// one pinned, μ = 0.4 between them.
#[test]
fn friction_between_shells_reaches_the_friction_continuation() {
    for (mu, iterations) in [(0.4, 2), (0.0, 1)] {
        let params = SolverParams { self_contact: true, gravity: [0.0, 0.0, -9.81], ..one_newton_iteration() };
        let mut s = Solver::new(&params).unwrap();
        let (p, t) = grid_cloth(0.5, 0.5, 6, 6);
        let flat = |z: f64| -> Vec<f64> { p.chunks_exact(3).flat_map(|v| [v[0], v[2], z]).collect() };
        let lower = s.add_shell(&flat(0.0), &t, &Material::default()).unwrap();
        s.set_vertex_attribute(lower, VertexAttribute::Pinned, &vec![1.0; p.len() / 3]).unwrap();
        let upper = s.add_shell(&flat(0.0005), &t, &Material::default()).unwrap();
        s.set_friction(lower, upper, mu).unwrap();
        slide_until_the_call_fails(&mut s, upper, p.len() / 3, mu, iterations);
    }
}

#[test]
fn driven_pins_reach_their_targets_and_then_stay() {
    let (mut s, c, _) = scene(&SolverParams::default());
    let p0 = s.positions(c).unwrap().to_vec();
    let target: Vec<f64> = p0.iter().enumerate().map(|(i, x)| if i % 3 == 0 { x + 0.1 } else { *x }).collect();
    s.set_vertex_attribute(c, VertexAttribute::Target, &target).unwrap();
    s.advance(0.05).unwrap();
    let p1 = s.positions(c).unwrap().to_vec();
    for v in [0usize, 12] {
        for k in 0..3 {
            assert!((p1[3 * v + k] - target[3 * v + k]).abs() < 1e-12, "vertex {v}");
        }
    }
    // Stopping the pins dead makes the cloth buckle: Newton may need smaller substeps here.
    s.advance(0.05).unwrap();
    println!("halvings after the sudden stop: {}", s.report().substep_halvings);
    let p2 = s.positions(c).unwrap();
    assert!((p2[0] - p1[0]).abs() < 1e-12 && (p2[36] - p1[36]).abs() < 1e-12);
    // The middle of the top edge, between the pins, sagged.
    assert!(p2[3 * 6 + 2] < p0[3 * 6 + 2] - 1e-3);
}

#[test]
fn newton_converges_in_few_iterations() {
    let (mut s, _, _) = scene(&SolverParams::default());
    s.advance(0.25).unwrap();
    let r = s.report();
    assert!(r.converged);
    assert!(r.max_substep_iterations <= 8, "max iterations per substep {}", r.max_substep_iterations);
    let mean = r.newton_iterations as f64 / r.substeps as f64;
    println!("substeps {}, mean Newton iterations {mean:.2}, max {}", r.substeps, r.max_substep_iterations);
}
