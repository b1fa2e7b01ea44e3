//! Contact and friction of one query vertex against a deforming implicit surface over one
//! substep (paper Eq. 3 and 16 for one contact): the gap d = s·φ + o ([`GapMeasure`]: s = ±1
//! picks the side of a two-sided shell surface, +1 otherwise; o a constant offset), the penalty force λ∇d on the stencil (query vertex and
//! surface vertices; λ = −b′(d)), and smoothed Coulomb friction F = −μλ η(v̄) on the query vertex
//! with the reaction −Wⱼ F on each surface vertex j, where the relative velocity is
//! v_rel = v_query − Σⱼ Wⱼ vⱼ (the surface point under the query moves with the MLS-weighted
//! sample centroids). With implicit coupling the normal n = ∇ₓd/|∇ₓd|, λ and Wⱼ are evaluated at
//! the end of the step; lagged coupling freezes them at its start (paper Eq. 25).
//!
//! Jacobians are total derivatives along x = xₜ + h v: dF/dv = ∂F/∂v + h ∂F/∂x, with
//! ∂(λ∇d)/∂x = λ′ ∇d ∇dᵀ + λ ∇²d and the friction term by the chain rule through
//! (λ, n, v_rel) (forward-mode AD of the law in those 7 variables).

use super::first_order::FirstOrder;
use super::Potential;
use crate::contact::law::ContactLaw;
use crate::math::real::{c, dot, Real, V3};
use nalgebra::{DMatrix, DVector, Matrix3, Matrix3xX, Vector3};

/// Normals are undefined where |∇ₓφ| falls below this (only possible far inside a blend of
/// opposing samples); friction is then left out.
const MIN_NORMAL_LENGTH: f64 = 1e-9;

/// How a contact turns the potential φ into its gap: d = side·φ + offset, in m.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GapMeasure {
    /// ±1: the side of a two-sided surface the query is on (+1 for closed surfaces).
    pub side: f64,
    /// Constant added to the gap in m (≥ 0): a solid's vertices against a shell use the contact
    /// thickness, so they act only where they reach the shell's mid-surface (the shell's own
    /// vertices already keep the thickness from the solid).
    pub offset: f64,
}

impl GapMeasure {
    /// d = side·φ + offset, in m.
    pub fn gap(&self, phi: f64) -> f64 {
        self.side * phi + self.offset
    }
}

/// Forces on a stencil of vertices and, optionally, their Jacobian along v.
#[derive(Clone, Debug)]
pub struct StencilForce {
    /// Global vertices.
    pub stencil: Vec<u32>,
    /// Force on each stencil vertex, 3 per vertex (N).
    pub force: DVector<f64>,
    /// d(force)/dv (N·s/m), when asked for.
    pub jacobian: Option<DMatrix<f64>>,
}

/// Friction data frozen at the start of the substep (lagged coupling, paper Eq. 25).
#[derive(Clone, Debug, PartialEq)]
pub struct LaggedSurfaceFriction {
    /// Unit normal at qₜ.
    pub normal: [f64; 3],
    /// Contact force λ(qₜ) (N).
    pub lambda: f64,
    /// Query vertex, then the surface vertices at qₜ.
    pub stencil: Vec<u32>,
    /// Wⱼ at qₜ (0 for the query vertex).
    pub weights: Vec<f64>,
}

impl LaggedSurfaceFriction {
    /// Freezes the friction data of a potential evaluated at qₜ; `None` without contact force.
    pub fn new(law: &ContactLaw, potential: &Potential, measure: GapMeasure) -> Option<Self> {
        let lambda = law.force(measure.gap(potential.phi));
        let m = Vector3::new(potential.gradient[0], potential.gradient[1], potential.gradient[2]) * measure.side;
        (lambda > 0.0 && m.norm() > MIN_NORMAL_LENGTH).then(|| Self {
            normal: (m / m.norm()).into(),
            lambda,
            stencil: potential.stencil.clone(),
            weights: potential.vertex_weights.clone(),
        })
    }
}

impl LaggedSurfaceFriction {
    /// v_rel = v_query − Σⱼ Wⱼ vⱼ with the frozen stencil and weights (m/s).
    pub fn relative_velocity(&self, v: &[f64]) -> [f64; 3] {
        relative_velocity(&self.stencil, &self.weights, v).into()
    }
}

fn velocity(v: &[f64], vertex: u32) -> Vector3<f64> {
    let i = 3 * vertex as usize;
    Vector3::new(v[i], v[i + 1], v[i + 2])
}

/// v_rel = v_query − Σⱼ Wⱼ vⱼ.
fn relative_velocity(stencil: &[u32], weights: &[f64], v: &[f64]) -> Vector3<f64> {
    let mut vs = Vector3::zeros();
    for (&s, &w) in stencil.iter().zip(weights).skip(1) {
        vs += velocity(v, s) * w;
    }
    velocity(v, stencil[0]) - vs
}

