//! Finite-difference checks of an implicit stage's Jacobian: assembled entries and
//! matrix-free products against central differences of the residual.

use grip::assemble::ImplicitStage;
use grip::assemble::SystemLayout;
use grip::solve::NonlinearSystem;

use super::Lcg;

/// Largest difference between the assembled Jacobian and central differences of the residual,
/// relative to the largest Jacobian entry; checks that pinned rows and columns are eliminated.
pub fn jacobian_error(be: &mut ImplicitStage, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    entry_error(be, layout, fixed, v, eps).max(product_error(be, layout, fixed, v, eps))
}

/// Largest difference between the assembled Jacobian's entries and central differences of the
/// residual, relative to the largest Jacobian entry (pinned rows and columns checked).
pub fn entry_error(be: &mut ImplicitStage, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    let n = v.len();
    let mut jac = vec![0.0; layout.pattern.nnz()];
    be.jacobian(v, &mut jac);
    let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
    let mut worst = 0.0f64;
    let mut col_vals = vec![0.0; n];
    let jmax = jac.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    for col in 0..n {
        let (mut vp, mut vm) = (v.to_vec(), v.to_vec());
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
    worst
}

/// Largest relative difference between the matrix-free product J x (forward-mode AD of the
/// residual), the assembled J x, and central differences of the residual along x (x zero on
/// pinned vertices), over three random x.
pub fn product_error(be: &mut ImplicitStage, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    let n = v.len();
    let mut jac = vec![0.0; layout.pattern.nnz()];
    be.jacobian(v, &mut jac);
    let mut rng = Lcg(77);
    let mut worst = 0.0f64;
    for trial in 0..3 {
        let mut x: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (mut ad, mut assembled) = (vec![0.0; n], vec![0.0; n]);
        assert!(be.jacobian_product(v, &x, &mut ad), "matrix-free products are supported");
        layout.pattern.multiply(&jac, &x, &mut assembled);
        let scale = assembled.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let gap = ad.iter().zip(&assembled).fold(0.0f64, |a, (p, q)| a.max((p - q).abs()));
        worst = worst.max(gap / scale);
        if trial == 0 {
            // Against finite differences along a direction that leaves the pins alone.
            for (d, xd) in x.iter_mut().enumerate() {
                if fixed[d / 3] {
                    *xd = 0.0;
                }
            }
            be.jacobian_product(v, &x, &mut ad);
            let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
            let vp: Vec<f64> = v.iter().zip(&x).map(|(a, b)| a + eps * b).collect();
            let vm: Vec<f64> = v.iter().zip(&x).map(|(a, b)| a - eps * b).collect();
            be.residual(&vp, &mut rp);
            be.residual(&vm, &mut rm);
            for d in (0..n).filter(|d| !fixed[d / 3]) {
                let fd = (rp[d] - rm[d]) / (2.0 * eps);
                worst = worst.max((fd - ad[d]).abs() / scale);
            }
        }
    }
    worst
}
