//! The dynamics demos of `grip demo`: integrators and the volume-change penalty.
//!
//! - `ball-squish` (paper §5.2.2): a hollow rubber ball pressed to half its height between two
//!   plates to 70 % of its height, its enclosed air a quadratic volume penalty (Eq. 20/21) with κ_v = 0.01 atm⁻¹
//!   ([`ball_squish`] takes any κ_v; the paper compares 1 atm⁻¹).
//! - `tennis-ball-drop` (paper §5.3): a tennis ball dropped from 2.54 m onto a floor, its air an
//!   ideal gas 1 atm above ambient ([`tennis_ball_drop`] also builds the unpressurized ball and
//!   takes any integrator); SDIRK2 by default.
//! - `ball-in-box` (paper §5.1.3): a spinning solid rubber ball thrown inside an elastic box
//!   (a tet block with a cubic cavity, its base pinned), trapezoidal rule over the full force at
//!   h = 0.01 s for 800 frames.
//! - `soft-beam` (Ascher et al. 2022 Fig. 6): a soft neo-Hookean beam clamped at both ends sagging
//!   under gravity; TR-BDF2 by default ([`soft_beam`] takes any integrator).

use grip::contact::collider::shape::ShapeKind;
use grip::contact::Shape;
use grip::energy::volume::VolumeKind;
use grip::mesh::generate::{box_tets, without_unused_vertices};
use grip::mesh::shapes::icosphere;
use grip::mesh::tetrahedralize::{cell_size_for_tet_count, tetrahedralize_sdf};
use grip::model::params::Integrator;
use grip::scene::collider::{Motion, SceneCollider};
use grip::scene::description::{Elements, FrictionPair, Scene, SceneObject, VolumeSpec};
use grip::{Material, SolverParams};

/// One standard atmosphere (Pa).
///
/// cbindgen:ignore
pub const ATM: f64 = 101_325.0;

/// A rubber membrane (SI units): Young's modulus `e` (Pa), ν = 0.45, ρ = 1100 kg/m³, `thickness` (m),
/// plate bending stiffness E t³/(12(1 − ν²)), light Rayleigh damping.
fn rubber(e: f64, thickness: f64) -> Material {
    Material {
        youngs_modulus: e,
        poisson_ratio: 0.45,
        density: 1100.0,
        thickness,
        bending_stiffness: e * thickness.powi(3) / (12.0 * (1.0 - 0.45 * 0.45)),
        damping_alpha: 0.0,
        damping_beta: 1e-4,
        ..Material::default()
    }
}

/// A plane collider through `point` with unit normal `normal`, moved by `motion`.
fn plane(name: &str, point: [f64; 3], normal: [f64; 3], mu: f64, motion: Motion) -> SceneCollider {
    let shape = Shape { kind: ShapeKind::Plane, center: point, axis: normal, ..Shape::default() };
    SceneCollider { name: name.into(), shape, mu, motion }
}

/// Column-major translation by `t` (m).
fn translation(t: [f64; 3]) -> [f64; 16] {
    let mut m = [0.0; 16];
    (m[0], m[5], m[10], m[15]) = (1.0, 1.0, 1.0, 1.0);
    m[12..15].copy_from_slice(&t);
    m
}

/// Radius of the squished ball (m).
const SQUISH_RADIUS: f64 = 0.1;
/// Seconds the top plate takes to press the ball, then holds.
const SQUISH_PRESS: f64 = 0.5;
/// How far the top plate comes down, in ball radii (the ball keeps 70 % of its height).
const SQUISH_DEPTH: f64 = 0.6;

