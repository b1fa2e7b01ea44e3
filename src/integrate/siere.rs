//! SIERE (Ascher et al. 2022 §3.5.2, Eq. 19–25; Chen et al. 2023): exponential Rosenbrock–Euler
//! on the s lowest modes, semi-implicit Euler on the rest.
//!
//! Modes: X, the s lowest eigenvectors of A x = μ M x, XᵀMX = I, with A the backward Euler
//! Jacobian M(1 + Hα) + H(βK⁺ + HK⁺) of the body's own forces (no contact) for a step H = 1 s
//! at the start of the first SIERE substep of a call, its energy Hessians projected onto the
//! PSD cone (`crate::solve::modal_basis`). With Rayleigh
//! damping A is a function of K, so these are the lowest modes of (K, M) (Eq. 24's K X = M X D).
//! The basis is computed again at the start of every call (each `step`/`advance`, a frame in
//! the hosts) and kept over its substeps; s = `params.modal_count`.
//!
//! Each substep from u₀ = (q₀, v₀), f₀ = f(q₀, v₀):
//! - the subspace (Eq. 25b): modal coordinates y = (XᵀMq, XᵀMv) obey ẏ = J_r y + c with
//!   J_r = [[0, I], [−K_r, −D_r]], K_r = −Xᵀ ∂f/∂q X, D_r = −Xᵀ ∂f/∂v X (exact, by forward-mode
//!   AD, so contact and friction in the subspace are included); ERE there is
//!   Δy = h φ₁(hJ_r) (XᵀMv₀, Xᵀf₀), a dense 2s × 2s product, and Δu_G = (X Δy_q, X Δy_v);
//! - the complement (Eq. 21 with H): v_H = v₀ − XXᵀMv₀, f_H = f₀ − MXXᵀf₀ and one Newton
//!   iteration of backward Euler linearized at u₀,
//!   (M − h ∂f/∂v − h² ∂f/∂q) Δv_H = h f_H + h² ∂f/∂q v_H, Δv_H projected off the modes,
//!   Δq_H = h (v_H + Δv_H);
//! - u₁ = u₀ + Δu_G + Δu_H. With s = 0 this is the semi-implicit method of Baraff and Witkin.
//!
//! Contact and friction: in f, its exact Jacobian at u₀ (colliders at their start poses,
//! friction at v₀) and in the modal coupling, as in `exponential`; negative gaps at the end
//! are retried like every integrator's.

use super::call::Call;
use super::exponential::pin_ends;
use super::guess::with_pins;
use super::stage_terms::{ColliderSpan, StageSpec};
use super::stages::{StageFailure, StageOutput, Substep};
use super::work::AttemptWork;
use crate::assemble::{DampingMatrices, ImplicitStage};
use crate::error::{Error, Result};
use crate::solve::modal_basis::{lowest_modes, ModalBasis};
use crate::solve::newton::linearized_solve;
use crate::solve::{NewtonStats, NonlinearSystem};
use nalgebra::DMatrix;
use std::time::Instant;

/// The step (s) of the matrix whose lowest modes SIERE takes: long enough that its stiffness
/// dominates the mass for any mode slower than 1 rad/s.
const MODAL_STEP: f64 = 1.0;

/// h φ₁(hJ_r) g for the reduced system J_r = [[0, I], [−K_r, −D_r]] (2s × 2s) by the exponential
/// of the augmented matrix [[hJ_r, h g], [0, 0]] (its last column).
pub fn reduced_phi1(k_r: &DMatrix<f64>, d_r: &DMatrix<f64>, g: &[f64], h: f64) -> Vec<f64> {
    let s = k_r.nrows();
    let mut a = DMatrix::<f64>::zeros(2 * s + 1, 2 * s + 1);
    for i in 0..s {
        a[(i, s + i)] = h;
        for j in 0..s {
            a[(s + i, j)] = -h * k_r[(i, j)];
            a[(s + i, s + j)] = -h * d_r[(i, j)];
        }
    }
    for (i, gi) in g.iter().enumerate() {
        a[(i, 2 * s)] = h * gi;
    }
    let e = a.exp();
    (0..2 * s).map(|i| e[(i, 2 * s)]).collect()
}

