//! A substep taken without friction, the failsafe's second fallback (`super::fallback`): the
//! call's contacts with μ = 0 for that substep alone.
//!
//! The friction coefficients live in the call's inputs: the (vertex, collider) pairs and the
//! (vertex, surface) queries the call borrows, the collider meshes' queries and surface
//! primitives it owns, and the self-contact mesh it borrows. `Call::without_friction` runs a
//! closure on a call over copies of these with every μ zero, moving the changing state (the
//! carried state, the laws and their stiffnesses, the collider meshes' search trees, SIERE's
//! modes) through and back, so that what the closure changes stays changed for the rest of the
//! call, as after any other substep.

use super::call::{Call, CallContext, CallOutput, CallState, CollidersOverCall};
use super::self_contact::SelfContactOverCall;
use crate::assemble::contact::collider_vertex::ContactPair;
use crate::assemble::contact::stage::SurfaceStage;
use crate::contact::self_contact::contact_mesh::SelfContactMesh;
use crate::model::SurfaceQuery;

impl Call<'_> {
    /// Whether any potential contact of the call has friction (μ > 0): a collider pair, a
    /// surface query, a collider-mesh contact or a self-contact pair of objects.
    pub(crate) fn has_friction(&self) -> bool {
        let pairs = self.ctx.colliders.pairs.iter().any(|p| p.mu > 0.0);
        let queries = self.ctx.surfaces.queries.iter().any(|q| q.mu > 0.0);
        let meshes = self.state.collider_meshes.as_ref().is_some_and(|m| m.has_friction());
        let shells = self.state.self_contact.as_ref().is_some_and(|sc| sc.mesh.mu.iter().any(|&mu| mu > 0.0));
        pairs || queries || meshes || shells
    }

    /// Runs `f` on this call with μ = 0 for every contact (see the module documentation);
    /// what `f` changes of the call's state and report stays.
    pub(crate) fn without_friction<R>(&mut self, f: impl FnOnce(&mut Call<'_>) -> R) -> R {
        let ctx = &self.ctx;
        let pairs: Vec<ContactPair> = ctx
            .colliders
            .pairs
            .iter()
            .map(|&ContactPair { vertex, collider, mu: _ }| ContactPair { vertex, collider, mu: 0.0 })
            .collect();
        let queries: Vec<SurfaceQuery> = ctx.surfaces.queries.iter().map(|q| SurfaceQuery { mu: 0.0, ..*q }).collect();
        let shell_mesh: Option<SelfContactMesh> = self
            .state
            .self_contact
            .as_ref()
            .map(|sc| SelfContactMesh { mu: vec![0.0; sc.mesh.mu.len()], ..sc.mesh.clone() });
        let mut meshes = self.state.collider_meshes.take();
        let mesh_friction = meshes.as_mut().map(|m| m.remove_friction());
        let self_contact = match (self.state.self_contact.as_ref(), shell_mesh.as_ref()) {
            (Some(sc), Some(mesh)) => Some(SelfContactOverCall {
                mesh,
                law: sc.law,
                solid: sc.solid,
                padding: sc.padding,
                crossed: sc.crossed,
            }),
            _ => None,
        };
        let mut call = Call {
            ctx: CallContext {
                model: ctx.model,
                params: ctx.params,
                settings: ctx.settings,
                pinned: ctx.pinned,
                target: ctx.target,
                q_begin: ctx.q_begin,
                colliders: CollidersOverCall {
                    shapes: ctx.colliders.shapes.clone(),
                    poses: ctx.colliders.poses,
                    targets: ctx.colliders.targets,
                    pairs: &pairs,
                },
                surfaces: SurfaceStage { queries: &queries, ..ctx.surfaces },
            },
            state: CallState {
                carried: &mut *self.state.carried,
                contact_law: self.state.contact_law,
                self_contact,
                collider_meshes: meshes,
                recovering: self.state.recovering,
                recovery_call: self.state.recovery_call,
                modal_basis: self.state.modal_basis.take(),
                fallbacks: self.state.fallbacks,
                best_iterate: self.state.best_iterate,
                failure_site: self.state.failure_site,
            },
            out: CallOutput { progress: self.out.progress.as_deref_mut(), report: &mut *self.out.report },
        };
        let result = f(&mut call);
        let CallState { contact_law, self_contact, mut collider_meshes, recovering, modal_basis, failure_site, .. } =
            call.state;
        if let (Some(m), Some(saved)) = (collider_meshes.as_mut(), mesh_friction) {
            m.restore_friction(saved);
        }
        self.state.contact_law = contact_law;
        if let (Some(sc), Some(after)) = (self.state.self_contact.as_mut(), self_contact) {
            (sc.law, sc.solid, sc.crossed) = (after.law, after.solid, after.crossed);
        }
        self.state.collider_meshes = collider_meshes;
        self.state.recovering = recovering;
        self.state.modal_basis = modal_basis;
        self.state.failure_site = failure_site;
        result
    }
}
