//! The list of the implicit stage's terms, in the order they are summed (residual, merit and
//! Jacobian alike). Adding a term is one line here: a field name, a type implementing [`Term`]
//! and how to build it: from the model and the step's damping matrices (elastic energies,
//! damping, volume penalties), or, for a contact kind, from the stage's contact inputs
//! ([`ContactStage`]; the kind's `of` gives `None` where the stage has none of it). The stage
//! then includes it in every sum, and the integrators never name it. The order is fixed, so
//! results do not depend on which terms are present or on the thread count.

use super::contact::collider_vertex::ColliderVertices;
use super::contact::mesh_corner::MeshCorners;
use super::contact::mesh_ridge::MeshRidges;
use super::contact::mesh_vertex::MeshVertices;
use super::contact::self_pairs::SelfPairs;
use super::contact::stage::ContactStage;
use super::contact::surface_query::SurfaceQueries;
use super::contact::ContactTerm;
use super::element_terms::{DampingMatrices, DampingTerm, ElementSlots, ElementTerm};
use super::term::{StageContext, Term};
use super::volume_terms::VolumeTerms;
use crate::energy::dihedral_bending::BendingHinge;
use crate::energy::membrane::MembraneTriangle;
use crate::energy::stable_neo_hookean::NeoHookeanTet;
use crate::energy::target_spring::TargetSpring;
use crate::math::real::Real;

