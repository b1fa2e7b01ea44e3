//! Volume-change penalties (paper §3.4, Eq. 18–21) in the time-stepping residual and Jacobian.
//!
//! Each penalty's energy W(V(q)) has gradient ∇W = −p(V) ∂V/∂q and Hessian
//! ∇²W = −p(V) ∂²V/∂q² + W″(V) (∂V/∂q)(∂V/∂q)ᵀ: a sparse part local to the cells plus a dense
//! rank-one term coupling every vertex of the object. The residual and the matrix-free product
//! (dual numbers through V, p(V) and ∂V/∂q) include both exactly. The assembled Jacobian holds
//! the sparse part, and the rank-one term is handed to the linear solver separately
//! ([`Term::low_rank`]), which applies it exactly: the direct LU by a
//! Sherman–Morrison–Woodbury update, BiCGSTAB by adding c u(uᵀx) to each product. So Newton
//! keeps the exact Jacobian, which the stiff penalties of nearly incompressible objects need.
//! Cells are evaluated in parallel into per-cell slots and summed serially in order.

use super::layout::SystemLayout;
use super::scatter;
use super::term::{StageContext, Term};
use crate::energy::volume::{tet_volume, tet_volume_gradient, triangle_volume, triangle_volume_gradient};
use crate::math::autodiff::{jacobian, project_psd, symmetrize};
use crate::math::real::Real;
use crate::model::volume_penalty::{VolumeCells, VolumePenalty};
use nalgebra::SMatrix;
use rayon::prelude::*;

/// The stencil's coordinates from a flat array of any [`Real`].
fn gather_real<const D: usize, T: Real>(vertices: &[u32], q: &[T]) -> [T; D] {
    std::array::from_fn(|i| q[3 * vertices[i / 3] as usize + i % 3])
}

/// The volume penalties of a model.
pub struct VolumeTerms<'a> {
    /// The penalties.
    pub penalties: &'a [VolumePenalty],
}

/// V(q) in m³ of one penalty over [`Real`].
fn volume<T: Real + Send + Sync>(p: &VolumePenalty, q: &[T]) -> T {
    let local: Vec<T> = match &p.cells {
        VolumeCells::Surface { triangles, origin } => {
            triangles.par_iter().map(|t| triangle_volume(&gather_real::<9, T>(t, q), *origin)).collect()
        }
        VolumeCells::Tets(tets) => tets.par_iter().map(|t| tet_volume(&gather_real::<12, T>(t, q))).collect(),
    };
    local.iter().fold(T::from(0.0), |a, &b| a + b)
}

/// out += s · ∂V/∂q of one penalty over [`Real`].
fn add_volume_gradient<T: Real + Send + Sync>(p: &VolumePenalty, q: &[T], s: T, out: &mut [T]) {
    fn scatter<const D: usize, T: Real>(verts: &[u32], g: &[T; D], s: T, out: &mut [T]) {
        for (a, &v) in verts.iter().enumerate() {
            for k in 0..3 {
                out[3 * v as usize + k] += g[3 * a + k] * s;
            }
        }
    }
    match &p.cells {
        VolumeCells::Surface { triangles, origin } => {
            let g: Vec<[T; 9]> =
                triangles.par_iter().map(|t| triangle_volume_gradient(&gather_real::<9, T>(t, q), *origin)).collect();
            triangles.iter().zip(&g).for_each(|(t, g)| scatter(t, g, s, out));
        }
        VolumeCells::Tets(tets) => {
            let g: Vec<[T; 12]> = tets.par_iter().map(|t| tet_volume_gradient(&gather_real::<12, T>(t, q))).collect();
            tets.iter().zip(&g).for_each(|(t, g)| scatter(t, g, s, out));
        }
    }
}

