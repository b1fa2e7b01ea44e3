//! Cloth dropped into the concave creases of collider meshes, judged by checks that do not come
//! from the solver: every frame completes in the library's strict contract (a failed step is an
//! error), no cloth triangle intersects a collider triangle at the end of a frame (exact
//! triangle–triangle tests), and no cloth vertex lies deeper than the contact thickness behind
//! the collider. The scenes: a floor meeting a wall and a 70° V trough (open meshes of four
//! triangles), and the same floor–wall crease as the inside corner of a closed L-shaped block;
//! μ 0 and 0.3, fully implicit and lagged.
//!
//! Run with `cargo test --release --test concave_creases`.

use grip::contact::FrictionCoupling;
use grip::mesh::intersection::intersecting_pairs_between;
use grip::mesh::shapes::l_block;
use grip::{Material, Solver, SolverParams};

mod common;
use common::collider_meshes::{drop_params, flat_cloth, signed_distance};
use common::sleeve_cloth;

/// A collider mesh: flat positions (m) and triangles.
type Mesh = (Vec<f64>, Vec<u32>);

/// How far a point (m) lies in front of a collider (m): its signed distance, negative behind.
type Clearance<'a> = &'a dyn Fn([f64; 3]) -> f64;

/// A floor (z = 0, x ≥ 0) meeting a wall (x = 0, z ≥ 0) along the y axis: one open mesh of
/// four triangles, a 90° concave crease.
fn floor_and_wall(size: f64) -> Mesh {
    let points =
        vec![0.0, -size, 0.0, size, -size, 0.0, size, size, 0.0, 0.0, size, 0.0, 0.0, -size, size, 0.0, size, size];
    let triangles = vec![0, 1, 2, 0, 2, 3, 0, 3, 5, 0, 5, 4];
    (points, triangles)
}

/// A V trough along the y axis: two panels of width `width` (m) meeting at the origin at an
/// `opening` (rad), symmetric about the vertical, their normals into the V: one open mesh of
/// four triangles, a concave crease turning by π − `opening`. Also the two panels' unit normals.
fn v_trough(width: f64, opening: f64) -> (Mesh, [[f64; 3]; 2]) {
    let (a, b) = (width * (0.5 * opening).sin(), width * (0.5 * opening).cos());
    let s = width;
    let points = vec![0.0, -s, 0.0, 0.0, s, 0.0, a, -s, b, a, s, b, -a, -s, b, -a, s, b];
    let triangles = vec![0, 2, 3, 0, 3, 1, 0, 1, 5, 0, 5, 4];
    let normals = [[-b / width, 0.0, a / width], [b / width, 0.0, a / width]];
    ((points, triangles), normals)
}

/// A cloth of `n` × `n` vertices and side `size` (m), tilted by `tilt` (rad) about y and
/// lifted to `z` (m), over the point (`x`, 0).
fn cloth(size: f64, n: usize, x: f64, z: f64, tilt: f64) -> Mesh {
    let (p, t) = flat_cloth(size, n - 1, 0.0);
    let (c, s) = (tilt.cos(), tilt.sin());
    (p.chunks(3).flat_map(|q| [x + c * q[0], q[1], z - s * q[0]]).collect(), t)
}