/// Declares [`Terms`]: one optional field per term, its construction, and the sums over the
/// terms present (the model's terms first, then the contacts'). `($model, $damping, $contacts,
/// $guess)` name the construction's inputs; a contact term names its kind, whose `of` builds it from
/// the stage's contacts.
macro_rules! stage_terms {
    (
        ($model:ident, $damping:ident, $contacts:ident, $guess:ident)
        model { $($(#[$mdoc:meta])* $mname:ident: $mty:ty = $build:expr;)* }
        contact { $($(#[$cdoc:meta])* $cname:ident: $kind:ty;)* }
    ) => {
        stage_terms!(@sums
            ($model, $damping, $contacts, $guess)
            [$($(#[$mdoc])* $mname: $mty = Some($build);)*
             $($(#[$cdoc])* $cname: ContactTerm<$kind> =
                <$kind>::of($contacts).map(|kind| ContactTerm::new(kind, $contacts.q_start, $guess));)*]
        );
    };
    (@sums ($model:ident, $damping:ident, $contacts:ident, $guess:ident) [$($(#[$doc:meta])* $name:ident: $ty:ty = $build:expr;)*]) => {
        /// Every term of one implicit stage (`None` where the stage has none of that kind).
        pub struct Terms<'a> {
            $($(#[$doc])* pub $name: Option<$ty>,)*
        }

        impl<'a> Terms<'a> {
            /// The terms of a stage: the model's elastic energies, volume penalties and the
            /// damping of the step (its matrices `damping`), and the contacts of `contacts`,
            /// their candidates gathered around Newton's guess `q_guess` (m).
            pub fn new(
                $model: &'a crate::model::Model,
                $damping: &'a DampingMatrices,
                $contacts: &ContactStage<'a>,
                $guess: &[f64],
            ) -> Self {
                Self { $($name: $build,)* }
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

            /// [`Term::add_jacobian`] of every term, in order; returns the blocks left out.
            pub fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
                let mut dropped = 0;
                $(if let Some(t) = self.$name.as_mut() { dropped += t.add_jacobian(stage, q, v, jac); })*
                dropped
            }

            /// The smallest gap (m) and the active contacts at `q` over the terms that report
            /// gaps ([`Term::gaps`]); `None` without any.
            pub fn gaps(&mut self, q: &[f64], fixed: &[bool]) -> Option<(f64, u32)> {
                let mut out: Option<(f64, u32)> = None;
                $(if let Some(g) = self.$name.as_mut().and_then(|t| t.gaps(q, fixed)) {
                    out = Some(out.map_or(g, |o| (o.0.min(g.0), o.1 + g.1)));
                })*
                out
            }

            /// The smallest [`Term::closest_shell_pair`] over the terms.
            pub fn closest_shell_pair(&mut self, q: &[f64]) -> Option<f64> {
                let mut out: Option<f64> = None;
                $(if let Some(d) = self.$name.as_mut().and_then(|t| t.closest_shell_pair(q)) {
                    out = Some(out.map_or(d, |o| o.min(d)));
                })*
                out
            }

            /// Σ [`Term::intersections`] over the terms that count them; `None` without any.
            pub fn intersections(&self, q: &[f64]) -> Option<usize> {
                let mut out: Option<usize> = None;
                $(if let Some(n) = self.$name.as_ref().and_then(|t| t.intersections(q)) {
                    out = Some(out.unwrap_or(0) + n);
                })*
                out
            }

            /// Every term's [`Term::stencils`].
            pub fn stencils(&self) -> Vec<Vec<u32>> {
                let mut out = Vec::new();
                $(if let Some(t) = self.$name.as_ref() { out.extend(t.stencils()); })*
                out
            }

            /// Σ [`Term::seconds_search`] (s).
            pub fn seconds_search(&self) -> f64 {
                let mut out = 0.0;
                $(if let Some(t) = self.$name.as_ref() { out += t.seconds_search(); })*
                out
            }

            /// Whether any term's contacts can have friction ([`Term::has_friction`]).
            pub fn has_friction(&self) -> bool {
                false $(|| self.$name.as_ref().is_some_and(|t| t.has_friction()))*
            }

            /// Every term's [`Term::low_rank`] parts at `q` (m), with `scale` on their factors.
            pub fn low_rank(&self, q: &[f64], scale: f64, fixed: &[bool]) -> Vec<(f64, Vec<f64>)> {
                let mut out = Vec::new();
                $(if let Some(t) = self.$name.as_ref() { out.extend(t.low_rank(q, scale, fixed)); })*
                out
            }
        }
    };
}

stage_terms! {
    (model, damping, contacts, q_guess)
    model {
        /// Stable neo-Hookean tets (paper §3.1).
        tets: ElementTerm<'a, NeoHookeanTet, 12> = ElementTerm::new(&model.tets.elements, ElementSlots::Tets);
        /// Shell membranes.
        membranes: ElementTerm<'a, MembraneTriangle, 9> =
            ElementTerm::new(&model.membranes.elements, ElementSlots::Membranes);
        /// Shell dihedral bending.
        hinges: ElementTerm<'a, BendingHinge, 12> = ElementTerm::new(&model.hinges.elements, ElementSlots::Hinges);
        /// Soft pins: springs from vertices to their anchors.
        soft_pins: ElementTerm<'a, TargetSpring, 3> = ElementTerm::new(&model.soft_pins, ElementSlots::Lookup);
        /// Volume-change penalties (paper §3.4).
        volume: VolumeTerms<'a> = VolumeTerms { penalties: &model.volumes };
        /// Rayleigh stiffness damping of the tets.
        tet_damping: DampingTerm<'a, NeoHookeanTet, 12> =
            DampingTerm::new(&model.tets.elements, &damping.tets, ElementSlots::Tets);
        /// Rayleigh stiffness damping of the membranes.
        membrane_damping: DampingTerm<'a, MembraneTriangle, 9> =
            DampingTerm::new(&model.membranes.elements, &damping.membranes, ElementSlots::Membranes);
        /// Rayleigh stiffness damping of the hinges.
        hinge_damping: DampingTerm<'a, BendingHinge, 12> =
            DampingTerm::new(&model.hinges.elements, &damping.hinges, ElementSlots::Hinges);
    }
    contact {
        /// Contact and friction of vertices against analytic colliders (paper Eq. 3, 16).
        colliders: ColliderVertices<'a>;
        /// Contact and friction of vertices against collider meshes by the exact distance.
        collider_meshes: MeshVertices;
        /// Simulated surfaces' edges against collider meshes' sharp ridges.
        collider_ridges: MeshRidges;
        /// Simulated surfaces' triangles against collider meshes' sharp corners.
        collider_corners: MeshCorners;
        /// Contact and friction between deforming meshes through implicit surfaces (paper §3.2).
        surfaces: SurfaceQueries<'a>;
        /// Self-contact of the shells, and shells against solids, with friction.
        self_contact: SelfPairs<'a>;
    }
}
