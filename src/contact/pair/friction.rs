//! Smoothed Coulomb friction of self-contact pairs, through the same fully implicit
//! sliding basis as contact with colliders and surfaces (paper §3.3, Eq. 8, 11, 16, 23).
//!
//! A pair's closest points P = Σ wᵢxᵢ on one primitive and Q = Σ wⱼxⱼ on the other
//! ([`closest_points`]) give the contact frame ([`ContactFrame`]): the weights kᵢ of the slots
//! in P − Q = Σ kᵢxᵢ (vertex–triangle: 1 and −(α, β, γ); edge–edge: (1 − s, s, t − 1, −t)), the
//! unit normal n = (P − Q)/d and the normal force λ = −b′(d) = 3κ(δ − d)² (paper Eq. 3; times
//! the mollifier m for edge–edge pairs, whose penalty is m b(d), so that friction fades with
//! the normal force where two edges turn parallel and their closest points jump). The relative
//! velocity of P against Q is v_rel = Σ kᵢvᵢ, its tangential part v̄ = (I − nnᵀ)v_rel, and the
//! friction force on P is f = −μλ s(|v̄|) v̄/|v̄| (Eq. 8, 11, [`ContactLaw::friction`]), with
//! −f on Q; slot i receives kᵢ f (Σ kᵢ = 0: momentum is conserved).
//!
//! Fully implicit coupling (Eq. 23) evaluates λ, n and kᵢ at the end-of-step positions
//! q = q̂ + h v, so they are part of the residual and of its Jacobian
//! ([`PrimitivePair::friction_jacobian`], exact: forward-mode AD of λ, n and kᵢ in x,
//! chained with the friction law's own partials by `crate::contact::friction::add_friction`).
//! Lagged coupling (Eq. 25–26) freezes them at the start of the substep
//! ([`FrozenPairFriction`]); the Newton merit function freezes them at its linearisation point
//! and uses the dissipation potential D = μλ f₀(|v̄|) ([`ContactLaw::friction_potential`]).
//! The closest-feature case is chosen from the real parts, as for the penalty.

use super::distance::closest_points;
use super::{mollifier, PairKind, PrimitivePair};
use crate::contact::friction::{add_friction, FrameSlopes, FrictionSlots, FrozenFriction, LambdaSlope, WeightSlopes};
use crate::contact::ContactLaw;
use crate::math::real::{c, Real, V3};
use nalgebra::{Const, Matrix3x4, SMatrix, SVector, Vector3, U1, U12, U4};
use num_dual::{Derivative, DualSVec64};

/// A pair's friction with its frame frozen (the lagged coupling's and the merit's).
pub type FrozenPairFriction = FrozenFriction<[u32; 4], [f64; 4]>;

/// The contact frame of one pair (a column of the sliding basis T(q) and the force λ(q) of
/// paper Eq. 16).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactFrame<T> {
    /// Normal force magnitude λ = −b′(d) (paper Eq. 3; times the mollifier m for edge–edge
    /// pairs), in N.
    pub lambda: T,
    /// Unit normal n = (P − Q)/d from the closest point of the second primitive to the first,
    /// negated for a shell–solid pair whose shell primitive is inside (σ of
    /// [`PrimitivePair::gap`]) (v̄ = (I − nnᵀ) v_rel, paper Eq. 8).
    pub normal: V3<T>,
    /// Weights kᵢ of the stencil slots in P − Q = Σ kᵢxᵢ (dimensionless, Σ kᵢ = 0): the
    /// pair's columns of T(q) in paper Eq. 16.
    pub weights: [T; 4],
}

impl<T: Real> ContactFrame<T> {
    /// v_rel = Σ kᵢvᵢ (m/s): the velocity of P relative to Q (paper Eq. 16, Tᵀv).
    pub fn relative_velocity(&self, v: &[T; 12]) -> V3<T> {
        std::array::from_fn(|k| (0..4).fold(c::<T>(0.0), |a, i| a + self.weights[i] * v[3 * i + k]))
    }

    /// The smoothed Coulomb friction −μλ η(v̄) (paper Eq. 8, 11) on P, spread to the slots as
    /// kᵢ f in N, 3 per slot; `mu` dimensionless.
    pub fn forces(&self, law: &ContactLaw, mu: f64, v: &[T; 12]) -> [T; 12] {
        let f = law.friction(mu, self.lambda, self.normal, self.relative_velocity(v));
        std::array::from_fn(|i| self.weights[i / 3] * f[i % 3])
    }
}

