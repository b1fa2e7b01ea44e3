//! The failure policy. Under `FailurePolicy::Strict` a call whose substep still fails after its
//! last halving fails and leaves the solver bit for bit as it was. Under
//! `FailurePolicy::Continue` that substep falls back to friction lagged (paper Eq. 25), then no
//! friction, then Newton's best iterate, and the call succeeds: the report counts the fallback
//! by kind, raises `Warnings::FALLBACK` and names the object, vertex and place where the failed
//! solve was worst. A call that needs no fallback is bit for bit the same under both policies,
//! and a fallback's result does not depend on the thread count.
//!
//! The hard substeps are made deterministically: a cloth landing on the ground with friction
//! and too few Newton iterations allowed for the solve at hand, no halving.
//!
//! Run with `cargo test --release --test failsafe`.

use grip::contact::law::FrictionCoupling;
use grip::contact::Shape;
use grip::mesh::generate::grid_cloth;
use grip::solver::VertexAttribute;
use grip::{Error, FailurePolicy, Fallback, Material, Solver, SolverParams, Warnings};

/// Cells per side of the landing cloth.
const CELLS: usize = 6;

/// How the cloth lands: its speed along x and down (m/s), and μ with the ground.
#[derive(Clone, Copy, Debug)]
struct Landing {
    slide: f64,
    fall: f64,
    mu: f64,
}

/// Sliding fast: friction slides throughout the first substep.
const SLIDING: Landing = Landing { slide: 0.2, fall: 0.3, mu: 0.4 };
/// Slowly sliding: friction stops the cloth within the first substep, which implicit friction
/// takes 32 Newton iterations to resolve, lagged friction 4.
const STOPPING: Landing = Landing { slide: 0.01, fall: 0.3, mu: 0.4 };
/// Falling faster: lagged friction takes 35 iterations on the first substep, none 6.
const HARD_LANDING: Landing = Landing { slide: 0.02, fall: 1.0, mu: 0.4 };

/// A 0.3 m cloth of (CELLS + 1)² vertices 0.8 mm above the ground plane z = 0, landing as
/// `how` says; before it, a small cloth 1 m up, so that the landing cloth is the second object
/// and its vertices are not the first global ones. Returns the solver, the landing cloth's id
/// and the other's.
fn landing(params: &SolverParams, how: Landing) -> (Solver, u32, u32) {
    let Landing { slide, fall, mu } = how;
    let mut s = Solver::new(&SolverParams { default_friction: mu, ..*params }).unwrap();
    s.add_collider_shape(&Shape::default()).unwrap();
    let (p, t) = grid_cloth(0.1, 0.1, 2, 2);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0] + 2.0, v[2], 1.0]).collect();
    let other = s.add_shell(&p, &t, &Material::default()).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, CELLS, CELLS);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2], 8e-4]).collect();
    let id = s.add_shell(&p, &t, &Material::default()).unwrap();
    let v: Vec<f64> = (0..p.len()).map(|i| [slide, 0.0, -fall][i % 3]).collect();
    s.set_vertex_attribute(id, VertexAttribute::Velocity, &v).unwrap();
    (s, id, other)
}

/// Newton iterations allowed, no halving, and `policy`.
fn hard(iterations: u32, policy: FailurePolicy) -> SolverParams {
    SolverParams {
        max_newton_iterations: iterations,
        max_substep_halvings: 0,
        failure_policy: policy,
        ..SolverParams::default()
    }
}

fn bits(x: &[f64]) -> Vec<u64> {
    x.iter().map(|x| x.to_bits()).collect()
}

/// The Newton iterations the first substep of `how` takes with `params` (it must converge).
fn iterations_needed(params: SolverParams, how: Landing) -> u32 {
    let (mut s, _, _) = landing(&SolverParams { max_newton_iterations: 200, ..params }, how);
    s.step(1.0 / 240.0).expect("the landing converges with enough iterations");
    assert_eq!(s.report().failed_attempts, 0, "{:?}", s.report());
    s.report().max_substep_iterations
}

/// Steps the cloth landing as `how` says once with `params`, expecting success; returns the solver, the
/// landing cloth's id and its positions before the step.
fn step_landing(params: &SolverParams, how: Landing) -> (Solver, u32, Vec<f64>) {
    let (mut s, id, _) = landing(params, how);
    let before = s.positions(id).unwrap().to_vec();
    s.step(1.0 / 240.0).expect("the substep is taken by a fallback");
    (s, id, before)
}