/// `ball-squish` with compression coefficient `kappa_per_atm` [1/atm]: a 0.1 m hollow ball
/// (rubber membrane 2 mm, 320 triangles) on a fixed plate; the top plate comes down by 0.6 R
/// (the ball keeps 70 % of its height) in 0.5 s with a smoothstep ease, then holds for 0.25 s.
pub fn ball_squish(kappa_per_atm: f64) -> Scene {
    let r = SQUISH_RADIUS;
    let (positions, triangles) = icosphere(r, 2);
    let mut ball = SceneObject::new("ball", positions, Elements::Triangles(triangles), rubber(1e6, 0.002));
    ball.volume = Some(VolumeSpec { model: VolumeKind::Quadratic, compression: kappa_per_atm / ATM, pressure: 0.0 });
    let params = SolverParams {
        time_step: 1.0 / 240.0,
        gravity: [0.0; 3],
        max_newton_iterations: 100,
        ..SolverParams::default()
    };
    let mut scene = Scene::new("ball-squish", params, vec![ball]);
    (scene.fps, scene.frames) = (24.0, 18);
    let gap = 0.5 * params.contact_thickness;
    let frames = (0..=scene.frames)
        .map(|k| {
            let u = (k as f64 / scene.fps / SQUISH_PRESS).min(1.0);
            translation([0.0, 0.0, -SQUISH_DEPTH * r * u * u * (3.0 - 2.0 * u)])
        })
        .collect();
    scene.colliders = vec![
        plane("bottom", [0.0, 0.0, -r - gap], [0.0, 0.0, 1.0], 0.3, Motion::Fixed),
        plane("top", [0.0, 0.0, r + gap], [0.0, 0.0, -1.0], 0.3, Motion::Frames(frames)),
    ];
    scene
}

/// Radius of the tennis ball (m).
///
/// cbindgen:ignore
pub const TENNIS_RADIUS: f64 = 0.033;
/// Young's modulus of the tennis ball's rubber (Pa): stiff enough that the 1 atm over-pressure
/// stretches the 3 mm wall by ≈ 10 % (hoop stress P R / 2t ≈ 0.56 MPa).
const TENNIS_RUBBER: f64 = 5e6;
/// Drop height of the ball's bottom in m (100 inches, the ITF rebound test).
///
/// cbindgen:ignore
pub const TENNIS_DROP: f64 = 2.54;

/// `tennis-ball-drop` with `integrator`: a 33 mm hollow rubber ball
/// (3 mm wall, ≈ 45 g, 80 triangles) released at rest with its bottom 2.54 m above a
/// frictionless floor, for 1.5 s. Its air is an ideal gas (Eq. 18): `pressurized` 2 atm absolute
/// (1 atm over the ambient), otherwise at the ambient 1 atm.
pub fn tennis_ball_drop(integrator: Integrator, pressurized: bool) -> Scene {
    tennis_ball_drop_with_step(integrator, pressurized, 1.0 / 1200.0)
}

/// [`tennis_ball_drop`] with time step `h` (s).
pub fn tennis_ball_drop_with_step(integrator: Integrator, pressurized: bool, h: f64) -> Scene {
    let r = TENNIS_RADIUS;
    let (mut positions, triangles) = icosphere(r, 1);
    positions.chunks_exact_mut(3).for_each(|p| p[2] += TENNIS_DROP + r);
    let mut ball = SceneObject::new("ball", positions, Elements::Triangles(triangles), rubber(TENNIS_RUBBER, 0.003));
    let absolute = if pressurized { 2.0 * ATM } else { ATM };
    ball.volume =
        Some(VolumeSpec { model: VolumeKind::IdealGas, compression: 1.0 / absolute, pressure: absolute - ATM });
    let params = SolverParams { time_step: h, integrator, ..SolverParams::default() };
    let mut scene = Scene::new("tennis-ball-drop", params, vec![ball]);
    (scene.fps, scene.frames) = (120.0, 180);
    scene.colliders = vec![plane("floor", [0.0; 3], [0.0, 0.0, 1.0], 0.0, Motion::Fixed)];
    scene
}

