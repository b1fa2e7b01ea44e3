//! Pairs of a simulated surface's primitives (edges or triangles) with a collider mesh's sharp
//! features (ridges or corners): the primitive pair penalty of `crate::contact::pair` (paper
//! Eq. 3 on the pair's gap), signed by the solid's side, with the feature's weight for its
//! sharpness in κ. The kinds [`super::mesh_ridge`] and [`super::mesh_corner`] say which features
//! each primitive meets ([`Features`]); [`FeaturePairs`] gathers, sums and differentiates the
//! pairs for both.
//!
//! The features are prescribed, so the pair's Jacobian is needed only in the primitive's own
//! block, which the surface's elements already hold: the pattern does not change, and the
//! exact Hessian takes 3N dual directions rather than 12 (`simulated_block`).
//!
//! Their friction is lagged (paper Eq. 25: normal force, contact normal and closest-point
//! weights frozen at the substep's start) whatever the coupling of the vertex contacts: a
//! pair's closest points jump between features as the cloth crosses a ridge or a corner, and
//! fully implicit, Newton stalled on the authors' tube-cloth scene at μ = 0.6 (and needed 45
//! iterations a substep at μ = 0.3, against 13 lagged).
//!
//! A full-weight feature that cuts a primitive is reported as the stage's deepest gap, so
//! the adaptive stiffness rises (paper §4.4); a weaker one (a smooth body's faceting) is not:
//! stiffening the whole contact for it made sphere-and-floor stall.
//!
//! Each primitive not wholly pinned is a gather unit tracking its vertices.

use super::stage::{ContactStage, MeshStage, SurfacePrimitives};
use super::{CandidateCache, ContactKind, Frozen, JacobianBlock, JacobianStage, StencilGap, Units};
use crate::contact::pair::PrimitivePair;
use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::autodiff::{self, project_psd};
use crate::math::real::{c, Real};
use nalgebra::{SMatrix, U12};
use num_dual::DualSVec64;
use rayon::prelude::*;
use std::marker::PhantomData;

/// The Jacobian of `f`, a function of a pair stencil's 12 coordinates, at `x`, in the S
/// coordinates from `first` (the simulated primitive's), zero elsewhere: the feature's
/// vertices are prescribed, so their rows and columns never enter the system.
pub(super) fn simulated_block<const S: usize, F>(f: F, x: &[f64; 12], first: usize) -> SMatrix<f64, 12, 12>
where
    F: Fn(&[DualSVec64<S>; 12]) -> [DualSVec64<S>; 12],
{
    let own: [f64; S] = std::array::from_fn(|i| x[first + i]);
    let block = autodiff::jacobian(
        |y: &[DualSVec64<S>; S]| {
            let full: [DualSVec64<S>; 12] =
                std::array::from_fn(|i| if (first..first + S).contains(&i) { y[i - first] } else { c(x[i]) });
            let out = f(&full);
            std::array::from_fn(|i| out[first + i])
        },
        &own,
    );
    let mut m = SMatrix::<f64, 12, 12>::zeros();
    m.fixed_view_mut::<S, S>(first, first).copy_from(&block);
    m
}

/// Which collider features a kind of simulated primitive of N vertices meets.
pub trait Features<const N: usize>: Send + Sync {
    /// The stencil slot of the primitive's first vertex; the feature's vertices fill the rest.
    const FIRST_SLOT: usize;
    /// The primitives and their μ against the mesh of `surface`.
    fn primitives(surface: &SurfacePrimitives) -> (&[[u32; N]], &[f64]);
    /// Whether `mesh` has any such feature at its stage.
    fn present(mesh: &super::stage::StageMesh) -> bool;
    /// The pairs of primitive `k` at positions `q` (m) whose signed gap is below `reach` (m).
    fn pairs_of(
        k: usize,
        meshes: &[super::stage::StageMesh],
        law: &ContactLaw,
        q: &[f64],
        reach: f64,
    ) -> Vec<PrimitivePair>;
}

/// The feature pairs of one stage, for primitives of N vertices (S = 3N coordinates).
pub struct FeaturePairs<F, const N: usize, const S: usize> {
    law: ContactLaw,
    stage: MeshStage,
    /// The primitive of each gather unit (those not wholly pinned).
    unit_primitives: Vec<u32>,
    kind: PhantomData<F>,
}

impl<F: Features<N>, const N: usize, const S: usize> FeaturePairs<F, N, S> {
    /// The pairs of `stage`'s collider meshes' features with the simulated primitives (the
    /// first mesh's list: every mesh holds the same primitives), `None` without a feature.
    pub fn of(stage: &ContactStage) -> Option<Self> {
        let meshes = stage.meshes.clone()?;
        let first = meshes.meshes.first()?;
        if !meshes.meshes.iter().any(F::present) {
            return None;
        }
        let fixed = stage.fixed;
        let unit_primitives = F::primitives(&first.surface)
            .0
            .iter()
            .enumerate()
            .filter(|(_, p)| p.iter().any(|&v| !fixed[v as usize]))
            .map(|(k, _)| k as u32)
            .collect();
        Some(Self { law: stage.law, stage: meshes, unit_primitives, kind: PhantomData })
    }

    fn primitives(&self) -> &[[u32; N]] {
        F::primitives(&self.stage.meshes[0].surface).0
    }

    /// The exact Hessian of pair `p` at `x` in the primitive's block.
    pub fn block_hessian(p: &PrimitivePair, x: &[f64; 12]) -> SMatrix<f64, 12, 12> {
        let mut h = simulated_block::<S, _>(|y| p.gradient(y), x, 3 * F::FIRST_SLOT);
        autodiff::symmetrize(&mut h);
        h
    }
}