impl Call<'_> {
    /// One SIERE substep from (q, v); the contact staging and any pattern rebuilt go into
    /// `work`.
    pub(crate) fn siere_step(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let (h, v_fixed) = (substep.h, substep.v_fixed.as_slice());
        let pinned = self.ctx.pinned;
        let n = q.len();
        let mass: Vec<f64> = (0..n).map(|d| if pinned[d / 3] { 0.0 } else { self.ctx.model.mass[d / 3] }).collect();
        let v0 = with_pins(pinned, v.to_vec(), v_fixed);
        // The stage positions q̂ + h v equal q at v = v₀: its Jacobian there is A at u₀.
        let q_hat: Vec<f64> = q.iter().zip(&v0).map(|(x, u)| x - h * u).collect();
        let t = Instant::now();
        let count = self.ctx.params.modal_count as usize;
        let need_basis = self.state.modal_basis.is_none();
        let mut stats = NewtonStats::default();
        // The modes come from the step matrix of a long step, dominated by K: with the substep's
        // own h it is nearly M and its eigenvalues 1 + h²λ cluster, which slows the iteration.
        // They are the modes of the elastic body (Ascher's K = −∂f_els/∂q); contact and friction
        // enter the reduced system below.
        let basis = if need_basis {
            let modal_q_hat: Vec<f64> = q.iter().zip(&v0).map(|(x, u)| x - MODAL_STEP * u).collect();
            let spec = StageSpec {
                q_start: q,
                colliders: ColliderSpan::AtStart { f0: substep.f0, f1: substep.f1, seconds: h },
                mesh_base: q,
                mesh_h: 0.0,
                v_fixed,
                contacts: false,
            };
            let terms = self.stage_terms(&spec, damping, q, work);
            self.ensure_layout(&[], work)?;
            let (layout, _) =
                self.state.carried.system.as_ref().ok_or_else(|| Error::Panic("no system layout".into()))?;
            let (model, gravity) = (self.ctx.model, self.ctx.params.gravity);
            let mut system =
                ImplicitStage::new(model, layout, &modal_q_hat, &v0, MODAL_STEP, gravity, pinned, v_fixed, terms);
            let mut jac = vec![0.0; layout.pattern.nnz()];
            system.set_definite(true);
            system.jacobian(&v0, &mut jac);
            Some(lowest_modes(&layout.pattern, &jac, &mass, count)?)
        } else {
            None
        };
        if let Some(basis) = basis {
            log::debug!(
                "SIERE: {} modes, frequencies {:.3e}–{:.3e} rad/s of the step matrix",
                basis.vectors.len(),
                basis.eigenvalues.first().map_or(0.0, |m| m.sqrt()),
                basis.eigenvalues.last().map_or(0.0, |m| m.sqrt())
            );
            self.state.modal_basis = Some(basis);
        }
        let basis = self.state.modal_basis.take().unwrap_or_default();
        let result = self.with_start_system(q, &v0, &q_hat, substep, damping, work, |system, linear| {
            let f0 = system.force(q, &v0);
            siere_update(system, linear, &basis, &mass, q, &v0, &f0, h, &mut stats)
        });
        self.state.modal_basis = Some(basis);
        let (dq, dv) = result??;
        let mut q1: Vec<f64> = q.iter().zip(&dq).map(|(a, b)| a + b).collect();
        let mut v1: Vec<f64> = v0.iter().zip(&dv).map(|(a, b)| a + b).collect();
        pin_ends(pinned, q, v_fixed, h, &mut q1, &mut v1);
        stats.iterations = 1;
        stats.seconds_assembly = t.elapsed().as_secs_f64() - stats.seconds_factorization - stats.seconds_solve;
        let gaps = self.end_gaps(q, &q1, substep, damping, work);
        Ok(StageOutput { q: q1, v: v1, stats, gaps, force: None, acceleration: None })
    }
}

