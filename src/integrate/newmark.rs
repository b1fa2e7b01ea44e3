//! Newmark's method and the generalized-α method of Chung and Hulbert (1993) as one implicit
//! stage (`crate::assemble::stage::ImplicitStage`).
//!
//! For M a = f(q, v), with the acceleration a carried from step to step:
//!   q₁ = q₀ + h v₀ + h² ((½ − β) a₀ + β a₁),   v₁ = v₀ + h ((1 − γ) a₀ + γ a₁),
//!   M ((1 − α_m) a₁ + α_m a₀) = f(q_α, w),  q_α = (1 − α_f) q₁ + α_f q₀,  w = (1 − α_f) v₁ + α_f v₀.
//! Newmark is α_m = α_f = 0; generalized-α takes, for the spectral radius ρ∞ at infinite
//! frequency, α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1), γ = ½ − α_m + α_f,
//! β = ¼ (1 − α_m + α_f)² (second order, unconditionally stable for linear problems).
//!
//! The unknown is the α-point velocity w. Eliminating a₁ and v₁, with h_q = hβ/γ,
//!   q_α = q̂ + h_q w,  q̂ = (1 − α_f) q̂₁ + α_f q₀ − α_f h_q v₀,  q̂₁ = q₀ + h (1 − β/γ) v₀ + h² (½ − β/γ) a₀,
//!   ρ M (w − v₀) = h_q f(q_α, w) + e,  ρ = (1 − α_m) β / (γ² (1 − α_f)),  e = h_q ((1 − α_m)(1 − γ)/γ − α_m) M a₀:
//! the implicit stage with effective step h_q, inertia factor ρ and explicit momentum e, its
//! force evaluated at t + (1 − α_f) h (colliders there too). β = ¼, γ = ½ gives h_q = h/2, ρ = 1,
//! e = (h/2) f₀: the trapezoidal rule. Contact and friction enter f at the α-point, fully
//! implicit (or lagged) as with every other integrator; the gaps checked after the step are
//! those at its end.
//! Newmark (α_m = α_f = 0) takes a₀ = M⁻¹ f(q₀, v₀) at every step, which its balance of momentum
//! makes equal to the carried value; generalized-α carries a, and its first step, and any step
//! after the state was set by the host, starts from that consistent value.

use super::call::Call;
use super::stages::{StageFailure, StageInput, StageOutput, Substep};
use super::work::AttemptWork;
use crate::assemble::DampingMatrices;
use crate::model::params::{Integrator, SolverParams};

/// The coefficients (α_m, α_f, β, γ) of one Newmark-family method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewmarkCoefficients {
    /// Weight α_m of the old acceleration in the balance of momentum.
    pub alpha_m: f64,
    /// Weight α_f of the old state in the force's evaluation point.
    pub alpha_f: f64,
    /// Newmark β.
    pub beta: f64,
    /// Newmark γ.
    pub gamma: f64,
}

impl NewmarkCoefficients {
    /// Newmark's (β, γ), or generalized-α's from ρ∞ (Chung and Hulbert 1993, Eq. 25 and 17).
    pub fn of(integrator: Integrator, params: &SolverParams) -> Self {
        match integrator {
            Integrator::GeneralizedAlpha => {
                let rho = params.spectral_radius;
                let alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
                let alpha_f = rho / (rho + 1.0);
                let gamma = 0.5 - alpha_m + alpha_f;
                let beta = 0.25 * (1.0 - alpha_m + alpha_f).powi(2);
                Self { alpha_m, alpha_f, beta, gamma }
            }
            _ => Self { alpha_m: 0.0, alpha_f: 0.0, beta: params.newmark_beta, gamma: params.newmark_gamma },
        }
    }

    /// The position step h_q = hβ/γ (s) of the stage.
    pub fn position_step(&self, h: f64) -> f64 {
        h * self.beta / self.gamma
    }

    /// The inertia factor ρ = (1 − α_m) β / (γ² (1 − α_f)).
    pub fn inertia(&self) -> f64 {
        (1.0 - self.alpha_m) * self.beta / (self.gamma * self.gamma * (1.0 - self.alpha_f))
    }

    /// The factor of M a₀ in the explicit momentum, e = h_q · this · M a₀.
    pub fn explicit_factor(&self) -> f64 {
        (1.0 - self.alpha_m) * (1.0 - self.gamma) / self.gamma - self.alpha_m
    }
}

