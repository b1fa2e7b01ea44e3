//! One implicit stage of a time integrator in velocity form, the nonlinear system every
//! integrator solves (paper Eq. 23, 24; Ascher et al. 2022 §3.1):
//! r(v) = M(v − v̂) − e − h f(q̂ + h v, v), f = −∇W(q) − ∇W_vol(q) − (αM + βK⁺ₜ) v + M g + F_c(q, v),
//! J(v) = M + h(αM + βK⁺ₜ) + h² (∇²W + ∇²W_vol) − h dF_c/dv,
//! with the stage's base velocity v̂, base position q̂, effective step h and explicit momentum e
//! (the already known force stages). Backward Euler is v̂ = vₜ, q̂ = qₜ, e = 0 and h the step; the
//! trapezoidal rule, BDF2, TR-BDF2 and SDIRK2 are built from the same stage by
//! `crate::integrate::schemes`. F_c is the contact and friction force (paper Eq. 3, 16), whose
//! sliding basis and normal force are functions of q = q̂ + h v; W_vol the volume penalty (§3.4),
//! whose dense rank-one Hessian term goes to the linear solver separately (see `volume_terms`).
//!
//! Rayleigh damping D = αM + βK (paper §3.1) uses K⁺ₜ, the element stiffness at the start of the
//! step projected onto the PSD cone: damping is then linear in v (the Newton Jacobian is exact)
//! and never injects energy when the neo-Hookean stiffness is indefinite.
//! Pinned vertices are eliminated: their rows read v − v_pin = 0, their columns are dropped.
//! Newmark and generalized-α scale the inertia term by ρ (`with_inertia`):
//! r(v) = ρM(v − v̂) − e − h f(q̂ + h v, v).

use super::layout::SystemLayout;
use super::term::StageContext;
use super::terms::Terms;
use crate::math::real::Real;
use crate::model::Model;
use crate::solve::NonlinearSystem;
use num_dual::Dual64;

/// One implicit stage as a nonlinear system in the stage's end velocities.
pub struct ImplicitStage<'a> {
    /// The model.
    pub model: &'a Model,
    /// Pattern and slots.
    pub layout: &'a SystemLayout,
    /// Base positions q̂ (m): the stage's positions are q̂ + h v.
    pub q_start: &'a [f64],
    /// Base velocities v̂ (m/s).
    pub v_start: &'a [f64],
    /// Effective step h (s) of the stage.
    pub h: f64,
    /// Explicit momentum e (N·s) of the stage's known force evaluations (none for BE).
    pub explicit: Option<&'a [f64]>,
    /// Factor ρ (dimensionless) on the inertia term: r = ρM(v − v̂) − e − h f (1 for the Runge–
    /// Kutta stages; Newmark and generalized-α, whose position and velocity updates use
    /// different steps, see `crate::integrate::newmark`).
    pub inertia: f64,
    /// Gravity (m/s²).
    pub gravity: [f64; 3],
    /// Per vertex: velocity prescribed (pinned).
    pub fixed: &'a [bool],
    /// Prescribed velocities of fixed vertices in m/s (others ignored).
    pub v_fixed: &'a [f64],
    /// The terms of the force, in the order they are summed.
    pub terms: Terms<'a>,
    /// Jacobian blocks of surface contacts left out because the pattern lacked them.
    pub dropped_blocks: u32,
    /// Velocities (m/s) whose intersection count the caller already knows, and that count
    /// (Newton's guess, counted when it was chosen; see `with_known_intersections`).
    known_intersections: Option<(Vec<f64>, usize)>,
    /// Element Hessians projected onto the PSD cone in the Jacobian (see `set_definite`).
    definite: bool,
    q: Vec<f64>,
}

