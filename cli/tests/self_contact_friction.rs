//! Coulomb friction through shell self-contact (paper §3.3, Eq. 8, 14, 16, 23): a
//! small stiff cloth square rests on a larger pinned flat cloth sheet, the two shells touching
//! only through self-contact (vertex–triangle and edge–edge pairs). The incline of angle θ is
//! modelled by tilting gravity, g = 9.81 m/s² (sin θ, 0, −cos θ), against the sheet in the xy
//! plane. With μ > tan θ the square sticks; with μ < tan θ it slides with the rigid-body
//! acceleration a = g (sin θ − μ cos θ); with μ = 0 it slides with g sin θ.
//!
//! Each run first settles the square for 0.1 s with μ = 2 (sticking, so the normal bounce of
//! the start dies out without travel), then sets the μ under test and measures the travel of
//! the square's centre along x. Run in release:
//! `cargo test --release --test self_contact_friction -- --nocapture` prints the numbers.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::scenes::placed_grid;
use grip::contact::FrictionCoupling;
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

/// Slope angle θ [degrees]: tan θ = 0.364.
const ANGLE_DEG: f64 = 20.0;
/// Gravity [m/s²].
const G: f64 = 9.81;
/// Stick–slip velocity ε [m/s] (the default).
const EPSILON: f64 = 1e-4;
/// Self-contact thickness δ_s [m].
const DELTA: f64 = 0.002;

/// A flat grid of `n` × `n` quads of side `side` [m] in the xy plane at height `z`, centred at
/// (`cx`, 0), turned by `turn` [rad] about z.
fn sheet(side: f64, n: usize, cx: f64, z: f64, turn: f64) -> (Vec<f64>, Vec<u32>) {
    let (s, c) = turn.sin_cos();
    placed_grid(side, n, |u, w| [cx + c * u - s * w, s * u + c * w, z])
}

/// The square on the sheet after settling, time step `h` [s]: (solver, square id, sheet id).
fn build(h: f64, coupling: FrictionCoupling) -> (Solver, u32, u32) {
    let (s, c) = ANGLE_DEG.to_radians().sin_cos();
    let params = SolverParams {
        time_step: h,
        gravity: [G * s, 0.0, -G * c],
        friction_epsilon: EPSILON,
        friction_coupling: coupling,
        self_contact: true,
        self_contact_thickness: DELTA,
        max_newton_iterations: 100,
        ..SolverParams::default()
    };
    let mut solver = Solver::new(&params).expect("solver");
    // Pinned 0.4 m sheet of 16 × 16 quads (2.5 cm edges).
    let (p, t) = sheet(0.4, 16, 0.0, 0.0, 0.0);
    let base = Material { density: 200.0, youngs_modulus: 1e6, thickness: 1e-3, ..Material::default() };
    let sheet_id = solver.add_shell(&p, &t, &base).expect("sheet");
    solver.set_vertex_attribute(sheet_id, VertexAttribute::Pinned, &vec![1.0; p.len() / 3]).expect("pins");
    // A stiff 0.1 m square of 4 × 4 quads, turned by 17° (no edge parallel to the sheet's),
    // up the slope, at gap δ_s/2.
    let (p, t) = sheet(0.1, 4, -0.1, 0.5 * DELTA, 17f64.to_radians());
    let stiff = Material {
        density: 200.0,
        youngs_modulus: 1e8,
        thickness: 1e-3,
        bending_stiffness: 1e-2,
        damping_beta: 1e-3,
        ..Material::default()
    };
    let square = solver.add_shell(&p, &t, &stiff).expect("square");
    solver.set_friction(square, sheet_id, 2.0).expect("friction");
    solver.advance(0.1).expect("settle");
    (solver, square, sheet_id)
}

/// Mean x of the square's vertices [m].
fn centre(solver: &Solver, square: u32) -> f64 {
    let x = solver.positions(square).expect("positions");
    x.chunks_exact(3).map(|p| p[0]).sum::<f64>() / (x.len() / 3) as f64
}

/// Travel of the square along the slope [m] over `duration` [s] with friction `mu` between the
/// shells, after settling; time step `h` [s].
fn travel(mu: f64, duration: f64, h: f64, coupling: FrictionCoupling) -> f64 {
    let (mut solver, square, sheet_id) = build(h, coupling);
    solver.set_friction(square, sheet_id, mu).expect("friction");
    let x0 = centre(&solver, square);
    let steps = (duration / h).round() as usize;
    for _ in 0..steps {
        solver.step(h).expect("step");
    }
    centre(&solver, square) - x0
}