impl Call<'_> {
    /// One substep of Newmark or generalized-α from (q, v) (see the module documentation); its
    /// work besides the returned solve goes into `work`.
    pub(crate) fn newmark_step(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        integrator: Integrator,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let k = NewmarkCoefficients::of(integrator, self.ctx.params);
        let (h, v_fixed) = (substep.h, substep.v_fixed.as_slice());
        let mass = &self.ctx.model.mass;
        // Newmark's balance M a₁ = f(q₁, v₁) makes the carried acceleration M⁻¹f at the step's
        // start, so it is evaluated there afresh: the same in smooth motion, and right after a
        // step of another integrator or a change of the contact stiffness, whose carried value
        // would be stale. Generalized-α's a is not M⁻¹f and is carried.
        let carried = k.alpha_m != 0.0 || k.alpha_f != 0.0;
        let a0: Vec<f64> = if carried && self.state.carried.acceleration.len() == q.len() {
            self.state.carried.acceleration.clone()
        } else {
            let f0 = self.start_force(q, v, substep, damping, work)?;
            f0.iter().enumerate().map(|(d, f)| f / mass[d / 3]).collect()
        };
        let h_q = k.position_step(h);
        let r = k.beta / k.gamma;
        let q1_hat: Vec<f64> = (0..q.len()).map(|d| q[d] + h * (1.0 - r) * v[d] + h * h * (0.5 - r) * a0[d]).collect();
        let mut q_hat: Vec<f64> =
            (0..q.len()).map(|d| (1.0 - k.alpha_f) * q1_hat[d] + k.alpha_f * (q[d] - h_q * v[d])).collect();
        let c = 1.0 - k.alpha_f;
        let pinned = self.ctx.pinned;
        for (i, _) in pinned.iter().enumerate().filter(|(_, p)| **p) {
            for d in 3 * i..3 * i + 3 {
                q_hat[d] = q[d] + (c * h - h_q) * v_fixed[d];
            }
        }
        let e_factor = h_q * k.explicit_factor();
        let explicit = (e_factor != 0.0).then(|| (0..q.len()).map(|d| e_factor * mass[d / 3] * a0[d]).collect());
        let stage = StageInput { c, q_hat, v_hat: v.to_vec(), h_eff: h_q, explicit, inertia: k.inertia() };
        let out = self.solve_stage(q, v, &stage, substep, damping, false, work)?;
        // Back from the α-point velocity w to the end of the step.
        let mut q1 = vec![0.0; q.len()];
        let mut v1 = vec![0.0; q.len()];
        let mut a1 = vec![0.0; q.len()];
        for d in 0..q.len() {
            if pinned[d / 3] {
                v1[d] = v_fixed[d];
                q1[d] = q[d] + h * v_fixed[d];
                a1[d] = (v_fixed[d] - v[d]) / h;
            } else {
                v1[d] = (out.v[d] - k.alpha_f * v[d]) / (1.0 - k.alpha_f);
                q1[d] = q1_hat[d] + h_q * v1[d];
                a1[d] = (v1[d] - v[d] - h * (1.0 - k.gamma) * a0[d]) / (h * k.gamma);
            }
        }
        // The gaps that decide the contact retries are those at the end of the step.
        let gaps = if out.gaps.is_some() && k.alpha_f != 0.0 {
            self.end_gaps(q, &q1, substep, damping, work)
        } else {
            out.gaps
        };
        Ok(StageOutput { q: q1, v: v1, acceleration: Some(a1), gaps, ..out })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn average_acceleration_is_the_trapezoidal_stage() {
        let k = NewmarkCoefficients::of(Integrator::Newmark, &SolverParams::default());
        assert_eq!((k.position_step(0.1), k.inertia(), k.explicit_factor()), (0.05, 1.0, 1.0));
    }

    /// Spectral radius of the step's amplification matrix on q̈ = −ω²q at ωh, (q, hv, h²a).
    fn spectral_radius(k: &NewmarkCoefficients, wh: f64) -> f64 {
        use nalgebra::Matrix3;
        let (am, af, b, g) = (k.alpha_m, k.alpha_f, k.beta, k.gamma);
        let w2 = wh * wh;
        // Rows: balance of momentum, the position update, the velocity update; columns (q, hv, h²a).
        let a = Matrix3::new(w2 * (1.0 - af), 0.0, 1.0 - am, 1.0, 0.0, -b, 0.0, 1.0, -g);
        let bm = Matrix3::new(-w2 * af, 0.0, -am, 1.0, 1.0, 0.5 - b, 0.0, 1.0, 1.0 - g);
        let t = a.try_inverse().unwrap() * bm;
        t.complex_eigenvalues().iter().map(|z| z.norm()).fold(0.0, f64::max)
    }

    #[test]
    fn generalized_alpha_damps_the_highest_modes_to_the_asked_spectral_radius() {
        for rho in [0.0, 0.5, 0.8, 1.0] {
            let params = SolverParams { spectral_radius: rho, ..SolverParams::default() };
            let k = NewmarkCoefficients::of(Integrator::GeneralizedAlpha, &params);
            let high = spectral_radius(&k, 1e5);
            assert!((high - rho).abs() < 1e-3, "ρ∞ {rho}: measured {high}");
            // The lowest modes keep their amplitude to second order.
            let low = spectral_radius(&k, 1e-2);
            assert!((1.0 - low).abs() < 1e-5, "ρ∞ {rho}: {low} at ωh = 0.01");
        }
        let newmark = NewmarkCoefficients::of(Integrator::Newmark, &SolverParams::default());
        assert!((spectral_radius(&newmark, 1e5) - 1.0).abs() < 1e-9);
    }
}