/// Adds F on the query vertex and −Wⱼ F on the surface vertices to `force`.
fn spread(force: &mut DVector<f64>, weights: &[f64], f: &Vector3<f64>) {
    for k in 0..3 {
        force[k] += f[k];
    }
    for (j, w) in weights.iter().enumerate().skip(1) {
        for k in 0..3 {
            force[3 * j + k] -= w * f[k];
        }
    }
}

/// dF/dv of friction through v_rel only: [F_v, −W₁F_v, …] (3 × 3n).
fn velocity_jacobian(weights: &[f64], f_v: &Matrix3<f64>) -> Matrix3xX<f64> {
    let mut out = Matrix3xX::zeros(3 * weights.len());
    out.fixed_view_mut::<3, 3>(0, 0).copy_from(f_v);
    for (j, w) in weights.iter().enumerate().skip(1) {
        out.fixed_view_mut::<3, 3>(0, 3 * j).copy_from(&(f_v * -*w));
    }
    out
}

/// Adds rows of dF/dv (3 × 3n, total derivative) to the stencil Jacobian: query rows get it,
/// surface rows −Wⱼ times it.
fn spread_jacobian(jac: &mut DMatrix<f64>, weights: &[f64], d_f: &Matrix3xX<f64>) {
    let mut rows = jac.rows_mut(0, 3);
    rows += d_f;
    for (j, w) in weights.iter().enumerate().skip(1) {
        let mut rows = jac.rows_mut(3 * j, 3);
        rows -= d_f * *w;
    }
}

/// Penalty and (implicit, unless `lagged_friction`) friction forces of a contact whose potential
/// was evaluated at the end-of-step positions, on the potential's stencil; `None` when d ≥ δ.
/// `h` (s) is the substep (for the Jacobian along v); the potential must carry second
/// derivatives when `with_jacobian` and not `definite`. With `definite`, the Jacobian is the
/// modified one of Newton's safeguard: the penalty's λ′∇d∇dᵀ + λ∇²d becomes the Gauss–Newton
/// λ′∇d∇dᵀ (λ∇²d couples every stencil vertex on a deforming surface and is strongly
/// indefinite), and friction keeps its dependence on v and λ but not on the sliding basis and
/// weights — no second derivatives of φ are needed.
#[allow(clippy::too_many_arguments)]
pub fn end_of_step_force(
    law: &ContactLaw,
    mu: f64,
    potential: &Potential,
    measure: GapMeasure,
    v: &[f64],
    h: f64,
    implicit_friction: bool,
    with_jacobian: bool,
    definite: bool,
) -> Option<StencilForce> {
    let (d, side) = (measure.gap(potential.phi), measure.side);
    if !(d < law.delta) {
        return None;
    }
    let lambda = law.force(d);
    let dlambda = -6.0 * law.kappa * (law.delta - d);
    let grad = &potential.gradient * side;
    let mut force = &grad * lambda;
    let second = if with_jacobian && !definite { potential.second.as_ref() } else { None };
    let mut jacobian = if !with_jacobian {
        None
    } else if definite {
        // Gauss–Newton: λ′∇d∇dᵀ alone (negative semi-definite as λ′ ≤ 0); no second
        // derivatives of φ are needed.
        Some(&grad * grad.transpose() * (dlambda * h))
    } else {
        second.map(|s| (&grad * grad.transpose() * dlambda + &s.hessian * (side * lambda)) * h)
    };
    let m = Vector3::new(grad[0], grad[1], grad[2]);
    if implicit_friction && mu > 0.0 && m.norm() > MIN_NORMAL_LENGTH {
        let n = m / m.norm();
        let weights = &potential.vertex_weights;
        let v_rel = relative_velocity(&potential.stencil, weights, v);
        let (f, partials) = law.friction_partials(mu, lambda, &n, &v_rel);
        spread(&mut force, weights, &f);
        let f_lambda = partials.fixed_view::<3, 1>(0, 0).into_owned();
        let f_v = partials.fixed_view::<3, 3>(0, 4).into_owned();
        match (jacobian.as_mut(), second) {
            (Some(jac), Some(s)) => {
                let f_n = partials.fixed_view::<3, 3>(0, 1).into_owned();
                // ∂n/∂x = (I − n nᵀ)/|m| · ∂m/∂x, with ∂m/∂x the query rows of ∇²d.
                let dm = s.hessian.rows(0, 3) * side;
                let dn = (Matrix3::identity() - n * n.transpose()) / m.norm() * dm;
                // ∂(Σⱼ Wⱼ vⱼ)/∂x = Σⱼ vⱼ ⊗ ∇Wⱼ.
                let mut dvs = Matrix3xX::zeros(grad.len());
                for (j, &vertex) in potential.stencil.iter().enumerate().skip(1) {
                    dvs += velocity(v, vertex) * s.vertex_weight_gradients.row(j);
                }
                let df_dx = f_lambda * (grad.transpose() * dlambda) + f_n * dn - f_v * dvs;
                let df = velocity_jacobian(weights, &f_v) + df_dx * h;
                spread_jacobian(jac, weights, &df);
                // The reactions −Wⱼ F also change with Wⱼ(x): −F ⊗ ∇Wⱼ.
                for j in 1..potential.stencil.len() {
                    let mut rows = jac.rows_mut(3 * j, 3);
                    rows -= f * s.vertex_weight_gradients.row(j) * h;
                }
            }
            (Some(jac), None) => {
                // Modified Jacobian: the sliding basis and weights held fixed, λ(x) kept.
                let df = velocity_jacobian(weights, &f_v) + f_lambda * (grad.transpose() * (dlambda * h));
                spread_jacobian(jac, weights, &df);
            }
            _ => {}
        }
    }
    Some(StencilForce { stencil: potential.stencil.clone(), force, jacobian })
}