impl PrimitivePair {
    /// The contact frame at stencil positions `x` (paper Eq. 16), over [`Real`]; `None` when the
    /// pair exerts no force (gap ≥ δ) or has no normal (P = Q).
    pub fn contact_frame<T: Real>(&self, x: &[T; 12]) -> Option<ContactFrame<T>> {
        let xr = x.map(|v| v.re());
        let case = self.closest(&xr);
        let (d, weights, normal) = closest_points(x, case);
        if !(d.re() > 0.0) {
            return None;
        }
        // The signed gap of a shell–solid pair (`PrimitivePair::gap`): λ keeps growing
        // through the solid's surface, and n = σ(P − Q)/|P − Q| keeps its orientation there
        // (friction uses only the tangent plane of n).
        let side = self.side(x, case);
        let (d, normal) = (d * side, normal.map(|v| v * side));
        if !(d.re() < self.law.delta) {
            return None;
        }
        let lambda = match self.kind {
            PairKind::VertexTriangle => self.law.force(d),
            PairKind::EdgeEdge { eps_cross } => self.law.force(d) * mollifier(x, eps_cross).0,
        };
        (lambda.re() > 0.0).then_some(ContactFrame { lambda, normal, weights })
    }

    /// Fully implicit friction forces on the stencil (paper Eq. 8, 16, 23) at end-of-step
    /// positions `x` (m) and velocities `v` (m/s), 3 per slot (N); `None` without friction
    /// (μ = 0 or no contact force).
    pub fn friction<T: Real>(&self, x: &[T; 12], v: &[T; 12]) -> Option<[T; 12]> {
        if !(self.mu > 0.0) {
            return None;
        }
        Some(self.contact_frame(x)?.forces(&self.law, self.mu, v))
    }

    /// dF/dv (N·s/m) of [`PrimitivePair::friction`] along x = x̂ + h v (paper Eq. 23's
    /// Jacobian: ∂F/∂v + h ∂F/∂x) at `x`, `v`, by the law's partials and the chain rule
    /// ([`add_friction`]) through the frame's slopes, which forward-mode AD of the frame in x
    /// gives: exact when `exact`, through λ, n and kᵢ; otherwise with n and kᵢ held (λ(x) kept),
    /// the modified Jacobian of Newton's safeguard.
    pub fn friction_jacobian(&self, x: &[f64; 12], v: &[f64; 12], h: f64, exact: bool) -> Option<SMatrix<f64, 12, 12>> {
        if !(self.mu > 0.0) {
            return None;
        }
        let seeded: [DualSVec64<12>; 12] =
            std::array::from_fn(|i| DualSVec64::new(x[i], Derivative::derivative_generic(Const::<12>, U1, i)));
        let frame = self.contact_frame(&seeded)?;
        let slope = |t: &DualSVec64<12>| t.eps.unwrap_generic(Const::<12>, U1).transpose();
        let re = |t: &DualSVec64<12>| t.re;
        let weights = frame.weights.map(|k| re(&k));
        let n = Vector3::from(frame.normal.map(|t| re(&t)));
        let real = ContactFrame { lambda: re(&frame.lambda), normal: n.into(), weights };
        let v_rel = Vector3::from(real.relative_velocity(v));
        let lambda = LambdaSlope { row: slope(&frame.lambda), scale: 1.0 };
        let mut weight_rows = SMatrix::<f64, 4, 12>::zeros();
        for (i, k) in frame.weights.iter().enumerate() {
            weight_rows.set_row(i, &slope(k));
        }
        let slopes: FrameSlopes<U12, U4> = if exact {
            let mut normal = SMatrix::<f64, 3, 12>::zeros();
            for (i, t) in frame.normal.iter().enumerate() {
                normal.set_row(i, &slope(t));
            }
            let vk = Matrix3x4::from_fn(|r, i| v[3 * i + r]);
            let weights = Some(WeightSlopes { rows: &weight_rows, first: 0, sign: 1.0 });
            FrameSlopes::Exact { lambda, normal, velocity: vk * weight_rows, weights }
        } else {
            FrameSlopes::HeldBasis { lambda }
        };
        let (mut force, mut jac) = (SVector::<f64, 12>::zeros(), SMatrix::<f64, 12, 12>::zeros());
        let slots = FrictionSlots { weights: &weights };
        add_friction(&self.law, self.mu, real.lambda, &n, &v_rel, &slots, &slopes, h, &mut force, Some(&mut jac));
        Some(jac)
    }

