//! The retry rules of one substep: split in two halves when Newton fails (paper §4.2: singular
//! Jacobians "can often be eliminated by decreasing the time step"), up to
//! `params.max_substep_halvings` times; and (paper §4.4, and its extension to self-contact, see
//! `self_contact`) redone with a stiffer collider κ while it ends with a
//! negative gap, with a stiffer κ_s while it ends with new intersections of shells or after
//! Newton stalled with shells touching, and with a stiffer κ_b while it ends with new crossings
//! of shells and solids' faces. A substep that still fails after its last halving fails the
//! call, or, under `FailurePolicy::Continue`, is taken by the failsafe's fallbacks
//! (`super::fallback`).
//!
//! The retry loop is the one writer of the report over a call's substeps: each attempt's own
//! work (failed Newton solves, seconds of contact search and pattern building) comes back with
//! it (`super::work`) and is folded in here, with the halvings, the retries and the accepted
//! substeps.

use super::call::{Call, RECOVERY_HALVINGS};
use super::newton_stage::MAX_CONTACT_STIFFNESS;
use super::report::Warnings;
use super::stages::{StageFailure, Substep};
use crate::contact::self_contact::contact_mesh::Crossings;
use crate::error::{Error, Result};
use crate::integrate::schemes::StepHistory;
use crate::model::params::Integrator;