fn vertex<T: Real>(v: &[T], i: u32) -> V3<T> {
    let i = 3 * i as usize;
    [v[i], v[i + 1], v[i + 2]]
}

/// Adds F on the query vertex and −Wⱼ F on the surface vertices of a stencil (any [`Real`]).
fn spread_generic<T: Real>(force: &mut [T], weights: &[T], f: V3<T>) {
    for k in 0..3 {
        force[k] += f[k];
    }
    for (j, w) in weights.iter().enumerate().skip(1) {
        for k in 0..3 {
            force[3 * j + k] -= *w * f[k];
        }
    }
}

/// Penalty and (when `implicit_friction`) implicit friction forces on the potential's stencil
/// (in N), over [`Real`]: the residual evaluates them in `f64`, matrix-free Jacobian products in
/// dual numbers. Same law as [`end_of_step_force`]; `None` when d ≥ δ.
pub fn stencil_force<T: Real>(
    law: &ContactLaw,
    mu: f64,
    potential: &FirstOrder<T>,
    measure: GapMeasure,
    v: &[T],
    implicit_friction: bool,
) -> Option<Vec<T>> {
    let d = potential.phi * measure.side + measure.offset;
    if !(d.re() < law.delta) {
        return None;
    }
    let lambda = law.force(d);
    let grad: Vec<T> = potential.gradient.iter().map(|g| *g * measure.side).collect();
    let mut force: Vec<T> = grad.iter().map(|g| *g * lambda).collect();
    let m = [grad[0], grad[1], grad[2]];
    let len2 = dot(m, m);
    if implicit_friction && mu > 0.0 && len2.re().sqrt() > MIN_NORMAL_LENGTH {
        let len = len2.sqrt();
        let n = m.map(|x| x / len);
        let mut v_rel = vertex(v, potential.stencil[0]);
        for (&s, &w) in potential.stencil.iter().zip(&potential.vertex_weights).skip(1) {
            let vs = vertex(v, s);
            v_rel = [0, 1, 2].map(|k| v_rel[k] - vs[k] * w);
        }
        let f = law.friction(mu, lambda, n, v_rel);
        spread_generic(&mut force, &potential.vertex_weights, f);
    }
    Some(force)
}

/// Lagged friction forces on the frozen stencil (N), over [`Real`] (see
/// [`lagged_friction_force`]).
pub fn lagged_friction_generic<T: Real>(law: &ContactLaw, mu: f64, frozen: &LaggedSurfaceFriction, v: &[T]) -> Vec<T> {
    let mut v_rel = vertex(v, frozen.stencil[0]);
    for (&s, &w) in frozen.stencil.iter().zip(&frozen.weights).skip(1) {
        let vs = vertex(v, s);
        v_rel = [0, 1, 2].map(|k| v_rel[k] - vs[k] * w);
    }
    let f = law.friction(mu, c(frozen.lambda), frozen.normal.map(c::<T>), v_rel);
    let mut force = vec![c::<T>(0.0); 3 * frozen.stencil.len()];
    let weights: Vec<T> = frozen.weights.iter().map(|w| c(*w)).collect();
    spread_generic(&mut force, &weights, f);
    force
}

/// Lagged friction (paper Eq. 25): the law with n, λ and Wⱼ frozen at qₜ, on the frozen stencil.
pub fn lagged_friction_force(
    law: &ContactLaw,
    mu: f64,
    frozen: &LaggedSurfaceFriction,
    v: &[f64],
    with_jacobian: bool,
) -> StencilForce {
    let n = Vector3::from(frozen.normal);
    let v_rel = relative_velocity(&frozen.stencil, &frozen.weights, v);
    let (f, partials) = law.friction_partials(mu, frozen.lambda, &n, &v_rel);
    let mut force = DVector::zeros(3 * frozen.stencil.len());
    spread(&mut force, &frozen.weights, &f);
    let jacobian = with_jacobian.then(|| {
        let f_v = partials.fixed_view::<3, 3>(0, 4).into_owned();
        let mut jac = DMatrix::zeros(force.len(), force.len());
        spread_jacobian(&mut jac, &frozen.weights, &velocity_jacobian(&frozen.weights, &f_v));
        jac
    });
    StencilForce { stencil: frozen.stencil.clone(), force, jacobian }
}
