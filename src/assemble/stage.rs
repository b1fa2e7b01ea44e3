//! One implicit stage of a time integrator in velocity form, the nonlinear system every
//! integrator solves (paper Eq. 23, 24; Ascher et al. 2022 §3.1):
//! r(v) = M(v − v̂) − e − h f(q̂ + h v, v), f = −∇W(q) − ∇W_vol(q) − (αM + βK⁺ₜ) v + M g + F_c(q, v),
//! J(v) = M + h(αM + βK⁺ₜ) + h² (∇²W + ∇²W_vol) − h dF_c/dv,
//! with the stage's base velocity v̂, base position q̂, effective step h and explicit momentum e
//! (the already known force stages). Backward Euler is v̂ = vₜ, q̂ = qₜ, e = 0 and h the step; the
//! trapezoidal rule, BDF2, TR-BDF2 and SDIRK2 are built from the same stage by
//! `crate::integrate::schemes`. F_c is the contact and friction force (paper Eq. 3, 16), whose
//! sliding basis and normal force are functions of q = q̂ + h v; W_vol the volume penalty (§3.4),
//! whose dense rank-one Hessian term goes to the linear solver separately (see `volume_terms`).
//!
//! Rayleigh damping D = αM + βK (paper §3.1) uses K⁺ₜ, the element stiffness at the start of the
//! step projected onto the PSD cone: damping is then linear in v (the Newton Jacobian is exact)
//! and never injects energy when the neo-Hookean stiffness is indefinite.
//! Pinned vertices are eliminated: their rows read v − v_pin = 0, their columns are dropped.

use super::contact_terms::ContactTerms;
use super::element_terms as terms;
use super::layout::SystemLayout;
use super::self_contact_terms::SelfContactTerms;
use super::surface_terms::SurfaceTerms;
use super::volume_terms::VolumeTerms;
use crate::contact::collider::vertex::LaggedFriction;
use crate::contact::self_contact::friction::FrozenPairFriction;
use crate::contact::surface::stencil_force::LaggedSurfaceFriction;
use crate::math::real::Real;
use crate::model::Model;
use crate::solve::NonlinearSystem;
use nalgebra::SMatrix;
use num_dual::Dual64;

/// Rayleigh β-damping matrices of every element, evaluated at qₜ.
#[derive(Default)]
pub struct DampingMatrices {
    tets: Vec<SMatrix<f64, 12, 12>>,
    membranes: Vec<SMatrix<f64, 9, 9>>,
    hinges: Vec<SMatrix<f64, 12, 12>>,
}

impl DampingMatrices {
    /// β K⁺ of every element at `q`.
    pub fn new(model: &Model, q: &[f64]) -> Self {
        Self {
            tets: terms::damping_matrices(&model.tets.elements, &model.tets.beta, q),
            membranes: terms::damping_matrices(&model.membranes.elements, &model.membranes.beta, q),
            hinges: terms::damping_matrices(&model.hinges.elements, &model.hinges.beta, q),
        }
    }
}

/// Friction frozen for the merit function: analytic colliders, surfaces, self-contact pairs.
type FrozenFriction = (Vec<Option<LaggedFriction>>, Vec<(f64, LaggedSurfaceFriction)>, Vec<FrozenPairFriction>);

/// Backward Euler: the implicit stage with v̂ = vₜ, q̂ = qₜ, e = 0 (paper Eq. 23).
pub type BackwardEuler<'a> = ImplicitStage<'a>;

/// One implicit stage as a nonlinear system in the stage's end velocities.
pub struct ImplicitStage<'a> {
    /// The model.
    pub model: &'a Model,
    /// Pattern and slots.
    pub layout: &'a SystemLayout,
    /// Base positions q̂ (m): the stage's positions are q̂ + h v.
    pub q_start: &'a [f64],
    /// Base velocities v̂ (m/s).
    pub v_start: &'a [f64],
    /// Effective step h (s) of the stage.
    pub h: f64,
    /// Explicit momentum e (N·s) of the stage's known force evaluations (none for BE).
    pub explicit: Option<&'a [f64]>,
    /// Gravity (m/s²).
    pub gravity: [f64; 3],
    /// Per vertex: velocity prescribed (pinned).
    pub fixed: &'a [bool],
    /// Prescribed velocities of fixed vertices in m/s (others ignored).
    pub v_fixed: &'a [f64],
    /// Damping matrices at the start of the step.
    pub damping: &'a DampingMatrices,
    /// Contact and friction against analytic colliders, if any.
    pub contact: Option<&'a ContactTerms<'a>>,
    /// Contact and friction between deforming meshes, if any.
    pub surface: Option<SurfaceTerms<'a>>,
    /// Volume-change penalties of the model.
    pub volume: VolumeTerms<'a>,
    /// Self-contact of the shells, if on.
    pub self_contact: Option<SelfContactTerms<'a>>,
    /// Jacobian blocks of surface contacts left out because the pattern lacked them.
    pub dropped_blocks: u32,
    /// Velocities (m/s) whose intersection count the caller already knows, and that count
    /// (Newton's guess, counted when it was chosen; see `with_known_intersections`).
    known_intersections: Option<(Vec<f64>, usize)>,
    /// Element Hessians projected onto the PSD cone in the Jacobian (see `set_definite`).
    definite: bool,
    /// Friction frozen at the last `freeze_merit` point: analytic colliders, surfaces, then
    /// self-contact pairs.
    frozen: FrozenFriction,
    q: Vec<f64>,
}