impl VolumeTerms<'_> {
    /// Σ W(V(q)), in J.
    pub fn energy(&self, q: &[f64]) -> f64 {
        self.penalties.iter().map(|p| p.model.energy(volume(p, q))).sum()
    }

    /// out += scale · ∇W(q) = −scale · p(V) ∂V/∂q, over [`Real`] (`f64` for the residual, dual
    /// numbers for matrix-free products, where the product rule yields the dense term exactly).
    pub fn add_gradient<T: Real + Send + Sync>(&self, q: &[T], scale: f64, out: &mut [T]) {
        for p in self.penalties {
            let pressure = p.model.over_pressure(volume(p, q));
            add_volume_gradient(p, q, pressure * (-scale), out);
        }
    }

    /// jac += scale · (−p(V) ∂²V/∂q²): the sparse part of ∇²W, into the layout's values
    /// (fixed vertices skipped). With `definite`, each cell's block is projected onto the PSD
    /// cone (the modified Newton Jacobian).
    pub fn add_sparse_hessian(
        &self,
        layout: &SystemLayout,
        q: &[f64],
        scale: f64,
        definite: bool,
        fixed: &[bool],
        jac: &mut [f64],
    ) {
        for p in self.penalties {
            let s = -p.model.over_pressure(volume(p, q)) * scale;
            match &p.cells {
                VolumeCells::Surface { triangles, origin } => {
                    let o = *origin;
                    let blocks: Vec<SMatrix<f64, 9, 9>> = triangles
                        .par_iter()
                        .map(|t| cell_hessian(|y| triangle_volume_gradient(y, o), &gather_real(t, q), s, definite))
                        .collect();
                    triangles.iter().zip(&blocks).for_each(|(t, m)| {
                        scatter::add_matrix(t, m, None, 1.0, layout, fixed, jac);
                    });
                }
                VolumeCells::Tets(tets) => {
                    let blocks: Vec<SMatrix<f64, 12, 12>> = tets
                        .par_iter()
                        .map(|t| cell_hessian(|y| tet_volume_gradient(y), &gather_real(t, q), s, definite))
                        .collect();
                    tets.iter().zip(&blocks).for_each(|(t, m)| {
                        scatter::add_matrix(t, m, None, 1.0, layout, fixed, jac);
                    });
                }
            }
        }
    }
}

/// Volume-change penalties as a stage term (paper §3.4): −f = ∇W_vol, merit W_vol, Jacobian
/// the sparse part h² Σ −p(V) ∂²V/∂q² (the dense rank-one part goes to the linear solver
/// through [`Term::low_rank`]).
impl Term for VolumeTerms<'_> {
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], _v: &[T], scale: f64, out: &mut [T]) {
        self.add_gradient(q, scale, out);
    }

    fn merit(&mut self, _stage: &StageContext, q: &[f64], _v: &[f64]) -> f64 {
        self.energy(q)
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], _v: &[f64], jac: &mut [f64]) -> u32 {
        let h2 = stage.h * stage.h;
        self.add_sparse_hessian(stage.layout, q, h2, stage.definite, stage.fixed, jac);
        0
    }

    /// The dense part of ∇²W, one rank-one term c u uᵀ per penalty: c = scale · W″(V),
    /// u = ∂V/∂q with the entries of fixed vertices zeroed (their rows and columns are
    /// eliminated).
    fn low_rank(&self, q: &[f64], scale: f64, fixed: &[bool]) -> Vec<(f64, Vec<f64>)> {
        self.penalties
            .iter()
            .map(|p| {
                let mut u = vec![0.0; q.len()];
                add_volume_gradient(p, q, 1.0, &mut u);
                for (d, x) in u.iter_mut().enumerate() {
                    if fixed[d / 3] {
                        *x = 0.0;
                    }
                }
                (scale * p.model.stiffness(volume(p, q)), u)
            })
            .collect()
    }
}

/// s · ∂²V_cell/∂x² by forward-mode AD of the cell's exact volume gradient, optionally projected.
fn cell_hessian<const D: usize, G>(gradient: G, x: &[f64; D], s: f64, definite: bool) -> SMatrix<f64, D, D>
where
    G: Fn(&[num_dual::DualSVec64<D>; D]) -> [num_dual::DualSVec64<D>; D],
{
    let mut h = jacobian(gradient, x);
    symmetrize(&mut h);
    let m = h * s;
    if definite {
        project_psd(&m)
    } else {
        m
    }
}
