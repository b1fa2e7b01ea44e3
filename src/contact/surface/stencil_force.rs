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
//! ∂(λ∇d)/∂x = λ′ ∇d ∇dᵀ + λ ∇²d and the friction term by the law's partials chained with the
//! slopes of (λ, n, v_rel) (`crate::contact::friction::add_friction`), which the potential's
//! second derivatives give.

use super::first_order::FirstOrder;
use super::Potential;
use crate::contact::friction::{add_friction, FrameSlopes, FrictionSlots, FrozenFriction, LambdaSlope, WeightSlopes};
use crate::contact::law::ContactLaw;
use crate::math::real::{dot, Real, V3};
use nalgebra::{DMatrix, DVector, Dyn, Matrix3, Matrix3xX, Vector3};

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

/// A contact's friction with its frame frozen (lagged coupling, paper Eq. 25, and the merit's):
/// the query vertex, then the surface vertices, with weights 1 and −Wⱼ.
pub type FrozenSurfaceFriction = FrozenFriction<Vec<u32>, Vec<f64>>;

/// The friction slot weights of a potential's stencil: 1 on the query vertex, −Wⱼ on the
/// surface vertices (v_rel = v_query − Σⱼ Wⱼ vⱼ).
fn slot_weights(potential_weights: &[f64]) -> Vec<f64> {
    let mut k: Vec<f64> = potential_weights.iter().map(|w| -w).collect();
    k[0] = 1.0;
    k
}

/// The friction of a contact with coefficient `mu` frozen where `potential` was evaluated
/// (paper Eq. 25 at qₜ, or the merit's point); `None` without contact force or normal.
pub fn frozen_friction(
    law: &ContactLaw,
    mu: f64,
    potential: &Potential,
    measure: GapMeasure,
) -> Option<FrozenSurfaceFriction> {
    let lambda = law.force(measure.gap(potential.phi));
    let m = Vector3::new(potential.gradient[0], potential.gradient[1], potential.gradient[2]) * measure.side;
    (lambda > 0.0 && m.norm() > MIN_NORMAL_LENGTH).then(|| FrozenFriction {
        vertices: potential.stencil.clone(),
        weights: slot_weights(&potential.vertex_weights),
        mu,
        lambda,
        normal: (m / m.norm()).into(),
        frame_velocity: None,
    })
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
        let v_rel = relative_velocity(&potential.stencil, &potential.vertex_weights, v);
        let weights = slot_weights(&potential.vertex_weights);
        let lambda_slope = LambdaSlope { row: grad.transpose(), scale: dlambda };
        let slopes: FrameSlopes<Dyn, Dyn> = match (jacobian.is_some(), second) {
            (true, Some(s)) => {
                // ∂n/∂x = (I − n nᵀ)/|m| · ∂m/∂x, with ∂m/∂x the query rows of ∇²d.
                let dm = s.hessian.rows(0, 3) * side;
                let dn = (Matrix3::identity() - n * n.transpose()) / m.norm() * dm;
                // ∂(Σⱼ Wⱼ vⱼ)/∂x = Σⱼ vⱼ ⊗ ∇Wⱼ, which v_rel loses.
                let mut dvs = Matrix3xX::zeros(grad.len());
                for (j, &vertex) in potential.stencil.iter().enumerate().skip(1) {
                    dvs += velocity(v, vertex) * s.vertex_weight_gradients.row(j);
                }
                // The reactions' weights are −Wⱼ: their slopes −∇Wⱼ.
                let weights = Some(WeightSlopes { rows: &s.vertex_weight_gradients, first: 1, sign: -1.0 });
                FrameSlopes::Exact { lambda: lambda_slope, normal: dn, velocity: -dvs, weights }
            }
            // Modified Jacobian: the sliding basis and weights held fixed, λ(x) kept.
            (true, None) => FrameSlopes::HeldBasis { lambda: lambda_slope },
            (false, _) => FrameSlopes::Frozen,
        };
        let slots = FrictionSlots { weights: &weights };
        add_friction(law, mu, lambda, &n, &v_rel, &slots, &slopes, h, &mut force, jacobian.as_mut());
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
