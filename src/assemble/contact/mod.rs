//! Contact in the implicit stage: every kind of contact is a set of stencils, and one generic
//! term ([`ContactTerm`]) sums any kind into the stage's residual, merit and Jacobian.
//!
//! A kind ([`ContactKind`]) says how its candidate stencils are gathered (units of tracked
//! vertices, gathered again when one moved more than half the search padding: the one
//! [`CandidateCache`]), and what each stencil gives: its vertices, its force over [`Real`] (the
//! residual in `f64`, matrix-free Jacobian products in dual numbers), its penalty energy, its
//! block of the Jacobian, its friction frozen for the merit function, its gap. Friction lagged at
//! the substep's start (paper Eq. 25) is a list of [`FrozenFriction`] stencils the term keeps
//! beside the kind's own. The kinds:
//!
//! - [`collider_vertex`]: a vertex against an analytic collider (paper Eq. 3, 16);
//! - [`mesh_vertex`]: a vertex against a collider mesh by the exact distance (both
//!   [`vertex_contacts`]: a vertex against a kinematic surface's gap field);
//! - [`mesh_ridge`], [`mesh_corner`]: a simulated surface's edge against a collider mesh's sharp
//!   ridge, its triangle against a sharp corner;
//! - [`self_pairs`]: the shells' vertex–triangle and edge–edge pairs, and shells against solids;
//! - [`surface_query`]: a vertex against a deforming body's implicit surface (paper §3.2).
//!
//! A new kind is one file implementing [`ContactKind`] plus one line in
//! `crate::assemble::terms`.

pub mod cache;
pub mod collider_vertex;
pub mod mesh_corner;
pub mod mesh_features;
pub mod mesh_ridge;
pub mod mesh_vertex;
pub mod self_pairs;
pub mod stage;
pub mod surface_query;
pub mod term;
pub mod vertex_contacts;

pub use cache::{CandidateCache, Units};
pub use term::ContactTerm;

use crate::assemble::scatter::StencilMatrix;
use crate::contact::friction::{FrozenFriction, StencilBuffer};
use crate::contact::ContactLaw;
use crate::math::real::Real;

/// What a stencil's Jacobian block sees of the stage.
#[derive(Clone, Copy)]
pub struct JacobianStage<'a> {
    /// Base positions q̂ (m): the stage's positions are q = q̂ + h v.
    pub q_base: &'a [f64],
    /// Effective step h (s).
    pub h: f64,
    /// Per vertex: velocity prescribed (pinned).
    pub fixed: &'a [bool],
    /// Positive semi-definite (or held-frame) stand-ins for the exact blocks: Newton's modified
    /// Jacobian far from the solution.
    pub definite: bool,
}

/// One stencil's gap for the stage's gap summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StencilGap {
    /// The gap (m); negative inside.
    pub gap: f64,
    /// Whether the stencil counts as an active contact (within its contact thickness).
    pub active: bool,
}

/// A stencil's part of the stage Jacobian: its vertices, a matrix over their coordinates, and
/// the factor on it (J += factor · matrix; the factor is kept apart so that the matrix is
/// scaled once, as it is added).
pub type JacobianBlock<K> = (<K as ContactKind>::Vertices, <K as ContactKind>::Block, f64);

/// The friction of one stencil of kind `K` with its frame frozen.
pub type Frozen<K> = FrozenFriction<<K as ContactKind>::Vertices, <K as ContactKind>::Weights>;

/// One kind of contact as a set of stencils.
pub trait ContactKind: Send + Sync {
    /// A candidate contact: what evaluating it needs (its vertices among them).
    type Stencil: Send + Sync;
    /// The global vertices of an evaluated stencil: `[u32; N]`, or `Vec<u32>` for stencils of
    /// varying size.
    type Vertices: AsRef<[u32]> + Clone + Send + Sync;
    /// Values on a stencil's coordinates, 3 per vertex (its forces).
    type Values<T: Real + Send + Sync>: StencilBuffer<T> + Send + Sync;
    /// A stencil's dense Jacobian block over its coordinates.
    type Block: StencilMatrix + Send + Sync;
    /// Frozen friction's slot weights: `[f64; N]` or `Vec<f64>`.
    type Weights: AsRef<[f64]> + Clone + Send + Sync;
    /// Whether the kind's stencils couple vertices that the elements' blocks do not (they must
    /// then be in the Jacobian's pattern, [`ContactKind::coupling`]).
    const COUPLES: bool = false;

