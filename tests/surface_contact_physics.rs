//! Contact between deforming meshes: a cloth comes to rest on a soft slab, a
//! soft cube on a soft slab, with no step ending inside a surface after κ adaptation; a cloth
//! strip on a turning collider mesh of a sphere turns with it at high friction and stays behind
//! at low friction, met through its implicit surface and by exact distance. Each runs with both
//! Newton linear solvers, the sparse LU and BiCGSTAB, so the iterative solver is held to the
//! same physics.
//!
//! Run with `cargo test --release --test surface_contact_physics`.

use grip::mesh::generate::{box_tets, grid_cloth};
use grip::solve::linear_solver::LinearSolverKind;
use grip::{ColliderMeshContact, Material, Solver, SolverParams};

/// Both ways of meeting a collider mesh: its implicit surface and the exact distance.
const CONTACTS: [ColliderMeshContact; 2] = [ColliderMeshContact::Implicit, ColliderMeshContact::Exact];

mod common;
use common::{sleeve_cloth, SOLVERS};
use grip::solver::VertexAttribute;

/// The parameters of these scenes: a step of `time_step` [s] and the solver `linear_solver`.
fn params(time_step: f64, linear_solver: LinearSolverKind) -> SolverParams {
    SolverParams { time_step, linear_solver, ..Default::default() }
}

/// A soft slab 0.4 × 0.4 × 0.1 m with its top face at z = 0, bottom face pinned; returns its id.
fn add_slab(s: &mut Solver) -> u32 {
    let (p, t) = box_tets([0.4, 0.4, 0.1], [8, 8, 2], [-0.2, -0.2, -0.1]);
    let m =
        Material { youngs_modulus: 1e5, poisson_ratio: 0.3, density: 1000.0, damping_beta: 0.01, ..Default::default() };
    let id = s.add_solid(&p, &t, &m).unwrap();
    let pinned: Vec<f64> = p.chunks(3).map(|x| if x[2] < -0.1 + 1e-9 { 1.0 } else { 0.0 }).collect();
    s.set_vertex_attribute(id, VertexAttribute::Pinned, &pinned).unwrap();
    id
}

/// Steps `s` `steps` times by `h`, returning the smallest deepest gap over the steps.
fn run(s: &mut Solver, steps: usize, h: f64) -> f64 {
    let mut deepest = f64::INFINITY;
    let (mut newton, mut retries, mut seconds) = (0, 0, 0.0);
    for k in 0..steps {
        s.step(h).unwrap_or_else(|e| panic!("step {k}: {e}"));
        let r = s.report();
        deepest = deepest.min(r.deepest_gap);
        newton += r.newton_iterations;
        retries += r.contact_retries;
        seconds += r.seconds_total;
        if k % 20 == 0 {
            println!(
                "  step {k}: it {} asm {:.3} lu {:.3} solve {:.3} res {:.3} total {:.3}",
                r.newton_iterations,
                r.seconds_assembly,
                r.seconds_factorization,
                r.seconds_solve,
                r.seconds_residual,
                r.seconds_total
            );
        }
    }
    println!("{steps} steps: {newton} Newton iterations, {retries} contact retries, {seconds:.2} s");
    deepest
}

fn z_range(p: &[f64]) -> (f64, f64) {
    p.chunks(3).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x[2]), hi.max(x[2])))
}

