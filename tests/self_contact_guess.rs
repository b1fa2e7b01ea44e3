//! Newton's initial guess with self-contact (`Call::untangled_guess`): a tilted
//! cloth square thrown at a pinned sheet so fast that continuing its velocity for one step
//! would carry it halfway through the sheet. The guess falls back to an untangled one, so the
//! first step converges at once, without a failed attempt or a split substep, and ends with the
//! square above the sheet and no intersecting triangle pairs.

mod common;

use common::scenes::placed_grid;
use grip::mesh::intersecting_pairs_between;
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

/// Time step [s].
const H: f64 = 1.0 / 240.0;
/// Downward speed of the square [m/s]: 4.8 m/s × H = 20 mm per step.
const SPEED: f64 = 4.8;
/// Height of the square's centre above the sheet [m]: the continued step ends at 1 mm.
const HEIGHT: f64 = 0.021;
/// Tilt of the square about x [rad]: its edges span ±8.7 mm in height.
const TILT: f64 = 0.175;

/// Positions (flat [m]) and triangles of a `side` × `side` grid of `n` × `n` quads in the xy
/// plane, centred at the origin, tilted by `tilt` [rad] about x and raised by `z` [m].
fn square(side: f64, n: usize, tilt: f64, z: f64) -> (Vec<f64>, Vec<[u32; 3]>) {
    let (s, c) = tilt.sin_cos();
    let (p, t) = placed_grid(side, n, |u, w| [u, c * w, z + s * w]);
    (p, t.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect())
}

fn flat(t: &[[u32; 3]]) -> Vec<u32> {
    t.iter().flatten().copied().collect()
}

#[test]
fn a_guess_through_the_sheet_is_replaced_by_an_untangled_one() {
    let params = SolverParams {
        time_step: H,
        gravity: [0.0; 3],
        self_contact: true,
        self_contact_thickness: 0.002,
        max_newton_iterations: 100,
        ..SolverParams::default()
    };
    let mut solver = Solver::new(&params).expect("solver");
    let (p_sheet, t_sheet) = square(0.3, 12, 0.0, 0.0);
    let material = Material { density: 200.0, youngs_modulus: 1e6, thickness: 1e-3, ..Material::default() };
    let sheet = solver.add_shell(&p_sheet, &flat(&t_sheet), &material).expect("sheet");
    solver.set_vertex_attribute(sheet, VertexAttribute::Pinned, &vec![1.0; p_sheet.len() / 3]).expect("pins");
    let (p_square, t_square) = square(0.1, 5, TILT, HEIGHT);
    let thrown = solver.add_shell(&p_square, &flat(&t_square), &material).expect("square");
    let v: Vec<f64> = (0..p_square.len()).map(|i| if i % 3 == 2 { -SPEED } else { 0.0 }).collect();
    solver.set_vertex_attribute(thrown, VertexAttribute::Velocity, &v).expect("velocity");

    // The continued velocity does cross the sheet: the case under test.
    let continued: Vec<f64> = p_square.iter().zip(&v).map(|(x, u)| x + H * u).collect();
    let crossing = intersecting_pairs_between(&as_points(&continued), &t_square, &as_points(&p_sheet), &t_sheet);
    assert!(!crossing.is_empty());

    solver.step(H).expect("step");
    let report = *solver.report();
    let end = solver.positions(thrown).expect("positions").to_vec();
    let pairs = intersecting_pairs_between(&as_points(&end), &t_square, &as_points(&p_sheet), &t_sheet);
    let lowest = end.chunks_exact(3).map(|x| x[2]).fold(f64::INFINITY, f64::min);
    println!(
        "continued step: {} crossing pairs; after the step: {} pairs, lowest vertex {lowest:.5} m, {} substeps, \
         {} Newton iterations, {} failed attempts",
        crossing.len(),
        pairs.len(),
        report.substeps,
        report.newton_iterations,
        report.failed_attempts
    );
    assert!(pairs.is_empty(), "{} intersecting pairs", pairs.len());
    assert!(lowest > 0.0, "lowest vertex {lowest}");
    assert_eq!((report.substeps, report.failed_attempts), (1, 0));
}

fn as_points(q: &[f64]) -> Vec<[f64; 3]> {
    q.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}