    /// The law of the kind's friction (ε, smoothing and coupling; κ and δ of its penalty).
    fn law(&self) -> &ContactLaw;

    /// The units its candidates are gathered in, each with the vertices whose motion makes it
    /// stale, and the search padding (m): a unit is gathered again when one of its vertices
    /// moved more than half the padding from where it was gathered.
    fn units(&self) -> Units;

    /// The stencils of each unit of `units` (increasing) at positions `q` (m).
    fn gather(&mut self, units: &[usize], q: &[f64]) -> Vec<Vec<Self::Stencil>>;

    /// Whether the kind's friction is lagged (frozen at the substep's start, paper Eq. 25) rather
    /// than part of its stencils' forces.
    fn lagged_friction(&self) -> bool {
        self.law().coupling == crate::contact::FrictionCoupling::Lagged
    }

    /// The μ (dimensionless) a stencil's own force carries for a contact of coefficient `mu`: 0
    /// when the kind's friction is lagged, which the term's frozen stencils then carry.
    fn stencil_mu(&self, mu: f64) -> f64 {
        if self.lagged_friction() {
            0.0
        } else {
            mu
        }
    }

    /// With lagged friction, the friction of every contact at the substep's start `q_start` (m),
    /// those with μ = 0 or no normal force left out; `candidates` are those gathered for the
    /// stage.
    fn lagged(&self, q_start: &[f64], candidates: &CandidateCache<Self::Stencil>) -> Vec<Frozen<Self>>;

    /// Whether any of its contacts can have friction (μ > 0).
    fn has_friction(&self) -> bool;

    /// The stencil's vertices and force (N, 3 per vertex; contact and, when not lagged, friction)
    /// at positions `q` (m) and velocities `v` (m/s), over any [`Real`]; `None` when it exerts none.
    fn force<T: Real + Send + Sync>(
        &self,
        stencil: &Self::Stencil,
        q: &[T],
        v: &[T],
    ) -> Option<(Self::Vertices, Self::Values<T>)>;

    /// The stencil's penalty energy (J) at positions `q` (m).
    fn energy(&self, stencil: &Self::Stencil, q: &[f64]) -> f64;

    /// The stencil's block of the stage Jacobian J = ∂r/∂v (N·s/m: −h dF/dv along
    /// q = q̂ + h v, i.e. h² ∇²W − h dF_friction/dv) at `q`, `v`; `None` when it has none.
    fn jacobian(
        &self,
        stencil: &Self::Stencil,
        stage: &JacobianStage,
        q: &[f64],
        v: &[f64],
    ) -> Option<JacobianBlock<Self>>;

    /// dF/dv (N·s/m) of frozen friction `f` of this kind at velocities `v` (m/s), over its
    /// stencil ([`FrozenFriction::jacobian`]).
    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block;

    /// The stencil's friction frozen at `q` (m) for the merit function (implicit coupling); `None`
    /// without friction there.
    fn freeze(&self, stencil: &Self::Stencil, q: &[f64]) -> Option<Frozen<Self>>;

    /// The stencil's gap at `q` (m) for the gap summary (`fixed` vertices per vertex); `None`
    /// when it does not count.
    fn gap(&self, _stencil: &Self::Stencil, _q: &[f64], _fixed: &[bool]) -> Option<StencilGap> {
        None
    }

    /// Whether the kind reports gaps (then an empty summary is +∞ and no active contact).
    fn reports_gaps(&self) -> bool {
        false
    }

    /// The stencil's distance (m) if it is a pair of shells, whose unsigned distance's kink at
    /// 0 the touching retry is for.
    fn shell_distance(&self, _stencil: &Self::Stencil, _q: &[f64]) -> Option<f64> {
        None
    }

    /// The triangle pairs of shells intersecting at `q` (m) that the kind acts on, if it counts them.
    fn intersections(&self, _q: &[f64]) -> Option<usize> {
        None
    }

    /// The vertices whose blocks the stencil couples (with [`ContactKind::COUPLES`]).
    fn coupling(&self, _stencil: &Self::Stencil) -> Vec<u32> {
        Vec::new()
    }
}

/// Vertex `v`'s three coordinates in a flat array `q`.
pub(crate) fn position<T: Copy>(q: &[T], v: u32) -> [T; 3] {
    let i = 3 * v as usize;
    [q[i], q[i + 1], q[i + 2]]
}
