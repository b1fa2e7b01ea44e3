//! One step/advance call as a pipeline, in the manner of rapier's `pipeline/`: what the call
//! holds fixed (`CallContext`: the model, parameters, pins and their goals, the colliders'
//! paths, the deforming surfaces), what changes as it goes (`CallState`: its working copy of
//! the state carried from call to call, `super::carried`, and the contact laws in use), and
//! where it reports (`CallOutput`). `Call::run` takes the substeps in order; each goes
//! `retries` (halving, stiffer κ) → `stages` (one substep by the integrator's scheme, a chain
//! of stages) → `newton_stage` (Newton on one stage), and nothing calls back up. Only the
//! retry loop writes the report: the levels below it record what they did in the attempt's
//! `super::work::AttemptWork`, which `stages::substep_by_scheme` hands back to it.

use super::carried::CarriedState;
use super::collider_meshes::ColliderMeshesOverCall;
use super::fallback_report::FailureSite;
use super::self_contact::SelfContactOverCall;
use super::warnings;
use super::{ProgressFn, StepReport};
use crate::assemble::contact::collider_vertex::ContactPair;
use crate::assemble::contact::stage::SurfaceStage;
use crate::contact::collider::vertex::ColliderMotion;
use crate::contact::{ContactLaw, Pose, Shape};
use crate::error::{Error, Result};
use crate::model::{Model, SolverParams};
use crate::solve::modal_basis::ModalBasis;
use crate::solve::NewtonSettings;

/// The colliders over a call: shapes, poses at its start, host targets for its end, and the
/// potential contacts.
pub(crate) struct CollidersOverCall<'a> {
    /// Shape of each collider.
    pub shapes: Vec<Shape>,
    /// Pose of each collider at the start of the call.
    pub poses: &'a [Pose],
    /// Pose of each collider at the end of the call, if the host moved it.
    pub targets: &'a [Option<Pose>],
    /// Every (contact vertex, collider) pair.
    pub pairs: &'a [ContactPair],
}

impl CollidersOverCall<'_> {
    fn pose(&self, i: usize, f: f64) -> Pose {
        match &self.targets[i] {
            Some(t) => self.poses[i].interpolate(t, f),
            None => self.poses[i],
        }
    }

    /// Collider `i` standing at its pose at fraction `f` of the call.
    pub(crate) fn motion_at(&self, i: usize, f: f64) -> ColliderMotion {
        let pose = self.pose(i, f);
        ColliderMotion::new(self.shapes[i], pose, pose, 1.0)
    }

    /// Each collider's motion over fractions [f0, f1] of the call, `h` seconds.
    pub(crate) fn motions(&self, f0: f64, f1: f64, h: f64) -> Vec<ColliderMotion> {
        (0..self.shapes.len())
            .map(|i| ColliderMotion::new(self.shapes[i], self.pose(i, f0), self.pose(i, f1), h))
            .collect()
    }
}

/// What a call holds fixed.
pub(crate) struct CallContext<'a> {
    /// What is simulated.
    pub model: &'a Model,
    /// The solver's parameters.
    pub params: &'a SolverParams,
    /// Newton's settings from `params`.
    pub settings: NewtonSettings,
    /// Per vertex: hard-pinned.
    pub pinned: &'a [bool],
    /// Where pinned vertices must be at the end of the call (m).
    pub target: &'a [Option<[f64; 3]>],
    /// Positions at the start of the call (m): pin goals interpolate from here.
    pub q_begin: &'a [f64],
    /// The colliders' paths and the pairs that can touch them.
    pub colliders: CollidersOverCall<'a>,
    /// The deforming surfaces and the pairs that can touch them.
    pub surfaces: SurfaceStage<'a>,
}

