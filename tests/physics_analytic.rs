//! Physics against closed-form answers: free fall (backward Euler's first-order error),
//! a hanging tet bar and a hanging cloth strip (static elongation ρgL²/(2E)).

use grip::energy::membrane::MembraneModel;
use grip::mesh::generate::{box_tets, grid_cloth, top_vertices};
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

const G: f64 = 9.81;

fn centroid_z(p: &[f64]) -> f64 {
    p.chunks_exact(3).map(|v| v[2]).sum::<f64>() / (p.len() / 3) as f64
}

/// Height lost by a free-falling tet cube after 1 s, simulated with time step `h`.
fn free_fall_drop(h: f64) -> (f64, f64) {
    let params = SolverParams { time_step: h, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    let (pos, tets) = box_tets([0.2, 0.2, 0.2], [2, 2, 2], [0.0, 0.0, 1.0]);
    let material = Material { density: 1000.0, youngs_modulus: 1e5, poisson_ratio: 0.3, ..Default::default() };
    let id = s.add_solid(&pos, &tets, &material).unwrap();
    let v0 = 0.5; // initial upward velocity [m/s]
    let vel: Vec<f64> = pos.chunks_exact(3).flat_map(|_| [0.0, 0.0, v0]).collect();
    s.set_vertex_attribute(id, VertexAttribute::Velocity, &vel).unwrap();
    let z0 = centroid_z(s.positions(id).unwrap());
    s.advance(1.0).unwrap();
    assert_eq!(s.report().substeps as f64, (1.0 / h).round());
    let z1 = centroid_z(s.positions(id).unwrap());
    let vz = s.velocities(id).unwrap()[2];
    (z1 - z0, vz)
}

#[test]
fn free_fall_has_backward_eulers_first_order_error() {
    let t = 1.0;
    let v0 = 0.5;
    let exact = v0 * t - 0.5 * G * t * t;
    let mut errors = Vec::new();
    for h in [0.01, 0.005] {
        let (dz, vz) = free_fall_drop(h);
        let err = (dz - exact).abs();
        // Backward Euler: x_N = x₀ + v₀t − ½g t² − ½g h t exactly, so the error is ½ g h t.
        let predicted = 0.5 * G * h * t;
        assert!((err - predicted).abs() < 0.01 * predicted, "h = {h}: error {err}, predicted {predicted}");
        assert!((vz - (v0 - G * t)).abs() < 1e-6, "velocity {vz}");
        println!("free fall h = {h} s: position error {err:.6e} m, BE's predicted ½ghT = {predicted:.6e} m");
        errors.push(err);
    }
    let ratio = errors[0] / errors[1];
    assert!((ratio - 2.0).abs() < 0.02, "error ratio {ratio} when h halves");
}

/// Mean downward displacement of the bottom vertices after settling under gravity.
fn settle(s: &mut Solver, id: u32, rest: &[f64], steps: usize, h: f64) -> f64 {
    for _ in 0..steps {
        s.step(h).unwrap_or_else(|e| panic!("step failed: {e}"));
    }
    let v = s.velocities(id).unwrap();
    let vmax = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(vmax < 1e-5, "not at rest: max |v| = {vmax}");
    let p = s.positions(id).unwrap();
    let zmin = rest.chunks_exact(3).map(|v| v[2]).fold(f64::INFINITY, f64::min);
    let bottom: Vec<usize> = (0..rest.len() / 3).filter(|&i| (rest[3 * i + 2] - zmin).abs() < 1e-9).collect();
    bottom.iter().map(|&i| rest[3 * i + 2] - p[3 * i + 2]).sum::<f64>() / bottom.len() as f64
}

fn pin(s: &mut Solver, id: u32, rest: &[f64]) {
    let mut flags = vec![0.0; rest.len() / 3];
    for i in top_vertices(rest, 2, 1e-9) {
        flags[i] = 1.0;
    }
    s.set_vertex_attribute(id, VertexAttribute::Pinned, &flags).unwrap();
}

#[test]
fn hanging_bar_elongation_matches_rho_g_l2_over_2e() {
    let (e, rho, l) = (1e6, 1000.0, 1.0);
    let (pos, tets) = box_tets([0.1, 0.1, l], [2, 2, 20], [0.0, 0.0, 0.0]);
    let mut s = Solver::new(&SolverParams::default()).unwrap();
    let material = Material { density: rho, youngs_modulus: e, poisson_ratio: 0.0, ..Default::default() };
    let id = s.add_solid(&pos, &tets, &material).unwrap();
    pin(&mut s, id, &pos);
    let elongation = settle(&mut s, id, &pos, 8, 1.0);
    let expected = rho * G * l * l / (2.0 * e);
    let rel = (elongation - expected).abs() / expected;
    println!("bar: elongation {elongation:.6e} m, expected {expected:.6e} m, relative error {rel:.2e}");
    assert!(rel < 0.05, "elongation {elongation} vs {expected}");
}

#[test]
fn hanging_cloth_strip_elongation_matches_rho_g_l2_over_2e() {
    let (e, rho, l, thickness) = (1e6, 1000.0, 1.0, 1e-3);
    for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
        let (pos, tris) = grid_cloth(0.1, l, 2, 20);
        let mut s = Solver::new(&SolverParams::default()).unwrap();
        let material = Material {
            density: rho,
            youngs_modulus: e,
            poisson_ratio: 0.0,
            thickness,
            bending_stiffness: 0.0,
            membrane_model: model,
            ..Default::default()
        };
        let id = s.add_shell(&pos, &tris, &material).unwrap();
        pin(&mut s, id, &pos);
        let elongation = settle(&mut s, id, &pos, 12, 1.0);
        let expected = rho * G * l * l / (2.0 * e);
        let rel = (elongation - expected).abs() / expected;
        println!("strip (model {model:?}): elongation {elongation:.6e} m, expected {expected:.6e} m, error {rel:.2e}");
        assert!(rel < 0.05, "model {model:?}: elongation {elongation} vs {expected}");
    }
}