/// Drops `cloth` on `collider` for `frames` frames of 1/24 s with friction `mu` and `coupling`;
/// panics on a failed frame, an intersection or a vertex deeper than δ by `clearance`.
fn drop_on(
    name: &str,
    collider: &Mesh,
    clearance: Clearance,
    cloth: &Mesh,
    mu: f64,
    coupling: FrictionCoupling,
    frames: usize,
) {
    let params = SolverParams { friction_coupling: coupling, ..drop_params() };
    let delta = params.contact_thickness;
    let mut s = Solver::new(&params).unwrap();
    let c = s.add_collider_mesh(&collider.0, &collider.1).unwrap();
    let material = Material { bending_stiffness: 1e-5, ..sleeve_cloth() };
    let k = s.add_shell(&cloth.0, &cloth.1, &material).unwrap();
    s.set_friction(k, c, mu).unwrap();
    let triples = |p: &[f64]| p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect::<Vec<_>>();
    let tris = |t: &[u32]| t.chunks(3).map(|x| [x[0], x[1], x[2]]).collect::<Vec<_>>();
    let (mesh_points, mesh_tris) = (triples(&collider.0), tris(&collider.1));
    let cloth_tris = tris(&cloth.1);
    let (mut newton, mut lowest) = (0, f64::INFINITY);
    for frame in 1..=frames {
        s.step(1.0 / 24.0).unwrap_or_else(|e| panic!("{name}, μ {mu}, {coupling:?}: frame {frame} failed: {e}"));
        newton += s.report().newton_iterations;
        let p = triples(s.positions(k).unwrap());
        let cut = intersecting_pairs_between(&p, &cloth_tris, &mesh_points, &mesh_tris);
        assert!(
            cut.is_empty(),
            "{name}, μ {mu}, {coupling:?}: frame {frame}: {} cloth–collider intersections",
            cut.len()
        );
        let deepest = p.iter().map(|&x| clearance(x)).fold(f64::INFINITY, f64::min);
        assert!(deepest > -delta, "{name}, μ {mu}, {coupling:?}: frame {frame}: a vertex {deepest:.2e} m deep");
        lowest = lowest.min(p.iter().map(|x| x[2]).fold(f64::INFINITY, f64::min));
    }
    // The cloth reached the crease: it did not hang on something above it.
    assert!(lowest < 0.02, "{name}, μ {mu}, {coupling:?}: the cloth's lowest point stayed at {lowest} m");
    println!("{name}, μ {mu}, {coupling:?}: {frames} frames, {newton} Newton iterations");
}

/// Every scene at μ 0 and 0.3, implicit and lagged, judged by `clearance`.
fn every_law(name: &str, collider: &Mesh, clearance: Clearance, cloth: &Mesh, frames: usize) {
    for mu in [0.0, 0.3] {
        for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
            drop_on(name, collider, clearance, cloth, mu, coupling, frames);
        }
    }
}

/// A cloth dropped into the crease of a floor and a wall, tilted down towards the wall.
#[test]
fn cloth_in_a_floor_wall_crease() {
    let behind_floor_or_wall = |x: [f64; 3]| x[0].min(x[2]);
    every_law("floor and wall", &floor_and_wall(0.3), &behind_floor_or_wall, &cloth(0.2, 17, 0.1, 0.06, -0.5), 12);
}

/// A cloth of 33 × 33 vertices dropped flat into a V trough of 70° (its crease turning by
/// 110°), for a second of settling in the crease.
#[test]
fn cloth_in_a_v_trough() {
    let (trough, normals) = v_trough(0.2, 70f64.to_radians());
    let behind_a_panel = |x: [f64; 3]| normals.iter().map(|n| n[0] * x[0] + n[2] * x[2]).fold(f64::INFINITY, f64::min);
    every_law("V trough", &trough, &behind_a_panel, &cloth(0.16, 33, 0.0, 0.12, 0.0), 24);
}

/// The floor–wall crease as the inside corner of a closed block: the mesh is one piece around
/// its back, so the crease's two sides are told apart near the cloth, not by the whole mesh.
#[test]
fn cloth_in_the_inside_corner_of_a_closed_block() {
    let block = l_block(0.3, 0.05);
    let points: Vec<[f64; 3]> = block.0.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let tris: Vec<[u32; 3]> = block.1.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let clearance = |x: [f64; 3]| signed_distance(&points, &tris, x);
    // The block is closed and outward: inside the slab and the wall, out over the floor.
    assert!(clearance([0.1, 0.0, -0.02]) < 0.0 && clearance([-0.02, 0.0, 0.1]) < 0.0);
    assert!((clearance([0.1, 0.0, 0.05]) - 0.05).abs() < 1e-12 && (clearance([0.05, 0.0, 0.2]) - 0.05).abs() < 1e-12);
    every_law("closed L block", &block, &clearance, &cloth(0.2, 17, 0.1, 0.06, -0.5), 12);
}