/// What changes as a call goes.
pub(crate) struct CallState<'a> {
    /// The call's working copy of the state carried from call to call: its system layout
    /// (rebuilt when contacts couple vertices it lacks), the acceleration and BDF2's history
    /// (updated with every accepted substep); the stiffnesses in use are those of the laws
    /// below until the call ends.
    pub carried: &'a mut CarriedState,
    /// The law of collider and surface contact; `kappa` is the stiffness in use (raised on
    /// retries, paper §4.4).
    pub contact_law: ContactLaw,
    /// Self-contact of the shells with its laws, if on.
    pub self_contact: Option<SelfContactOverCall<'a>>,
    /// The collider meshes met by exact distance and their search trees, if any.
    pub collider_meshes: Option<ColliderMeshesOverCall>,
    /// The next substep starts with a vertex inside a collider or a mesh: it is taken by
    /// backward Euler, whatever the integrator, since the others use the force at the start of
    /// the step explicitly and the penalty there is far beyond the contact thickness's.
    pub recovering: bool,
    /// The call started inside a collider or a mesh (`super::separation`): every substep is
    /// taken by backward Euler and may be halved [`RECOVERY_HALVINGS`] more times than
    /// `params.max_substep_halvings`, since the separated state holds elastic energy far beyond
    /// a step's usual.
    pub recovery_call: bool,
    /// SIERE's lowest modes, computed at its first substep of the call and kept for the rest.
    pub modal_basis: Option<ModalBasis>,
    /// A substep that still fails after its last halving falls back to cheaper, more robust
    /// steps (`super::fallback`; `FailurePolicy::Continue`) instead of failing the call.
    pub fallbacks: bool,
    /// The substep being taken is the failsafe's last fallback: Newton ends at its best iterate,
    /// which is accepted when finite, and no retry raises a contact stiffness.
    pub best_iterate: bool,
    /// Where the last failed Newton solve was worst (recorded only with `fallbacks`), for the
    /// report of the fallback that follows it.
    pub failure_site: Option<FailureSite>,
}

/// Where a call reports.
pub(crate) struct CallOutput<'a> {
    /// The host's progress callback, if any.
    pub progress: Option<&'a mut ProgressFn>,
    /// Statistics and warnings of the call, written over its substeps by the retry loop alone.
    pub report: &'a mut StepReport,
}

/// Extra halvings a substep of a call that started inside a collider may take (to h/64 with the
/// default 4): a cloth half swallowed by a sphere needs 2 beyond the default, and each more
/// multiplies what a call that cannot recover spends before it fails.
///
/// cbindgen:ignore
pub const RECOVERY_HALVINGS: u32 = 2;

/// One step/advance call: its context, its state and its output.
pub(crate) struct Call<'a> {
    /// Fixed over the call.
    pub ctx: CallContext<'a>,
    /// Changed by every accepted (or retried) substep.
    pub state: CallState<'a>,
    /// Where the substeps report.
    pub out: CallOutput<'a>,
}

/// Where a call ends, for the solver to commit when it succeeded (with the carried state the
/// call worked on).
pub(crate) struct CallEnd {
    /// Positions (m).
    pub q: Vec<f64>,
    /// Velocities (m/s).
    pub v: Vec<f64>,
    /// A pinned vertex is inside a collider at the end (`Warnings::PINNED_IN_COLLIDER`).
    pub pinned_in_collider: bool,
}

impl Call<'_> {
    /// Integrates from the call's start (`ctx.q_begin`, velocities `v`) over `substeps` equal
    /// substeps of `h` seconds, scanning each one's end for pinches (`super::pinch_report`) and
    /// reporting progress after each; fails on the first substep that fails after its retries,
    /// on a pinch under `FailurePolicy::Strict`, or when the progress callback cancels. On success the carried
    /// state holds the stiffnesses the call ended with.
    pub(crate) fn run(mut self, v: &[f64], substeps: usize, h: f64) -> Result<CallEnd> {
        let (mut q, mut v) = (self.ctx.q_begin.to_vec(), v.to_vec());
        for s in 0..substeps {
            let (f0, f1) = (s as f64 / substeps as f64, (s + 1) as f64 / substeps as f64);
            self.interval(&mut q, &mut v, f0, f1, h, 0)?;
            self.check_pinch(&q, f1)?;
            if let Some(cb) = self.out.progress.as_mut() {
                if cb(f1) {
                    return Err(Error::Cancelled("cancelled by the progress callback".into()));
                }
            }
        }
        let c = &self.ctx.colliders;
        let end_poses: Vec<Pose> = c.poses.iter().zip(c.targets).map(|(p, t)| t.unwrap_or(*p)).collect();
        let pinned = self.ctx.pinned;
        let pinned_in_collider =
            warnings::collider_gaps(&c.shapes, &end_poses, c.pairs, &q, |v| pinned[v as usize]).1 > 0;
        let state = self.state;
        state.carried.contact_stiffness = Some(state.contact_law.kappa);
        if let Some(sc) = &state.self_contact {
            state.carried.self_contact_stiffness = Some(sc.law.kappa);
            state.carried.shell_solid_stiffness = Some(sc.solid.kappa);
        }
        Ok(CallEnd { q, v, pinned_in_collider })
    }
}
