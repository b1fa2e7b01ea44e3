//! The integrators of Ascher et al. 2022 §3 beyond the DIRK family (SI, Newmark, generalized-α,
//! ERE, SIERE) with contact and friction: the block slide of ACCURACY.md against Coulomb's
//! stopping distance, and a cloth dropped onto a sphere (an analytic sphere and a UV-sphere
//! collider mesh) that must come to rest on it without passing through.
//!
//! What each supports: every method takes the full contact and friction force. Newmark and
//! generalized-α solve for it implicitly at their α-point; SI takes it as one Newton iteration of
//! backward Euler; ERE and SIERE take its value and exact Jacobian at the start of the step
//! (colliders at their start poses), so a contact that begins within a step is met at the next.

use grip::analytic::incline::{stop, Incline};
use grip::contact::{Shape, ShapeKind};
use grip::mesh::generate::grid_cloth;
use grip::mesh::shapes::uv_sphere;
use grip::{Integrator, Material, Solver, SolverParams};

/// The methods under test.
const METHODS: [(Integrator, &str); 5] = [
    (Integrator::SemiImplicit, "SI"),
    (Integrator::Newmark, "Newmark"),
    (Integrator::GeneralizedAlpha, "gen-α"),
    (Integrator::ExponentialEuler, "ERE"),
    (Integrator::Siere, "SIERE"),
];

#[test]
fn every_new_integrator_slides_the_block_to_coulombs_stopping_distance() {
    for (integrator, name) in METHODS {
        let case = Incline { h: 0.01, integrator, ..Incline::default() };
        let (x_t, t_t) = case.analytic_stop();
        let samples = case.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = stop(&samples, 1e-4).unwrap_or_else(|| panic!("{name}: the block never stops"));
        let (e_x, e_t) = ((s.distance - x_t) / x_t, (s.t - t_t) / t_t);
        eprintln!(
            "{name}: stopped after {:.5} m ({:+.2}% of {x_t:.5}), at {:.2} s ({:+.2}% of {t_t:.2})",
            s.distance,
            100.0 * e_x,
            s.t,
            100.0 * e_t
        );
        assert!(
            e_x.abs() < 0.02 && e_t.abs() < 0.03,
            "{name}: distance {:+.2}%, time {:+.2}%",
            100.0 * e_x,
            100.0 * e_t
        );
    }
}

/// Sphere radius (m) and centre height (m).
const RADIUS: f64 = 0.2;

/// A 0.5 m cloth of 16 × 16 quads, level 5 cm above the top of a sphere at the origin,
/// dropped onto it (μ = 0.4) for `duration` seconds; returns the end positions, the deepest gap
/// seen at the end of any call (m) and the contact thickness (m).
fn cloth_on_sphere(integrator: Integrator, as_mesh: bool, duration: f64) -> (Vec<f64>, f64, f64) {
    let params = SolverParams { integrator, time_step: 1.0 / 240.0, ..SolverParams::default() };
    let mut solver = Solver::new(&params).unwrap();
    let (flat, triangles) = grid_cloth(0.5, 0.5, 16, 16);
    // grid_cloth hangs in the x–z plane: lay it horizontal above the sphere.
    let cloth: Vec<f64> = flat.chunks_exact(3).flat_map(|p| [p[0], p[2] + 0.25, RADIUS + 0.05]).collect();
    let id = solver.add_shell(&cloth, &triangles, &Material::default()).unwrap();
    let sphere = if as_mesh {
        let (p, t) = uv_sphere(RADIUS, 32, 16);
        solver.add_collider_mesh(&p, &t).unwrap()
    } else {
        solver.add_collider_shape(&Shape { kind: ShapeKind::Sphere, radius: RADIUS, ..Shape::default() }).unwrap()
    };
    solver.set_friction(id, sphere, 0.4).unwrap();
    let mut deepest = f64::INFINITY;
    let frames = (duration * 24.0).round() as usize;
    for _ in 0..frames {
        solver.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("{integrator:?}: {e}"));
        deepest = deepest.min(solver.report().deepest_gap);
    }
    (solver.positions(id).unwrap().to_vec(), deepest, params.contact_thickness)
}

#[test]
fn every_new_integrator_drapes_a_cloth_on_a_sphere_without_passing_through() {
    for as_mesh in [false, true] {
        for (integrator, name) in METHODS {
            let (q, deepest, delta) = cloth_on_sphere(integrator, as_mesh, 1.0);
            // Distance of every vertex from the sphere's centre, less the radius: the cloth lies
            // on the sphere or hangs outside it.
            let clearance = q
                .chunks_exact(3)
                .map(|p| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - RADIUS)
                .fold(f64::INFINITY, f64::min);
            let lowest = q.chunks_exact(3).map(|p| p[2]).fold(f64::INFINITY, f64::min);
            let top = q.chunks_exact(3).map(|p| (p[0].abs() + p[1].abs(), p[2])).fold((f64::INFINITY, 0.0), |a, b| {
                if b.0 < a.0 {
                    b
                } else {
                    a
                }
            });
            eprintln!(
                "{name}, {}: closest to the sphere {:.2} mm, deepest end-of-call gap {:.2} mm, centre at z = {:.4} m, lowest z = {:.3} m",
                if as_mesh { "mesh" } else { "analytic" },
                1e3 * clearance,
                1e3 * deepest,
                top.1,
                lowest
            );
            // On the sphere: the centre rests in the contact layer on its top; no vertex inside.
            assert!(clearance > -0.5 * delta, "{name}: a vertex {:.2} mm inside the sphere", -1e3 * clearance);
            assert!((top.1 - RADIUS).abs() < 2.0 * delta, "{name}: the centre is at z = {:.4} m", top.1);
            // Draped: the corners hang well below the top.
            assert!(lowest < RADIUS - 0.1, "{name}: the cloth does not drape (lowest z = {lowest:.3} m)");
        }
    }
}
