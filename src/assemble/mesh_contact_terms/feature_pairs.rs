//! Pairs of a simulated surface's primitives (edges or triangles) with a collider mesh's sharp
//! features (ridges or corners): self-contact's pair penalty (paper Eq. 3 on the pair's gap,
//! `crate::contact::self_contact`), signed by the solid's side, with the feature's weight for
//! its sharpness in κ. [`super::ridge_pairs`] and [`super::corner_pairs`] say which features
//! each primitive meets; this module gathers, sums and differentiates the pairs for both.
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
//! A full-weight feature that cuts a primitive is reported as the substep's deepest gap, so
//! the adaptive stiffness rises (paper §4.4); a weaker one (a smooth body's faceting) is not:
//! stiffening the whole contact for it made sphere-and-floor stall.
//!
//! Candidates are gathered per primitive within δ + padding of it and gathered again for a
//! primitive whose vertex moved more than half the padding, as the vertex contacts are, so
//! no feature entering the δ band is missed.

use super::{StageMesh, SurfacePrimitives};
use crate::assemble::element_terms;
use crate::contact::pair::friction::FrozenPairFriction;
use crate::contact::pair::PrimitivePair;
use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::autodiff::{self, project_psd};
use crate::math::real::{c, Real};
use crate::solve::pattern::BlockPattern;
use nalgebra::SMatrix;
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

/// The stencil's coordinates from a flat array of any [`Real`].
fn stencil<T: Real>(vertices: &[u32; 4], q: &[T]) -> [T; 12] {
    std::array::from_fn(|i| q[3 * vertices[i / 3] as usize + i % 3])
}

/// The positions (m) of `primitive`'s vertices in `q`.
fn corners_of<const N: usize>(primitive: &[u32; N], q: &[f64]) -> [[f64; 3]; N] {
    primitive.map(|v| [0, 1, 2].map(|k| q[3 * v as usize + k]))
}

