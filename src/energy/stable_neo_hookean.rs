//! Stable neo-Hookean tetrahedron (Smith, de Goes, Kim 2018, Eq. 14):
//! Ψ(F) = μ/2 (I_C − 3) + λ/2 (J − α)² − μ/2 log(I_C + 1), with I_C = tr FᵀF and J = det F.
//! Defined for every F, inverted elements included, with no singularity.

use super::{lame, Element};
use crate::math::real::{c, Real};
use nalgebra::{Matrix3, Vector3};

/// One linear tetrahedron with its rest shape and material.
#[derive(Clone, Debug)]
pub struct NeoHookeanTet {
    /// Global vertex indices.
    pub vertices: [u32; 4],
    /// Inverse of the rest edge matrix D_m = [X1−X0, X2−X0, X3−X0].
    pub dm_inv: Matrix3<f64>,
    /// Rest volume V in m³ (positive).
    pub rest_volume: f64,
    /// Energy parameter μ (Pa).
    pub mu: f64,
    /// Energy parameter λ (Pa).
    pub lambda: f64,
    /// Rest-stability shift α = 1 + 3μ/(4λ).
    pub alpha: f64,
}

impl NeoHookeanTet {
    /// Builds the element from rest positions; `None` if the rest volume is not positive
    /// (the caller reports which element is degenerate or inverted).
    pub fn new(vertices: [u32; 4], rest: [[f64; 3]; 4], youngs_modulus: f64, poisson_ratio: f64) -> Option<Self> {
        let col = |i: usize| Vector3::from(rest[i]) - Vector3::from(rest[0]);
        let dm = Matrix3::from_columns(&[col(1), col(2), col(3)]);
        let volume = dm.determinant() / 6.0;
        let scale = col(1).norm().max(col(2).norm()).max(col(3).norm());
        if !(volume > 1e-12 * scale * scale * scale) {
            return None;
        }
        let (mu, lambda, alpha) = lame::stable_neo_hookean(youngs_modulus, poisson_ratio);
        Some(Self { vertices, dm_inv: dm.try_inverse()?, rest_volume: volume, mu, lambda, alpha })
    }

    /// Deformation gradient F = D_s D_m⁻¹ as a row-major 3×3 array.
    fn deformation_gradient<T: Real>(&self, x: &[T; 12]) -> [[T; 3]; 3] {
        let mut ds = [[T::from(0.0); 3]; 3];
        for col in 0..3 {
            for row in 0..3 {
                ds[row][col] = x[3 * (col + 1) + row] - x[row];
            }
        }
        ds.map(|d| {
            [0, 1, 2]
                .map(|col| d[0] * self.dm_inv[(0, col)] + d[1] * self.dm_inv[(1, col)] + d[2] * self.dm_inv[(2, col)])
        })
    }
}

/// Cofactor matrix ∂J/∂F of a row-major 3×3 matrix.
fn cofactor<T: Real>(f: &[[T; 3]; 3]) -> [[T; 3]; 3] {
    let m = |r: usize, c: usize| f[r % 3][c % 3];
    let mut out = [[T::from(0.0); 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (col, o) in row.iter_mut().enumerate() {
            *o = m(r + 1, col + 1) * m(r + 2, col + 2) - m(r + 1, col + 2) * m(r + 2, col + 1);
        }
    }
    out
}

impl Element<12> for NeoHookeanTet {
    fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    fn energy(&self, x: &[f64; 12]) -> f64 {
        let f = self.deformation_gradient(x);
        let ic: f64 = f.iter().flatten().map(|v| v * v).sum();
        let cof = cofactor(&f);
        let j: f64 = (0..3).map(|k| f[0][k] * cof[0][k]).sum();
        let psi =
            0.5 * self.mu * (ic - 3.0) + 0.5 * self.lambda * (j - self.alpha).powi(2) - 0.5 * self.mu * (ic + 1.0).ln();
        // Constant shift so that the rest state (I_C = 3, J = 1) has zero energy.
        let psi_rest = 0.5 * self.lambda * (1.0 - self.alpha).powi(2) - 0.5 * self.mu * 4f64.ln();
        self.rest_volume * (psi - psi_rest)
    }

    /// ∂W/∂x: P = μF(1 − 1/(I_C+1)) + λ(J − α) cof F; ∂W/∂x_a = V P D_m⁻ᵀ column a (a = 1..3),
    /// ∂W/∂x_0 = −Σ_a ∂W/∂x_a.
    fn gradient<T: Real>(&self, x: &[T; 12]) -> [T; 12] {
        let f = self.deformation_gradient(x);
        let mut ic = c::<T>(0.0);
        for v in f.iter().flatten() {
            ic += *v * *v;
        }
        let cof = cofactor(&f);
        let j = f[0][0] * cof[0][0] + f[0][1] * cof[0][1] + f[0][2] * cof[0][2];
        let s_f = c::<T>(self.mu) * (c::<T>(1.0) - (ic + 1.0).recip());
        let s_c = c::<T>(self.lambda) * (j - self.alpha);
        let mut g = [c::<T>(0.0); 12];
        for row in 0..3 {
            let p = [0, 1, 2].map(|k| s_f * f[row][k] + s_c * cof[row][k]);
            for a in 0..3 {
                // (P D_m⁻ᵀ)[row][a] = Σ_k P[row][k] D_m⁻¹[a][k]
                let v = (p[0] * self.dm_inv[(a, 0)] + p[1] * self.dm_inv[(a, 1)] + p[2] * self.dm_inv[(a, 2)])
                    * self.rest_volume;
                g[3 * (a + 1) + row] = v;
                g[row] -= v;
            }
        }
        g
    }
}