impl<'a> ImplicitStage<'a> {
    /// The stage from base positions `q_start` (m) and velocities `v_start` (m/s) with
    /// effective step `h` (s) over the force of `terms` and gravity (m/s²): backward Euler's
    /// residual for one step (paper Eq. 23), the base of other stages (see
    /// [`ImplicitStage::with_explicit`], [`ImplicitStage::with_inertia`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        model: &'a Model,
        layout: &'a SystemLayout,
        q_start: &'a [f64],
        v_start: &'a [f64],
        h: f64,
        gravity: [f64; 3],
        fixed: &'a [bool],
        v_fixed: &'a [f64],
        terms: Terms<'a>,
    ) -> Self {
        Self {
            model,
            layout,
            q_start,
            v_start,
            h,
            gravity,
            fixed,
            v_fixed,
            explicit: None,
            inertia: 1.0,
            terms,
            dropped_blocks: 0,
            known_intersections: None,
            definite: false,
            q: vec![0.0; q_start.len()],
        }
    }

    /// Subtracts the explicit momentum `e` (N·s) from the residual (a multi-stage scheme's known
    /// stages, e.g. (h/2) f(qₜ, vₜ) of the trapezoidal rule).
    pub fn with_explicit(mut self, explicit: Option<&'a [f64]>) -> Self {
        self.explicit = explicit;
        self
    }

    /// Scales the inertia term M(v − v̂) of the residual by `inertia` (see [`ImplicitStage::inertia`]).
    pub fn with_inertia(mut self, inertia: f64) -> Self {
        self.inertia = inertia;
        self
    }

    /// Tells the stage that the velocities `v` (m/s) make `count` shell triangle pairs
    /// intersect, so that `intersections(v)` need not check them again.
    pub fn with_known_intersections(mut self, v: Vec<f64>, count: usize) -> Self {
        self.known_intersections = Some((v, count));
        self
    }

    /// End-of-step positions q = qₜ + h v.
    pub fn positions(&self, v: &[f64]) -> Vec<f64> {
        self.q_start.iter().zip(v).map(|(q, v)| q + self.h * v).collect()
    }

    /// out += scale · (−f(q, v)) over every force term but the pins, at velocities `v` and
    /// positions `q` (any [`Real`]); the surface contact candidates must be fresh for `q`.
    /// The per-vertex terms (mass damping and gravity) are left to the caller when `!lumped`.
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, lumped: bool, out: &mut [T]) {
        let m = self.model;
        if lumped {
            for (i, mass) in m.mass.iter().enumerate() {
                for k in 0..3 {
                    let d = 3 * i + k;
                    out[d] += (v[d] * m.alpha[i] - self.gravity[k]) * (scale * mass);
                }
            }
        }
        self.terms.add_negative_force(q, v, scale, out);
    }

    /// r at velocities `v` and stage positions `q` = q̂ + h v (any [`Real`]); the surface contact
    /// candidates must be fresh for the values of `q`.
    fn residual_at<T: Real + Send + Sync>(&self, q: &[T], v: &[T], out: &mut [T]) {
        let (m, h) = (self.model, self.h);
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                let e = self.explicit.map_or(0.0, |e| e[d]);
                out[d] = ((v[d] - self.v_start[d]) * self.inertia + v[d] * (h * m.alpha[i]) - h * self.gravity[k])
                    * *mass
                    - e;
            }
        }
        self.add_negative_force(q, v, h, false, out);
        for (i, _) in self.fixed.iter().enumerate().filter(|(_, f)| **f) {
            for k in 0..3 {
                out[3 * i + k] = v[3 * i + k] - self.v_fixed[3 * i + k];
            }
        }
    }

    /// The total force f(q, v) in N at any positions and velocities (rows of pinned vertices
    /// included), with this stage's contact terms: the known stages of multi-stage schemes.
    pub fn force(&mut self, q: &[f64], v: &[f64]) -> Vec<f64> {
        self.terms.refresh(q);
        let mut out = vec![0.0; q.len()];
        self.add_negative_force(q, v, -1.0, true, &mut out);
        out
    }

    /// The directional derivative (N) of the total force, ∂f/∂q dq + ∂f/∂v dv at (q, v), by
    /// forward-mode AD through every force term (rows of pinned vertices included): the
    /// products with the Jacobian of the first-order system that the exponential integrators
    /// need (Ascher et al. 2022 Eq. 17).
    pub fn force_derivative(&mut self, q: &[f64], v: &[f64], dq: &[f64], dv: &[f64]) -> Vec<f64> {
        self.terms.refresh(q);
        let qd: Vec<Dual64> = q.iter().zip(dq).map(|(&x, &e)| Dual64::new(x, e)).collect();
        let vd: Vec<Dual64> = v.iter().zip(dv).map(|(&x, &e)| Dual64::new(x, e)).collect();
        let mut out = vec![Dual64::from(0.0); q.len()];
        self.add_negative_force(&qd, &vd, -1.0, true, &mut out);
        out.iter().map(|x| x.eps).collect()
    }

    /// What the terms see of this stage.
    fn context(&self) -> StageContext<'a> {
        StageContext {
            q_start: self.q_start,
            h: self.h,
            fixed: self.fixed,
            layout: self.layout,
            definite: self.definite,
        }
    }

    fn update_positions(&mut self, v: &[f64]) {
        for ((q, q0), vi) in self.q.iter_mut().zip(self.q_start).zip(v) {
            *q = q0 + self.h * vi;
        }
    }
}