impl<'a> ImplicitStage<'a> {
    /// Sets up the backward Euler residual for one step from `q_start`, `v_start` (the base of
    /// other stages, see [`ImplicitStage::with_explicit`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        model: &'a Model,
        layout: &'a SystemLayout,
        q_start: &'a [f64],
        v_start: &'a [f64],
        h: f64,
        gravity: [f64; 3],
        fixed: &'a [bool],
        v_fixed: &'a [f64],
        damping: &'a DampingMatrices,
    ) -> Self {
        Self {
            model,
            layout,
            q_start,
            v_start,
            h,
            gravity,
            fixed,
            v_fixed,
            damping,
            explicit: None,
            contact: None,
            surface: None,
            volume: VolumeTerms { penalties: &model.volumes },
            self_contact: None,
            dropped_blocks: 0,
            known_intersections: None,
            definite: false,
            frozen: (Vec::new(), Vec::new(), Vec::new()),
            q: vec![0.0; q_start.len()],
        }
    }

    /// Subtracts the explicit momentum `e` (N·s) from the residual (a multi-stage scheme's known
    /// stages, e.g. (h/2) f(qₜ, vₜ) of the trapezoidal rule).
    pub fn with_explicit(mut self, explicit: Option<&'a [f64]>) -> Self {
        self.explicit = explicit;
        self
    }

    /// Adds contact and friction forces (paper Eq. 3 and 16) to the step.
    pub fn with_contact(mut self, contact: Option<&'a ContactTerms<'a>>) -> Self {
        self.contact = contact;
        self
    }

    /// Adds contact and friction between deforming meshes.
    pub fn with_surface_contact(mut self, surface: Option<SurfaceTerms<'a>>) -> Self {
        self.surface = surface;
        self
    }

    /// Adds the self-contact penalty of the shells to the step.
    pub fn with_self_contact(mut self, self_contact: Option<SelfContactTerms<'a>>) -> Self {
        self.self_contact = self_contact;
        self
    }

    /// Tells the stage that the velocities `v` (m/s) make `count` shell triangle pairs
    /// intersect, so that `intersections(v)` need not check them again.
    pub fn with_known_intersections(mut self, v: Vec<f64>, count: usize) -> Self {
        self.known_intersections = Some((v, count));
        self
    }

    /// Gathers the surface and self-contact candidates again where `q` needs it.
    fn refresh(&mut self, q: &[f64]) {
        if let Some(s) = self.surface.as_mut() {
            s.ensure_fresh(q);
        }
        if let Some(s) = self.self_contact.as_mut() {
            s.ensure_fresh(q);
        }
    }

    /// End-of-step positions q = qₜ + h v.
    pub fn positions(&self, v: &[f64]) -> Vec<f64> {
        self.q_start.iter().zip(v).map(|(q, v)| q + self.h * v).collect()
    }

    /// out += scale · (−f(q, v)) over every force term but the pins, at velocities `v` and
    /// positions `q` (any [`Real`]); the surface contact candidates must be fresh for `q`.
    /// The per-vertex terms (mass damping and gravity) are left to the caller when `!lumped`.
    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, lumped: bool, out: &mut [T]) {
        let m = self.model;
        if lumped {
            for (i, mass) in m.mass.iter().enumerate() {
                for k in 0..3 {
                    let d = 3 * i + k;
                    out[d] += (v[d] * m.alpha[i] - self.gravity[k]) * (scale * mass);
                }
            }
        }
        terms::add_gradient(&m.tets.elements, q, scale, out);
        terms::add_gradient(&m.membranes.elements, q, scale, out);
        terms::add_gradient(&m.hinges.elements, q, scale, out);
        self.volume.add_gradient(q, scale, out);
        let d = self.damping;
        terms::add_matrix_products(&m.tets.elements, &d.tets, v, scale, out);
        terms::add_matrix_products(&m.membranes.elements, &d.membranes, v, scale, out);
        terms::add_matrix_products(&m.hinges.elements, &d.hinges, v, scale, out);
        if let Some(c) = self.contact {
            c.add_forces(q, v, scale, out);
        }
        if let Some(s) = self.surface.as_ref() {
            s.add_forces(q, v, scale, out);
        }
        if let Some(s) = self.self_contact.as_ref() {
            s.add_gradient(q, scale, out);
            s.add_friction(q, v, scale, out);
        }
    }

    /// r at velocities `v` and stage positions `q` = q̂ + h v (any [`Real`]); the surface contact
    /// candidates must be fresh for the values of `q`.
    fn residual_at<T: Real + Send + Sync>(&self, q: &[T], v: &[T], out: &mut [T]) {
        let (m, h) = (self.model, self.h);
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                let e = self.explicit.map_or(0.0, |e| e[d]);
                out[d] = ((v[d] - self.v_start[d]) + v[d] * (h * m.alpha[i]) - h * self.gravity[k]) * *mass - e;
            }
        }
        self.add_negative_force(q, v, h, false, out);
        for (i, _) in self.fixed.iter().enumerate().filter(|(_, f)| **f) {
            for k in 0..3 {
                out[3 * i + k] = v[3 * i + k] - self.v_fixed[3 * i + k];
            }
        }
    }

    /// The total force f(q, v) in N at any positions and velocities (rows of pinned vertices
    /// included), with this stage's contact terms: the known stages of multi-stage schemes.
    pub fn force(&mut self, q: &[f64], v: &[f64]) -> Vec<f64> {
        self.refresh(q);
        let mut out = vec![0.0; q.len()];
        self.add_negative_force(q, v, -1.0, true, &mut out);
        out
    }

    fn update_positions(&mut self, v: &[f64]) {
        for ((q, q0), vi) in self.q.iter_mut().zip(self.q_start).zip(v) {
            *q = q0 + self.h * vi;
        }
    }
}

