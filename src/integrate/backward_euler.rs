//! Backward Euler in velocity form (paper Eq. 23):
//! r(v) = M(v − vₜ) − h f(qₜ + h v, v), f = −∇W(q) − (αM + βK⁺ₜ) v + M g,
//! J(v) = M + h(αM + βK⁺ₜ) + h² ∇²W(q) − h dF_c/dv, with F_c the contact and friction forces
//! (paper Eq. 3, 16), whose sliding basis and normal force are functions of q = qₜ + h v.
//!
//! Rayleigh damping D = αM + βK (paper §3.1) uses K⁺ₜ, the element stiffness at the start of the
//! step projected onto the PSD cone: damping is then linear in v (the Newton Jacobian is exact)
//! and never injects energy when the neo-Hookean stiffness is indefinite.
//! Pinned vertices are eliminated: their rows read v − v_pin = 0, their columns are dropped.

use super::contact_terms::ContactTerms;
use super::element_terms as terms;
use super::layout::SystemLayout;
use super::surface_terms::SurfaceTerms;
use crate::contact::surface_contact::LaggedSurfaceFriction;
use crate::contact::vertex_collider::LaggedFriction;
use crate::energy::real::Real;
use crate::scene::Model;
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

/// One backward Euler step as a nonlinear system in the end-of-step velocities.
pub struct BackwardEuler<'a> {
    /// The model.
    pub model: &'a Model,
    /// Pattern and slots.
    pub layout: &'a SystemLayout,
    /// Positions at the start of the step [m].
    pub q_start: &'a [f64],
    /// Velocities at the start of the step [m/s].
    pub v_start: &'a [f64],
    /// Step size h [s].
    pub h: f64,
    /// Gravity [m/s²].
    pub gravity: [f64; 3],
    /// Per vertex: velocity prescribed (pinned).
    pub fixed: &'a [bool],
    /// Prescribed velocities of fixed vertices [m/s] (others ignored).
    pub v_fixed: &'a [f64],
    /// Damping matrices at the start of the step.
    pub damping: &'a DampingMatrices,
    /// Contact and friction against analytic colliders, if any.
    pub contact: Option<&'a ContactTerms<'a>>,
    /// Contact and friction between deforming meshes, if any.
    pub surface: Option<SurfaceTerms<'a>>,
    /// Jacobian blocks of surface contacts left out because the pattern lacked them.
    pub dropped_blocks: u32,
    /// Element Hessians projected onto the PSD cone in the Jacobian (see `set_definite`).
    definite: bool,
    /// Friction frozen at the last `freeze_merit` point: analytic colliders, then surfaces.
    frozen: (Vec<Option<LaggedFriction>>, Vec<(f64, LaggedSurfaceFriction)>),
    q: Vec<f64>,
}

impl<'a> BackwardEuler<'a> {
    /// Sets up the residual for one step.
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
            contact: None,
            surface: None,
            dropped_blocks: 0,
            definite: false,
            frozen: (Vec::new(), Vec::new()),
            q: vec![0.0; q_start.len()],
        }
    }

    /// Adds contact and friction forces (paper Eq. 3 and 16) to the step.
    pub fn with_contact(mut self, contact: Option<&'a ContactTerms<'a>>) -> Self {
        self.contact = contact;
        self
    }

    /// Adds contact and friction between deforming meshes (issue 4).
    pub fn with_surface_contact(mut self, surface: Option<SurfaceTerms<'a>>) -> Self {
        self.surface = surface;
        self
    }

    /// End-of-step positions q = qₜ + h v.
    pub fn positions(&self, v: &[f64]) -> Vec<f64> {
        self.q_start.iter().zip(v).map(|(q, v)| q + self.h * v).collect()
    }

    /// r at velocities `v` and end positions `q` = qₜ + h v (any [`Real`]); the surface contact
    /// candidates must be fresh for the values of `q`.
    fn residual_at<T: Real + Send + Sync>(&self, q: &[T], v: &[T], out: &mut [T]) {
        let (m, h) = (self.model, self.h);
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                out[d] = ((v[d] - self.v_start[d]) + v[d] * (h * m.alpha[i]) - h * self.gravity[k]) * *mass;
            }
        }
        terms::add_gradient(&m.tets.elements, q, h, out);
        terms::add_gradient(&m.membranes.elements, q, h, out);
        terms::add_gradient(&m.hinges.elements, q, h, out);
        let d = self.damping;
        terms::add_matrix_products(&m.tets.elements, &d.tets, v, h, out);
        terms::add_matrix_products(&m.membranes.elements, &d.membranes, v, h, out);
        terms::add_matrix_products(&m.hinges.elements, &d.hinges, v, h, out);
        if let Some(c) = self.contact {
            c.add_forces(q, v, h, out);
        }
        if let Some(s) = self.surface.as_ref() {
            s.add_forces(q, v, h, out);
        }
        for (i, _) in self.fixed.iter().enumerate().filter(|(_, f)| **f) {
            for k in 0..3 {
                out[3 * i + k] = v[3 * i + k] - self.v_fixed[3 * i + k];
            }
        }
    }

    fn update_positions(&mut self, v: &[f64]) {
        for ((q, q0), vi) in self.q.iter_mut().zip(self.q_start).zip(v) {
            *q = q0 + self.h * vi;
        }
    }
}