/// `ball-in-box` with `integrator` (paper §5.1.3, Fig. 6): a 0.5 m elastic box (walls 0.1 m thick
/// around a 0.3 m cubic cavity, base pinned; ρ = 10000 kg/m³, E = 500 kPa, ν = 0.1) holding a solid
/// rubber ball of radius 0.08 m (about 1K tets; ρ = 500 kg/m³, E = 50 kPa, ν = 0.45), μ = 0.1
/// between them, Rayleigh stiffness damping β = 1e-3 s on both. The ball is thrown at
/// (−0.923, −0.385, 0) m/s as in the paper and spins at 10 rad/s about z (the paper's 4800 rpm would
/// tear a 50 kPa ball of this size apart: ρω²r² ≈ 0.8 MPa). h = 0.01 s, 100 frames/s, 800 frames.
pub fn ball_in_box(integrator: Integrator) -> Scene {
    let (outer, cells) = (0.5, 5);
    let (grid, tets) = box_tets([outer; 3], [cells; 3], [-0.25, -0.25, 0.0]);
    // Keep the tets outside the central 3 × 3 × 3 cells: walls one cell (0.1 m) thick.
    let inside = |c: [f64; 3]| c[0].abs() < 0.15 && c[1].abs() < 0.15 && c[2] > 0.1 && c[2] < 0.4;
    let kept: Vec<u32> = tets
        .chunks_exact(4)
        .filter(|t| {
            let c = [0, 1, 2].map(|k| t.iter().map(|&v| grid[3 * v as usize + k]).sum::<f64>() / 4.0);
            !inside(c)
        })
        .flatten()
        .copied()
        .collect();
    // The grid points inside the cavity belong to no kept tet: drop them (they would fall freely).
    let (grid, kept) = without_unused_vertices(&grid, &kept);
    let box_material =
        Material { youngs_modulus: 5e5, poisson_ratio: 0.1, density: 1e4, damping_beta: 1e-3, ..Material::default() };
    let base: Vec<usize> = (0..grid.len() / 3).filter(|&i| grid[3 * i + 2] < 1e-9).collect();
    let mut walls = SceneObject::new("box", grid, Elements::Tets(kept), box_material);
    walls.pinned = base;
    walls.preview = grip::scene::description::PreviewStyle::Translucent;
    let r = 0.08;
    let volume = 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
    let sphere = |p: [f64; 3]| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - r;
    let mesh = tetrahedralize_sdf(sphere, [-r; 3], [r; 3], cell_size_for_tet_count(volume, 1000))
        .expect("a sphere tetrahedralizes");
    let mut positions = mesh.flat_positions();
    positions.chunks_exact_mut(3).for_each(|p| p[2] += 0.25);
    let ball_material = Material {
        youngs_modulus: 5e4,
        poisson_ratio: 0.45,
        density: 500.0,
        damping_beta: 1e-3,
        ..Material::default()
    };
    let mut ball = SceneObject::new("ball", positions, Elements::Tets(mesh.flat_tets()), ball_material);
    ball.velocity = [-0.923, -0.385, 0.0];
    ball.angular_velocity = [0.0, 0.0, 10.0];
    // Stick–slip velocity scale ε = 1 mm/s and up to 6 substep halvings, as in the tube demo: with
    // the default ε = 0.1 mm/s Newton stagnates near a relative residual of 1e-5 once the ball rolls.
    let params = SolverParams {
        time_step: 0.01,
        integrator,
        default_friction: 0.1,
        friction_epsilon: 1e-3,
        max_substep_halvings: 6,
        ..SolverParams::default()
    };
    let mut scene = Scene::new("ball-in-box", params, vec![walls, ball]);
    scene.friction = vec![FrictionPair { a: "ball".into(), b: "box".into(), mu: 0.1 }];
    (scene.fps, scene.frames) = (100.0, 800);
    scene
}

/// `soft-beam` with `integrator`: a 1 m × 0.1 m × 0.1 m beam of 20 × 2 × 2 cubes, E = 100 kPa,
/// ν = 0.4, ρ = 1000 kg/m³ (stable neo-Hookean, no damping), both end faces clamped, released
/// straight under gravity; h = 0.01 s, 50 frames/s, 2 s.
pub fn soft_beam(integrator: Integrator) -> Scene {
    let (positions, tets) = box_tets([1.0, 0.1, 0.1], [20, 2, 2], [-0.5, -0.05, -0.05]);
    let material = Material {
        youngs_modulus: 1e5,
        poisson_ratio: 0.4,
        density: 1000.0,
        damping_alpha: 0.0,
        damping_beta: 0.0,
        ..Material::default()
    };
    let pinned = (0..positions.len() / 3).filter(|&i| positions[3 * i].abs() > 0.5 - 1e-9).collect();
    let mut beam = SceneObject::new("beam", positions, Elements::Tets(tets), material);
    beam.pinned = pinned;
    let params = SolverParams { time_step: 0.01, integrator, ..SolverParams::default() };
    let mut scene = Scene::new("soft-beam", params, vec![beam]);
    (scene.fps, scene.frames) = (50.0, 100);
    scene
}

/// The demos with their default settings.
pub fn demo(name: &str) -> Option<Scene> {
    Some(match name {
        "ball-squish" => ball_squish(0.01),
        "tennis-ball-drop" => tennis_ball_drop(Integrator::Sdirk2, true),
        "ball-in-box" => ball_in_box(Integrator::Trapezoidal),
        "soft-beam" => soft_beam(Integrator::TrBdf2),
        _ => return None,
    })
}
