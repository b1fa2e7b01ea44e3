//! Friction-smoothing continuation: the fallback of a stage whose Newton solve failed, before
//! the substep is halved.
//!
//! The smoothed Coulomb law turns from sticking to sliding over slip velocities of about ε
//! (paper Eq. 14, 15), so Newton's quadratic model of the friction holds over velocity changes of
//! about ε only. When a contact must go from rest to sticking on a moving surface in one step
//! (plates that start lifting a pinched block: their speed is 30 ε in the first step of
//! `analytic::Pinch`), the exact Newton step overshoots by orders of magnitude and damping
//! cannot recover. Solving the stage again with 10 ε, and then with ε from that solution, keeps
//! each solve closer to its model's reach; only the last solve (the laws as set) is the stage's
//! answer. Every friction law of the call takes the scaled ε: contact with colliders, collider
//! meshes and deforming surfaces, and the shells' self-contact. The continuation comes before
//! halving because a shorter step does not shorten the stick onset: the plates' speed, not the
//! step, sets it.

use super::call::Call;
use super::stages::accumulate;
use super::stages::{StageFailure, StageInput, StageOutput, Substep};
use super::work::AttemptWork;
use crate::assemble::DampingMatrices;
use crate::error::Error;
use crate::solve::NewtonStats;

/// The multiples of the friction smoothing velocity ε solved in turn after a failure: one rung
/// above ε reaches a stick onset tens of ε away, and every further rung costs a solve on each
/// failure that friction did not cause.
pub(crate) const EPSILON_SCALES: [f64; 2] = [10.0, 1.0];

impl Call<'_> {
    /// Newton on one implicit stage (see `newton_on_stage`), and after a failure to converge,
    /// when any contact has friction, the continuation over [`EPSILON_SCALES`]. The work of the
    /// solves at larger ε goes into `work` as discarded, like a failed attempt's; a
    /// continuation that fails too returns the first failure (or the cancellation, when the
    /// host cancelled it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn solve_stage(
        &mut self,
        q: &[f64],
        v: &[f64],
        stage: &StageInput,
        substep: &Substep,
        damping: &DampingMatrices,
        want_force: bool,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let failure = match self.newton_on_stage(q, v, stage, substep, damping, want_force, None, work) {
            Err(failure)
                if matches!(failure.error, Error::NotConverged(_))
                    && failure.has_friction
                    && !self.semi_implicit_stages() =>
            {
                failure
            }
            other => return other,
        };
        let epsilon = self.friction_epsilons();
        let mut start = None;
        // The solves at the larger ε lead to the answer without being it: their work is
        // discarded work, like a failed attempt's.
        let mut lead_in = NewtonStats::default();
        let mut outcome = Err(failure);
        for scale in EPSILON_SCALES {
            self.set_friction_epsilons(epsilon.map(|e| e * scale));
            match self.newton_on_stage(q, v, stage, substep, damping, want_force, start.take(), work) {
                Ok(out) if scale != 1.0 => {
                    accumulate(&mut lead_in, &out.stats);
                    start = Some(out.v);
                }
                Ok(out) => {
                    log::debug!("stage solved by continuation over the friction smoothing");
                    outcome = Ok(out);
                }
                Err(f) => {
                    log::debug!("continuation failed at friction smoothing ε × {scale}");
                    if matches!(f.error, Error::Cancelled(_)) {
                        outcome = Err(f);
                    }
                    break;
                }
            }
        }
        self.set_friction_epsilons(epsilon);
        work.discarded(&lead_in);
        outcome
    }

    /// The stick–slip velocities ε (m/s) of the call's friction laws: contact with colliders,
    /// collider meshes and surfaces; with self-contact, the shells' and the shell–solid pairs'.
    fn friction_epsilons(&self) -> [f64; 3] {
        let own = self.state.contact_law.epsilon;
        match self.state.self_contact.as_ref() {
            Some(sc) => [own, sc.law.epsilon, sc.solid.epsilon],
            None => [own; 3],
        }
    }

    /// Sets the friction laws' ε (m/s) in the order of `friction_epsilons`.
    fn set_friction_epsilons(&mut self, [own, shells, solids]: [f64; 3]) {
        self.state.contact_law.epsilon = own;
        if let Some(sc) = self.state.self_contact.as_mut() {
            (sc.law.epsilon, sc.solid.epsilon) = (shells, solids);
        }
    }
}
