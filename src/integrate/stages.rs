//! One substep of the chosen integrator as a chain of implicit stages (see
//! `crate::integrate::schemes`): every stage is the same nonlinear system over the full force,
//! contact and friction included, solved by either Newton variant.
//!
//! The force at the start of the step, f(qₜ, vₜ), which TR, TR-BDF2 and SDIRK2 use explicitly,
//! is evaluated with every collider at its start pose and with friction as the coupling defines
//! it there; with lagged coupling the implicit stages use friction lagged at qₜ, so TR is the
//! paper's Eq. 27. Pinned vertices move along their straight path at every stage: their base
//! positions are set so that q̂ + h_eff v_pin = qₜ + c h v_pin.

use super::call::Call;
use super::stage_terms::{ColliderSpan, StageSpec};
use super::work::AttemptWork;
use crate::assemble::{DampingMatrices, ImplicitStage};
use crate::error::{Error, Result};
use crate::integrate::schemes::{bdf2_coefficients, needs_start_force, scheme, DirkStage, Scheme};
use crate::model::params::Integrator;
use crate::solve::newton::LinearSystem;
use crate::solve::NewtonStats;

/// One substep: the fractions [f0, f1] of the call it covers, its length h (s), and the pinned
/// vertices' prescribed velocities over it (m/s, zero rows for free vertices).
pub(crate) struct Substep {
    /// Fraction of the call at its start.
    pub f0: f64,
    /// Fraction of the call at its end.
    pub f1: f64,
    /// Length (s).
    pub h: f64,
    /// Prescribed velocities of the pinned vertices (m/s).
    pub v_fixed: Vec<f64>,
}

/// What defines one implicit stage.
pub(crate) struct StageInput {
    /// End of the stage as a fraction of the step.
    pub c: f64,
    /// Base positions q̂ (m).
    pub q_hat: Vec<f64>,
    /// Base velocities v̂ (m/s).
    pub v_hat: Vec<f64>,
    /// Effective step (s).
    pub h_eff: f64,
    /// Explicit momentum (N·s), if any.
    pub explicit: Option<Vec<f64>>,
    /// Factor on the inertia term (1 but for Newmark and generalized-α).
    pub inertia: f64,
}

/// A solved stage.
pub(crate) struct StageOutput {
    /// End positions (m).
    pub q: Vec<f64>,
    /// End velocities (m/s).
    pub v: Vec<f64>,
    /// Newton's statistics.
    pub stats: NewtonStats,
    /// Deepest gap (m) and active contacts at the end, if there are contacts.
    pub gaps: Option<(f64, u32)>,
    /// Total force (N) at the end, when asked for.
    pub force: Option<Vec<f64>>,
    /// The acceleration (m/s²) the next step starts from, for integrators that carry one
    /// (Newmark and generalized-α); otherwise (v₁ − v₀)/h is kept as Newton's predictor.
    pub acceleration: Option<Vec<f64>>,
}

/// A failed stage: the error and, with self-contact, the smallest distance (m) between shell
/// triangles at Newton's last iterate (a substep whose Newton solve stalled with shells touching
/// is redone with a stiffer κ_s, `Call::try_substep`), and whether any of its contacts
/// could have friction (then a failed Newton solve is tried again by friction-smoothing
/// continuation, `super::continuation`).
pub(crate) struct StageFailure {
    /// Why the stage failed.
    pub error: Error,
    /// Closest shell pair (m) at the last iterate, when Newton ran with self-contact.
    pub closest_pair: Option<f64>,
    /// Whether a contact of the stage can have friction (μ > 0).
    pub has_friction: bool,
}

impl From<Error> for StageFailure {
    fn from(error: Error) -> Self {
        StageFailure { error, closest_pair: None, has_friction: false }
    }
}

