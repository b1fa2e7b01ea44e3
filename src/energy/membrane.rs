//! Membrane energy of a triangle shell element on the 3×2 deformation gradient F = D_s D_m⁻¹
//! (D_s = [x1−x0, x2−x0], D_m the rest edges in a 2D frame of the rest triangle), C = FᵀF.
//!
//! - St. Venant–Kirchhoff: Ψ = μ tr(E²) + λ*/2 (tr E)², E = (C − I)/2.
//! - Neo-Hookean (the rest-stable form of Smith et al. 2018, Eq. 13, in 2D):
//!   Ψ = μ/2 (tr C − 2) − μ(J − 1) + λ̃/2 (J − 1)², λ̃ = λ* + μ, with the area ratio regularised as
//!   J = s(√(det C + ε²) − s) + 1, s = √(1 + ε²), so that collapsed triangles keep finite
//!   derivatives while J and ∂J/∂C are exact at rest (no rest stress, same linear response).
//!
//! λ* = Eν/(1−ν²) is the plane-stress Lamé parameter; both models match linear plane stress at rest.
//! Energy (in J) = thickness × rest area × Ψ.

use super::{lame, Element};
use crate::math::autodiff;
use crate::math::real::{c, Real};
use nalgebra::{Matrix2, SMatrix, Vector3};

/// Regularisation ε of the area ratio in the neo-Hookean membrane.
pub(crate) const AREA_RATIO_EPSILON: f64 = 1e-2;

/// Which membrane energy density a shell uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MembraneModel {
    /// Rest-stable neo-Hookean (default).
    NeoHookean,
    /// St. Venant–Kirchhoff.
    StVenantKirchhoff,
}

/// One triangle of a shell with its rest shape and material.
#[derive(Clone, Debug)]
pub struct MembraneTriangle {
    /// Global vertex indices.
    pub vertices: [u32; 3],
    /// Inverse of the 2D rest edge matrix.
    pub dm_inv: Matrix2<f64>,
    /// Rest area × thickness (m³).
    pub rest_volume: f64,
    /// μ, in Pa.
    pub mu: f64,
    /// λ* (StVK) or λ̃ = λ* + μ (neo-Hookean), in Pa.
    pub lambda: f64,
    /// Energy density.
    pub model: MembraneModel,
}

/// Rest area (m²) of a triangle and its 2D edge matrix, `None` when the area is not positive.
pub fn rest_frame(rest: [[f64; 3]; 3]) -> Option<(f64, Matrix2<f64>)> {
    let e1 = Vector3::from(rest[1]) - Vector3::from(rest[0]);
    let e2 = Vector3::from(rest[2]) - Vector3::from(rest[0]);
    let n = e1.cross(&e2);
    let area = 0.5 * n.norm();
    let scale = e1.norm_squared().max(e2.norm_squared());
    if !(area > 1e-12 * scale) {
        return None;
    }
    let u = e1.normalize();
    let w = n.normalize().cross(&u);
    Some((area, Matrix2::new(e1.norm(), e2.dot(&u), 0.0, e2.dot(&w))))
}

impl MembraneTriangle {
    /// Builds the element; `None` if the rest triangle has (near-)zero area.
    pub fn new(
        vertices: [u32; 3],
        rest: [[f64; 3]; 3],
        youngs_modulus: f64,
        poisson_ratio: f64,
        thickness: f64,
        model: MembraneModel,
    ) -> Option<Self> {
        let (area, dm) = rest_frame(rest)?;
        let (mu, lambda_ps) = lame::lame_plane_stress(youngs_modulus, poisson_ratio);
        let lambda = match model {
            MembraneModel::NeoHookean => lambda_ps + mu,
            MembraneModel::StVenantKirchhoff => lambda_ps,
        };
        Some(Self { vertices, dm_inv: dm.try_inverse()?, rest_volume: area * thickness, mu, lambda, model })
    }

    /// F = D_s D_m⁻¹ as two 3-vector columns.
    fn deformation_gradient<T: Real>(&self, x: &[T; 9]) -> [[T; 3]; 2] {
        let e1 = [x[3] - x[0], x[4] - x[1], x[5] - x[2]];
        let e2 = [x[6] - x[0], x[7] - x[1], x[8] - x[2]];
        let m = &self.dm_inv;
        [
            [0, 1, 2].map(|r| e1[r] * m[(0, 0)] + e2[r] * m[(1, 0)]),
            [0, 1, 2].map(|r| e1[r] * m[(0, 1)] + e2[r] * m[(1, 1)]),
        ]
    }

