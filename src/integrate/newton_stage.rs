//! Newton on one implicit stage of a substep: the pins' prescribed velocities, Newton's
//! initial guess (see `guess`), the system layout kept covering the contacts, and the solve
//! with its contact terms. Failed solves and the seconds of contact search and of pattern
//! building go into the attempt's `AttemptWork`, for the retry loop to report.

use super::call::Call;
use super::carried::LayoutCouplings;
use super::fallback_report::{worst_vertex, FailureSite};
use super::guess::{lowest_potential_guess, with_pins};
use super::stage_terms::{ColliderSpan, StageSpec};
use super::stages::{StageFailure, StageInput, StageOutput, Substep};
use super::work::AttemptWork;
use crate::assemble::SystemLayout;
use crate::assemble::{DampingMatrices, ImplicitStage};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::solve::newton::LinearSystem;
use crate::solve::{newton, NonlinearSystem};
use std::sync::Arc;
use std::time::Instant;

impl Call<'_> {
    /// Prescribed velocities of pinned vertices: reach `q_begin + (target − q_begin) f1` in `h`.
    pub(crate) fn pin_velocities(&self, q: &[f64], f1: f64, h: f64) -> Vec<f64> {
        let mut v_fixed = vec![0.0; q.len()];
        for (i, _) in self.ctx.pinned.iter().enumerate().filter(|(_, p)| **p) {
            for k in 0..3 {
                let d = 3 * i + k;
                let goal = match self.ctx.target[i] {
                    Some(t) => self.ctx.q_begin[d] + (t[k] - self.ctx.q_begin[d]) * f1,
                    None => self.ctx.q_begin[d],
                };
                v_fixed[d] = (goal - q[d]) / h;
            }
        }
        v_fixed
    }

    /// Makes the system layout cover the model and the contact `stencils`, rebuilding the
    /// pattern and its symbolic LU when a coupling is missing, and noting what it was built
    /// from (the seconds go into `work`).
    pub(crate) fn ensure_layout(&mut self, stencils: &[Vec<u32>], work: &mut AttemptWork) -> Result<()> {
        let system = &mut self.state.carried.system;
        if system.as_ref().is_some_and(|(layout, _)| layout.covers(stencils)) {
            return Ok(());
        }
        let t = Instant::now();
        let layout = SystemLayout::new(self.ctx.model, stencils);
        let couplings = LayoutCouplings::of(&layout);
        let previous = system.take().map(|(_, linear)| linear);
        let linear = layout.linear_solver(self.ctx.params, previous)?;
        log::debug!(
            "system pattern rebuilt: {} stored entries, {} contact stencils",
            layout.pattern.nnz(),
            stencils.len()
        );
        *system = Some((Arc::new(layout), linear));
        self.state.carried.layout = Some(Arc::new(couplings));
        work.seconds_layout += t.elapsed().as_secs_f64();
        Ok(())
    }

    /// Newton on one implicit stage from the step's start `q` (contact lagging, pin goals) with
    /// base `q_hat`, `v_hat`, effective step `h_eff` and explicit momentum `explicit`; the
    /// colliders move over fractions [f0, f0 + c (f1 − f0)] of the call, c h seconds, of
    /// `substep`, from Newton's own guess (see `guess`) or from `start` (m/s). Returns the
    /// stage's end state, Newton's statistics, the gap summary at the end and, when
    /// `want_force`, the force there; failed solves (the returned failure's included) and the
    /// seconds of contact search and pattern building go into `work`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn newton_on_stage(
        &mut self,
        q: &[f64],
        v: &[f64],
        stage: &StageInput,
        substep: &Substep,
        damping: &DampingMatrices,
        want_force: bool,
        start: Option<Vec<f64>>,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let (f0, f1, h, v_fixed) = (substep.f0, substep.f1, substep.h, substep.v_fixed.as_slice());
        let fc = if stage.c == 1.0 { f1 } else { f0 + stage.c * (f1 - f0) };
        let spec = StageSpec {
            q_start: q,
            colliders: ColliderSpan::Moving { f0, f1: fc, seconds: stage.c * h },
            mesh_base: &stage.q_hat,
            mesh_h: stage.h_eff,
            v_fixed,
            contacts: true,
        };
        let given = start.is_some();
        // The semi-implicit variant linearizes at the start-of-step velocities (Baraff–Witkin).
        let semi_implicit = self.semi_implicit_stages();
        let mut v_new = match start {
            Some(start) => start,
            None if semi_implicit => with_pins(self.ctx.pinned, v.to_vec(), v_fixed),
            None => self.predict(v, v_fixed, stage.c * h),
        };
        let mut guess_intersections = None;
        let self_contact_on = self.state.self_contact.is_some();
        if let Some(sc) = self.state.self_contact.as_ref().filter(|_| !semi_implicit) {
            let (guess, count) = self.untangled_guess(sc, v_new, v, v_fixed, stage);
            v_new = guess;
            guess_intersections = Some(count);
        }
        let q_guess: Vec<f64> = stage.q_hat.iter().zip(&v_new).map(|(x, u)| x + stage.h_eff * u).collect();
        // Newton once with the pattern of the contacts found at the guess; if it fails after
        // leaving out Jacobian blocks of contacts found later (iterates that moved beyond the
        // search padding), once more from its last iterate with the pattern extended by the
        // contacts there: a Jacobian missing blocks slows Newton to a crawl near the solution.
        let mut q_search = q_guess;
        let mut extra_stencils: Vec<Vec<u32>> = Vec::new();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let terms = self.stage_terms(&spec, damping, &q_search, work);
            let mut stencils = terms.stencils();
            stencils.extend(extra_stencils.iter().cloned());
            self.ensure_layout(&stencils, work)?;
            let (layout, solver) =
                self.state.carried.system.as_mut().ok_or_else(|| Error::Panic("no system layout".into()))?;
            let mut system = ImplicitStage::new(
                self.ctx.model,
                layout,
                &stage.q_hat,
                &stage.v_hat,
                stage.h_eff,
                self.ctx.params.gravity,
                self.ctx.pinned,
                v_fixed,
                terms,
            )
            .with_explicit(stage.explicit.as_deref())
            .with_inertia(stage.inertia);
            if let Some(count) = guess_intersections.take() {
                system = system.with_known_intersections(v_new.clone(), count);
            }
            let max_it = self.ctx.settings.max_iterations as f64;
            let progress = &mut self.out.progress;
            let mut on_iteration = |k: u32| match progress.as_mut() {
                Some(cb) => cb(f0 + (f1 - f0) * (k as f64 / max_it).min(1.0)),
                None => false,
            };
            // Tolerances stay relative to the residual of the unpredicted guess (start-of-step velocities).
            let mut settings = self.ctx.settings;
            settings.end_at_best = self.state.best_iterate;
            let v_plain = with_pins(self.ctx.pinned, v.to_vec(), v_fixed);
            let mut r_plain = vec![0.0; v.len()];
            system.residual(&v_plain, &mut r_plain);
            settings.reference_residual = r_plain.iter().map(|x| x * x).sum::<f64>().sqrt();
            // With self-contact the (untangled) prediction stands: a shorter guess found a lower
            // potential but left the twisted-cylinder's shells where the line search, which never
            // adds intersections, stalled far from the solution.
            if attempt == 1 && !given && !semi_implicit && v_new != v_plain && !self_contact_on {
                let (guess, theta) = lowest_potential_guess(&mut system, &v_plain, std::mem::take(&mut v_new));
                if theta < 1.0 {
                    log::debug!("Newton's guess: the predicted velocity change scaled by {theta} (lower potential)");
                }
                v_new = guess;
            }
            let mut linear = LinearSystem { solver, pattern: &layout.pattern, diagonal: &layout.diagonal_slots };
            let outcome = if semi_implicit {
                newton::semi_implicit_step(&mut system, &mut linear, &mut v_new)
            } else {
                newton::solve(&mut system, &mut linear, &mut v_new, &settings, &mut on_iteration)
            };
            work.seconds_contact_search += system.terms.seconds_search();
            if system.dropped_blocks > 0 {
                log::debug!("{} contact Jacobian blocks outside the pattern were left out", system.dropped_blocks);
            }
            if let Err((e, stats)) = &outcome {
                let cancelled = matches!(e, Error::Cancelled(_));
                if attempt == 1
                    && !semi_implicit
                    && system.dropped_blocks > 0
                    && !cancelled
                    && v_new.iter().all(|x| x.is_finite())
                {
                    log::debug!(
                        "stage failed ({e}); again from its last iterate with the contacts found there in the pattern"
                    );
                    work.failed(stats);
                    extra_stencils = stencils;
                    q_search = system.positions(&v_new);
                    continue;
                }
            }
            return match outcome {
                Ok(o) => {
                    let q_new = system.positions(&v_new);
                    let gaps = system.terms.gaps(&q_new, self.ctx.pinned);
                    let force = want_force.then(|| system.force(&q_new, &v_new));
                    Ok(StageOutput { q: q_new, v: v_new, stats: o.stats, gaps, force, acceleration: None })
                }
                Err((e, stats)) if self.state.best_iterate && best_is_usable(&e, &stats, &v_new) => {
                    // The failsafe's last fallback: the best iterate (`NewtonSettings::end_at_best`)
                    // is the stage's answer.
                    log::debug!("stage of {:.3e} s ends at its best iterate: {e}", stage.c * h);
                    let q_new = system.positions(&v_new);
                    let gaps = system.terms.gaps(&q_new, self.ctx.pinned);
                    let force = want_force.then(|| system.force(&q_new, &v_new));
                    Ok(StageOutput { q: q_new, v: v_new, stats, gaps, force, acceleration: None })
                }
                Err((e, stats)) => {
                    if self.state.fallbacks && !matches!(e, Error::Cancelled(_)) {
                        work.failure_site = failure_site(self.ctx.model, self.ctx.pinned, &mut system, &v_new, q);
                    }
                    // How close the shells came at the last iterate: the substep is redone
                    // with a stiffer κ_s when they touched (`try_substep`).
                    let q_last = system.positions(&v_new);
                    let closest_pair = system.terms.closest_shell_pair(&q_last);
                    log::debug!(
                        "stage of {:.3e} s failed after {} Newton iterations: {e}",
                        stage.c * h,
                        stats.iterations
                    );
                    work.failed(&stats);
                    Err(StageFailure { error: e, closest_pair, has_friction: system.terms.has_friction() })
                }
            };
        }
    }
}

/// Whether a failed solve's end (`v`, with `NewtonSettings::end_at_best` its best iterate)
/// may stand as the failsafe's answer: not cancelled, with a finite residual and velocities.
fn best_is_usable(e: &Error, stats: &crate::solve::NewtonStats, v: &[f64]) -> bool {
    !matches!(e, Error::Cancelled(_)) && stats.residual.is_finite() && v.iter().all(|x| x.is_finite())
}

/// Where a failed solve of `system` was worst at its end `v` (m/s): the free vertex of `model`
/// (`pinned` per vertex) with the largest residual per unit mass, placed at the substep's start
/// `q` (m).
fn failure_site(
    model: &Model,
    pinned: &[bool],
    system: &mut ImplicitStage,
    v: &[f64],
    q: &[f64],
) -> Option<FailureSite> {
    let mut r = vec![0.0; v.len()];
    system.residual(v, &mut r);
    FailureSite::of_vertex(model, worst_vertex(&r, &model.mass, pinned)?, q)
}

/// Ceiling on the adaptive contact stiffness (N/m²) (beyond it the Jacobian is numerically singular).
pub(crate) const MAX_CONTACT_STIFFNESS: f64 = 1e30;