impl Call<'_> {
    /// How many times a substep may be halved: `params.max_substep_halvings`, and
    /// [`RECOVERY_HALVINGS`] more in a call that started inside a collider.
    fn halvings(&self) -> u32 {
        let extra = if self.state.recovery_call { RECOVERY_HALVINGS } else { 0 };
        self.ctx.params.max_substep_halvings + extra
    }

    /// Integrates `(q, v)` over fractions `[f0, f1]` of the call, `h` seconds, halving on failure;
    /// a substep that still fails after the last halving falls back to cheaper, more robust
    /// steps when the call may (`super::fallback`). On error `(q, v)` are unspecified (the
    /// caller discards them).
    pub fn interval(&mut self, q: &mut Vec<f64>, v: &mut Vec<f64>, f0: f64, f1: f64, h: f64, depth: u32) -> Result<()> {
        match self.try_substep(q, v, f0, f1, h) {
            Err(Error::NotConverged(_)) if depth < self.halvings() => {
                self.out.report.substep_halvings += 1;
                self.out.report.warnings |= Warnings::SUBSTEP_HALVED;
                let mid = 0.5 * (f0 + f1);
                self.interval(q, v, f0, mid, 0.5 * h, depth + 1)?;
                self.interval(q, v, mid, f1, 0.5 * h, depth + 1)
            }
            Err(Error::NotConverged(m)) => {
                let m =
                    format!("{m} (substep of h = {h:.3e} s at {:.1}% of the call, after {depth} halvings)", 100.0 * f0);
                if self.state.fallbacks {
                    self.fall_back(q, v, f0, f1, h, m)
                } else {
                    Err(Error::NotConverged(m))
                }
            }
            other => other,
        }
    }

    /// One substep, redone with a stiffer κ while it ends with a negative gap, with a stiffer
    /// self-contact κ_s while it ends with more intersecting shell triangles than it started
    /// with (then it fails, to be halved; see `self_contact`), and with a stiffer shell–solid
    /// κ_b while it ends with more shell triangles crossing solids' faces (then it stands).
    pub(crate) fn try_substep(&mut self, q: &mut Vec<f64>, v: &mut Vec<f64>, f0: f64, f1: f64, h: f64) -> Result<()> {
        let substep = Substep { f0, f1, h, v_fixed: self.pin_velocities(q, f1, h) };
        let mut retries = 0;
        // κ_b's retries have their own budget, so they never use up the others'.
        let mut solid_retries = 0;
        let crossed_before = self.state.self_contact.as_ref().map_or(Crossings::default(), |s| s.crossings_at_start(q));
        // Where this substep's last failed solve was worst, if one fails.
        self.state.failure_site = None;
        loop {
            let law = self.state.contact_law;
            let (outcome, work) = self.substep_by_scheme(q, v, &substep);
            self.out.report.add_work(&work);
            if work.failure_site.is_some() {
                self.state.failure_site = work.failure_site;
            }
            // The failsafe's last fallback takes its answer as it comes: no stiffer retries.
            let may_retry = !self.state.best_iterate;
            let step = match outcome {
                Ok(step) => step,
                Err(StageFailure { error: Error::NotConverged(m), closest_pair, .. }) => {
                    // Newton stalls where a pair reached d ≈ 0 (the unsigned distance's kink, which
                    // its line search may not cross): a stiffer κ_s keeps the shells apart.
                    let touching = match (self.state.self_contact.as_ref(), closest_pair) {
                        (Some(sc), Some(d)) => sc.touching(d),
                        _ => false,
                    };
                    if touching && may_retry && retries < self.ctx.params.max_contact_retries {
                        if let Some(sc) = self.state.self_contact.as_mut() {
                            if !sc.stiffen() {
                                return Err(Error::NotConverged(m));
                            }
                            retries += 1;
                            self.out.report.contact_retries += 1;
                            self.out.report.warnings |= Warnings::CONTACT_RETRY;
                            log::debug!(
                                "substep of {h:.3e} s redone: Newton failed with the shells touching, self-contact stiffness now {:.3e}",
                                sc.law.kappa
                            );
                            continue;
                        }
                    }
                    return Err(Error::NotConverged(m));
                }
                Err(failure) => return Err(failure.error),
            };
            let mut crossed_after = None;
            if let Some(sc) = self.state.self_contact.as_mut() {
                let crossed = sc.crossings(&step.q);
                crossed_after = Some(crossed);
                if crossed.shells > crossed_before.shells && !may_retry {
                    self.out.report.warnings |= Warnings::PENETRATION_REMAINS;
                    log::warn!(
                        "substep of {h:.3e} s kept at its best iterate: the shells intersect in {} triangle pairs ({} before)",
                        crossed.shells,
                        crossed_before.shells
                    );
                } else if crossed.shells > crossed_before.shells {
                    self.out.report.add_failed_attempt(&step.stats);
                    if retries >= self.ctx.params.max_contact_retries || !sc.stiffen() {
                        return Err(Error::NotConverged(format!(
                            "the shells intersect in {} triangle pairs after the substep ({} before)",
                            crossed.shells, crossed_before.shells
                        )));
                    }
                    retries += 1;
                    self.out.report.contact_retries += 1;
                    self.out.report.warnings |= Warnings::CONTACT_RETRY;
                    continue;
                }
                // New crossings of shells and solids' faces: the signed pairs push back out but
                // were too weak for the forces on them (§4.4's rule on κ_b). Past the last
                // retry the substep stands (with a warning), and the signed pairs keep pushing.
                if crossed.with_solids > crossed_before.with_solids {
                    if !may_retry || solid_retries >= self.ctx.params.max_contact_retries || !sc.stiffen_solid() {
                        self.out.report.warnings |= Warnings::PENETRATION_REMAINS;
                        log::warn!(
                            "substep of {h:.3e} s kept: shells cross solids' faces in {} pairs ({} before) at κ_b {:.3e}",
                            crossed.with_solids,
                            crossed_before.with_solids,
                            sc.solid.kappa
                        );
                    } else {
                        self.out.report.add_failed_attempt(&step.stats);
                        solid_retries += 1;
                        self.out.report.contact_retries += 1;
                        self.out.report.warnings |= Warnings::CONTACT_RETRY;
                        log::debug!(
                            "substep of {h:.3e} s redone: shells cross solids' faces in {} pairs ({} before), κ_b now {:.3e}",
                            crossed.with_solids,
                            crossed_before.with_solids,
                            sc.solid.kappa
                        );
                        continue;
                    }
                }
            }
            match step.gaps {
                // The linearized methods see only the contacts of the step's start: a stiffer κ
                // does not stop a vertex that meets the surface within the step. The substep is
                // taken again by backward Euler, as after a start inside a collider.
                Some((deepest, _)) if deepest < 0.0 && may_retry && self.linearized_step() => {
                    self.out.report.add_failed_attempt(&step.stats);
                    self.state.recovering = true;
                    log::debug!("substep of {h:.3e} s ended {:.3e} m inside: taken by backward Euler", -deepest);
                }
                Some((deepest, _)) if deepest < 0.0 && may_retry && retries < self.ctx.params.max_contact_retries => {
                    retries += 1;
                    self.out.report.contact_retries += 1;
                    self.out.report.warnings |= Warnings::CONTACT_RETRY;
                    self.out.report.add_failed_attempt(&step.stats);
                    self.state.contact_law.kappa = law.stiffer(deepest).min(MAX_CONTACT_STIFFNESS);
                    log::debug!(
                        "substep of {h:.3e} s redone: deepest gap {deepest:.3e} m, contact stiffness now {:.3e}",
                        self.state.contact_law.kappa
                    );
                }
                _ => {
                    let (deepest, active) = step.gaps.unwrap_or((f64::INFINITY, 0));
                    self.state.recovering = deepest < 0.0;
                    self.out.report.deepest_gap = deepest;
                    self.out.report.active_contacts = active;
                    self.out.report.add_substep(&step.stats);
                    self.out.report.simulated_time += h;
                    self.state.carried.acceleration = match step.acceleration {
                        Some(a) => a,
                        None => step.v.iter().zip(v.iter()).map(|(a, b)| (a - b) / h).collect(),
                    };
                    if self.ctx.params.integrator == Integrator::Bdf2 {
                        self.state.carried.history =
                            Some(StepHistory { q: std::mem::take(q), v: std::mem::take(v), h });
                    }
                    *q = step.q;
                    *v = step.v;
                    if let Some(sc) = self.state.self_contact.as_mut() {
                        sc.crossed = crossed_after;
                    }
                    return Ok(());
                }
            }
        }
    }
}
