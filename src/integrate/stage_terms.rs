//! The one place a stage's terms are built (`Call::stage_terms`): the model's terms and
//! every contact kind's, from the call's colliders, collider meshes, deforming surfaces and
//! self-contact over the stage ([`ContactStage`]). Newton's stages, the explicit force at a
//! step's start, the linearized integrators and the gap check at a step's end all take their
//! terms from here, so none of them names a term.

use super::call::Call;
use super::work::AttemptWork;
use crate::assemble::contact::stage::{ColliderStage, ContactStage};
use crate::assemble::terms::Terms;
use crate::assemble::DampingMatrices;

/// Where the colliders are over a stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ColliderSpan {
    /// Moving over fractions [f0, f1] of the call, in the given seconds.
    Moving {
        /// Fraction of the call at the stage's start.
        f0: f64,
        /// Fraction of the call at the stage's end.
        f1: f64,
        /// The stage's length (s).
        seconds: f64,
    },
    /// Frozen at their poses at fraction `f0` of the call, moving with the velocity of the
    /// substep [f0, f1] of `seconds` (the force at a step's start).
    AtStart {
        /// Fraction of the call at the substep's start.
        f0: f64,
        /// Fraction of the call at the substep's end.
        f1: f64,
        /// The substep's length (s).
        seconds: f64,
    },
}

/// What a stage's terms are built for.
pub(crate) struct StageSpec<'s> {
    /// Positions at the substep's start (m): lagged friction is frozen there, collider meshes
    /// start there.
    pub q_start: &'s [f64],
    /// The colliders' span.
    pub colliders: ColliderSpan,
    /// Collider meshes end the stage at `mesh_base + mesh_h · v_pin` (m, s).
    pub mesh_base: &'s [f64],
    /// See `mesh_base`.
    pub mesh_h: f64,
    /// Prescribed velocities of pinned vertices (m/s).
    pub v_fixed: &'s [f64],
    /// Whether the stage has contacts (SIERE's modes are the elastic body's alone).
    pub contacts: bool,
}

impl<'a> Call<'a> {
    /// The terms of one stage as `spec` says, with the step's `damping` and the contacts'
    /// candidates gathered around Newton's guess `q_guess` (m); staging the collider meshes
    /// counts in `work` as contact search.
    pub(crate) fn stage_terms<'s>(
        &mut self,
        spec: &StageSpec<'s>,
        damping: &'s DampingMatrices,
        q_guess: &[f64],
        work: &mut AttemptWork,
    ) -> Terms<'s>
    where
        'a: 's,
    {
        let contacts = if spec.contacts {
            self.contact_stage(spec, work)
        } else {
            ContactStage::none(self.state.contact_law, self.ctx.pinned, spec.q_start)
        };
        Terms::new(self.ctx.model, damping, &contacts, q_guess)
    }

    /// The contact inputs of the stage `spec` describes.
    fn contact_stage<'s>(&mut self, spec: &StageSpec<'s>, work: &mut AttemptWork) -> ContactStage<'s>
    where
        'a: 's,
    {
        let meshes = self.collider_mesh_stage(spec.q_start, spec.mesh_base, spec.mesh_h, spec.v_fixed, work);
        let colliders = &self.ctx.colliders;
        let motions = match spec.colliders {
            ColliderSpan::Moving { f0, f1, seconds } => colliders.motions(f0, f1, seconds),
            ColliderSpan::AtStart { f0, f1, seconds } => {
                colliders.motions(f0, f1, seconds).iter().map(|m| m.at_start()).collect()
            }
        };
        ContactStage {
            law: self.state.contact_law,
            fixed: self.ctx.pinned,
            q_start: spec.q_start,
            colliders: Some(ColliderStage { motions, pairs: colliders.pairs }),
            meshes,
            surfaces: Some(self.ctx.surfaces),
            self_contact: self.state.self_contact.as_ref().map(|s| s.stage()),
        }
    }
}