impl NonlinearSystem for ImplicitStage<'_> {
    fn residual(&mut self, v: &[f64], out: &mut [f64]) {
        self.update_positions(v);
        let q = std::mem::take(&mut self.q);
        self.refresh(&q);
        self.residual_at(&q, v, out);
        self.q = q;
    }

    /// J x = d/dε r(v + ε x) by forward-mode AD of the residual (dual numbers through every
    /// force term): exact, without assembling J (paper §4.3).
    fn jacobian_product(&mut self, v: &[f64], x: &[f64], out: &mut [f64]) -> bool {
        self.update_positions(v);
        let q = std::mem::take(&mut self.q);
        self.refresh(&q);
        self.q = q;
        // Pinned vertices are eliminated as in the assembled J: their columns do not act on
        // the free rows, and their rows are the identity.
        let pinned = |d: usize| self.fixed[d / 3];
        let vd: Vec<Dual64> = (0..v.len()).map(|d| Dual64::new(v[d], if pinned(d) { 0.0 } else { x[d] })).collect();
        let qd: Vec<Dual64> = self.q_start.iter().zip(&vd).map(|(&q0, &vi)| vi * self.h + q0).collect();
        let mut rd = vec![Dual64::from(0.0); v.len()];
        self.residual_at(&qd, &vd, &mut rd);
        for (d, (o, r)) in out.iter_mut().zip(&rd).enumerate() {
            *o = if pinned(d) { x[d] } else { r.eps };
        }
        true
    }

    /// The incremental potential Φ(v) = ½(v − v̂)ᵀM(v − v̂) − eᵀv + W(q) + W_vol(q) + B(q)
    /// + ½h vᵀ(αM + βK⁺ₜ)v − h vᵀMg + h D_f(v), q = q̂ + h v: elastic energy W, volume penalty
    /// W_vol, contact penalty B (self-contact W_c included), and the friction dissipation
    /// potential D_f (self-contact friction included) with the sliding basis and contact forces
    /// frozen at the point of the last `freeze_merit`. There ∇Φ = r (rows of pinned vertices
    /// aside, which Newton never moves), so Newton's line search may use Φ as its merit: its
    /// decrease guards against steps that overshoot into the cubic penalty, which ‖r‖ does not.
    fn merit(&mut self, v: &[f64]) -> Option<f64> {
        self.update_positions(v);
        let (m, h) = (self.model, self.h);
        let mut phi = 0.0;
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                let dv = v[d] - self.v_start[d];
                phi += mass * (0.5 * dv * dv + 0.5 * h * m.alpha[i] * v[d] * v[d] - h * self.gravity[k] * v[d]);
                phi -= self.explicit.map_or(0.0, |e| e[d] * v[d]);
            }
        }
        phi += self.volume.energy(&self.q);
        phi += terms::energy(&m.tets.elements, &self.q)
            + terms::energy(&m.membranes.elements, &self.q)
            + terms::energy(&m.hinges.elements, &self.q);
        let d = self.damping;
        phi += h
            * (terms::quadratic_form(&m.tets.elements, &d.tets, v)
                + terms::quadratic_form(&m.membranes.elements, &d.membranes, v)
                + terms::quadratic_form(&m.hinges.elements, &d.hinges, v));
        if let Some(c) = self.contact {
            phi += c.potential(&self.q, v, h, &self.frozen.0);
        }
        if let Some(s) = self.surface.as_mut() {
            phi += s.potential(&self.q, v, h, &self.frozen.1);
        }
        if let Some(s) = self.self_contact.as_mut() {
            phi += s.energy(&self.q) + s.friction_potential(v, h, &self.frozen.2);
        }
        Some(phi)
    }

    /// The shells' intersecting triangle pairs at q = q̂ + h v (0 without self-contact).
    fn intersections(&mut self, v: &[f64]) -> usize {
        if self.self_contact.is_none() {
            return 0;
        }
        if let Some((_, count)) = self.known_intersections.as_ref().filter(|(known, _)| known.as_slice() == v) {
            return *count;
        }
        self.update_positions(v);
        self.self_contact.as_ref().map_or(0, |s| s.intersections(&self.q))
    }

    fn freeze_merit(&mut self, v: &[f64]) {
        self.update_positions(v);
        self.frozen.0 = self.contact.map(|c| c.frozen_friction(&self.q)).unwrap_or_default();
        self.frozen.1 = match self.surface.as_mut() {
            Some(s) => s.frozen_friction(&self.q),
            None => Vec::new(),
        };
        self.frozen.2 = match self.self_contact.as_mut() {
            Some(s) => s.frozen_friction(&self.q),
            None => Vec::new(),
        };
    }

    /// The volume penalties' dense Hessian terms, h² W″(V) (∂V/∂q)(∂V/∂q)ᵀ each.
    fn low_rank(&mut self, v: &[f64]) -> Vec<(f64, Vec<f64>)> {
        if self.volume.penalties.is_empty() {
            return Vec::new();
        }
        self.update_positions(v);
        self.volume.low_rank(&self.q, self.h * self.h, self.fixed)
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
        if let Some(s) = self.surface.as_mut() {
            s.definite = definite;
        }
        if let Some(s) = self.self_contact.as_mut() {
            s.definite = definite;
        }
    }

    fn jacobian(&mut self, v: &[f64], jac: &mut [f64]) {
        self.update_positions(v);
        jac.iter_mut().for_each(|x| *x = 0.0);
        let (m, l, h) = (self.model, self.layout, self.h);
        let h2 = h * h;
        let hess_t = terms::hessians(&m.tets.elements, &self.q, self.definite);
        terms::add_matrices(&m.tets.elements, &hess_t, &l.tet_slots, h2, self.fixed, jac);
        let hess_m = terms::hessians(&m.membranes.elements, &self.q, self.definite);
        terms::add_matrices(&m.membranes.elements, &hess_m, &l.membrane_slots, h2, self.fixed, jac);
        let hess_h = terms::hessians(&m.hinges.elements, &self.q, self.definite);
        terms::add_matrices(&m.hinges.elements, &hess_h, &l.hinge_slots, h2, self.fixed, jac);
        self.volume.add_sparse_hessian(&l.pattern, &self.q, h2, self.definite, self.fixed, jac);
        let d = self.damping;
        terms::add_matrices(&m.tets.elements, &d.tets, &l.tet_slots, h, self.fixed, jac);
        terms::add_matrices(&m.membranes.elements, &d.membranes, &l.membrane_slots, h, self.fixed, jac);
        terms::add_matrices(&m.hinges.elements, &d.hinges, &l.hinge_slots, h, self.fixed, jac);
        if let Some(c) = self.contact {
            c.add_jacobian(self.q_start, &self.q, v, h, h, self.fixed, &l.diagonal_slots, jac);
        }
        if let Some(s) = self.surface.as_mut() {
            s.ensure_fresh(&self.q);
            self.dropped_blocks += s.add_jacobian(&self.q, v, h, h, self.fixed, &l.pattern, jac);
        }
        if let Some(s) = self.self_contact.as_mut() {
            self.dropped_blocks += s.add_hessian(&self.q, h2, &l.pattern, jac);
            self.dropped_blocks += s.add_friction_jacobian(&self.q, v, h, h, &l.pattern, jac);
        }
        for (i, slot) in l.diagonal_slots.iter().enumerate() {
            let diag = if self.fixed[i] { 1.0 } else { m.mass[i] * (1.0 + h * m.alpha[i]) };
            for k in 0..3u32 {
                jac[(slot.start + k * slot.stride + k) as usize] += diag;
            }
        }
    }
}