/// (Δq, Δv) of one SIERE substep (see the module documentation).
#[allow(clippy::too_many_arguments)]
fn siere_update(
    system: &mut crate::assemble::ImplicitStage,
    linear: &mut crate::solve::newton::LinearSystem,
    basis: &ModalBasis,
    mass: &[f64],
    q: &[f64],
    v0: &[f64],
    f0: &[f64],
    h: f64,
    stats: &mut NewtonStats,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let n = q.len();
    let s = basis.vectors.len();
    let zero = vec![0.0; n];
    // Reduced stiffness and damping: −Xᵀ ∂f/∂q X and −Xᵀ ∂f/∂v X.
    let mut k_r = DMatrix::<f64>::zeros(s, s);
    let mut d_r = DMatrix::<f64>::zeros(s, s);
    for (j, xj) in basis.vectors.iter().enumerate() {
        let dfq = system.force_derivative(q, v0, xj, &zero);
        let dfv = system.force_derivative(q, v0, &zero, xj);
        for (i, xi) in basis.vectors.iter().enumerate() {
            k_r[(i, j)] = -xi.iter().zip(&dfq).map(|(a, b)| a * b).sum::<f64>();
            d_r[(i, j)] = -xi.iter().zip(&dfv).map(|(a, b)| a * b).sum::<f64>();
        }
    }
    let p0 = basis.coordinates(mass, v0);
    let g0: Vec<f64> = basis.vectors.iter().map(|x| x.iter().zip(f0).map(|(a, b)| a * b).sum()).collect();
    let mut g = p0.clone();
    g.extend_from_slice(&g0);
    let dy = reduced_phi1(&k_r, &d_r, &g, h);
    let dq_g = basis.combine(&dy[..s], n);
    let dv_g = basis.combine(&dy[s..], n);
    // The complement: v_H, f_H and one linearized backward Euler solve.
    let v_g = basis.combine(&p0, n);
    let v_h: Vec<f64> = v0.iter().zip(&v_g).map(|(a, b)| a - b).collect();
    let f_g: Vec<f64> = basis.combine(&g0, n).iter().zip(mass).map(|(x, m)| x * m).collect();
    let dfq_vh = system.force_derivative(q, v0, &v_h, &zero);
    let rhs: Vec<f64> =
        (0..n).map(|d| if mass[d] > 0.0 { h * (f0[d] - f_g[d]) + h * h * dfq_vh[d] } else { 0.0 }).collect();
    if rhs.iter().any(|x| !x.is_finite()) {
        return Err(Error::NotConverged("SIERE: the force at the start of the step is not finite".into()));
    }
    let mut dv_h = linearized_solve(system, linear, v0, &rhs, stats)?;
    let c = basis.coordinates(mass, &dv_h);
    let back = basis.combine(&c, n);
    dv_h.iter_mut().zip(&back).for_each(|(a, b)| *a -= b);
    let dq: Vec<f64> = (0..n).map(|d| dq_g[d] + h * (v_h[d] + dv_h[d])).collect();
    let dv: Vec<f64> = (0..n).map(|d| dv_g[d] + dv_h[d]).collect();
    if dq.iter().chain(&dv).any(|x| !x.is_finite()) {
        return Err(Error::NotConverged("the SIERE step is not finite".into()));
    }
    Ok((dq, dv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduced_phi1_is_exact_for_an_undamped_mode() {
        // One mode of ω = 3 rad/s from y = (0, 0) with modal velocity p and force g:
        // z(h) = p sin(ωh)/ω + g (1 − cos ωh)/ω², ż(h) = p cos ωh + g sin(ωh)/ω.
        let (w, h, p, g) = (3.0f64, 0.2, 0.7, -1.3);
        let k = DMatrix::from_element(1, 1, w * w);
        let d = DMatrix::zeros(1, 1);
        // Δy for ẏ = J y + c with c = (p, g) − J y₀ at y₀ = 0: the exact flow of the linear ODE.
        let dy = reduced_phi1(&k, &d, &[p, g], h);
        let z = p * (w * h).sin() / w + g * (1.0 - (w * h).cos()) / (w * w);
        let zd = p * (w * h).cos() + g * (w * h).sin() / w - p;
        assert!((dy[0] - z).abs() < 1e-14 && (dy[1] - zd).abs() < 1e-14, "{dy:?} vs {z}, {zd}");
    }
}
