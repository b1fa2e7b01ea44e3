//! The substeps of one call from the state it starts with ([`CallStart`]) and a working copy of
//! the carried state: the call's context and state are built here, so that a call can be taken
//! a second time from the same start (with collider meshes meeting vertices only, after
//! vertices were moved out of one).

use super::{ProgressFn, Solver, StepReport};
use crate::assemble::contact::collider_vertex::ContactPair;
use crate::assemble::contact::stage::SurfaceStage;
use crate::contact::surface::{ImplicitSurface, Kernel};
use crate::contact::ContactLaw;
use crate::error::Result;
use crate::integrate::call::{Call, CallContext, CallEnd, CallOutput, CallState, CollidersOverCall};
use crate::integrate::carried::CarriedState;
use crate::integrate::collider_meshes::ColliderMeshesOverCall;
use crate::integrate::self_contact::{self as self_contact, SelfContactOverCall};
use crate::model::{FailurePolicy, SurfaceQuery};

/// What every attempt at a call starts from.
pub(super) struct CallStart {
    /// Every (contact vertex, analytic collider) pair.
    pub pairs: Vec<ContactPair>,
    /// The deforming implicit surfaces and the vertices that can meet them.
    pub surfaces: Vec<ImplicitSurface>,
    /// The (vertex, surface) queries.
    pub queries: Vec<SurfaceQuery>,
    /// The surfaces' kernel.
    pub kernel: Kernel,
    /// Candidate search padding of the surfaces (m).
    pub padding: f64,
    /// Contact stiffness κ at the start (N/m²).
    pub kappa: f64,
    /// Collider meshes are met by exact distance.
    pub exact_meshes: bool,
    /// Positions (m) after vertices inside colliders were moved out.
    pub q: Vec<f64>,
    /// Velocities (m/s), their components into those colliders removed.
    pub v: Vec<f64>,
    /// A free vertex started inside a collider or a mesh: the call is taken by backward Euler.
    pub inside: bool,
    /// Vertices that started inside a collider mesh were moved out of it.
    pub out_of_meshes: bool,
}

impl Solver {
    /// The call's `substeps` from `start`, working on `carried` (the call's copy of the carried
    /// state, which it leaves as the call ended, successful or not); with `vertices_only`,
    /// collider meshes meet only the contact vertices (not the edges and triangles between
    /// them).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn substeps(
        &self,
        start: &CallStart,
        vertices_only: bool,
        carried: &mut CarriedState,
        substeps: usize,
        h: f64,
        progress: Option<&mut ProgressFn>,
        report: &mut StepReport,
    ) -> Result<CallEnd> {
        let collider_meshes = start
            .exact_meshes
            .then(|| ColliderMeshesOverCall::new(&self.model, self.params.contact_thickness))
            .flatten()
            .map(|mut m| {
                m.vertices_only = vertices_only;
                m
            });
        let self_mesh = self_contact::mesh(&self.model, &self.params);
        let self_over = self_mesh.as_ref().map(|m| {
            let kappa_s = carried
                .self_contact_stiffness
                .unwrap_or_else(|| self_contact::initial_stiffness(&self.model, m, &self.params));
            let delta_min = self_contact::smallest_thickness(&self.model, &self.params);
            let law = ContactLaw { delta: delta_min, ..self.params.self_contact_law(kappa_s) };
            SelfContactOverCall {
                mesh: m,
                law,
                solid: self_contact::solid(law, carried.shell_solid_stiffness),
                padding: self_contact::padding(m, m.max_delta),
                crossed: None,
            }
        });
        // A call whose vertices were moved out of a collider mesh is first taken without
        // fallbacks: when it fails it is taken again with the meshes meeting vertices only
        // (`Solver::run_on_pool`), the remedy made for it, and with the fallbacks.
        let fallbacks =
            self.params.failure_policy == FailurePolicy::Continue && (vertices_only || !start.out_of_meshes);
        let Solver { params, model, pinned, target, collider_pose, collider_target, .. } = self;
        let ctx = CallContext {
            model,
            params,
            settings: params.newton_settings(),
            pinned,
            target,
            q_begin: &start.q,
            colliders: CollidersOverCall {
                shapes: model.colliders.iter().map(|c| c.shape).collect(),
                poses: collider_pose,
                targets: collider_target,
                pairs: &start.pairs,
            },
            surfaces: SurfaceStage {
                surfaces: &start.surfaces,
                queries: &start.queries,
                kernel: start.kernel,
                padding: start.padding,
            },
        };
        let state = CallState {
            carried,
            contact_law: params.contact_law(start.kappa),
            self_contact: self_over,
            collider_meshes,
            recovering: start.inside,
            recovery_call: start.inside,
            modal_basis: None,
            fallbacks,
            best_iterate: false,
            failure_site: None,
        };
        Call { ctx, state, out: CallOutput { progress, report } }.run(&start.v, substeps, h)
    }
}
