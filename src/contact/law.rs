//! The contact and friction laws of the paper: the cubic penalty b(d) (§3.2) with its force
//! magnitude λ = −b′(d) (Eq. 3), the smoothed Coulomb nonlinearity η (Eq. 8, 11) with the
//! pre-sliding transitions s_a (Eq. 14) and s_b (Eq. 15), and the adaptive stiffness update (§4.4).

use crate::math::real::{c, dot, Real, V3};
use nalgebra::{Const, SMatrix, Vector3, U1};
use num_dual::{Derivative, DualSVec64};

/// The pre-sliding transition of the smoothed Coulomb friction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrictionSmoothing {
    /// s_a(x) = 2x/ε − x²/ε² below ε, 1 above (paper Eq. 14; C¹).
    #[default]
    Quadratic,
    /// s_b(x) = x/(x + ε) (paper Eq. 15; C∞, never quite reaches μλ).
    Rational,
}

/// When the sliding basis and the contact force of the friction are evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrictionCoupling {
    /// At the end of the step: fully implicit (paper Eq. 23).
    #[default]
    Implicit,
    /// At the start of the step: lagged, as IPC (paper Eq. 25–26).
    Lagged,
}

/// Parameters of the contact and friction laws for one substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactLaw {
    /// Penalty stiffness κ in N/m² (b is an energy: κ m³ = J).
    pub kappa: f64,
    /// Contact thickness δ (m): the penalty acts where d < δ.
    pub delta: f64,
    /// Stick–slip velocity ε (m/s).
    pub epsilon: f64,
    /// Pre-sliding transition of the friction.
    pub smoothing: FrictionSmoothing,
    /// Implicit or lagged friction.
    pub coupling: FrictionCoupling,
}

impl ContactLaw {
    /// κ₀ (N/m²) that holds the weight m g of a vertex of mass `mass` (kg) at gap δ/2, where
    /// λ = 3κ(δ/2)² = m g; g is |`gravity`| (m/s²) but at least 9.81 m/s², so that contact holds
    /// in zero gravity too (paper §4.4 starts κ from such an estimate).
    pub fn weight_holding_stiffness(mass: f64, gravity: [f64; 3], delta: f64) -> f64 {
        let g = gravity.iter().map(|x| x * x).sum::<f64>().sqrt().max(9.81);
        (4.0 * mass * g / (3.0 * delta * delta)).max(f64::MIN_POSITIVE)
    }

    /// The friction force F(λ, n, v_rel) of [`ContactLaw::friction`] (N) and its partial
    /// derivatives in the 7 variables (λ, n, v_rel), by forward-mode AD: the law's part of the
    /// friction Jacobian (paper Eq. 23), which `crate::contact::friction::add_friction` chains
    /// with the derivatives of a contact's own λ, n and v_rel.
    pub fn friction_partials(
        &self,
        mu: f64,
        lambda: f64,
        n: &Vector3<f64>,
        v_rel: &Vector3<f64>,
    ) -> (Vector3<f64>, SMatrix<f64, 3, 7>) {
        let seed = |x: f64, i: usize| DualSVec64::<7>::new(x, Derivative::derivative_generic(Const::<7>, U1, i));
        let l = seed(lambda, 0);
        let nn = [seed(n[0], 1), seed(n[1], 2), seed(n[2], 3)];
        let vr = [seed(v_rel[0], 4), seed(v_rel[1], 5), seed(v_rel[2], 6)];
        let f = self.friction(mu, l, nn, vr);
        let mut partials = SMatrix::<f64, 3, 7>::zeros();
        for (row, fi) in f.iter().enumerate() {
            let d = fi.eps.unwrap_generic(Const::<7>, U1);
            for col in 0..7 {
                partials[(row, col)] = d[col];
            }
        }
        (Vector3::new(f[0].re, f[1].re, f[2].re), partials)
    }

    /// Penalty energy b(d) = κ(δ − d)³ for d < δ, else 0; in J (paper §3.2; written there as
    /// −κ(x − δ)³).
    pub fn energy(&self, d: f64) -> f64 {
        self.penalty(d)
    }

    /// [`ContactLaw::energy`] over [`Real`]: b(d) = κ(δ − d)³ for d < δ, else 0 (in J), so that
    /// energies built on it (self-contact's mollified edge–edge term) can be differentiated.
    pub fn penalty<T: Real>(&self, d: T) -> T {
        if d.re() < self.delta {
            let p = c::<T>(self.delta) - d;
            p * p * p * self.kappa
        } else {
            c(0.0)
        }
    }

    /// Contact force magnitude λ(d) = −b′(d) = 3κ(δ − d)² for d < δ, else 0; in N (paper Eq. 3).
    pub fn force<T: Real>(&self, d: T) -> T {
        if d.re() < self.delta {
            let p = c::<T>(self.delta) - d;
            p * p * (3.0 * self.kappa)
        } else {
            c(0.0)
        }
    }

    /// s(x)/x for the selected smoothing: finite at x = 0 (2/ε for s_a, 1/ε for s_b), so the
    /// friction force −μλ (s(|v̄|)/|v̄|) v̄ of Eq. 8 and 11 needs no division by |v̄|; in s/m.
    pub fn slip_ratio<T: Real>(&self, x: T) -> T {
        let eps = self.epsilon;
        if self.smoothing == FrictionSmoothing::Rational {
            (x + eps).recip()
        } else if x.re() < eps {
            -x * (1.0 / (eps * eps)) + 2.0 / eps
        } else {
            x.recip()
        }
    }