    /// The pair's friction frozen at stencil positions `x` in m (paper Eq. 25: the start of the
    /// substep, or the merit's point); `None` without friction.
    pub fn frozen_friction(&self, x: &[f64; 12]) -> Option<FrozenPairFriction> {
        if !(self.mu > 0.0) {
            return None;
        }
        let frame = self.contact_frame(x)?;
        Some(FrozenFriction {
            vertices: self.vertices,
            weights: frame.weights,
            mu: self.mu,
            lambda: frame.lambda,
            normal: frame.normal,
            frame_velocity: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EdgeEdge, VertexTriangle};
    use super::*;
    use crate::contact::{FrictionCoupling, FrictionSmoothing};

    /// A vertex 1 mm above a triangle's interior and two crossing edges 1 mm apart (δ = 2 mm),
    /// with stencil velocities `v`.
    fn pairs() -> Vec<(PrimitivePair, [f64; 12])> {
        let law = ContactLaw {
            kappa: 1e6,
            delta: 0.002,
            epsilon: 1e-3,
            smoothing: FrictionSmoothing::Quadratic,
            coupling: FrictionCoupling::Implicit,
        };
        let vt = [0.2, 0.3, 0.001, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        let ee = [-0.5, 0.1, 0.001, 0.5, 0.2, 0.001, 0.1, -0.5, 0.0, 0.0, 0.5, 0.0];
        let rest: Vec<f64> = ee.to_vec();
        let mut a = PrimitivePair::vertex_triangle(VertexTriangle { vertex: 0, triangle: [1, 2, 3] }, law);
        let mut b = PrimitivePair::edge_edge(EdgeEdge { edges: [[0, 1], [2, 3]] }, law, &rest);
        (a.mu, b.mu) = (0.4, 0.4);
        vec![(a, vt), (b, ee)]
    }

    /// Friction conserves momentum (Σ forces = 0), dissipates (F · v ≤ 0), has no normal
    /// component on P, and equals −∂D/∂v of its frozen dissipation potential, in the sliding
    /// and sticking zones of both pair kinds.
    #[test]
    fn friction_is_dissipative_tangential_and_the_gradient_of_its_potential() {
        for (pair, x) in pairs() {
            for scale in [1e-4, 1e-2, 1.0] {
                let v: [f64; 12] = std::array::from_fn(|i| scale * ((i * 7 % 5) as f64 - 2.0 + 0.3 * i as f64));
                let f = pair.friction(&x, &v).expect("active pair with friction");
                let frame = pair.contact_frame(&x).unwrap();
                let total: [f64; 3] = std::array::from_fn(|k| (0..4).map(|i| f[3 * i + k]).sum());
                let power: f64 = f.iter().zip(&v).map(|(a, b)| a * b).sum();
                let fmax = f.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                assert!(fmax > 0.0 && total.iter().all(|t| t.abs() < 1e-12 * fmax), "{:?}: {total:?}", pair.kind);
                assert!(power <= 0.0, "{:?}: power {power}", pair.kind);
                let on_p: [f64; 3] = std::array::from_fn(|k| f[k] / frame.weights[0]);
                let normal: f64 = (0..3).map(|k| on_p[k] * frame.normal[k]).sum();
                assert!(normal.abs() < 1e-12 * fmax, "{:?}: normal part {normal}", pair.kind);
                let frozen = pair.frozen_friction(&x).unwrap();
                let h = 1e-7 * scale;
                for i in 0..12 {
                    let (mut vp, mut vm) = (v, v);
                    vp[i] += h;
                    vm[i] -= h;
                    let law = &pair.law;
                    let fd = (frozen.potential(law, &vp) - frozen.potential(law, &vm)) / (2.0 * h);
                    assert!((fd + f[i]).abs() < 1e-6 * fmax, "{:?}, slot {i}: {fd} vs {}", pair.kind, -f[i]);
                }
            }
        }
    }

    /// Without μ or out of reach a pair has no friction.
    #[test]
    fn no_friction_without_mu_or_contact() {
        for (mut pair, x) in pairs() {
            let v = [0.1; 12];
            let mut far = x;
            far[2] += 0.01;
            assert!(pair.friction(&far, &v).is_none() && pair.friction_jacobian(&far, &v, 0.01, true).is_none());
            pair.mu = 0.0;
            assert!(pair.friction(&x, &v).is_none() && pair.frozen_friction(&x).is_none());
        }
    }
}