/// What every call that took one fallback reports: the count and kind, the warning, and the
/// worst vertex of the failed solve, in the landing cloth (not the first object), where it was
/// at the substep's start, on the ground; the state is finite.
fn assert_one_fallback(s: &Solver, id: u32, before: &[f64], kind: Fallback) {
    let r = *s.report();
    println!("{r:?}");
    let counts = (r.fallbacks_lagged, r.fallbacks_frictionless, r.fallbacks_best_iterate);
    let expected = match kind {
        Fallback::LaggedFriction => (1, 0, 0),
        Fallback::Frictionless => (0, 1, 0),
        Fallback::BestIterate => (0, 0, 1),
    };
    assert_eq!(counts, expected, "{r:?}");
    assert_eq!(r.last_fallback, Some(kind));
    assert!(r.warnings.contains(Warnings::FALLBACK), "{:?}", r.warnings);
    assert!(r.failed_attempts >= 1 && r.last_failure.is_some(), "{r:?}");
    assert_eq!(r.converged, kind != Fallback::BestIterate);
    assert_eq!(r.substeps, 1);
    let site = r.fallback_site.expect("the failed solve names a vertex");
    assert_eq!(site.object, id, "the landing cloth, not the first object");
    let v = site.vertex as usize;
    assert!(v < (CELLS + 1) * (CELLS + 1));
    assert_eq!(bits(&site.position), bits(&before[3 * v..3 * v + 3]), "its place at the substep's start");
    assert!(site.position[2] < 1e-3, "a vertex at the ground: {site:?}");
    let (q, u) = (s.positions(id).unwrap(), s.velocities(id).unwrap());
    assert!(q.iter().chain(u).all(|x| x.is_finite()));
    let message = r.fallback_message("at frame 1", |o| if o == id { "cloth".into() } else { "other".into() });
    let message = message.expect("a message");
    assert!(message.starts_with("cloth failed to converge near (") && message.contains("m at frame 1; fallback: "));
    println!("{message}");
}

/// One Newton iteration cannot take the landing: Strict fails and changes nothing, checkpoint
/// bytes and the report's fallback fields included.
#[test]
fn strict_fails_and_leaves_the_solver_bit_identical() {
    let (mut s, id, _) = landing(&hard(1, FailurePolicy::Strict), SLIDING);
    let before = s.checkpoint();
    let positions = bits(s.positions(id).unwrap());
    match s.step(1.0 / 240.0) {
        Err(Error::NotConverged(m)) => assert!(m.contains("unchanged") && m.contains("after 0 halvings"), "{m}"),
        other => panic!("expected NotConverged, got {other:?}"),
    }
    assert!(s.checkpoint() == before, "the failed call left the solver as it was");
    assert_eq!(bits(s.positions(id).unwrap()), positions);
    let r = *s.report();
    assert!(!r.converged && r.fallbacks() == 0 && r.last_fallback.is_none() && r.fallback_site.is_none());
    assert!(!r.warnings.intersects(Warnings::FALLBACK));
}

/// With one Newton iteration no solve converges: Continue takes the substep at Newton's best
/// iterate (frictionless, backward Euler), reports it and goes on stepping.
#[test]
fn continue_takes_an_unsolvable_substep_at_the_best_iterate() {
    let (mut s, id, before) = step_landing(&hard(1, FailurePolicy::Continue), SLIDING);
    assert_one_fallback(&s, id, &before, Fallback::BestIterate);
    // The next call goes on from the state the fallback left (a little inside the ground: it
    // is taken as a recovery, in halves), with a report that counts its own fallbacks only.
    s.step(1.0 / 240.0).expect("the next substep too");
    assert!(s.positions(id).unwrap().iter().all(|x| x.is_finite()));
    let r = *s.report();
    assert!(r.fallbacks() >= 1 && r.fallbacks() <= r.substeps, "{r:?}");
}

/// Where lagged friction (paper Eq. 25) converges in fewer iterations than implicit friction,
/// allowing just those makes the implicit solve fail and the lagged fallback take the substep.
#[test]
fn lagged_friction_takes_a_substep_implicit_friction_cannot() {
    let implicit = iterations_needed(SolverParams::default(), STOPPING);
    let lagged = iterations_needed(
        SolverParams { friction_coupling: FrictionCoupling::Lagged, ..SolverParams::default() },
        STOPPING,
    );
    println!("Newton iterations: implicit {implicit}, lagged {lagged}");
    assert!(lagged < implicit, "the scene must make implicit friction the harder solve");
    let (s, id, before) = step_landing(&hard(lagged, FailurePolicy::Continue), STOPPING);
    assert_one_fallback(&s, id, &before, Fallback::LaggedFriction);
}

