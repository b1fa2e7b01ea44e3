//! Exponential Rosenbrock–Euler (ERE; Ascher et al. 2022 §3.5.1, Eq. 18):
//! u₁ = u₀ + h φ₁(hJ) F(u₀) for u = (q, v), F(u) = (v, M⁻¹ f(q, v)), J = ∂F/∂u at u₀ exact.
//!
//! The product is taken in the scaled variables ũ = (q, h v), where hJ becomes the
//! dimensionless B = [[0, I], [h² M⁻¹ ∂f/∂q, h M⁻¹ ∂f/∂v]] and h F(u₀) becomes
//! b = (h v₀, h² M⁻¹ f₀), both in metres; B x comes from one forward-mode AD pass through every
//! force term (`ImplicitStage::force_derivative`), and φ₁(B) b from the Krylov method of
//! `crate::solve::krylov_phi`. There is no nonlinear solve.
//!
//! Pinned vertices stay in the system with constant prescribed velocity (their v rows of B and
//! b are zero, their q rows carry v_pin), so the step is exact for them and their motion acts on
//! the free vertices through ∂f/∂q.
//!
//! Contact and friction: their forces and exact Jacobians at the start of the step (colliders at
//! their start poses, friction as the coupling defines it at u₀) are part of f and J, so a contact
//! that is active at the start is integrated exponentially; one that begins within the step is met
//! at the next. A step that ends with a negative gap is redone with a stiffer κ and then, like
//! every integrator's, followed by a backward Euler substep (`retries`).

use super::call::Call;
use super::guess::with_pins;
use super::stage_terms::{ColliderSpan, StageSpec};
use super::stages::{StageFailure, StageOutput, Substep};
use super::work::AttemptWork;
use crate::assemble::DampingMatrices;
use crate::solve::krylov_phi::{phi1_product, PhiStats};
use crate::solve::NewtonStats;
use std::time::Instant;

/// Tolerance of the φ₁ product relative to ‖b‖ (the step's explicit displacement): far below
/// the method's own error at any useful step.
pub(crate) const PHI_TOLERANCE: f64 = 1e-8;
/// Largest Krylov basis of the φ₁ product; beyond it the product takes shorter substeps.
pub(crate) const MAX_KRYLOV_BASIS: usize = 40;

impl Call<'_> {
    /// One ERE substep from (q, v); the contact staging and any pattern rebuilt go into `work`.
    pub(crate) fn exponential_step(
        &mut self,
        q: &[f64],
        v: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
    ) -> std::result::Result<StageOutput, StageFailure> {
        let (h, v_fixed) = (substep.h, substep.v_fixed.as_slice());
        let pinned = self.ctx.pinned;
        let mass = &self.ctx.model.mass;
        let v0 = with_pins(pinned, v.to_vec(), v_fixed);
        let n = q.len();
        let t = Instant::now();
        let product = self.with_start_system(q, &v0, q, substep, damping, work, |system, _| {
            let f0 = system.force(q, &v0);
            let mut b = vec![0.0; 2 * n];
            for d in 0..n {
                b[d] = h * v0[d];
                b[n + d] = if pinned[d / 3] { 0.0 } else { h * h * f0[d] / mass[d / 3] };
            }
            let mut apply = |x: &[f64], y: &mut [f64]| {
                let (xq, xv) = x.split_at(n);
                let dv: Vec<f64> = xv.iter().map(|x| x / h).collect();
                let df = system.force_derivative(q, &v0, xq, &dv);
                for d in 0..n {
                    y[d] = xv[d];
                    y[n + d] = if pinned[d / 3] { 0.0 } else { h * h * df[d] / mass[d / 3] };
                }
            };
            let scale = b.iter().map(|x| x * x).sum::<f64>().sqrt();
            phi1_product(&mut apply, &b, PHI_TOLERANCE * scale, MAX_KRYLOV_BASIS)
        })?;
        let (w, phi) = product?;
        let mut q1: Vec<f64> = q.iter().zip(&w[..n]).map(|(a, b)| a + b).collect();
        let mut v1: Vec<f64> = v0.iter().zip(&w[n..]).map(|(a, b)| a + b / h).collect();
        pin_ends(pinned, q, v_fixed, h, &mut q1, &mut v1);
        let stats = exponential_stats(&phi, t.elapsed().as_secs_f64());
        let gaps = self.end_gaps(q, &q1, substep, damping, work);
        Ok(StageOutput { q: q1, v: v1, stats, gaps, force: None, acceleration: None })
    }

    /// The deepest gap (m) and the active contacts at the end positions `q_end` of a substep
    /// from `q`, colliders at their end poses; `None` without contacts. Staging the collider
    /// meshes counts in `work` as contact search.
    pub(crate) fn end_gaps(
        &mut self,
        q: &[f64],
        q_end: &[f64],
        substep: &Substep,
        damping: &DampingMatrices,
        work: &mut AttemptWork,
    ) -> Option<(f64, u32)> {
        let spec = StageSpec {
            q_start: q,
            colliders: ColliderSpan::Moving { f0: substep.f0, f1: substep.f1, seconds: substep.h },
            mesh_base: q,
            mesh_h: substep.h,
            v_fixed: &substep.v_fixed,
            contacts: true,
        };
        let mut terms = self.stage_terms(&spec, damping, q_end, work);
        terms.gaps(q_end, self.ctx.pinned)
    }
}

/// Pinned vertices end on their straight path: q₀ + h v_pin, at v_pin.
pub(crate) fn pin_ends(pinned: &[bool], q: &[f64], v_fixed: &[f64], h: f64, q1: &mut [f64], v1: &mut [f64]) {
    for (i, _) in pinned.iter().enumerate().filter(|(_, p)| **p) {
        for d in 3 * i..3 * i + 3 {
            q1[d] = q[d] + h * v_fixed[d];
            v1[d] = v_fixed[d];
        }
    }
}

/// The step's statistics in Newton's terms: one "iteration", the Krylov products as linear
/// iterations, the time as assembly.
pub(crate) fn exponential_stats(phi: &PhiStats, seconds: f64) -> NewtonStats {
    NewtonStats { iterations: 1, linear_iterations: phi.products, seconds_assembly: seconds, ..NewtonStats::default() }
}