impl NonlinearSystem for BackwardEuler<'_> {
    fn residual(&mut self, v: &[f64], out: &mut [f64]) {
        self.update_positions(v);
        if let Some(s) = self.surface.as_mut() {
            s.ensure_fresh(&self.q);
        }
        let q = std::mem::take(&mut self.q);
        self.residual_at(&q, v, out);
        self.q = q;
    }

    /// J x = d/dε r(v + ε x) by forward-mode AD of the residual (dual numbers through every
    /// force term): exact, without assembling J (paper §4.3).
    fn jacobian_product(&mut self, v: &[f64], x: &[f64], out: &mut [f64]) -> bool {
        self.update_positions(v);
        if let Some(s) = self.surface.as_mut() {
            s.ensure_fresh(&self.q);
        }
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

    /// The incremental potential Φ(v) = ½(v − vₜ)ᵀM(v − vₜ) + W(q) + B(q) + ½h vᵀ(αM + βK⁺ₜ)v
    /// − h vᵀMg + h D_f(v), q = qₜ + h v: elastic energy W, contact penalty B, and the friction
    /// dissipation potential D_f with the sliding basis and contact forces frozen at the point of
    /// the last `freeze_merit`. There ∇Φ = r (rows of pinned vertices aside, which Newton never
    /// moves), so Newton's line search may use Φ as its merit: its decrease guards against steps
    /// that overshoot into the cubic penalty, which ‖r‖ does not.
    fn merit(&mut self, v: &[f64]) -> Option<f64> {
        self.update_positions(v);
        let (m, h) = (self.model, self.h);
        let mut phi = 0.0;
        for (i, mass) in m.mass.iter().enumerate() {
            for k in 0..3 {
                let d = 3 * i + k;
                let dv = v[d] - self.v_start[d];
                phi += mass * (0.5 * dv * dv + 0.5 * h * m.alpha[i] * v[d] * v[d] - h * self.gravity[k] * v[d]);
            }
        }
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
        Some(phi)
    }

    fn freeze_merit(&mut self, v: &[f64]) {
        self.update_positions(v);
        self.frozen.0 = self.contact.map(|c| c.frozen_friction(&self.q)).unwrap_or_default();
        self.frozen.1 = match self.surface.as_mut() {
            Some(s) => s.frozen_friction(&self.q),
            None => Vec::new(),
        };
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
        if let Some(s) = self.surface.as_mut() {
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
        let d = self.damping;
        terms::add_matrices(&m.tets.elements, &d.tets, &l.tet_slots, h, self.fixed, jac);
        terms::add_matrices(&m.membranes.elements, &d.membranes, &l.membrane_slots, h, self.fixed, jac);
        terms::add_matrices(&m.hinges.elements, &d.hinges, &l.hinge_slots, h, self.fixed, jac);
        if let Some(c) = self.contact {
            c.add_jacobian(self.q_start, &self.q, v, h, self.fixed, &l.diagonal_slots, jac);
        }
        if let Some(s) = self.surface.as_mut() {
            s.ensure_fresh(&self.q);
            self.dropped_blocks += s.add_jacobian(&self.q, v, h, h, self.fixed, &l.pattern, jac);
        }
        for (i, slot) in l.diagonal_slots.iter().enumerate() {
            let diag = if self.fixed[i] { 1.0 } else { m.mass[i] * (1.0 + h * m.alpha[i]) };
            for k in 0..3u32 {
                jac[(slot.start + k * slot.stride + k) as usize] += diag;
            }
        }
    }
}