    /// Energy density Ψ and first Piola stress P = ∂Ψ/∂F (two columns).
    fn density<T: Real>(&self, f: &[[T; 3]; 2]) -> (T, [[T; 3]; 2]) {
        let d = |a: [T; 3], b: [T; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let (c00, c01, c11) = (d(f[0], f[0]), d(f[0], f[1]), d(f[1], f[1]));
        let (mu, lambda) = (c::<T>(self.mu), c::<T>(self.lambda));
        // P = F S with S the symmetric 2×2 ∂Ψ/∂C × 2.
        let (psi, s00, s01, s11) = match self.model {
            MembraneModel::StVenantKirchhoff => {
                let (e00, e01, e11) = ((c00 - 1.0) * 0.5, c01 * 0.5, (c11 - 1.0) * 0.5);
                let tr = e00 + e11;
                let psi = mu * (e00 * e00 + e01 * e01 * 2.0 + e11 * e11) + lambda * tr * tr * 0.5;
                (psi, mu * e00 * 2.0 + lambda * tr, mu * e01 * 2.0, mu * e11 * 2.0 + lambda * tr)
            }
            MembraneModel::NeoHookean => {
                let eps2 = AREA_RATIO_EPSILON * AREA_RATIO_EPSILON;
                let s = (1.0 + eps2).sqrt();
                let root = (c00 * c11 - c01 * c01 + eps2).sqrt();
                let j = (root - s) * s + 1.0;
                let psi = mu * (c00 + c11 - 2.0) * 0.5 - mu * (j - 1.0) + lambda * (j - 1.0) * (j - 1.0) * 0.5;
                // ∂Ψ/∂J · ∂J/∂C, ∂J/∂C = s adj(C) / (2 root); S = 2 ∂Ψ/∂C.
                let dj = (lambda * (j - 1.0) - mu) * s / root;
                (psi, mu + dj * c11, -(dj * c01), mu + dj * c00)
            }
        };
        let p = [[0, 1, 2].map(|r| f[0][r] * s00 + f[1][r] * s01), [0, 1, 2].map(|r| f[0][r] * s01 + f[1][r] * s11)];
        (psi, p)
    }
}

impl Element<9> for MembraneTriangle {
    fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    fn energy(&self, x: &[f64; 9]) -> f64 {
        let (psi, _) = self.density(&self.deformation_gradient(x));
        self.rest_volume * psi
    }

    /// ∂W/∂x_a = V (P D_m⁻ᵀ) column a for a = 1, 2; ∂W/∂x_0 = −(∂W/∂x_1 + ∂W/∂x_2).
    fn gradient<T: Real>(&self, x: &[T; 9]) -> [T; 9] {
        let (_, p) = self.density(&self.deformation_gradient(x));
        let mut g = [c::<T>(0.0); 9];
        for a in 0..2 {
            for r in 0..3 {
                let v = (p[0][r] * self.dm_inv[(a, 0)] + p[1][r] * self.dm_inv[(a, 1)]) * self.rest_volume;
                g[3 * (a + 1) + r] = v;
                g[r] -= v;
            }
        }
        g
    }

    /// The Hessian with its stress-space part made positive semi-definite: ∂²W/∂x² =
    /// V Gᵀ (∂P/∂F) G with G = ∂F/∂x constant, so projecting the 6 × 6 ∂P/∂F onto the PSD
    /// cone (clamping its negative eigenvalues, Teran et al. 2005) gives a PSD 9 × 9 at the
    /// cost of a 6 × 6 eigendecomposition rather than a 9 × 9 one.
    fn definite_hessian(&self, x: &[f64; 9]) -> SMatrix<f64, 9, 9> {
        let f = self.deformation_gradient(x);
        let flat = [f[0][0], f[0][1], f[0][2], f[1][0], f[1][1], f[1][2]];
        let mut dp_df = autodiff::jacobian(
            |y| {
                let (_, p) = self.density(&[[y[0], y[1], y[2]], [y[3], y[4], y[5]]]);
                [p[0][0], p[0][1], p[0][2], p[1][0], p[1][1], p[1][2]]
            },
            &flat,
        );
        autodiff::symmetrize(&mut dp_df);
        let dp_df = autodiff::project_psd(&dp_df);
        // G = ∂F/∂x: F column k = Σ_a (x_{a+1} − x_0) D_m⁻¹[a][k], so ∂F_{k,r}/∂x_{b,r} = g[b][k].
        let m = &self.dm_inv;
        let g = [[-(m[(0, 0)] + m[(1, 0)]), -(m[(0, 1)] + m[(1, 1)])], [m[(0, 0)], m[(0, 1)]], [m[(1, 0)], m[(1, 1)]]];
        let df_dx = SMatrix::<f64, 6, 9>::from_fn(|i, j| if i % 3 == j % 3 { g[j / 3][i / 3] } else { 0.0 });
        df_dx.transpose() * dp_df * df_dx * self.rest_volume
    }
}
