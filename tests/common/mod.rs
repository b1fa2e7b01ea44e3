//! Helpers shared by the integration tests: a deterministic random generator and
//! finite-difference checks of element derivatives.
#![allow(dead_code)]

pub mod collider_meshes;
pub mod scene_files;
pub mod scenes;
pub mod stage_checks;

use grip::energy::Element;
use grip::solve::linear_solver::LinearSolverKind;
use grip::Material;

/// The Newton linear solvers that the friction and deforming-mesh contact tests run with (the
/// direct and the iterative one), and their names for the messages.
pub const SOLVERS: [(LinearSolverKind, &str); 2] =
    [(LinearSolverKind::DirectLu, "direct"), (LinearSolverKind::Iterative, "iterative")];

/// Cloth of the tube cloth bend's sleeve: 1 mm thick, 300 kg/m³, E = 0.5 MPa, ν = 0.3, soft
/// bending, light stiffness damping.
pub fn sleeve_cloth() -> Material {
    Material {
        youngs_modulus: 5e5,
        poisson_ratio: 0.3,
        thickness: 1e-3,
        density: 300.0,
        bending_stiffness: 1e-6,
        damping_beta: 0.01,
        ..Default::default()
    }
}

/// Asserts that `jac(k, i)` = ∂Fₖ/∂vᵢ is the derivative of `eval` at `v` by central differences
/// of step `step`, to `tolerance` relative to the largest |∂Fₖ/∂vᵢ|; `context` names the sample
/// in the message.
pub fn assert_jacobian_by_differences(
    eval: impl Fn([f64; 3]) -> [f64; 3],
    v: [f64; 3],
    jac: impl Fn(usize, usize) -> f64,
    step: f64,
    tolerance: f64,
    context: impl Fn() -> String,
) {
    let scale = (0..9).map(|e| jac(e / 3, e % 3).abs()).fold(1e-12, f64::max);
    for i in 0..3 {
        let (mut vp, mut vm) = (v, v);
        vp[i] += step;
        vm[i] -= step;
        let (fp, fm) = (eval(vp), eval(vm));
        for k in 0..3 {
            let fd = (fp[k] - fm[k]) / (2.0 * step);
            let err = (fd - jac(k, i)).abs() / scale;
            assert!(err < tolerance, "{}: dF{k}/dv{i} = {} vs FD {fd} (rel err {err:.2e})", context(), jac(k, i));
        }
    }
}

/// A small deterministic generator (64-bit LCG, high bits), so tests need no extra crate.
pub struct Lcg(pub u64);

impl Lcg {
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }
}

/// Largest |a − b| relative to `scale`.
pub fn rel_err(a: &[f64], b: &[f64], scale: f64) -> f64 {
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs())) / scale
}

/// Central differences of the energy against the gradient, and of the gradient against the
/// Hessian. Returns (gradient error, Hessian error), each relative to the largest entry.
pub fn fd_errors<const D: usize, E: Element<D>>(e: &E, x: &[f64; D], step: f64) -> (f64, f64) {
    let g = e.gradient(x);
    let h = e.hessian(x);
    let mut g_fd = [0.0; D];
    let mut h_fd = vec![0.0; D * D];
    for i in 0..D {
        let (mut xp, mut xm) = (*x, *x);
        xp[i] += step;
        xm[i] -= step;
        g_fd[i] = (e.energy(&xp) - e.energy(&xm)) / (2.0 * step);
        let (gp, gm) = (e.gradient(&xp), e.gradient(&xm));
        for j in 0..D {
            h_fd[j * D + i] = (gp[j] - gm[j]) / (2.0 * step);
        }
    }
    let g_scale = g.iter().chain(g_fd.iter()).fold(1e-300f64, |m, v| m.max(v.abs()));
    let h_an: Vec<f64> = (0..D * D).map(|k| h[(k / D, k % D)]).collect();
    let h_scale = h_an.iter().chain(h_fd.iter()).fold(1e-300f64, |m, v| m.max(v.abs()));
    (rel_err(&g, &g_fd, g_scale), rel_err(&h_an, &h_fd, h_scale))
}

/// A random rotation matrix (row-major) from three angles.
pub fn rotation(rng: &mut Lcg) -> [[f64; 3]; 3] {
    let (a, b, c) = (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
    let rz = [[a.cos(), -a.sin(), 0.0], [a.sin(), a.cos(), 0.0], [0.0, 0.0, 1.0]];
    let ry = [[b.cos(), 0.0, b.sin()], [0.0, 1.0, 0.0], [-b.sin(), 0.0, b.cos()]];
    let rx = [[1.0, 0.0, 0.0], [0.0, c.cos(), -c.sin()], [0.0, c.sin(), c.cos()]];
    mul(&mul(&rz, &ry), &rx)
}

fn mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut m = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

/// Applies x ↦ R x + t to every vertex of a flat array.
pub fn rigid<const D: usize>(x: &[f64; D], r: &[[f64; 3]; 3], t: [f64; 3]) -> [f64; D] {
    let mut y = [0.0; D];
    for v in 0..D / 3 {
        for i in 0..3 {
            y[3 * v + i] = (0..3).map(|k| r[i][k] * x[3 * v + k]).sum::<f64>() + t[i];
        }
    }
    y
}

/// Flattens vertex triples.
pub fn flat<const N: usize, const D: usize>(p: [[f64; 3]; N]) -> [f64; D] {
    std::array::from_fn(|i| p[i / 3][i % 3])
}
