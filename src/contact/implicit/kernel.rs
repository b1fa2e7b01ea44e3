//! Compactly supported MLS kernels w(s; r) of the implicit contact surface (Larionov et al. 2021,
//! as used in the paper §3.2), with their gradient and Hessian with respect to the offset
//! y = x − p from a sample p (s = |y|).

use nalgebra::{Matrix3, Vector3};

/// Near-interpolating kernel w(s) = c·(1/((s/r)² + ε)² − 1/(1 + ε)²) for s < r, with
/// c = ε²(1 + ε)²/(1 + 2ε) so that w(0) = 1 (Larionov et al. 2021). Weights fall off as s⁻⁴, so
/// the potential nearly interpolates each sample's tangent plane.
pub const GRIP_KERNEL_INTERPOLATING: u32 = 0;
/// Cubic kernel w(s) = 1 − 3(s/r)² + 2(s/r)³ for s < r (C¹ at the support radius): a smoother,
/// more averaging potential.
pub const GRIP_KERNEL_CUBIC: u32 = 1;

/// ε of the near-interpolating kernel.
const INTERPOLATING_EPSILON: f64 = 1e-5;

/// A kernel choice (`GRIP_KERNEL_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// See [`GRIP_KERNEL_INTERPOLATING`].
    Interpolating,
    /// See [`GRIP_KERNEL_CUBIC`].
    Cubic,
}

/// A kernel weight with its derivatives with respect to y [1/m, 1/m²].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weight {
    /// w.
    pub value: f64,
    /// ∂w/∂y.
    pub gradient: Vector3<f64>,
    /// ∂²w/∂y².
    pub hessian: Matrix3<f64>,
}

impl Kernel {
    /// The kernel with code `k`, if known.
    pub fn from_code(k: u32) -> Option<Self> {
        match k {
            GRIP_KERNEL_INTERPOLATING => Some(Self::Interpolating),
            GRIP_KERNEL_CUBIC => Some(Self::Cubic),
            _ => None,
        }
    }

    /// w(|y|; r) alone; 0 outside the support.
    pub fn value(&self, y: &Vector3<f64>, r: f64) -> f64 {
        let sigma = y.norm_squared() / (r * r);
        if sigma >= 1.0 {
            return 0.0;
        }
        match self {
            Self::Interpolating => {
                let e = INTERPOLATING_EPSILON;
                let c = interpolating_scale();
                c * ((sigma + e).powi(-2) - (1.0 + e).powi(-2))
            }
            Self::Cubic => {
                let t = sigma.sqrt();
                1.0 - 3.0 * sigma + 2.0 * sigma * t
            }
        }
    }

    /// w(|y|; r) with its gradient and Hessian in y; `None` outside the support (|y| ≥ r).
    pub fn weight(&self, y: &Vector3<f64>, r: f64) -> Option<Weight> {
        let r2 = r * r;
        let sigma = y.norm_squared() / r2;
        if sigma >= 1.0 {
            return None;
        }
        Some(match self {
            Self::Interpolating => {
                // w = k(σ), σ = |y|²/r²: ∇w = 2k′ y/r², ∇²w = 4k″ y yᵀ/r⁴ + 2k′ I/r².
                let e = INTERPOLATING_EPSILON;
                let c = interpolating_scale();
                let a = sigma + e;
                let k0 = c * (a.powi(-2) - (1.0 + e).powi(-2));
                let k1 = -2.0 * c * a.powi(-3);
                let k2 = 6.0 * c * a.powi(-4);
                Weight {
                    value: k0,
                    gradient: y * (2.0 * k1 / r2),
                    hessian: y * y.transpose() * (4.0 * k2 / (r2 * r2)) + Matrix3::identity() * (2.0 * k1 / r2),
                }
            }
            Self::Cubic => {
                // w = 1 − 3t² + 2t³, t = s/r: ∇w = (−6/r² + 6s/r³) y,
                // ∇²w = (−6/r² + 6s/r³) I + (6/(s r³)) y yᵀ (→ −6 I/r² as s → 0).
                let s = y.norm();
                let t = s / r;
                let a = -6.0 / r2 + 6.0 * s / (r2 * r);
                let outer = if s > 0.0 { y * y.transpose() * (6.0 / (s * r2 * r)) } else { Matrix3::zeros() };
                Weight {
                    value: 1.0 - 3.0 * t * t + 2.0 * t * t * t,
                    gradient: y * a,
                    hessian: Matrix3::identity() * a + outer,
                }
            }
        })
    }
}

/// c = ε²(1 + ε)²/(1 + 2ε) of the near-interpolating kernel (w(0) = 1).
fn interpolating_scale() -> f64 {
    let e = INTERPOLATING_EPSILON;
    e * e * (1.0 + e) * (1.0 + e) / (1.0 + 2.0 * e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_one_at_the_sample_zero_at_the_radius_and_derivatives_match() {
        for k in [Kernel::Interpolating, Kernel::Cubic] {
            let r = 0.3;
            assert!((k.value(&Vector3::zeros(), r) - 1.0).abs() < 1e-12);
            assert!(k.value(&Vector3::new(0.3 - 1e-12, 0.0, 0.0), r).abs() < 1e-9);
            assert!(k.weight(&Vector3::new(0.0, 0.3, 0.0), r).is_none());
            // Finite differences of value and gradient at several points inside the support.
            for y in [Vector3::new(0.05, -0.02, 0.1), Vector3::new(0.2, 0.1, -0.05), Vector3::new(1e-3, 0.0, 2e-3)] {
                let w = k.weight(&y, r).unwrap();
                assert!((w.value - k.value(&y, r)).abs() < 1e-15);
                let step = 1e-7;
                for i in 0..3 {
                    let mut yp = y;
                    let mut ym = y;
                    yp[i] += step;
                    ym[i] -= step;
                    let fd = (k.value(&yp, r) - k.value(&ym, r)) / (2.0 * step);
                    let scale = w.gradient.norm().max(1e-12);
                    assert!((fd - w.gradient[i]).abs() < 1e-5 * scale, "{k:?} grad {i}: {fd} vs {}", w.gradient[i]);
                    let gd = (k.weight(&yp, r).unwrap().gradient - k.weight(&ym, r).unwrap().gradient) / (2.0 * step);
                    let hs = w.hessian.norm().max(1e-12);
                    assert!((gd - w.hessian.column(i)).norm() < 1e-5 * hs, "{k:?} hessian column {i}");
                }
            }
        }
    }
}