impl<F: Features<N>, const N: usize, const S: usize> ContactKind for FeaturePairs<F, N, S> {
    type Stencil = PrimitivePair;
    type Vertices = [u32; 4];
    type Values<T: Real + Send + Sync> = [T; 12];
    type Block = SMatrix<f64, 12, 12>;
    type Weights = [f64; 4];

    fn law(&self) -> &ContactLaw {
        &self.law
    }

    fn units(&self) -> Units {
        let primitives = self.primitives();
        Units::each(self.unit_primitives.iter().map(|&k| primitives[k as usize]), self.stage.padding)
    }

    fn gather(&mut self, units: &[usize], q: &[f64]) -> Vec<Vec<PrimitivePair>> {
        let reach = self.law.delta + self.stage.padding;
        let (meshes, law) = (&self.stage.meshes, &self.law);
        units.par_iter().map(|&u| F::pairs_of(self.unit_primitives[u] as usize, meshes, law, q, reach)).collect()
    }

    /// Always lagged (see the module's documentation).
    fn lagged_friction(&self) -> bool {
        true
    }

    /// The friction of the pairs within δ at the substep's start `q_start` (m) (paper Eq. 25).
    /// A primitive whose vertices are within half the padding of where its candidates were
    /// gathered has all of them among its candidates; the others are gathered at `q_start`.
    fn lagged(&self, q_start: &[f64], candidates: &CandidateCache<PrimitivePair>) -> Vec<Frozen<Self>> {
        if !self.has_friction() {
            return Vec::new();
        }
        let (meshes, law) = (&self.stage.meshes, &self.law);
        let per_unit: Vec<Vec<Frozen<Self>>> = (0..self.unit_primitives.len())
            .into_par_iter()
            .map(|u| {
                let fresh;
                let pairs = if !candidates.moved(u, q_start) {
                    candidates.unit(u)
                } else {
                    fresh = F::pairs_of(self.unit_primitives[u] as usize, meshes, law, q_start, law.delta);
                    &fresh
                };
                pairs.iter().filter_map(|p| p.frozen_friction(&gather::<12>(&p.vertices, q_start))).collect()
            })
            .collect();
        per_unit.into_iter().flatten().collect()
    }

    fn has_friction(&self) -> bool {
        self.stage.meshes.iter().any(|m| F::primitives(&m.surface).1.iter().any(|&mu| mu > 0.0))
    }

    fn force<T: Real + Send + Sync>(&self, p: &PrimitivePair, q: &[T], _v: &[T]) -> Option<([u32; 4], [T; 12])> {
        let x: [T; 12] = std::array::from_fn(|i| q[3 * p.vertices[i / 3] as usize + i % 3]);
        Some((p.vertices, p.gradient(&x).map(|g| -g)))
    }

    fn energy(&self, p: &PrimitivePair, q: &[f64]) -> f64 {
        p.energy(&gather::<12>(&p.vertices, q))
    }

    /// h² ∇²W of pairs within δ: the exact Hessian needs only the primitive's block; the
    /// projection (definite) is of the whole stencil's, whose coupling to the feature's
    /// vertices makes the primitive's block stiffer than its own projection would (Newton on
    /// sphere-and-floor stalled with the latter).
    fn jacobian(&self, p: &PrimitivePair, stage: &JacobianStage, q: &[f64], _v: &[f64]) -> Option<JacobianBlock<Self>> {
        let x = gather::<12>(&p.vertices, q);
        (p.distance(&x) < p.law.delta).then(|| {
            let h = if stage.definite { project_psd(&p.hessian(&x)) } else { Self::block_hessian(p, &x) };
            (p.vertices, h, stage.h * stage.h)
        })
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block {
        f.jacobian(&self.law, v, U12)
    }

    fn freeze(&self, _p: &PrimitivePair, _q: &[f64]) -> Option<Frozen<Self>> {
        None
    }

    /// The gap of a pair with a full-weight feature, whose stiffness is the law's κ; a weaker
    /// feature, a smooth body's faceting, may give.
    fn gap(&self, p: &PrimitivePair, q: &[f64], _fixed: &[bool]) -> Option<StencilGap> {
        (p.law.kappa >= self.law.kappa)
            .then(|| StencilGap { gap: p.distance(&gather::<12>(&p.vertices, q)), active: false })
    }

    fn reports_gaps(&self) -> bool {
        true
    }
}

/// Test scenes of the feature kinds: the contact law, and a stage of one prism mesh.
#[cfg(test)]
pub(super) mod testing {
    use super::super::stage::{ContactStage, MeshStage, StageMesh};
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
    use crate::contact::ContactLaw;
    use std::sync::Arc;

    /// κ = 10⁴ N/m², δ = 5 mm, ε = 1 mm/s.
    pub fn law() -> ContactLaw {
        ContactLaw {
            kappa: 1e4,
            delta: 0.005,
            epsilon: 1e-3,
            smoothing: FrictionSmoothing::Quadratic,
            coupling: FrictionCoupling::Implicit,
        }
    }

    /// A stage of `meshes`, `fixed` vertices, the substep starting at `q_start`, padding 1 mm.
    pub fn stage<'a>(meshes: Vec<StageMesh>, fixed: &'a [bool], q_start: &'a [f64]) -> ContactStage<'a> {
        ContactStage {
            law: law(),
            fixed,
            q_start,
            colliders: None,
            meshes: Some(MeshStage { meshes: Arc::new(meshes), queries: Arc::new(Vec::new()), padding: 0.001 }),
            surfaces: None,
            self_contact: None,
        }
    }
}