    /// Smoothed Coulomb friction (paper Eq. 8, 11) on relative velocity `v_rel` (m/s) against a
    /// surface of unit normal `n` pressed with force `lambda` (N): −μλ η(v̄), v̄ = (I − n nᵀ) v_rel.
    pub fn friction<T: Real>(&self, mu: f64, lambda: T, n: V3<T>, v_rel: V3<T>) -> V3<T> {
        let vn = dot(n, v_rel);
        let vt = [0, 1, 2].map(|k| v_rel[k] - vn * n[k]);
        let s2 = dot(vt, vt);
        // |v̄| with a zero derivative at v̄ = 0, where the term it feeds vanishes anyway.
        let speed = if s2.re() > 0.0 { s2.sqrt() } else { c(0.0) };
        let k = lambda * self.slip_ratio(speed) * (-mu);
        vt.map(|x| x * k)
    }

    /// The friction dissipation potential D = μλ f₀(|v̄|) whose negative gradient in `v_rel` is
    /// [`ContactLaw::friction`] with λ and n held fixed (IPC's lagged friction potential), with
    /// f₀′ = s: f₀(x) = x²/ε − x³/(3ε²) below ε and x − ε/3 above for s_a (Eq. 14);
    /// f₀(x) = x − ε ln(1 + x/ε) for s_b (Eq. 15) [J/s = W]. The Newton line search uses it
    /// as the friction part of its merit function.
    pub fn friction_potential(&self, mu: f64, lambda: f64, n: [f64; 3], v_rel: [f64; 3]) -> f64 {
        let vn = n[0] * v_rel[0] + n[1] * v_rel[1] + n[2] * v_rel[2];
        let x = (0..3).map(|k| (v_rel[k] - vn * n[k]).powi(2)).sum::<f64>().sqrt();
        let eps = self.epsilon;
        let f0 = if self.smoothing == FrictionSmoothing::Rational {
            x - eps * (x / eps).ln_1p()
        } else if x < eps {
            x * x / eps - x * x * x / (3.0 * eps * eps)
        } else {
            x - eps / 3.0
        };
        mu * lambda * f0
    }

    /// Stiffness update after a step that ends with the deepest gap `d_deepest` < 0 (§4.4):
    /// κ ← κ · b′(d_deepest)/b′(δ/2) = κ · ((δ − d_deepest)/(δ/2))², which puts the force the
    /// step needed at gap δ/2.
    pub fn stiffer(&self, d_deepest: f64) -> f64 {
        let r = (self.delta - d_deepest) / (0.5 * self.delta);
        self.kappa * r * r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The law's partials in (λ, n, v_rel) match central differences of the friction force, in
    /// the stick and the slip regime, for both smoothings.
    #[test]
    fn friction_partials_match_finite_differences() {
        for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
            let law =
                ContactLaw { kappa: 1.0, delta: 1e-3, epsilon: 1e-2, smoothing, coupling: FrictionCoupling::Implicit };
            for v in [[0.003, 0.001, -0.002], [0.2, -0.1, 0.05]] {
                let x = [2.0, 0.0, 0.6, 0.8, v[0], v[1], v[2]];
                let force = |x: &[f64; 7]| law.friction(0.4, x[0], [x[1], x[2], x[3]], [x[4], x[5], x[6]]);
                let (f, partials) =
                    law.friction_partials(0.4, x[0], &Vector3::new(x[1], x[2], x[3]), &Vector3::from(v));
                assert_eq!([f[0], f[1], f[2]], force(&x));
                let step = 1e-7;
                for col in 0..7 {
                    let (mut xp, mut xm) = (x, x);
                    xp[col] += step;
                    xm[col] -= step;
                    let (fp, fm) = (force(&xp), force(&xm));
                    for row in 0..3 {
                        let fd = (fp[row] - fm[row]) / (2.0 * step);
                        let scale = partials.column(col).norm().max(1.0);
                        let err = (fd - partials[(row, col)]).abs() / scale;
                        assert!(err < 1e-6, "{smoothing:?} v {v:?}: ∂F{row}/∂x{col} {} vs {fd}", partials[(row, col)]);
                    }
                }
            }
        }
    }

    /// −∂D/∂v_rel of the friction potential is the friction force, for both smoothings.
    #[test]
    fn friction_potential_gradient_is_minus_the_friction_force() {
        for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
            let law =
                ContactLaw { kappa: 1.0, delta: 1e-3, epsilon: 1e-2, smoothing, coupling: FrictionCoupling::Implicit };
            let n = [0.0, 0.6, 0.8];
            for v in [[0.003, 0.001, -0.002], [0.2, -0.1, 0.05], [1e-5, 0.0, 0.0]] {
                let f = law.friction(0.4, 2.0, n, v);
                let h = 1e-8;
                for k in 0..3 {
                    let (mut vp, mut vm) = (v, v);
                    vp[k] += h;
                    vm[k] -= h;
                    let fd =
                        (law.friction_potential(0.4, 2.0, n, vp) - law.friction_potential(0.4, 2.0, n, vm)) / (2.0 * h);
                    assert!((fd + f[k]).abs() < 1e-6, "smoothing {smoothing:?}, v {v:?}, k {k}: {fd} vs {}", -f[k]);
                }
            }
        }
    }
}
