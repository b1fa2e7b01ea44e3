//! Sums of element gradients, Hessians and damping matrices over a set of elements.
//! Local quantities are computed in parallel into per-element slots and then summed serially in
//! element order ([`super::scatter`]), so the result is bit-identical for any thread count.

use super::layout::SystemLayout;
use super::scatter;
use super::term::{StageContext, Term};
use crate::energy::{gather, Element};
use crate::math::real::Real;
use crate::model::Model;
use crate::solve::pattern::BlockSlot;
use nalgebra::SMatrix;
use rayon::prelude::*;

/// Σ_e E_e(q), in J.
pub fn energy<const D: usize, E: Element<D>>(elements: &[E], q: &[f64]) -> f64 {
    let local: Vec<f64> = elements.par_iter().map(|e| e.energy(&gather::<D>(e.vertices(), q))).collect();
    local.iter().sum()
}

/// The stencil's coordinates from a flat array of any [`Real`].
fn gather_real<const D: usize, T: Real>(vertices: &[u32], q: &[T]) -> [T; D] {
    std::array::from_fn(|i| q[3 * vertices[i / 3] as usize + i % 3])
}

/// out += scale · ∇W(q), over [`Real`] (`f64` for the residual, dual numbers for matrix-free
/// Jacobian products).
pub fn add_gradient<const D: usize, E: Element<D>, T: Real + Send + Sync>(
    elements: &[E],
    q: &[T],
    scale: f64,
    out: &mut [T],
) {
    let local: Vec<[T; D]> = elements.par_iter().map(|e| e.gradient(&gather_real::<D, T>(e.vertices(), q))).collect();
    scatter::add_vectors(elements.iter().map(|e| e.vertices()).zip(&local), scale, out);
}

/// Element Hessians ∇²W_e(q), or their PSD stand-ins ([`Element::definite_hessian`]: projected onto
/// the PSD cone unless the element has a cheaper one) when `definite` (a modified
/// Newton Jacobian for iterations far from the solution, where buckling cloth or a compressed
/// solid makes the exact one indefinite).
pub fn hessians<const D: usize, E: Element<D>>(elements: &[E], q: &[f64], definite: bool) -> Vec<SMatrix<f64, D, D>> {
    elements
        .par_iter()
        .map(|e| {
            let x = gather::<D>(e.vertices(), q);
            if definite {
                e.definite_hessian(&x)
            } else {
                e.hessian(&x)
            }
        })
        .collect()
}

/// Rayleigh stiffness-damping matrices β_e K⁺_e(q): each element's positive semi-definite
/// stiffness ([`Element::definite_hessian`]: the Hessian projected onto the PSD cone, or the
/// element's Gauss–Newton form, as for bending hinges), so damping never adds energy, scaled by
/// each element's β (s). Empty when every β is 0.
pub fn damping_matrices<const D: usize, E: Element<D>>(
    elements: &[E],
    beta: &[f64],
    q: &[f64],
) -> Vec<SMatrix<f64, D, D>> {
    if beta.iter().all(|&b| b == 0.0) {
        return Vec::new();
    }
    elements
        .par_iter()
        .zip(beta.par_iter())
        .map(|(e, &b)| if b == 0.0 { SMatrix::zeros() } else { e.definite_hessian(&gather::<D>(e.vertices(), q)) * b })
        .collect()
}

/// Rayleigh β-damping matrices of every element, evaluated at qₜ.
#[derive(Default)]
pub struct DampingMatrices {
    /// Per tet (N·s/m).
    pub tets: Vec<SMatrix<f64, 12, 12>>,
    /// Per membrane triangle (N·s/m).
    pub membranes: Vec<SMatrix<f64, 9, 9>>,
    /// Per bending hinge (N·s/m).
    pub hinges: Vec<SMatrix<f64, 12, 12>>,
}

impl DampingMatrices {
    /// β K⁺ of every element at `q`.
    pub fn new(model: &Model, q: &[f64]) -> Self {
        Self {
            tets: damping_matrices(&model.tets.elements, &model.tets.beta, q),
            membranes: damping_matrices(&model.membranes.elements, &model.membranes.beta, q),
            hinges: damping_matrices(&model.hinges.elements, &model.hinges.beta, q),
        }
    }
}

/// ½ Σ_e v_eᵀ m_e v_e (the dissipation potential of linear damping matrices) [W·s = J].
pub fn quadratic_form<const D: usize, E: Element<D>>(
    elements: &[E],
    matrices: &[SMatrix<f64, D, D>],
    v: &[f64],
) -> f64 {
    let local: Vec<f64> = elements
        .par_iter()
        .zip(matrices.par_iter())
        .map(|(e, m)| {
            let ve = nalgebra::SVector::<f64, D>::from(gather::<D>(e.vertices(), v));
            0.5 * ve.dot(&(m * ve))
        })
        .collect();
    local.iter().sum()
}