/// a = g (sin θ − μ cos θ) [m/s²] of a rigid body sliding down the slope.
fn acceleration(mu: f64) -> f64 {
    let (s, c) = ANGLE_DEG.to_radians().sin_cos();
    G * (s - mu * c)
}

/// μ = 0.5 > tan θ: the square sticks. In the sticking zone friction holds the slope's pull
/// m g sin θ at a creep speed |v̄| with s(|v̄|) = tan θ / μ < 1, i.e. |v̄| < ε for either
/// smoothing (0.48 ε for s_a), so after T = 1 s it has moved less than ε T = 0.1 mm (and
/// would have slid ½ g sin θ T² = 1.7 m without friction). Fully implicit and lagged coupling.
#[test]
fn square_sticks_on_the_sheet_when_mu_exceeds_tan_theta() {
    let (mu, duration) = (0.5, 1.0);
    let limit = EPSILON * duration;
    for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
        let moved = travel(mu, duration, 0.01, coupling);
        println!("mu {mu}, coupling {coupling:?}: travel after {duration} s {moved:.6e} m (limit eps*T {limit:.1e} m)");
        assert!(moved.abs() < limit, "coupling {coupling:?}: the square crept {moved:e} m");
    }
}

/// μ = 0.2 < tan θ (fully implicit and lagged coupling) and μ = 0: the square slides; its
/// travel over 0.3 s from rest matches
/// ½ a t² with a = g (sin θ − μ cos θ) within 3% (h = 1/400 s: backward Euler overshoots a
/// constant acceleration's ½ a t² by h/t = 0.8%).
#[test]
fn square_slides_with_the_coulomb_acceleration_when_mu_is_below_tan_theta() {
    let (duration, h) = (0.3, 1.0 / 400.0);
    for (mu, coupling) in
        [(0.2, FrictionCoupling::Implicit), (0.2, FrictionCoupling::Lagged), (0.0, FrictionCoupling::Implicit)]
    {
        let moved = travel(mu, duration, h, coupling);
        let expected = 0.5 * acceleration(mu) * duration * duration;
        let measured_a = 2.0 * moved / (duration * duration);
        println!(
            "mu {mu}, coupling {coupling:?}: travel {moved:.5} m vs 1/2 a t^2 {expected:.5} m (a measured {measured_a:.4} vs analytic {:.4} m/s^2, \
             ratio {:.4})",
            acceleration(mu),
            moved / expected
        );
        assert!((moved / expected - 1.0).abs() < 0.03, "mu {mu}, coupling {coupling:?}: travel {moved} vs {expected}");
    }
}

/// Self-contact friction keeps results bit-identical for any worker count (pair frictions and
/// their Jacobians evaluated in parallel, summed in pair order): 8 frames of a 12 × 12
/// `cloth-fold` (the halves meet by frame 6) with μ = 0.1 of the cloth against itself give the
/// same positions with 1 and 2 workers, which differ from those without self-contact friction.
#[test]
fn self_contact_friction_is_independent_of_the_worker_count() {
    use grip_cli::demo_fold::cloth_fold;
    let positions = |mu: f64, workers: u32| -> Vec<f64> {
        let mut scene = cloth_fold(12, true, 8);
        scene.params.worker_count = workers;
        let mut built = scene.build_solver().expect("scene builds");
        let id = built.objects[0];
        built.solver.set_friction(id, id, mu).expect("friction");
        for frame in 1..=8 {
            built.prepare_frame(frame).expect("frame");
            built.solver.advance(1.0 / scene.fps).expect("advance");
        }
        built.solver.positions(id).expect("positions").to_vec()
    };
    let one = positions(0.1, 1);
    assert!(one == positions(0.1, 2), "1 and 2 workers differ");
    let frictionless = positions(0.0, 2);
    let change = one.iter().zip(&frictionless).fold(0.0f64, |a, (p, q)| a.max((p - q).abs()));
    println!("largest position change from self-contact friction after 8 frames: {change:.3e} m");
    assert!(change > 0.0, "self-contact friction had no effect");
}
