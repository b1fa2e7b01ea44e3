//! The backward Euler Jacobian assembled for Newton equals finite differences of the residual
//! (tets, membranes, hinges, Rayleigh damping and pins together), so Newton converges
//! quadratically.

mod common;
use common::Lcg;
use grip::integrate::backward_euler::{BackwardEuler, DampingMatrices};
use grip::integrate::SystemLayout;
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::scene::Model;
use grip::solve::NonlinearSystem;
use grip::GripMaterial;

fn model() -> Model {
    let mut m = Model::default();
    let (p, t) = box_tets([0.3, 0.2, 0.2], [2, 1, 1], [0.0, 0.0, 0.0]);
    let solid = GripMaterial {
        youngs_modulus: 2e4,
        poisson_ratio: 0.4,
        damping_alpha: 0.3,
        damping_beta: 0.01,
        density: 500.0,
        ..Default::default()
    };
    m.add_solid(&p, &t, &solid).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 3, 3);
    let cloth = GripMaterial { bending_stiffness: 1e-3, damping_beta: 0.02, ..Default::default() };
    m.add_shell(&p, &t, &cloth).unwrap();
    m
}

#[test]
fn assembled_jacobian_matches_finite_differences_of_the_residual() {
    let m = model();
    let layout = SystemLayout::new(&m);
    let n = 3 * m.vertex_count();
    let mut rng = Lcg(11);
    let q0: Vec<f64> = m.rest.iter().flatten().map(|x| x + rng.range(-0.02, 0.02)).collect();
    let v0: Vec<f64> = (0..n).map(|_| rng.range(-0.5, 0.5)).collect();
    let mut fixed = vec![false; m.vertex_count()];
    fixed[0] = true;
    fixed[m.vertex_count() - 1] = true;
    let v_fixed: Vec<f64> = (0..n).map(|_| rng.range(-0.1, 0.1)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping);
    let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.3, 0.3)).collect();
    let mut jac = vec![0.0; layout.pattern.nnz()];
    be.jacobian(&v, &mut jac);
    let eps = 1e-6;
    let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
    let mut worst = 0.0f64;
    let mut col_vals = vec![0.0; n];
    let jmax = jac.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    for col in 0..n {
        let (mut vp, mut vm) = (v.clone(), v.clone());
        vp[col] += eps;
        vm[col] -= eps;
        be.residual(&vp, &mut rp);
        be.residual(&vm, &mut rm);
        col_vals.iter_mut().for_each(|x| *x = 0.0);
        for k in layout.pattern.col_ptr[col]..layout.pattern.col_ptr[col + 1] {
            col_vals[layout.pattern.row_idx[k]] = jac[k];
        }
        for row in 0..n {
            let fd = (rp[row] - rm[row]) / (2.0 * eps);
            if fixed[row / 3] || fixed[col / 3] {
                // Eliminated pins: identity on the diagonal, nothing else.
                let expected = if row == col && fixed[row / 3] { 1.0 } else { 0.0 };
                assert_eq!(col_vals[row], expected, "pinned entry ({row}, {col})");
                continue;
            }
            worst = worst.max((fd - col_vals[row]).abs() / jmax);
        }
    }
    assert!(worst < 1e-6, "Jacobian differs from finite differences by {worst:e} (relative)");
}
