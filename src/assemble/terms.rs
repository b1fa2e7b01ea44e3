//! The list of the implicit stage's terms, in the order they are summed (residual, merit and
//! Jacobian alike). Adding a term is one line here: a field name, a type implementing [`Term`]
//! and, for terms the model alone defines, how to build it from the model, the layout and the
//! damping matrices (contact terms, which depend on the substep, are set by the substep). The
//! stage then includes it in every sum. The order is fixed, so results do not depend on which
//! terms are present or on the thread count.

use super::contact_terms::ColliderContact;
use super::element_terms::{DampingMatrices, DampingTerm, ElementTerm};
use super::layout::SystemLayout;
use super::mesh_contact_terms::MeshContactTerms;
use super::self_contact_terms::SelfContactTerms;
use super::surface_terms::SurfaceTerms;
use super::term::{StageContext, Term};
use super::volume_terms::VolumeTerms;
use crate::energy::dihedral_bending::BendingHinge;
use crate::energy::membrane::MembraneTriangle;
use crate::energy::stable_neo_hookean::NeoHookeanTet;
use crate::energy::target_spring::TargetSpring;
use crate::math::real::Real;
use crate::model::Model;

/// `Some(term)` for a term built from the model, `None` for one the substep sets.
macro_rules! model_term {
    () => {
        None
    };
    ($build:expr) => {
        Some($build)
    };
}

/// Declares [`Terms`]: one optional field per term, its construction from the model, and the
/// sums over the terms present. `($model, $layout, $damping)` name the construction's inputs.
macro_rules! stage_terms {
    (($model:ident, $layout:ident, $damping:ident) $($(#[$doc:meta])* $name:ident: $ty:ty $(= $build:expr)?,)*) => {
        /// Every term of one implicit stage (`None` where the stage has none of that kind).
        #[derive(Default)]
        pub struct Terms<'a> {
            $($(#[$doc])* pub $name: Option<$ty>,)*
        }

        impl<'a> Terms<'a> {
            /// The terms the model defines (elastic energies, damping, volume penalties), with
            /// their blocks at the layout's slots and the damping matrices of the step; no contact.
            pub fn of_model($model: &'a Model, $layout: &'a SystemLayout, $damping: &'a DampingMatrices) -> Self {
                Self { $($name: model_term!($($build)?),)* }
            }

            /// [`Term::refresh`] of every term.
            pub fn refresh(&mut self, q: &[f64]) {
                $(if let Some(t) = self.$name.as_mut() { t.refresh(q); })*
            }

            /// [`Term::add_negative_force`] of every term, in order.
            pub fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
                $(if let Some(t) = self.$name.as_ref() { t.add_negative_force(q, v, scale, out); })*
            }

            /// Σ [`Term::merit`] over the terms, in order (J).
            pub fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
                let mut phi = 0.0;
                $(if let Some(t) = self.$name.as_mut() { phi += t.merit(stage, q, v); })*
                phi
            }

            /// [`Term::freeze_friction`] of every term.
            pub fn freeze_friction(&mut self, q: &[f64]) {
                $(if let Some(t) = self.$name.as_mut() { t.freeze_friction(q); })*
            }

            /// [`Term::set_definite`] of every term.
            pub fn set_definite(&mut self, definite: bool) {
                $(if let Some(t) = self.$name.as_mut() { t.set_definite(definite); })*
            }

            /// [`Term::add_jacobian`] of every term, in order; returns the blocks left out.
            pub fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
                let mut dropped = 0;
                $(if let Some(t) = self.$name.as_mut() { dropped += t.add_jacobian(stage, q, v, jac); })*
                dropped
            }
        }
    };
}

stage_terms! {
    (model, layout, damping)
    /// Stable neo-Hookean tets (paper §3.1).
    tets: ElementTerm<'a, NeoHookeanTet, 12> = ElementTerm::new(&model.tets.elements, Some(&layout.tet_slots)),
    /// Shell membranes.
    membranes: ElementTerm<'a, MembraneTriangle, 9> =
        ElementTerm::new(&model.membranes.elements, Some(&layout.membrane_slots)),
    /// Shell dihedral bending.
    hinges: ElementTerm<'a, BendingHinge, 12> = ElementTerm::new(&model.hinges.elements, Some(&layout.hinge_slots)),
    /// Soft pins: springs from vertices to their anchors.
    soft_pins: ElementTerm<'a, TargetSpring, 3> = ElementTerm::new(&model.soft_pins, None),
    /// Volume-change penalties (paper §3.4).
    volume: VolumeTerms<'a> = VolumeTerms { penalties: &model.volumes },
    /// Rayleigh stiffness damping of the tets.
    tet_damping: DampingTerm<'a, NeoHookeanTet, 12> =
        DampingTerm::new(&model.tets.elements, &damping.tets, Some(&layout.tet_slots)),
    /// Rayleigh stiffness damping of the membranes.
    membrane_damping: DampingTerm<'a, MembraneTriangle, 9> =
        DampingTerm::new(&model.membranes.elements, &damping.membranes, Some(&layout.membrane_slots)),
    /// Rayleigh stiffness damping of the hinges.
    hinge_damping: DampingTerm<'a, BendingHinge, 12> =
        DampingTerm::new(&model.hinges.elements, &damping.hinges, Some(&layout.hinge_slots)),
    /// Contact and friction against analytic colliders (paper Eq. 3, 16).
    colliders: ColliderContact<'a>,
    /// Contact and friction against collider meshes by the exact distance to their triangles.
    collider_meshes: MeshContactTerms<'a>,
    /// Contact and friction between deforming meshes through implicit surfaces (paper §3.2).
    surfaces: SurfaceTerms<'a>,
    /// Self-contact of the shells, with friction.
    self_contact: SelfContactTerms<'a>,
}