impl NonlinearSystem for ImplicitStage<'_> {
    fn residual(&mut self, v: &[f64], out: &mut [f64]) {
        self.update_positions(v);
        let q = std::mem::take(&mut self.q);
        self.terms.refresh(&q);
        self.residual_at(&q, v, out);
        self.q = q;
    }

    /// J x = d/dε r(v + ε x) by forward-mode AD of the residual (dual numbers through every
    /// force term): exact, without assembling J (paper §4.3).
    fn jacobian_product(&mut self, v: &[f64], x: &[f64], out: &mut [f64]) -> bool {
        self.update_positions(v);
        let q = std::mem::take(&mut self.q);
        self.terms.refresh(&q);
        self.q = q;
        // Pinned vertices are eliminated as in the assembled J: their columns do not act on
        // the free rows, and their rows are the identity.
        let pinned = |d: usize| self.fixed[d / 3];
        let vd: Vec<Dual64> = (0..v.len()).map(|d| Dual64::new(v[d], if pinned(d) { 0.0 } else { x[d] })).collect();
        let qd: Vec<Dual64> = self.q_start.iter().zip(&vd).map(|(&q0, &vi)| vi * self.h + q0).collect();
        let mut rd = vec![Dual64::from(0.0); v.len()];
        self.residual_at(&qd, &vd, &mut rd);
        for (d, (o, r)) in out.iter_mut().zip(&rd).enumerate() {
            *o = if pinned(d) { x[d] } else { r.eps };
        }
        true
    }

    /// The incremental potential Φ(v) = ½(v − v̂)ᵀM(v − v̂) − eᵀv + W(q) + W_vol(q) + B(q)
    /// + ½h vᵀ(αM + βK⁺ₜ)v − h vᵀMg + h D_f(v), q = q̂ + h v: elastic energy W, volume penalty
    /// W_vol, contact penalty B (self-contact W_c included), and the friction dissipation
    /// potential D_f (self-contact friction included) with the sliding basis and contact forces
    /// frozen at the point of the last `freeze_merit`. There ∇Φ = r (rows of pinned vertices
    /// aside, which Newton never moves), so Newton's line search may use Φ as its merit: its
    /// decrease guards against steps that overshoot into the cubic penalty, which ‖r‖ does not.
    fn merit(&mut self, v: &[f64]) -> Option<f64> {
        self.update_positions(v);
        let (m, h) = (self.model, self.h);
        let mut phi = 0.0;
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                let dv = v[d] - self.v_start[d];
                phi += mass
                    * (0.5 * self.inertia * dv * dv + 0.5 * h * m.alpha[i] * v[d] * v[d] - h * self.gravity[k] * v[d]);
                phi -= self.explicit.map_or(0.0, |e| e[d] * v[d]);
            }
        }
        let q = std::mem::take(&mut self.q);
        phi += self.terms.merit(&self.context(), &q, v);
        self.q = q;
        Some(phi)
    }

    /// The shells' intersecting triangle pairs at q = q̂ + h v (0 without a term that counts
    /// them).
    fn intersections(&mut self, v: &[f64]) -> usize {
        if let Some((_, count)) = self.known_intersections.as_ref().filter(|(known, _)| known.as_slice() == v) {
            return *count;
        }
        self.update_positions(v);
        self.terms.intersections(&self.q).unwrap_or(0)
    }

    fn freeze_merit(&mut self, v: &[f64]) {
        self.update_positions(v);
        self.terms.freeze_friction(&self.q);
    }

    /// The terms' dense low-rank Jacobian parts (the volume penalties' h² W″(V) (∂V/∂q)(∂V/∂q)ᵀ).
    fn low_rank(&mut self, v: &[f64]) -> Vec<(f64, Vec<f64>)> {
        self.update_positions(v);
        self.terms.low_rank(&self.q, self.h * self.h, self.fixed)
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
    }

    fn jacobian(&mut self, v: &[f64], jac: &mut [f64]) {
        self.update_positions(v);
        jac.iter_mut().for_each(|x| *x = 0.0);
        let q = std::mem::take(&mut self.q);
        self.dropped_blocks += self.terms.add_jacobian(&self.context(), &q, v, jac);
        self.q = q;
        let (m, l, h) = (self.model, self.layout, self.h);
        for (i, slot) in l.diagonal_slots.iter().enumerate() {
            let diag = if self.fixed[i] { 1.0 } else { m.mass[i] * (self.inertia + h * m.alpha[i]) };
            for k in 0..3u32 {
                jac[(slot.start + k * slot.stride + k) as usize] += diag;
            }
        }
    }
}
