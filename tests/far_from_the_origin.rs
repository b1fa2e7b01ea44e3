//! Coordinates are accepted up to the documented ±1e5 m and the solver works there: a cloth
//! dropped onto a sphere at (1e5 − 1) m on every axis runs 12 frames with every integrator, stays
//! out of the sphere, and over its fall and landing moves as the same scene at the origin does.
//! Beyond the limit, positions, targets, shapes and collider transforms are refused.
//!
//! Run with `cargo test --release --test far_from_the_origin`.

use grip::contact::{Shape, ShapeKind};
use grip::mesh::generate::grid_cloth;
use grip::solver::VertexAttribute;
use grip::{Integrator, Material, Solver, SolverParams};

/// The documented coordinate limit (m).
const LIMIT: f64 = 1e5;
const DELTA: f64 = 3e-3;
const INTEGRATORS: [Integrator; 5] =
    [Integrator::BackwardEuler, Integrator::Trapezoidal, Integrator::Bdf2, Integrator::TrBdf2, Integrator::Sdirk2];

/// A 0.2 m sphere at `o` and a 0.5 m cloth of 10 × 10 quads 5 cm above its top (μ 0.5, so it
/// rests there); the cloth's id.
fn scene(integrator: Integrator, o: [f64; 3]) -> (Solver, u32) {
    let (s, cloth, _) = scene_with_sphere(integrator, o);
    (s, cloth)
}

/// [`scene`] with the sphere's collider id.
fn scene_with_sphere(integrator: Integrator, o: [f64; 3]) -> (Solver, u32, u32) {
    let params = SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: DELTA,
        default_friction: 0.5,
        integrator,
        ..Default::default()
    };
    let mut s = Solver::new(&params).unwrap();
    let sphere =
        s.add_collider_shape(&Shape { kind: ShapeKind::Sphere, center: o, radius: 0.2, ..Default::default() }).unwrap();
    let (p, t) = grid_cloth(0.5, 0.5, 10, 10);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [o[0] + v[0], o[1] + v[2] + 0.25, o[2] + 0.25]).collect();
    let cloth = s.add_shell(&p, &t, &Material::default()).unwrap();
    (s, cloth, sphere)
}

#[test]
fn a_cloth_falls_onto_a_sphere_at_the_coordinate_limit_with_every_integrator() {
    // The cloth's far corner reaches 1e5 − 0.75 m: every coordinate is within the limit.
    let far = [LIMIT - 1.0; 3];
    for integrator in INTEGRATORS {
        let (mut s, cloth) = scene(integrator, far);
        let (mut near, near_cloth) = scene(integrator, [0.0; 3]);
        for frame in 1..=12 {
            s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("{integrator:?}, frame {frame}: {e}"));
            if frame <= 2 {
                // Over the fall and the landing, the same scene at the origin moves the same way
                // (later the trapezoidal rule's bounces amplify rounding differences).
                near.advance(1.0 / 24.0).unwrap();
                let (p, q) = (s.positions(cloth).unwrap(), near.positions(near_cloth).unwrap());
                let apart =
                    p.iter().zip(q).enumerate().map(|(i, (a, b))| (a - far[i % 3] - b).abs()).fold(0.0, f64::max);
                println!("{integrator:?}, frame {frame}: {apart:.2e} m from the same scene at the origin");
                assert!(apart < 1e-5, "{integrator:?}, frame {frame}: {apart} m from the same scene at the origin");
            }
        }
        let p = s.positions(cloth).unwrap();
        let inside = p
            .chunks_exact(3)
            .map(|x| 0.2 - (0..3).map(|k| (x[k] - far[k]).powi(2)).sum::<f64>().sqrt())
            .fold(f64::NEG_INFINITY, f64::max);
        println!("{integrator:?}: deepest {inside:.2e} m inside the sphere after 12 frames");
        assert!(inside <= DELTA, "{integrator:?}: a vertex {inside} m inside the sphere");
        assert!(p.iter().all(|x| x.is_finite()));
    }
}

#[test]
fn coordinates_beyond_the_limit_are_refused() {
    let (mut s, cloth, sphere) = scene_with_sphere(Integrator::BackwardEuler, [0.0; 3]);
    let beyond = LIMIT * (1.0 + 1e-9);
    let message = |e: grip::Error| e.to_string();
    let tri = [0.0, 0.0, 0.0, 0.1, 0.0, 0.0, beyond, 0.1, 0.0];
    assert!(message(s.add_shell(&tri, &[0, 1, 2], &Material::default()).unwrap_err()).contains("1e5 m"));
    let shape = Shape { kind: ShapeKind::Sphere, center: [0.0, beyond, 0.0], radius: 0.1, ..Default::default() };
    assert!(message(s.add_collider_shape(&shape).unwrap_err()).contains("1e5 m"));
    let n = s.positions(cloth).unwrap().len();
    let mut targets = vec![0.0; n];
    targets[4] = -beyond;
    let e = message(s.set_vertex_attribute(cloth, VertexAttribute::Target, &targets).unwrap_err());
    assert!(e.contains("beyond the limit of 1e5 m"), "{e}");
    let mut m = [0.0; 16];
    (m[0], m[5], m[10], m[15], m[12]) = (1.0, 1.0, 1.0, 1.0, beyond);
    let e = message(s.set_collider_transform(sphere, &m).unwrap_err());
    assert!(e.contains("1e5"), "{e}");
    // At the limit itself everything is accepted, and the scene still steps.
    let shape = Shape { kind: ShapeKind::Sphere, center: [0.0, LIMIT, 0.0], radius: 0.1, ..Default::default() };
    s.add_collider_shape(&shape).unwrap();
    s.advance(1.0 / 24.0).unwrap();
}