#[test]
fn cloth_comes_to_rest_on_a_soft_slab() {
    for (linear_solver, name) in SOLVERS {
        let params = params(0.01, linear_solver);
        let mut s = Solver::new(&params).unwrap();
        let slab = add_slab(&mut s);
        let (p, t) = grid_cloth(0.3, 0.3, 12, 12);
        let p: Vec<f64> = p.chunks(3).flat_map(|x| [x[0], x[2] + 0.15, 0.03]).collect();
        let cloth = s.add_shell(&p, &t, &sleeve_cloth()).unwrap();
        let deepest = run(&mut s, 100, 0.01);
        let (lo, hi) = z_range(s.positions(cloth).unwrap());
        let (slab_lo, slab_hi) = z_range(s.positions(slab).unwrap());
        let ke = s.kinetic_energy();
        println!("{name}, cloth on slab: cloth z in [{lo:.5}, {hi:.5}], slab top {slab_hi:.5} (bottom {slab_lo}), deepest gap over steps {deepest:.2e}, KE {ke:.2e} J");
        assert!(deepest >= 0.0, "{name}: a step ended with a negative gap {deepest}");
        let delta = params.contact_thickness;
        let last = s.report().deepest_gap;
        assert!((0.0..delta).contains(&last), "{name}: the cloth touches the slab at the end: gap {last}");
        // The slab's top sags a little under its own weight; the cloth lies on it, wrinkled a little.
        assert!(lo > slab_hi - delta && hi < slab_hi + 4.0 * delta, "{name}: cloth rests on the slab top");
        assert!(ke < 1e-6, "{name}: at rest: kinetic energy {ke} J");
    }
}

#[test]
fn soft_cube_comes_to_rest_on_a_soft_slab() {
    for (linear_solver, name) in SOLVERS {
        let params = params(0.01, linear_solver);
        let mut s = Solver::new(&params).unwrap();
        let slab = add_slab(&mut s);
        let (p, t) = box_tets([0.1, 0.1, 0.1], [3, 3, 3], [-0.05, -0.05, 0.02]);
        let m = Material {
            youngs_modulus: 5e4,
            poisson_ratio: 0.4,
            density: 500.0,
            damping_beta: 0.01,
            ..Default::default()
        };
        let cube = s.add_solid(&p, &t, &m).unwrap();
        let deepest = run(&mut s, 100, 0.01);
        let (lo, _) = z_range(s.positions(cube).unwrap());
        let (_, slab_hi) = z_range(s.positions(slab).unwrap());
        let ke = s.kinetic_energy();
        println!(
            "{name}, cube on slab: cube bottom {lo:.5}, slab top {slab_hi:.5}, deepest gap over steps {deepest:.2e}, KE {ke:.2e} J"
        );
        assert!(deepest >= 0.0, "{name}: a step ended with a negative gap {deepest}");
        assert!((lo - slab_hi).abs() < 2.0 * params.contact_thickness, "{name}: the cube rests on the slab");
        assert!(ke < 1e-6, "{name}: at rest: kinetic energy {ke} J");
    }
}

/// Angular speed of the turning sphere: 90°/s about the vertical axis.
const OMEGA: f64 = std::f64::consts::FRAC_PI_2;

