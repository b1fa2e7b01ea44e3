//! Every integrator recovers from a bad starting state: a cloth passing through a sphere, a
//! sphere that swallows half a cloth, the same two with a sphere mesh, and a sphere mesh wound
//! inwards (by exact distance and by the implicit surface). Each runs six frames of 1/24 s
//! with BE, TR, BDF2, TR-BDF2 and SDIRK2; the first says in its report that it started inside,
//! and at the end no vertex is inside the collider by more than the contact thickness δ.
//!
//! Run with `cargo test --release --test recovery_every_integrator`.

use grip::contact::{Shape, ShapeKind};
use grip::mesh::generate::grid_cloth;
use grip::mesh::shapes::uv_sphere;
use grip::{ColliderMeshContact, Integrator, Material, Solver, SolverParams, Warnings};

const FRAME: f64 = 1.0 / 24.0;
const DELTA: f64 = 3e-3;
const INTEGRATORS: [Integrator; 5] =
    [Integrator::BackwardEuler, Integrator::Trapezoidal, Integrator::Bdf2, Integrator::TrBdf2, Integrator::Sdirk2];

fn solver(integrator: Integrator, meshes: ColliderMeshContact) -> Solver {
    let params = SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: DELTA,
        integrator,
        collider_mesh_contact: meshes,
        ..Default::default()
    };
    Solver::new(&params).unwrap()
}

/// A flat 0.5 m cloth of 10 × 10 quads at height `z`, spanning x and y in [−0.25, 0.25] m.
fn cloth(s: &mut Solver, z: f64) -> u32 {
    let (p, t) = grid_cloth(0.5, 0.5, 10, 10);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.25, z]).collect();
    s.add_shell(&p, &t, &Material::default()).unwrap()
}

fn sphere(s: &mut Solver, center: [f64; 3], radius: f64) {
    s.add_collider_shape(&Shape { kind: ShapeKind::Sphere, center, radius, ..Default::default() }).unwrap();
}

/// A UV sphere mesh of `radius` at the origin, wound outwards or inwards.
fn sphere_mesh(s: &mut Solver, radius: f64, inwards: bool) {
    let (p, mut t) = uv_sphere(radius, 24, 12);
    if inwards {
        t.chunks_exact_mut(3).for_each(|tri| tri.swap(1, 2));
    }
    s.add_collider_mesh(&p, &t).unwrap();
}

/// How deep (m) the deepest vertex of `cloth` is inside a sphere of `radius` at `center`.
fn depth_in_sphere(s: &Solver, cloth: u32, center: [f64; 3], radius: f64) -> f64 {
    let p = s.positions(cloth).unwrap();
    p.chunks_exact(3)
        .map(|x| radius - (0..3).map(|k| (x[k] - center[k]).powi(2)).sum::<f64>().sqrt())
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Six frames with every integrator: all succeed, the first reports the start inside, and at
/// the end the cloth is out of the sphere (its inscribed sphere for a mesh) to within δ.
fn recovers(
    name: &str,
    build: impl Fn(&mut Solver) -> u32,
    meshes: ColliderMeshContact,
    center: [f64; 3],
    radius: f64,
) {
    for integrator in INTEGRATORS {
        let mut s = solver(integrator, meshes);
        let cloth = build(&mut s);
        let start = depth_in_sphere(&s, cloth, center, radius);
        for frame in 1..=6 {
            s.advance(FRAME).unwrap_or_else(|e| panic!("{name}, {integrator:?}, frame {frame}: {e}"));
            if frame == 1 && start > 0.0 {
                let r = s.report();
                assert!(r.warnings.intersects(Warnings::INITIAL_PENETRATION), "{name}, {integrator:?}: {r:?}");
                assert!(r.initial_penetrations > 0 && r.initial_deepest_gap < 0.0, "{name}, {integrator:?}: {r:?}");
            }
        }
        let end = depth_in_sphere(&s, cloth, center, radius);
        let finite = s.positions(cloth).unwrap().iter().chain(s.velocities(cloth).unwrap()).all(|x| x.is_finite());
        println!("{name}, {integrator:?}: deepest vertex {start:.3} m inside at the start, {end:.4} m at frame 6");
        assert!(finite && end <= DELTA, "{name}, {integrator:?}: {end} m inside after six frames");
    }
}

#[test]
fn a_cloth_passing_through_a_sphere_recovers() {
    // The cloth cuts the 0.2 m sphere 0.1 m above its centre: 32 vertices up to 0.1 m inside.
    let build = |s: &mut Solver| {
        sphere(s, [0.0; 3], 0.2);
        cloth(s, 0.1)
    };
    recovers("cloth through a sphere", build, ColliderMeshContact::Exact, [0.0; 3], 0.2);
}

#[test]
fn a_sphere_swallowing_half_a_cloth_recovers() {
    // The 0.3 m sphere's centre lies on the cloth's edge: half the cloth is inside, 0.3 m deep.
    let center = [0.25, 0.0, 0.3];
    let build = |s: &mut Solver| {
        sphere(s, center, 0.3);
        cloth(s, 0.3)
    };
    recovers("sphere swallowing half a cloth", build, ColliderMeshContact::Exact, center, 0.3);
}

#[test]
fn a_cloth_passing_through_a_sphere_mesh_recovers() {
    // The inscribed sphere of the 24 × 12 UV sphere: radius 0.2 cos(π/12) cos(π/24).
    let inscribed = 0.2 * (std::f64::consts::PI / 12.0).cos() * (std::f64::consts::PI / 24.0).cos();
    let build = |s: &mut Solver| {
        sphere_mesh(s, 0.2, false);
        cloth(s, 0.1)
    };
    recovers("cloth through a sphere mesh", build, ColliderMeshContact::Exact, [0.0; 3], inscribed);
}

#[test]
fn a_sphere_mesh_wound_inwards_holds_the_cloth_as_one_wound_outwards() {
    let inscribed = 0.2 * (std::f64::consts::PI / 12.0).cos() * (std::f64::consts::PI / 24.0).cos();
    for meshes in [ColliderMeshContact::Exact, ColliderMeshContact::Implicit] {
        let build = |s: &mut Solver| {
            sphere_mesh(s, 0.2, true);
            cloth(s, 0.25)
        };
        recovers(&format!("inward sphere mesh, {meshes:?}"), build, meshes, [0.0; 3], inscribed);
    }
}

#[test]
fn a_sphere_mesh_swallowing_half_a_cloth_recovers() {
    let center = [0.25, 0.0, 0.3];
    let inscribed = 0.3 * (std::f64::consts::PI / 12.0).cos() * (std::f64::consts::PI / 24.0).cos();
    let build = |s: &mut Solver| {
        let (p, t) = uv_sphere(0.3, 24, 12);
        let p: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0] + center[0], x[1], x[2] + center[2]]).collect();
        s.add_collider_mesh(&p, &t).unwrap();
        cloth(s, 0.3)
    };
    recovers("sphere mesh swallowing half a cloth", build, ColliderMeshContact::Exact, center, inscribed);
}