/// out += scale · Σ_e m_e v_e, over [`Real`].
pub fn add_matrix_products<const D: usize, E: Element<D>, T: Real>(
    elements: &[E],
    matrices: &[SMatrix<f64, D, D>],
    v: &[T],
    scale: f64,
    out: &mut [T],
) {
    for (e, m) in elements.iter().zip(matrices) {
        let ve = gather_real::<D, T>(e.vertices(), v);
        for (a, &vtx) in e.vertices().iter().enumerate() {
            for k in 0..3 {
                let row = 3 * a + k;
                let y = (0..D).fold(T::from(0.0), |acc, col| acc + ve[col] * m[(row, col)]);
                out[3 * vtx as usize + k] += y * scale;
            }
        }
    }
}

/// Where a set of elements finds its blocks in the Jacobian's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementSlots {
    /// The layout's slots of the tets.
    Tets,
    /// The layout's slots of the membrane triangles.
    Membranes,
    /// The layout's slots of the bending hinges.
    Hinges,
    /// Looked up in the pattern per element.
    Lookup,
}

impl ElementSlots {
    /// The slots in `layout`, (D/3)² per element, row-major over vertex pairs; `None` to look up.
    fn of(self, layout: &SystemLayout) -> Option<&[BlockSlot]> {
        match self {
            ElementSlots::Tets => Some(&layout.tet_slots),
            ElementSlots::Membranes => Some(&layout.membrane_slots),
            ElementSlots::Hinges => Some(&layout.hinge_slots),
            ElementSlots::Lookup => None,
        }
    }
}

/// The elastic energy W = Σ_e W_e of one set of elements as a stage term: −f = ∇W, merit W,
/// Jacobian blocks h² ∇²W_e (paper Eq. 23).
pub struct ElementTerm<'a, E, const D: usize> {
    elements: &'a [E],
    slots: ElementSlots,
}

impl<'a, E, const D: usize> ElementTerm<'a, E, D> {
    /// The term of `elements`, whose blocks sit at `slots`.
    pub fn new(elements: &'a [E], slots: ElementSlots) -> Self {
        Self { elements, slots }
    }
}

impl<E: Element<D>, const D: usize> Term for ElementTerm<'_, E, D> {
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], _v: &[T], scale: f64, out: &mut [T]) {
        add_gradient(self.elements, q, scale, out);
    }

    fn merit(&mut self, _stage: &StageContext, q: &[f64], _v: &[f64]) -> f64 {
        energy(self.elements, q)
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], _v: &[f64], jac: &mut [f64]) -> u32 {
        let hess = hessians(self.elements, q, stage.definite);
        add_blocks(self.elements, &hess, self.slots, stage, stage.h * stage.h, jac)
    }
}

/// Adds `scale · m_e` at the elements' `slots` of the stage's layout; returns the blocks left out.
fn add_blocks<const D: usize, E: Element<D>>(
    elements: &[E],
    matrices: &[SMatrix<f64, D, D>],
    slots: ElementSlots,
    stage: &StageContext,
    scale: f64,
    jac: &mut [f64],
) -> u32 {
    let n = D / 3;
    let slots = slots.of(stage.layout);
    let (layout, fixed) = (stage.layout, stage.fixed);
    elements
        .iter()
        .zip(matrices)
        .enumerate()
        .map(|(i, (e, m))| {
            let own = slots.map(|s| &s[i * n * n..(i + 1) * n * n]);
            scatter::add_matrix(e.vertices(), m, own, scale, layout, fixed, jac)
        })
        .sum()
}

/// Rayleigh stiffness damping β K⁺ₜ v of one set of elements as a stage term (paper §3.1): the
/// matrices are fixed over the step, so the force is linear in v; merit h · ½ vᵀ(βK⁺ₜ)v,
/// Jacobian blocks h βK⁺ₜ.
pub struct DampingTerm<'a, E, const D: usize> {
    elements: &'a [E],
    matrices: &'a [SMatrix<f64, D, D>],
    slots: ElementSlots,
}

impl<'a, E, const D: usize> DampingTerm<'a, E, D> {
    /// The damping of `elements` with per-element matrices `matrices` (N·s/m), blocks at `slots`.
    pub fn new(elements: &'a [E], matrices: &'a [SMatrix<f64, D, D>], slots: ElementSlots) -> Self {
        Self { elements, matrices, slots }
    }
}

impl<E: Element<D>, const D: usize> Term for DampingTerm<'_, E, D> {
    fn add_negative_force<T: Real + Send + Sync>(&self, _q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        add_matrix_products(self.elements, self.matrices, v, scale, out);
    }

    fn merit(&mut self, stage: &StageContext, _q: &[f64], v: &[f64]) -> f64 {
        stage.h * quadratic_form(self.elements, self.matrices, v)
    }

    fn add_jacobian(&mut self, stage: &StageContext, _q: &[f64], _v: &[f64], jac: &mut [f64]) -> u32 {
        add_blocks(self.elements, self.matrices, self.slots, stage, stage.h, jac)
    }
}