/// Turns a cloth strip draped on a collider-mesh sphere (radius 0.1 m; Newton's linear solver
/// `linear_solver`) that starts turning about
/// z at 90°/s after 0.4 s; returns, 0.5 s later, (mean |v − v_surface| / mean surface speed over
/// the strip's vertices in contact, the strip's turn / the sphere's turn over those 0.5 s, the
/// smallest gap over all steps). The strip has air drag (mass-proportional Rayleigh damping
/// α = 20/s, a force −α m v): to turn with the sphere it needs a steady tangential pull of about
/// α ω r ≈ 2 m/s² per unit mass at r ≈ 7 cm, which friction at μ = 0.8 gives (μ g ≈ 8 m/s²
/// and more, the hanging ends pulling the strip onto the ball) and μ = 0.05 does not.
fn turning_sphere(mu: f64, linear_solver: LinearSolverKind, contact: ColliderMeshContact) -> (f64, f64, f64) {
    use grip::mesh::shapes::icosphere;
    let h = 0.01;
    let params = SolverParams { collider_mesh_contact: contact, ..params(h, linear_solver) };
    let mut s = Solver::new(&params).unwrap();
    let (ball, tris) = icosphere(0.1, 3);
    let sphere = s.add_collider_mesh(&ball, &tris).unwrap();
    let (p, t) = grid_cloth(0.3, 0.04, 30, 4);
    let p: Vec<f64> = p.chunks(3).flat_map(|x| [x[0], x[2] + 0.02, 0.105]).collect();
    let strip = s.add_shell(&p, &t, &Material { damping_alpha: 20.0, ..sleeve_cloth() }).unwrap();
    s.set_friction(strip, sphere, mu).unwrap();
    let settle = run(&mut s, 40, h);
    let angle_of = |p: &[f64]| {
        // Mean azimuth of the strip's far halves (x > 0 side) about z.
        let pts: Vec<&[f64]> = p.chunks(3).filter(|x| x[0] > 0.03).collect();
        pts.iter().map(|x| x[1].atan2(x[0])).sum::<f64>() / pts.len() as f64
    };
    let a0 = angle_of(s.positions(strip).unwrap());
    let mut deepest = settle;
    let turn_steps = 50;
    for k in 1..=turn_steps {
        let angle = OMEGA * h * k as f64;
        let (sn, cs) = angle.sin_cos();
        let turned: Vec<f64> =
            ball.chunks(3).flat_map(|x| [cs * x[0] - sn * x[1], sn * x[0] + cs * x[1], x[2]]).collect();
        s.set_collider_positions(sphere, &turned).unwrap();
        s.step(h).unwrap_or_else(|e| panic!("turn step {k}: {e}"));
        deepest = deepest.min(s.report().deepest_gap);
    }
    let (x, v) = (s.positions(strip).unwrap(), s.velocities(strip).unwrap());
    let (mut rel, mut surf) = (0.0, 0.0);
    for (xi, vi) in x.chunks(3).zip(v.chunks(3)) {
        if (xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]).sqrt() > 0.1 + 2.0 * params.contact_thickness {
            continue;
        }
        let vs = [-OMEGA * xi[1], OMEGA * xi[0], 0.0];
        rel += ((vi[0] - vs[0]).powi(2) + (vi[1] - vs[1]).powi(2) + (vi[2] - vs[2]).powi(2)).sqrt();
        surf += (vs[0] * vs[0] + vs[1] * vs[1]).sqrt();
    }
    let turned = (angle_of(x) - a0) / (OMEGA * h * turn_steps as f64);
    (rel / surf, turned, deepest)
}

#[test]
fn strip_turns_with_a_turning_collider_mesh_at_high_friction() {
    for ((linear_solver, solver), contact) in SOLVERS.into_iter().flat_map(|s| CONTACTS.map(|c| (s, c))) {
        let name = format!("{solver}, {contact:?}");
        let (rel, turned, deepest) = turning_sphere(0.8, linear_solver, contact);
        println!(
            "{name}, mu = 0.8: relative speed {:.2}% of the surface speed, turned {:.1}% of the sphere, deepest gap {deepest:.2e}",
            100.0 * rel,
            100.0 * turned
        );
        assert!(rel < 0.05, "{name}: relative speed {rel} of the surface speed");
        assert!(deepest >= 0.0, "{name}: a step ended with gap {deepest}");
    }
}

#[test]
fn strip_mostly_stays_on_a_turning_collider_mesh_at_low_friction() {
    for ((linear_solver, solver), contact) in SOLVERS.into_iter().flat_map(|s| CONTACTS.map(|c| (s, c))) {
        let name = format!("{solver}, {contact:?}");
        let (rel, turned, deepest) = turning_sphere(0.05, linear_solver, contact);
        println!(
            "{name}, mu = 0.05: relative speed {:.2}% of the surface speed, turned {:.1}% of the sphere, deepest gap {deepest:.2e}",
            100.0 * rel,
            100.0 * turned
        );
        assert!(turned < 0.5, "{name}: the strip turned {turned} of the sphere's turn");
        assert!(deepest >= 0.0, "{name}: a step ended with gap {deepest}");
    }
}
