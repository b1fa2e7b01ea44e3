//! What one attempt at a substep did besides the solve it returns (`AttemptWork`): Newton
//! solves that failed, solves that led to the answer without being it, and the seconds spent
//! building system patterns and finding contacts. The levels below the retry loop (the
//! schemes' stages, Newton on a stage, its friction continuation, the contact staging) record
//! it as they go; the retry loop (`retries`), the one writer of the report over a call's
//! substeps, folds it in (and keeps where a failed solve was worst for the failsafe).

use super::fallback_report::FailureSite;
use super::report::StepReport;
use crate::solve::NewtonStats;

/// Work that counts in the report but not as a completed substep.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SpentSolve {
    /// A Newton solve that failed: a failed attempt, with its reason.
    Failed(NewtonStats),
    /// Solves whose result is not the substep's answer: the earlier stages of a chain that
    /// failed at a later one, the friction continuation's lead-in.
    Discarded(NewtonStats),
}

/// The work of one attempt at a substep beyond the statistics of the solve it returns.
#[derive(Debug, Default)]
pub(crate) struct AttemptWork {
    /// Spent solves, in the order they ended (the report keeps the last failure's reason).
    solves: Vec<SpentSolve>,
    /// Seconds building system patterns and their linear solvers (s).
    pub seconds_layout: f64,
    /// Seconds finding contact candidates and staging the collider meshes (s).
    pub seconds_contact_search: f64,
    /// Where the last failed Newton solve was worst, when the call may fall back
    /// (`CallState::fallbacks`).
    pub failure_site: Option<FailureSite>,
}

impl AttemptWork {
    /// Records a Newton solve that failed with `stats.failure`.
    pub(crate) fn failed(&mut self, stats: &NewtonStats) {
        self.solves.push(SpentSolve::Failed(*stats));
    }

    /// Records solves whose result is not the substep's answer.
    pub(crate) fn discarded(&mut self, stats: &NewtonStats) {
        self.solves.push(SpentSolve::Discarded(*stats));
    }
}

impl StepReport {
    /// Folds in the work of one attempt at a substep (see `AttemptWork`).
    pub(crate) fn add_work(&mut self, work: &AttemptWork) {
        for solve in &work.solves {
            match solve {
                SpentSolve::Failed(s) => self.add_failed_newton(s),
                SpentSolve::Discarded(s) => self.add_failed_attempt(s),
            }
        }
        self.seconds_factorization += work.seconds_layout;
        self.seconds_contact_search += work.seconds_contact_search;
    }
}