/// Sums Newton statistics over the stages of a step (residuals: the worst).
pub(crate) fn accumulate(total: &mut NewtonStats, s: &NewtonStats) {
    total.iterations += s.iterations;
    total.backtracks += s.backtracks;
    total.linear_iterations += s.linear_iterations;
    total.relative_residual = total.relative_residual.max(s.relative_residual);
    total.residual = total.residual.max(s.residual);
    total.seconds_assembly += s.seconds_assembly;
    total.seconds_factorization += s.seconds_factorization;
    total.seconds_solve += s.seconds_solve;
    total.seconds_residual += s.seconds_residual;
}

impl Call<'_> {
    /// Pinned rows of `q_hat`: qₜ + (c h − h_eff) v_pin, so the stage ends them on their path.
    fn pin_base(&self, q: &[f64], q_hat: &mut [f64], v_fixed: &[f64], shift: f64) {
        for (i, _) in self.ctx.pinned.iter().enumerate().filter(|(_, p)| **p) {
            for d in 3 * i..3 * i + 3 {
                q_hat[d] = q[d] + shift * v_fixed[d];
            }
        }
    }

    /// The integrator of the next substep: backward Euler while recovering from a start inside
    /// a collider (see `CallState::recovering`), the chosen one otherwise.
    pub(crate) fn integrator_now(&self) -> Integrator {
        if self.state.recovering || self.state.recovery_call {
            Integrator::BackwardEuler
        } else {
            self.ctx.params.integrator
        }
    }

    /// Whether each implicit stage takes one Newton iteration (the semi-implicit variant).
    pub(crate) fn semi_implicit_stages(&self) -> bool {
        !(self.state.recovering || self.state.recovery_call)
            && (self.ctx.params.integrator == Integrator::SemiImplicit || self.ctx.params.semi_implicit)
    }

    /// Whether the next substep is linearized at its start (SI, the semi-implicit stages, ERE,
    /// SIERE) rather than solved to convergence.
    pub(crate) fn linearized_step(&self) -> bool {
        self.semi_implicit_stages() || matches!(self.integrator_now(), Integrator::ExponentialEuler | Integrator::Siere)
    }

    /// f(qₜ, vₜ) in N: every force at the start of the substep, colliders at their start poses;
    /// the contact staging and any pattern rebuilt go into `work`.
    pub(crate) fn start_force(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
    ) -> Result<Vec<f64>> {
        self.with_start_system(q, v, q, substep, damping, work, |system, _| system.force(q, v))
    }

    /// Runs `f` on the implicit stage (base positions `q_hat`, base velocities `v`, step
    /// `substep.h`) over every force term at the start `q` of the substep, colliders at their
    /// start poses, with the linear solver of the system layout: the start force of the
    /// multi-stage schemes and the linearization of the exponential ones. The contact staging
    /// and any pattern rebuilt go into `work`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn with_start_system<R>(
        &mut self,
        q: &[f64],
        v: &[f64],
        q_hat: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
        f: impl FnOnce(&mut ImplicitStage, &mut LinearSystem) -> R,
    ) -> Result<R> {
        let (f0, f1, h, v_fixed) = (substep.f0, substep.f1, substep.h, substep.v_fixed.as_slice());
        let spec = StageSpec {
            q_start: q,
            colliders: ColliderSpan::AtStart { f0, f1, seconds: h },
            mesh_base: q,
            mesh_h: 0.0,
            v_fixed,
            contacts: true,
        };
        let terms = self.stage_terms(&spec, damping, q, work);
        self.ensure_layout(&terms.stencils(), work)?;
        let (layout, solver) =
            self.state.carried.system.as_mut().ok_or_else(|| crate::error::Error::Panic("no system layout".into()))?;
        let (model, gravity, pinned) = (self.ctx.model, self.ctx.params.gravity, self.ctx.pinned);
        let mut system = ImplicitStage::new(model, layout, q_hat, v, h, gravity, pinned, v_fixed, terms);
        let mut linear = LinearSystem { solver, pattern: &layout.pattern, diagonal: &layout.diagonal_slots };
        Ok(f(&mut system, &mut linear))
    }

    /// Takes `substep` from (q, v) by the scheme of the integrator in use (`schemes::scheme` of
    /// `integrator_now`), once, without retries. Returns its outcome and, whatever that is,
    /// the work it did besides the solve it returns, for the retry loop to report.
    pub(crate) fn substep_by_scheme(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
    ) -> (std::result::Result<StageOutput, StageFailure>, AttemptWork) {
        let mut work = AttemptWork::default();
        let damping = DampingMatrices::new(self.ctx.model, q);
        let integrator = self.integrator_now();
        let w = &mut work;
        let outcome = match scheme(integrator) {
            Scheme::Dirk(stages) => self.dirk_step(q, v, substep, &damping, &stages, w),
            Scheme::Bdf2 => self.bdf2_step(q, v, substep, &damping, w),
            Scheme::Newmark => self.newmark_step(q, v, substep, &damping, integrator, w),
            Scheme::Exponential => self.exponential_step(q, v, substep, &damping, w),
            Scheme::Siere => self.siere_step(q, v, substep, &damping, w),
        };
        (outcome, work)
    }

    /// BDF2's substep from (q, v): one implicit stage on the last two states, or a backward Euler
    /// stage without a usable history.
    fn bdf2_step(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let (h, v_fixed) = (substep.h, substep.v_fixed.as_slice());
        let history = self.state.carried.history.as_ref().filter(|s| s.q.len() == q.len());
        let stage = match history.and_then(|s| bdf2_coefficients(h, s.h).map(|c| (c, s))) {
            Some(((c0, c1, h_eff), past)) => {
                let mut q_hat: Vec<f64> = q.iter().zip(&past.q).map(|(a, b)| c0 * a - c1 * b).collect();
                let v_hat = v.iter().zip(&past.v).map(|(a, b)| c0 * a - c1 * b).collect();
                self.pin_base(q, &mut q_hat, v_fixed, h - h_eff);
                StageInput { c: 1.0, q_hat, v_hat, h_eff, explicit: None, inertia: 1.0 }
            }
            None => StageInput { c: 1.0, q_hat: q.to_vec(), v_hat: v.to_vec(), h_eff: h, explicit: None, inertia: 1.0 },
        };
        self.solve_stage(q, v, &stage, substep, damping, false, work)
    }

    /// A diagonally implicit Runge–Kutta substep from (q, v) over `stages`; when a stage
    /// fails, the solves of the stages before it go into `work` as discarded.
    fn dirk_step(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        stages: &[DirkStage],
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let (h, v_fixed) = (substep.h, substep.v_fixed.as_slice());
        let mut velocities = vec![v.to_vec()];
        let start_force = needs_start_force(stages);
        let mut forces = vec![if start_force { self.start_force(q, v, substep, damping, work)? } else { Vec::new() }];
        let mut total = NewtonStats::default();
        let last = stages.len() - 1;
        for (s, st) in stages.iter().enumerate() {
            let h_eff = h * st.a[s + 1];
            let mut q_hat = q.to_vec();
            let mut explicit = None;
            for (j, &a) in st.a[..=s].iter().enumerate().filter(|(_, a)| **a != 0.0) {
                q_hat.iter_mut().zip(&velocities[j]).for_each(|(x, u)| *x += h * a * u);
                let e = explicit.get_or_insert_with(|| vec![0.0; q.len()]);
                e.iter_mut().zip(&forces[j]).for_each(|(x, f)| *x += h * a * f);
            }
            self.pin_base(q, &mut q_hat, v_fixed, st.c * h - h_eff);
            let input = StageInput { c: st.c, q_hat, v_hat: v.to_vec(), h_eff, explicit, inertia: 1.0 };
            let out = match self.solve_stage(q, v, &input, substep, damping, s < last, work) {
                Ok(o) => o,
                Err(e) => {
                    work.discarded(&total);
                    return Err(e);
                }
            };
            accumulate(&mut total, &out.stats);
            if s == last {
                return Ok(StageOutput { stats: total, ..out });
            }
            velocities.push(out.v);
            forces.push(out.force.unwrap_or_default());
        }
        Err(Error::Panic("an integrator without stages".into()).into())
    }
}
