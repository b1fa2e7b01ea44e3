//! Failed steps: when Newton fails on a substep (iteration limit, line-search
//! stall, non-finite residual) the substep is split in halves, at most
//! `params.max_substep_halvings` times (default 4: h/16); if it still fails the call returns
//! `NotConverged` (`GRIP_STATUS_NOT_CONVERGED`) and the solver is exactly as before it. No NaN or
//! Inf reaches positions or velocities, and the report says what happened: `converged`,
//! `substep_halvings`, `failed_attempts`, `last_failure` and the `Warnings::SUBSTEP_HALVED` bit.

use grip::contact::Shape;
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::solve::NewtonFailure;
use grip::solver::VertexAttribute;
use grip::Warnings;
use grip::{Error, Material, Solver, SolverParams};

fn cloth(params: &SolverParams) -> (Solver, u32) {
    let mut s = Solver::new(params).unwrap();
    let (p, t) = grid_cloth(0.5, 0.5, 8, 8);
    let id = s.add_shell(&p, &t, &Material { bending_stiffness: 1e-4, ..Default::default() }).unwrap();
    let mut pins = vec![0.0; p.len() / 3];
    pins[0] = 1.0;
    pins[8] = 1.0;
    s.set_vertex_attribute(id, VertexAttribute::Pinned, &pins).unwrap();
    (s, id)
}

fn state(s: &Solver, id: u32) -> Vec<u64> {
    s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).map(|x| x.to_bits()).collect()
}

fn finite(s: &Solver, id: u32) -> bool {
    s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).all(|x| x.is_finite())
}

fn not_converged(r: grip::Result<()>) -> String {
    match r {
        Err(Error::NotConverged(m)) => m,
        other => panic!("expected NotConverged, got {other:?}"),
    }
}

#[test]
fn iteration_limit_is_retried_with_halved_steps_then_rolled_back() {
    let params = SolverParams {
        max_newton_iterations: 1,
        max_substep_halvings: 3,
        residual_tolerance: 1e-14,
        velocity_tolerance: 0.0,
        ..Default::default()
    };
    let (mut s, id) = cloth(&params);
    let before = state(&s, id);
    let m = not_converged(s.step(0.02));
    assert!(m.contains("did not converge in 1 iterations") && m.contains("after 3 halvings"), "{m}");
    assert!(m.contains("unchanged"), "{m}");
    let r = *s.report();
    println!("{r:?}");
    assert!(!r.converged);
    assert_eq!(r.substep_halvings, 3, "halved up to the limit");
    assert_eq!(r.failed_attempts, 4, "h, h/2, h/4 and h/8 each failed once");
    assert_eq!(r.last_failure, Some(NewtonFailure::IterationLimit));
    assert!(r.warnings.intersects(Warnings::SUBSTEP_HALVED));
    assert_eq!(before, state(&s, id), "rolled back");
    assert!(finite(&s, id));
}

#[test]
fn a_substep_that_fails_whole_converges_in_halves() {
    // Four iterations are too few for a 0.05 s substep that drags two pins 10 cm, enough for
    // smaller pieces of it.
    let params = SolverParams { max_newton_iterations: 4, ..Default::default() };
    let (mut s, id) = cloth(&params);
    let p = s.positions(id).unwrap().to_vec();
    let target: Vec<f64> = p.iter().enumerate().map(|(i, x)| if i % 3 == 1 { x + 0.1 } else { *x }).collect();
    s.set_vertex_attribute(id, VertexAttribute::Target, &target).unwrap();
    s.step(0.05).expect("halving rescues the step");
    let r = *s.report();
    println!("{r:?}");
    assert!(r.converged);
    assert!(r.substep_halvings >= 1 && r.substeps > 1, "{r:?}");
    assert_eq!(r.failed_attempts, r.substep_halvings, "each failed attempt split its substep");
    assert_eq!(r.last_failure, Some(NewtonFailure::IterationLimit));
    assert!(r.warnings.intersects(Warnings::SUBSTEP_HALVED));
    assert!((r.simulated_time - 0.05).abs() < 1e-12);
    assert!((s.positions(id).unwrap()[1] - target[1]).abs() < 1e-12, "the pin reached its target");
    assert!(finite(&s, id));
}