/// Whether a vertex of a primitive at `x` moved more than half the `padding` (m) from where
/// its candidates were gathered, `reference`: beyond that a feature outside the gather's reach
/// could have come within δ. Written as "not within" so that a non-finite position counts as
/// moved.
fn moved_beyond<const N: usize>(x: &[[f64; 3]; N], reference: &[[f64; 3]; N], padding: f64) -> bool {
    let limit = 0.25 * padding * padding;
    x.iter().zip(reference).any(|(a, b)| !((0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>() <= limit))
}

/// Which collider features a kind of simulated primitive of N vertices meets.
pub(super) trait Features<const N: usize>: Send + Sync {
    /// The stencil slot of the primitive's first vertex; the feature's vertices fill the rest.
    const FIRST_SLOT: usize;
    /// The primitives and their μ against the mesh of `surface`.
    fn primitives(surface: &SurfacePrimitives) -> (&[[u32; N]], &[f64]);
    /// Whether `mesh` has any such feature at its stage.
    fn present(mesh: &StageMesh) -> bool;
    /// The pairs of primitive `k` at positions `q` (m) whose signed gap is below `reach` (m).
    fn pairs_of(k: usize, meshes: &[StageMesh], law: &ContactLaw, q: &[f64], reach: f64) -> Vec<PrimitivePair>;
}

/// The feature pairs of one stage, for primitives of N vertices (S = 3N coordinates).
pub(super) struct FeaturePairs<F, const N: usize, const S: usize> {
    /// Per primitive: its vertices where its pairs were gathered (m).
    reference: Vec<[[f64; 3]; N]>,
    /// Per primitive: the features within δ + padding at the reference.
    per_primitive: Vec<Vec<PrimitivePair>>,
    /// `per_primitive` in order, the list every sum runs over.
    pairs: Vec<PrimitivePair>,
    /// Friction frozen at the substep start.
    pub(super) lagged: Vec<FrozenPairFriction>,
    kind: PhantomData<F>,
}

impl<F: Features<N>, const N: usize, const S: usize> FeaturePairs<F, N, S> {
    /// The pairs of every primitive of `meshes` (the first mesh's list: every mesh holds the
    /// same primitives) not wholly `fixed`, around `q` (m), with `padding` (m).
    pub fn new(meshes: &[StageMesh], law: &ContactLaw, fixed: &[bool], q: &[f64], padding: f64) -> Self {
        let count = meshes.first().map_or(0, |m| F::primitives(&m.surface).0.len());
        let mut pairs = Self {
            reference: vec![[[f64::INFINITY; 3]; N]; count],
            per_primitive: vec![Vec::new(); count],
            pairs: Vec::new(),
            lagged: Vec::new(),
            kind: PhantomData,
        };
        pairs.gather(meshes, law, fixed, q, padding);
        pairs
    }

    /// Freezes the friction of the pairs within δ at the substep's start positions `q_start`
    /// (m) (paper Eq. 25). A primitive whose vertices are within half the `padding` (m) of
    /// where its candidates were gathered has all of them among its candidates; the others are
    /// gathered at `q_start`.
    pub fn with_start(
        mut self,
        meshes: &[StageMesh],
        law: &ContactLaw,
        fixed: &[bool],
        q_start: &[f64],
        padding: f64,
    ) -> Self {
        if !meshes.iter().any(|m| F::primitives(&m.surface).1.iter().any(|&mu| mu > 0.0)) {
            return self;
        }
        let primitives = F::primitives(&meshes[0].surface).0;
        let at_start: Vec<Vec<FrozenPairFriction>> = (0..primitives.len())
            .into_par_iter()
            .map(|k| {
                let p = &primitives[k];
                if p.iter().all(|&v| fixed[v as usize]) {
                    return Vec::new();
                }
                let fresh;
                let candidates = if !moved_beyond(&corners_of(p, q_start), &self.reference[k], padding) {
                    &self.per_primitive[k]
                } else {
                    fresh = F::pairs_of(k, meshes, law, q_start, law.delta);
                    &fresh
                };
                candidates
                    .iter()
                    .filter_map(|p| FrozenPairFriction::new(p, &gather::<12>(&p.vertices, q_start)))
                    .collect()
            })
            .collect();
        self.lagged = at_start.into_iter().flatten().collect();
        self
    }

    /// Gathers again the pairs of every primitive whose vertex in `q` (m) moved more than half
    /// the padding from its reference; returns whether any did.
    pub fn gather(&mut self, meshes: &[StageMesh], law: &ContactLaw, fixed: &[bool], q: &[f64], padding: f64) -> bool {
        let Some(first) = meshes.first() else { return false };
        if !meshes.iter().any(F::present) {
            return false;
        }
        let primitives = F::primitives(&first.surface).0;
        let reach = law.delta + padding;
        let reference = &self.reference;
        let fresh: Vec<Option<([[f64; 3]; N], Vec<PrimitivePair>)>> = (0..primitives.len())
            .into_par_iter()
            .map(|k| {
                let p = &primitives[k];
                if p.iter().all(|&v| fixed[v as usize]) {
                    return None;
                }
                let x = corners_of(p, q);
                moved_beyond(&x, &reference[k], padding).then(|| (x, F::pairs_of(k, meshes, law, q, reach)))
            })
            .collect();
        let mut any = false;
        for (k, f) in fresh.into_iter().enumerate() {
            if let Some((x, p)) = f {
                self.reference[k] = x;
                self.per_primitive[k] = p;
                any = true;
            }
        }
        if any {
            self.pairs = self.per_primitive.iter().flatten().cloned().collect();
        }
        any
    }

    /// The pairs (fresh for the last gather).
    pub fn pairs(&self) -> &[PrimitivePair] {
        &self.pairs
    }

    /// out += scale · ∇W(q) over [`Real`].
    pub fn add_gradient<T: Real + Send + Sync>(&self, q: &[T], scale: f64, out: &mut [T]) {
        element_terms::add_gradient(&self.pairs, q, scale, out);
    }

    /// W(q) in J.
    pub fn energy(&self, q: &[f64]) -> f64 {
        element_terms::energy(&self.pairs, q)
    }

    /// The exact Hessian of pair `p` at `x` in the primitive's block.
    pub(super) fn block_hessian(p: &PrimitivePair, x: &[f64; 12]) -> SMatrix<f64, 12, 12> {
        let mut h = simulated_block::<S, _>(|y| p.gradient(y), x, 3 * F::FIRST_SLOT);
        autodiff::symmetrize(&mut h);
        h
    }

    /// jac += scale · ∇²W(q) (pairs within δ, PSD-projected when `definite`) into `pattern`'s
    /// values, skipping fixed vertices; returns the blocks the pattern lacks. The exact Hessian
    /// needs only the primitive's block; the projection is of the whole stencil's, whose
    /// coupling to the feature's vertices makes the primitive's block stiffer than its own
    /// projection would (Newton on sphere-and-floor stalled with the latter).
    pub fn add_hessian(
        &self,
        q: &[f64],
        scale: f64,
        definite: bool,
        pattern: &BlockPattern,
        fixed: &[bool],
        jac: &mut [f64],
    ) -> u32 {
        let local: Vec<Option<SMatrix<f64, 12, 12>>> = self
            .pairs
            .par_iter()
            .map(|p| {
                let x = gather::<12>(&p.vertices, q);
                (p.distance(&x) < p.law.delta).then(|| {
                    if definite {
                        project_psd(&p.hessian(&x))
                    } else {
                        Self::block_hessian(p, &x)
                    }
                })
            })
            .collect();
        let mut dropped = 0;
        for (p, m) in self.pairs.iter().zip(&local) {
            if let Some(m) = m {
                dropped += pattern.add_stencil_matrix(&p.vertices, |i, j| m[(i, j)], scale, fixed, jac);
            }
        }
        dropped
    }

    /// out −= scale · F(v) of the pairs' lagged friction (paper Eq. 25) at velocities `v` (m/s)
    /// over [`Real`].
    pub fn add_friction<T: Real + Send + Sync>(&self, law: &ContactLaw, v: &[T], scale: f64, out: &mut [T]) {
        let local: Vec<[T; 12]> = self.lagged.par_iter().map(|l| l.forces(law, &stencil(&l.vertices, v))).collect();
        for (l, f) in self.lagged.iter().zip(&local) {
            for (slot, &vertex) in l.vertices.iter().enumerate() {
                for k in 0..3 {
                    out[3 * vertex as usize + k] -= f[3 * slot + k] * scale;
                }
            }
        }
    }

    /// The lagged friction's force Jacobian of `l` at stencil velocities `u` in the
    /// primitive's block.
    pub(super) fn block_friction_jacobian(
        l: &FrozenPairFriction,
        law: &ContactLaw,
        u: &[f64; 12],
    ) -> SMatrix<f64, 12, 12> {
        simulated_block::<S, _>(|w| l.forces(law, w), u, 3 * F::FIRST_SLOT)
    }

    /// jac −= scale · dF/dv of the pairs' lagged friction at velocities `v` (m/s) into
    /// `pattern`'s values, skipping `fixed` vertices; returns the blocks the pattern lacks.
    pub fn add_friction_jacobian(
        &self,
        law: &ContactLaw,
        v: &[f64],
        scale: f64,
        pattern: &BlockPattern,
        fixed: &[bool],
        jac: &mut [f64],
    ) -> u32 {
        let local: Vec<SMatrix<f64, 12, 12>> =
            self.lagged.par_iter().map(|l| Self::block_friction_jacobian(l, law, &gather(&l.vertices, v))).collect();
        let mut dropped = 0;
        for (l, m) in self.lagged.iter().zip(&local) {
            dropped += pattern.add_stencil_matrix(&l.vertices, |i, j| m[(i, j)], -scale, fixed, jac);
        }
        dropped
    }

    /// h Σ D(v) in J of the lagged friction at velocities `v` (m/s) and step `h` (s) (paper
    /// Eq. 14–15 integrated): the merit function's friction term.
    pub fn friction_potential(&self, law: &ContactLaw, v: &[f64], h: f64) -> f64 {
        let local: Vec<f64> = self.lagged.par_iter().map(|f| f.potential(law, &gather(&f.vertices, v))).collect();
        h * local.iter().sum::<f64>()
    }

    /// The smallest gap (m) at `q` of the pairs with full-weight features, whose stiffness is
    /// `kappa` (N/m²) (∞ without one): a weaker feature, a smooth body's faceting, may give.
    pub fn smallest_gap(&self, q: &[f64], kappa: f64) -> f64 {
        self.pairs
            .iter()
            .filter(|p| p.law.kappa >= kappa)
            .map(|p| p.distance(&gather::<12>(&p.vertices, q)))
            .fold(f64::INFINITY, f64::min)
    }
}

/// The contact law of the feature pairs' unit tests: κ = 10⁴ N/m², δ = 5 mm, ε = 1 mm/s.
#[cfg(test)]
pub(super) fn test_law() -> ContactLaw {
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
    ContactLaw {
        kappa: 1e4,
        delta: 0.005,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    }
}