/// Where the frictionless solve converges in fewer iterations than the lagged one, allowing
/// just those makes the solves with friction fail and the frictionless fallback take the
/// substep (lagged coupling chosen, so the lagged fallback does not apply).
#[test]
fn the_frictionless_fallback_takes_a_substep_friction_makes_too_hard() {
    let lagged_params = SolverParams { friction_coupling: FrictionCoupling::Lagged, ..SolverParams::default() };
    let lagged = iterations_needed(lagged_params, HARD_LANDING);
    let frictionless = iterations_needed(lagged_params, Landing { mu: 0.0, ..HARD_LANDING });
    println!("Newton iterations: lagged {lagged}, frictionless {frictionless}");
    assert!(frictionless < lagged, "the scene must make friction the harder solve");
    let params =
        SolverParams { friction_coupling: FrictionCoupling::Lagged, ..hard(frictionless, FailurePolicy::Continue) };
    let (s, id, before) = step_landing(&params, HARD_LANDING);
    assert_one_fallback(&s, id, &before, Fallback::Frictionless);
    // The frictionless substep is the landing at μ = 0, to Newton's tolerances (the failed
    // solve grew the system pattern, whose round-off moves where Newton stops, by about
    // h · velocity_tolerance = 4e-9 m), and far from the landing with friction.
    let free_params = SolverParams { max_newton_iterations: frictionless, ..lagged_params };
    let (free, free_id, _) = step_landing(&free_params, Landing { mu: 0.0, ..HARD_LANDING });
    let (with_friction, friction_id, _) =
        step_landing(&SolverParams { max_newton_iterations: 200, ..lagged_params }, HARD_LANDING);
    let apart = |a: &[f64], b: &[f64]| a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
    let free_q = free.positions(free_id).unwrap();
    let (gap, friction_gap) =
        (apart(s.positions(id).unwrap(), free_q), apart(with_friction.positions(friction_id).unwrap(), free_q));
    println!("the frictionless fallback is {gap:.3e} m from μ = 0, the landing with friction {friction_gap:.3e} m");
    assert!(gap < 1e-7 && friction_gap > 1e-5, "{gap:.3e} m from μ = 0, {friction_gap:.3e} m with friction");
}

/// Calls that need no fallback are bit for bit the same under both policies (checkpoints
/// included), with the report's fallback fields empty.
#[test]
fn continue_without_failures_is_bit_for_bit_strict() {
    let run = |policy: FailurePolicy| {
        let (mut s, _, _) = landing(&SolverParams { failure_policy: policy, ..SolverParams::default() }, SLIDING);
        for _ in 0..6 {
            s.advance(1.0 / 48.0).unwrap();
            let r = *s.report();
            assert!(r.fallbacks() == 0 && r.last_fallback.is_none() && !r.warnings.intersects(Warnings::FALLBACK));
        }
        s.checkpoint()
    };
    assert!(run(FailurePolicy::Strict) == run(FailurePolicy::Continue));
}

/// A call whose substep fails and is taken by its halves, with no fallback, is bit for bit the
/// same under both policies (the failed solve's worst vertex is looked for under Continue only,
/// and changes nothing). The Newton iterations allowed are the most at which the first substep
/// of the hard landing fails and its halves succeed.
#[test]
fn continue_with_halvings_and_no_fallback_is_bit_for_bit_strict() {
    let step = |iterations: u32, policy: FailurePolicy| {
        let params = SolverParams { max_substep_halvings: 4, ..hard(iterations, policy) };
        let (mut s, _, _) = landing(&params, HARD_LANDING);
        let outcome = s.step(1.0 / 240.0).map(|_| *s.report());
        (outcome, s.checkpoint())
    };
    let needed = iterations_needed(SolverParams::default(), HARD_LANDING);
    let iterations = (1..needed)
        .rev()
        .find(|&n| matches!(step(n, FailurePolicy::Strict).0, Ok(r) if r.warnings.contains(Warnings::SUBSTEP_HALVED)))
        .expect("some iteration limit makes the landing halve its substep and succeed");
    let (strict, strict_state) = step(iterations, FailurePolicy::Strict);
    let (go_on, go_on_state) = step(iterations, FailurePolicy::Continue);
    let (strict, go_on) = (strict.unwrap(), go_on.unwrap());
    println!(
        "{iterations} Newton iterations: {} substeps, {} failed attempts",
        strict.substeps, strict.failed_attempts
    );
    assert!(go_on.fallbacks() == 0, "{go_on:?}");
    assert!(go_on.last_fallback.is_none() && go_on.fallback_site.is_none());
    assert_eq!(
        (strict.substeps, strict.newton_iterations, strict.failed_attempts, strict.warnings),
        (go_on.substeps, go_on.newton_iterations, go_on.failed_attempts, go_on.warnings)
    );
    assert!(strict_state == go_on_state, "the same state under both policies");
}

/// A fallback's result, and where it says the solve failed, do not depend on the thread count.
#[test]
fn fallbacks_do_not_depend_on_the_thread_count() {
    let run = |workers: u32| {
        let params = SolverParams { worker_count: workers, ..hard(1, FailurePolicy::Continue) };
        let (s, id, _) = step_landing(&params, SLIDING);
        (bits(s.positions(id).unwrap()), bits(s.velocities(id).unwrap()), s.report().fallback_site)
    };
    assert_eq!(run(1), run(2));
}