#[test]
fn a_non_finite_residual_is_rolled_back_and_the_solver_stays_usable() {
    let (mut s, id) = cloth(&SolverParams::default());
    s.advance(0.02).unwrap();
    let before = state(&s, id);
    // A valid but absurd step: the inertia term overflows, the residual is not finite.
    let m = not_converged(s.step(1e300));
    assert!(m.contains("not finite"), "{m}");
    let r = *s.report();
    assert_eq!((r.converged, r.last_failure), (false, Some(NewtonFailure::NonFinite)), "{r:?}");
    assert_eq!(r.failed_attempts, 1 + r.substep_halvings);
    assert_eq!(before, state(&s, id));
    // So does a velocity the host set that overflows the step.
    let huge = vec![1e300; s.velocities(id).unwrap().len()];
    s.set_vertex_attribute(id, VertexAttribute::Velocity, &huge).unwrap();
    let after_set = state(&s, id);
    let m = not_converged(s.step(0.01));
    assert!(m.contains("not finite"), "{m}");
    assert_eq!(s.report().last_failure, Some(NewtonFailure::NonFinite));
    assert_eq!(after_set, state(&s, id));
    // Calls after a failed step work: reset the velocity and step on.
    s.set_vertex_attribute(id, VertexAttribute::Velocity, &vec![0.0; huge.len()]).unwrap();
    s.advance(0.02).unwrap();
    assert!(s.report().converged);
    assert_eq!(s.report().last_failure, None);
    assert!(finite(&s, id));
}

#[test]
fn a_line_search_stall_is_rolled_back() {
    // One trial step per line search, no halving, and a cloth stretched to three times its size
    // thrown at the ground: Newton's full step is refused in its exact and its modified form.
    let params = SolverParams { max_line_search_steps: 1, max_substep_halvings: 0, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    s.add_collider_shape(&Shape::default()).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 6, 6);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2], 0.01]).collect();
    let id = s.add_shell(&p, &t, &Material::default()).unwrap();
    let q: Vec<f64> = p.iter().enumerate().map(|(i, x)| if i % 3 == 2 { *x } else { 3.0 * x }).collect();
    s.set_vertex_attribute(id, VertexAttribute::Position, &q).unwrap();
    let v: Vec<f64> = (0..p.len()).map(|i| if i % 3 == 2 { -10.0 } else { 0.0 }).collect();
    s.set_vertex_attribute(id, VertexAttribute::Velocity, &v).unwrap();
    let before = state(&s, id);
    let m = not_converged(s.step(1.0 / 240.0));
    println!("{m}\n{:?}", s.report());
    assert!(m.contains("line search stalled"), "{m}");
    let r = *s.report();
    // At least two failed solves: the stage's, and with no halving left, the friction-smoothing
    // continuation's at 10 ε (a contact retry with a stiffer κ adds the redone stage's).
    assert_eq!((r.converged, r.last_failure), (false, Some(NewtonFailure::LineSearchStall)));
    assert!(r.failed_attempts >= 2 && r.failed_attempts <= 2 + 2 * r.contact_retries, "{r:?}");
    assert_eq!(before, state(&s, id));
    assert!(finite(&s, id));
}

/// A cloth square with self-contact 1 cm above a pinned tet slab, falling onto it.
fn cloth_over_slab() -> (Solver, u32) {
    let params = SolverParams { self_contact: true, ..SolverParams::default() };
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = box_tets([0.2, 0.2, 0.1], [2, 2, 1], [-0.1, -0.1, -0.1]);
    let slab = s.add_solid(&p, &t, &Material::default()).unwrap();
    s.set_vertex_attribute(slab, VertexAttribute::Pinned, &vec![1.0; p.len() / 3]).unwrap();
    let (p, t) = grid_cloth(0.15, 0.15, 6, 6);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.075, 0.01]).collect();
    let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
    (s, cloth)
}

/// A call that fails after new contacts made it rebuild the system pattern (cancelled by the
/// host after its last substep, so that it did all of its work) leaves the solver as it was:
/// its checkpoint (stiffnesses, acceleration, the pattern's contact couplings) is byte for byte
/// the one before, and it goes on bit for bit like a twin that never made the call.
#[test]
fn a_call_failing_after_the_pattern_grew_leaves_the_solver_as_its_twin() {
    let (mut failed, id) = cloth_over_slab();
    let (mut twin, _) = cloth_over_slab();
    for _ in 0..2 {
        failed.advance(0.01).unwrap();
        twin.advance(0.01).unwrap();
    }
    let before = failed.checkpoint();
    // The same call, taken to its end, couples vertices the pattern did not.
    let (mut completed, _) = cloth_over_slab();
    (0..3).for_each(|_| completed.advance(0.01).unwrap());
    assert!(completed.checkpoint().len() > before.len(), "the call grows the pattern");
    failed.set_progress(Some(Box::new(|fraction| fraction >= 1.0)));
    assert!(matches!(failed.advance(0.01), Err(Error::Cancelled(_))));
    failed.set_progress(None);
    assert!(failed.checkpoint() == before, "the cancelled call left its carried state behind");
    for _ in 0..3 {
        failed.advance(0.01).unwrap();
        twin.advance(0.01).unwrap();
    }
    assert_eq!(state(&failed, id), state(&twin, id));
}
