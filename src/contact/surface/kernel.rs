//! Compactly supported MLS kernels w(s; r) of the implicit contact surface (Larionov et al. 2021,
//! as used in the paper §3.2), with their gradient and Hessian with respect to the offset
//! y = x − p from a sample p (s = |y|).

use crate::math::real::{c, dot, Real, V3};
use nalgebra::{Matrix3, Vector3};

/// ε of the near-interpolating kernel.
const INTERPOLATING_EPSILON: f64 = 1e-5;

/// A kernel choice: the weight function of the implicit contact surfaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernel {
    /// Near-interpolating kernel (Larionov et al. 2021) made C² at the support radius: with
    /// σ = (s/r)² and f(σ) = 1/(σ + ε)², w = c·(f(σ) − f(1) − f′(1)(σ − 1) − ½f″(1)(σ − 1)²) for
    /// s < r, c normalising w(0) = 1, ε = 1e-5. The published form c·(f(σ) − f(1)) has a kink at
    /// s = r (w′(r) ≠ 0), so the contact force jumps when a sample leaves the support and Newton
    /// stalls; the subtracted Taylor terms remove the kink without changing the near-interpolating
    /// s⁻⁴ fall-off (they are O(1) against f(0) = ε⁻²). w > 0 inside the support (f‴ < 0).
    #[default]
    Interpolating,
    /// Cubic kernel w(s) = 1 − 3(s/r)² + 2(s/r)³ for s < r (C¹ at the support radius): a smoother,
    /// more averaging potential.
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
    /// w(|y|; r) alone; 0 outside the support.
    pub fn value(&self, y: &Vector3<f64>, r: f64) -> f64 {
        let sigma = y.norm_squared() / (r * r);
        if sigma >= 1.0 {
            return 0.0;
        }
        match self {
            Self::Interpolating => interpolating(sigma).0,
            Self::Cubic => {
                let t = sigma.sqrt();
                1.0 - 3.0 * sigma + 2.0 * sigma * t
            }
        }
    }

    /// Weight of the far-field background sample of the potential: that of a sample near the
    /// edge of its support (σ = 0.95 for the interpolating kernel, whose weights span many
    /// decades; σ = 0.99 for the cubic one, whose weights near the surface are O(1)). Where the
    /// samples' total weight falls towards it (beyond the edge of an open surface) φ blends
    /// smoothly to the far value instead of jumping; inside the surface's coverage it shifts φ
    /// by well under a micrometre.
    pub fn background_weight(&self) -> f64 {
        match self {
            Self::Interpolating => interpolating(0.95).0,
            Self::Cubic => {
                let t = 0.99f64.sqrt();
                1.0 - 3.0 * t * t + 2.0 * t * t * t
            }
        }
    }

    /// w(|y|; r) and its gradient in y over [`Real`] (forward-mode AD of the contact forces
    /// differentiates through it); `None` outside the support (|y| ≥ r, tested on the values).
    pub fn weight_first<T: Real>(&self, y: V3<T>, r: f64) -> Option<(T, V3<T>)> {
        let r2 = r * r;
        let sigma = dot(y, y) * (1.0 / r2);
        if sigma.re() >= 1.0 {
            return None;
        }
        Some(match self {
            Self::Interpolating => {
                let (k0, k1) = interpolating_first(sigma);
                (k0, y.map(|x| x * k1 * (2.0 / r2)))
            }
            Self::Cubic => {
                // w = 1 − 3σ + 2σ^{3/2}; ∇w = (−6/r² + 6s/r³) y (smooth at s = 0 through s²).
                let s2 = dot(y, y);
                let s = if s2.re() > 0.0 { s2.sqrt() } else { c(0.0) };
                let a = s * (6.0 / (r2 * r)) - 6.0 / r2;
                (sigma * s * (2.0 / r) - sigma * 3.0 + 1.0, y.map(|x| x * a))
            }
        })
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
                let (k0, k1, k2) = interpolating(sigma);
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

/// k(σ), k′(σ) of the near-interpolating kernel over [`Real`] (see [`interpolating`]).
fn interpolating_first<T: Real>(sigma: T) -> (T, T) {
    let e = INTERPOLATING_EPSILON;
    let (f1, d1, dd1) = ((1.0 + e).powi(-2), -2.0 * (1.0 + e).powi(-3), 6.0 * (1.0 + e).powi(-4));
    let c0 = 1.0 / interpolating_raw_at_zero();
    let (a, t) = (sigma + e, sigma - 1.0);
    let k0 = a.powi(-2) - f1 - t * d1 - t * t * (0.5 * dd1);
    let k1 = a.powi(-3) * (-2.0) - d1 - t * dd1;
    (k0 * c0, k1 * c0)
}

/// The unnormalised kernel at σ = 0 (its reciprocal normalises w(0) = 1).
fn interpolating_raw_at_zero() -> f64 {
    let e = INTERPOLATING_EPSILON;
    let (f1, d1, dd1) = ((1.0 + e).powi(-2), -2.0 * (1.0 + e).powi(-3), 6.0 * (1.0 + e).powi(-4));
    let t = -1.0;
    e.powi(-2) - f1 - d1 * t - 0.5 * dd1 * t * t
}

/// k(σ), k′(σ), k″(σ) of the near-interpolating kernel w = k(σ), σ = (s/r)² < 1.
fn interpolating(sigma: f64) -> (f64, f64, f64) {
    let e = INTERPOLATING_EPSILON;
    // f = (σ + ε)⁻², f′ = −2(σ + ε)⁻³, f″ = 6(σ + ε)⁻⁴; Taylor terms of f at σ = 1 subtracted.
    let (f1, d1, dd1) = ((1.0 + e).powi(-2), -2.0 * (1.0 + e).powi(-3), 6.0 * (1.0 + e).powi(-4));
    let raw = |s: f64| {
        let (a, t) = (s + e, s - 1.0);
        (a.powi(-2) - f1 - d1 * t - 0.5 * dd1 * t * t, -2.0 * a.powi(-3) - d1 - dd1 * t, 6.0 * a.powi(-4) - dd1)
    };
    let c = 1.0 / interpolating_raw_at_zero();
    let (k0, k1, k2) = raw(sigma);
    (c * k0, c * k1, c * k2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_one_at_the_sample_zero_at_the_radius_and_derivatives_match() {
        // The generic first-order path agrees with the f64 one.
        for k in [Kernel::Interpolating, Kernel::Cubic] {
            for y in [Vector3::new(0.05, -0.02, 0.1), Vector3::new(1e-4, 0.0, 2e-4), Vector3::zeros()] {
                let w = k.weight(&y, 0.3).unwrap();
                let (v, g) = k.weight_first([y.x, y.y, y.z], 0.3).unwrap();
                assert!((v - w.value).abs() < 1e-15 * w.value.abs().max(1e-300) + 1e-300, "{k:?} value");
                assert!(
                    (Vector3::from(g) - w.gradient).norm() <= 1e-12 * w.gradient.norm().max(1e-300),
                    "{k:?} gradient"
                );
            }
        }
        // C¹ at the support radius: the gradient vanishes there (C² for the interpolating one).
        for k in [Kernel::Interpolating, Kernel::Cubic] {
            let w = k.weight(&Vector3::new(0.3 - 1e-9, 0.0, 0.0), 0.3).unwrap();
            assert!(w.gradient.norm() < 1e-6, "{k:?}: gradient {} at the radius", w.gradient.norm());
        }
        let w = Kernel::Interpolating.weight(&Vector3::new(0.3 - 1e-9, 0.0, 0.0), 0.3).unwrap();
        assert!(w.hessian.norm() < 1e-6, "interpolating: Hessian {} at the radius", w.hessian.norm());
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
