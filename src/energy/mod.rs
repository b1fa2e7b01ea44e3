//! Elastic energies, each on a small stencil of vertices, with value, gradient and Hessian:
//! stable neo-Hookean tets, membranes and dihedral bending of shells, the volume-change laws,
//! and the soft pins' springs to their anchors.
//!
//! Every element implements [`Element`]: the energy in joules from the stencil's positions, its exact
//! gradient written generically over [`Real`], and its Hessian, by default the forward-mode AD
//! Jacobian of the gradient. The global assembly lives in `crate::assemble`: a new element
//! becomes a term of the implicit stage by one line in `crate::assemble::terms`.

pub mod dihedral_bending;
pub mod lame;
pub mod membrane;
pub mod stable_neo_hookean;
pub mod target_spring;
pub mod volume;

use crate::math::autodiff;
use crate::math::real::Real;
use nalgebra::SMatrix;

/// An energy term on a stencil of `D / 3` vertices (`D` coordinates).
pub trait Element<const D: usize>: Sync + Send {
    /// Global indices of the stencil's vertices, `D / 3` of them.
    fn vertices(&self) -> &[u32];
    /// Energy (J) at stencil positions `x` (m).
    fn energy(&self, x: &[f64; D]) -> f64;
    /// Gradient of [`Element::energy`] with respect to `x` (N); exact, finite for every input.
    fn gradient<T: Real>(&self, x: &[T; D]) -> [T; D];
    /// Hessian (N/m): the forward-mode AD Jacobian of the gradient, symmetrized.
    fn hessian(&self, x: &[f64; D]) -> SMatrix<f64, D, D> {
        let mut h = autodiff::jacobian(|y| self.gradient(y), x);
        autodiff::symmetrize(&mut h);
        h
    }
    /// A positive semi-definite stand-in for the Hessian (N/m), for Newton's modified Jacobian
    /// far from the solution: by default the Hessian projected onto the PSD cone
    /// ([`autodiff::project_psd`]); an element may give a cheaper one (e.g. Gauss–Newton).
    fn definite_hessian(&self, x: &[f64; D]) -> SMatrix<f64, D, D> {
        autodiff::project_psd(&self.hessian(x))
    }
}

/// Gathers the stencil's coordinates from a flat global array `q` (`x0 y0 z0 x1 …`).
#[inline]
pub fn gather<const D: usize>(vertices: &[u32], q: &[f64]) -> [f64; D] {
    let mut x = [0.0; D];
    for (a, &v) in vertices.iter().enumerate() {
        let v = v as usize;
        x[3 * a..3 * a + 3].copy_from_slice(&q[3 * v..3 * v + 3]);
    }
    x
}
