//! The contact and friction laws of the paper: the cubic penalty b(d) (§3.2) with its force
//! magnitude λ = −b′(d) (Eq. 3), the smoothed Coulomb nonlinearity η (Eq. 8, 11) with the
//! pre-sliding transitions s_a (Eq. 14) and s_b (Eq. 15), and the adaptive stiffness update (§4.4).

use crate::energy::real::{c, dot, Real, V3};

/// Friction smoothing s_a(x) = 2x/ε − x²/ε² below ε, 1 above (paper Eq. 14; C¹).
pub const GRIP_FRICTION_SMOOTHING_QUADRATIC: u32 = 0;
/// Friction smoothing s_b(x) = x/(x + ε) (paper Eq. 15; C∞, never quite reaches μλ).
pub const GRIP_FRICTION_SMOOTHING_RATIONAL: u32 = 1;
/// Sliding basis and contact force at the end of the step: fully implicit (paper Eq. 23).
pub const GRIP_FRICTION_COUPLING_IMPLICIT: u32 = 0;
/// Sliding basis and contact force at the start of the step: lagged, as IPC (paper Eq. 25–26).
pub const GRIP_FRICTION_COUPLING_LAGGED: u32 = 1;

/// Parameters of the contact and friction laws for one substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactLaw {
    /// Penalty stiffness κ [N/m²] (b is an energy: κ m³ = J).
    pub kappa: f64,
    /// Contact thickness δ [m]: the penalty acts where d < δ.
    pub delta: f64,
    /// Stick–slip velocity ε [m/s].
    pub epsilon: f64,
    /// `GRIP_FRICTION_SMOOTHING_*`.
    pub smoothing: u32,
    /// `GRIP_FRICTION_COUPLING_*`.
    pub coupling: u32,
}

impl ContactLaw {
    /// Penalty energy b(d) = κ(δ − d)³ for d < δ, else 0 [J] (paper §3.2; written there as
    /// −κ(x − δ)³).
    pub fn energy(&self, d: f64) -> f64 {
        if d < self.delta {
            self.kappa * (self.delta - d).powi(3)
        } else {
            0.0
        }
    }

    /// Contact force magnitude λ(d) = −b′(d) = 3κ(δ − d)² for d < δ, else 0 [N] (paper Eq. 3).
    pub fn force<T: Real>(&self, d: T) -> T {
        if d.re() < self.delta {
            let p = c::<T>(self.delta) - d;
            p * p * (3.0 * self.kappa)
        } else {
            c(0.0)
        }
    }

    /// s(x)/x for the selected smoothing: finite at x = 0 (2/ε for s_a, 1/ε for s_b), so the
    /// friction force −μλ (s(|v̄|)/|v̄|) v̄ of Eq. 8 and 11 needs no division by |v̄| [s/m].
    pub fn slip_ratio<T: Real>(&self, x: T) -> T {
        let eps = self.epsilon;
        if self.smoothing == GRIP_FRICTION_SMOOTHING_RATIONAL {
            (x + eps).recip()
        } else if x.re() < eps {
            -x * (1.0 / (eps * eps)) + 2.0 / eps
        } else {
            x.recip()
        }
    }

    /// Smoothed Coulomb friction (paper Eq. 8, 11) on relative velocity `v_rel` [m/s] against a
    /// surface of unit normal `n` pressed with force `lambda` [N]: −μλ η(v̄), v̄ = (I − n nᵀ) v_rel.
    pub fn friction<T: Real>(&self, mu: f64, lambda: T, n: V3<T>, v_rel: V3<T>) -> V3<T> {
        let vn = dot(n, v_rel);
        let vt = [0, 1, 2].map(|k| v_rel[k] - vn * n[k]);
        let s2 = dot(vt, vt);
        // |v̄| with a zero derivative at v̄ = 0, where the term it feeds vanishes anyway.
        let speed = if s2.re() > 0.0 { s2.sqrt() } else { c(0.0) };
        let k = lambda * self.slip_ratio(speed) * (-mu);
        vt.map(|x| x * k)
    }

    /// Stiffness update after a step that ends with the deepest gap `d_deepest` < 0 (§4.4):
    /// κ ← κ · b′(d_deepest)/b′(δ/2) = κ · ((δ − d_deepest)/(δ/2))², which puts the force the
    /// step needed at gap δ/2.
    pub fn stiffer(&self, d_deepest: f64) -> f64 {
        let r = (self.delta - d_deepest) / (0.5 * self.delta);
        self.kappa * r * r
    }
}
