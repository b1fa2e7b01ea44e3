//! The time integrators as chains of implicit stages ([`crate::assemble::stage::ImplicitStage`]).
//!
//! Written for M q̈ = f(q, q̇) as the first-order system u = (q, v), u̇ = F(u) = (v, M⁻¹f):
//! - BE, TR (paper Eq. 24), TR-BDF2 and SDIRK2 (Ascher et al. 2022 §3.1, Eq. 8 and 9) are
//!   diagonally implicit Runge–Kutta methods whose first stage is explicit (c₀ = 0). Stage s at
//!   t + c_s h solves u_s = u₀ + h Σ_{j<s} a_sj F(u_j) + h a_ss F(u_s), i.e. the implicit stage
//!   with v̂ = vₜ, q̂ = qₜ + h Σ_{j<s} a_sj v_j, e = h Σ_{j<s} a_sj f_j and effective step h a_ss.
//!   All are stiffly accurate (the last row is b), so u_{t+h} is the last stage.
//! - BDF2 (Ascher Eq. 7, with variable steps ω = h/h_prev):
//!   u₁ = (1+ω)²/(1+2ω) u₀ − ω²/(1+2ω) u₋₁ + h (1+ω)/(1+2ω) F(u₁): one implicit stage with
//!   v̂, q̂ the combinations of the two past states. Its first step, and any step after the
//!   history was lost or with ω out of BDF2's zero-stable range, is taken by BE.

use crate::model::params::Integrator;

/// γ = 2 − √2 of SDIRK2: its first stage ends at t + γh.
///
/// cbindgen:ignore
pub const SDIRK2_GAMMA: f64 = 2.0 - std::f64::consts::SQRT_2;
/// β = √2/4 of SDIRK2 (Ascher Eq. 9b).
const SDIRK2_BETA: f64 = std::f64::consts::SQRT_2 / 4.0;
/// Largest step ratio ω = h/h_prev BDF2 takes (it is zero-stable for ω < 1 + √2).
const BDF2_MAX_RATIO: f64 = 2.0;

/// One implicit stage of a DIRK scheme.
#[derive(Clone, Debug, PartialEq)]
pub struct DirkStage {
    /// Where the stage ends, as a fraction c_s of the step.
    pub c: f64,
    /// a_s0 … a_ss: the weights of the start (explicit) stage, the earlier implicit stages and
    /// this one (the last entry).
    pub a: Vec<f64>,
}

/// How an integrator takes a substep.
#[derive(Clone, Debug, PartialEq)]
pub enum Scheme {
    /// A diagonally implicit Runge–Kutta method: its implicit stages in order (BE, SI, TR,
    /// TR-BDF2, SDIRK2).
    Dirk(Vec<DirkStage>),
    /// BDF2: one implicit stage on the two past states.
    Bdf2,
    /// Newmark or generalized-α: one implicit stage at the α-point (`super::newmark`).
    Newmark,
    /// Exponential Rosenbrock–Euler: no nonlinear solve (`super::exponential`).
    Exponential,
    /// SIERE: a semi-implicit stage with the lowest modes exponential (`super::siere`).
    Siere,
}

/// The scheme of `integrator`: every integrator is named here, so a new one cannot run as
/// another.
pub fn scheme(integrator: Integrator) -> Scheme {
    let stage = |c: f64, a: &[f64]| DirkStage { c, a: a.to_vec() };
    let (g, b) = (SDIRK2_GAMMA, SDIRK2_BETA);
    match integrator {
        Integrator::BackwardEuler | Integrator::SemiImplicit => Scheme::Dirk(vec![stage(1.0, &[0.0, 1.0])]),
        Integrator::Trapezoidal => Scheme::Dirk(vec![stage(1.0, &[0.5, 0.5])]),
        Integrator::TrBdf2 => {
            Scheme::Dirk(vec![stage(0.5, &[0.25, 0.25]), stage(1.0, &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0])])
        }
        Integrator::Sdirk2 => Scheme::Dirk(vec![stage(g, &[0.5 * g, 0.5 * g]), stage(1.0, &[b, b, 0.5 * g])]),
        Integrator::Bdf2 => Scheme::Bdf2,
        Integrator::Newmark | Integrator::GeneralizedAlpha => Scheme::Newmark,
        Integrator::ExponentialEuler => Scheme::Exponential,
        Integrator::Siere => Scheme::Siere,
    }
}

/// Whether any stage uses the force at the start of the step (all but BE).
pub fn needs_start_force(stages: &[DirkStage]) -> bool {
    stages.iter().any(|s| s.a[0] != 0.0)
}

/// Variable-step BDF2 coefficients (c₀, c₁, h_eff) for step `h` after step `h_prev`:
/// u₁ = c₀u₀ − c₁u₋₁ + h_eff F(u₁); `None` when ω = h/h_prev is outside (0, 2] (take BE).
pub fn bdf2_coefficients(h: f64, h_prev: f64) -> Option<(f64, f64, f64)> {
    let w = h / h_prev;
    if !(w.is_finite() && w > 0.0 && w <= BDF2_MAX_RATIO) {
        return None;
    }
    let d = 1.0 + 2.0 * w;
    Some(((1.0 + w) * (1.0 + w) / d, w * w / d, h * (1.0 + w) / d))
}

/// The state one step back, for BDF2: positions (m), velocities (m/s) and that step's h (s).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepHistory {
    /// Positions at the start of the last step.
    pub q: Vec<f64>,
    /// Velocities at the start of the last step.
    pub v: Vec<f64>,
    /// Length of the last step.
    pub h: f64,
}
