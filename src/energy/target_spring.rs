//! A soft pin: a zero-length spring from one vertex to an anchor point,
//! E = ½ k |x − a|², with gradient k (x − a) and Hessian k I (positive definite for k > 0).
//!
//! Pins with a finite stiffness hold a vertex near its anchor while letting contact, gravity and
//! the elastic forces pull it away, as the goal springs of Blender's cloth or Vellum's soft
//! pin-to-target constraints do. A hard pin is the limit k → ∞.

use super::Element;
use crate::math::real::{c, Real};
use nalgebra::SMatrix;

/// A spring of stiffness `stiffness` (N/m) from vertex `vertex` to the point `anchor` (m).
#[derive(Clone, Debug, PartialEq)]
pub struct TargetSpring {
    /// Global index of the vertex.
    pub vertex: [u32; 1],
    /// Where the spring pulls the vertex (m).
    pub anchor: [f64; 3],
    /// Stiffness k (N/m), > 0.
    pub stiffness: f64,
}

impl Element<3> for TargetSpring {
    fn vertices(&self) -> &[u32] {
        &self.vertex
    }

    /// E = ½ k |x − a|² (J).
    fn energy(&self, x: &[f64; 3]) -> f64 {
        let d2: f64 = (0..3).map(|k| (x[k] - self.anchor[k]).powi(2)).sum();
        0.5 * self.stiffness * d2
    }

    /// ∇E = k (x − a) (N).
    fn gradient<T: Real>(&self, x: &[T; 3]) -> [T; 3] {
        std::array::from_fn(|k| (x[k] - c::<T>(self.anchor[k])) * self.stiffness)
    }

    /// ∇²E = k I (N/m).
    fn hessian(&self, _x: &[f64; 3]) -> SMatrix<f64, 3, 3> {
        SMatrix::<f64, 3, 3>::identity() * self.stiffness
    }

    /// The Hessian is already positive definite.
    fn definite_hessian(&self, x: &[f64; 3]) -> SMatrix<f64, 3, 3> {
        self.hessian(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::autodiff;

    fn spring() -> TargetSpring {
        TargetSpring { vertex: [4], anchor: [0.3, -1.2, 2.0], stiffness: 250.0 }
    }

    #[test]
    fn gradient_and_hessian_match_finite_differences() {
        let s = spring();
        let x = [0.7, -0.9, 1.6];
        let step = 1e-6;
        let g = s.gradient(&x);
        let h = s.hessian(&x);
        for i in 0..3 {
            let (mut xp, mut xm) = (x, x);
            xp[i] += step;
            xm[i] -= step;
            let fd = (s.energy(&xp) - s.energy(&xm)) / (2.0 * step);
            assert!((fd - g[i]).abs() < 1e-6 * g[i].abs().max(1.0), "gradient {i}: {fd} vs {}", g[i]);
            let (gp, gm) = (s.gradient(&xp), s.gradient(&xm));
            for j in 0..3 {
                let fd = (gp[j] - gm[j]) / (2.0 * step);
                assert!((fd - h[(j, i)]).abs() < 1e-6 * s.stiffness, "Hessian ({j},{i}): {fd} vs {}", h[(j, i)]);
            }
        }
        // The closed-form Hessian equals the AD Jacobian of the gradient.
        let ad = autodiff::jacobian(|y| s.gradient(y), &x);
        assert!((ad - h).norm() < 1e-12);
    }

    #[test]
    fn no_energy_or_force_at_the_anchor() {
        let s = spring();
        assert_eq!(s.energy(&s.anchor), 0.0);
        assert_eq!(s.gradient(&s.anchor), [0.0; 3]);
        // 1 cm away along x: E = ½ · 250 · 1e-4 J, force 2.5 N back toward the anchor.
        let x = [s.anchor[0] + 0.01, s.anchor[1], s.anchor[2]];
        assert!((s.energy(&x) - 0.0125).abs() < 1e-12);
        assert!((s.gradient(&x)[0] - 2.5).abs() < 1e-12);
    }
}
