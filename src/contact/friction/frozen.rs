//! A contact's friction with its frame frozen ([`FrozenFriction`]): the lagged coupling's (paper
//! Eq. 25–26) and the Newton merit function's, with its force, its Jacobian (by
//! [`super::add_friction`]) and its dissipation potential.

use super::{add_friction, FrameSlopes, FrictionSlots};
use crate::contact::ContactLaw;
use crate::math::real::{c, Real, V3};
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector, Vector3, U1, U3};

/// Storage for a stencil's per-coordinate values: a fixed array, or a `Vec` for stencils of
/// varying size.
pub trait StencilBuffer<T>: AsRef<[T]> + AsMut<[T]> {
    /// `len` copies of `value` (a fixed array has its own length).
    fn filled(len: usize, value: T) -> Self;
}

impl<T: Copy, const N: usize> StencilBuffer<T> for [T; N] {
    fn filled(_len: usize, value: T) -> Self {
        [value; N]
    }
}

impl<T: Clone> StencilBuffer<T> for Vec<T> {
    fn filled(len: usize, value: T) -> Self {
        vec![value; len]
    }
}

/// A contact's friction with its frame frozen at one configuration: the lagged coupling's (at
/// the start of the substep, paper Eq. 25–26) and the Newton merit function's (at its point).
/// `V` holds the stencil's vertices, `W` their weights kᵢ ([`FrictionSlots`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FrozenFriction<V, W> {
    /// Global vertices of the stencil.
    pub vertices: V,
    /// The slots' weights kᵢ (dimensionless).
    pub weights: W,
    /// Friction coefficient μ (dimensionless).
    pub mu: f64,
    /// Normal force λ (N).
    pub lambda: f64,
    /// Unit normal n.
    pub normal: [f64; 3],
    /// The prescribed velocity v_c (m/s) of a collider's surface Q moves with, if any.
    pub frame_velocity: Option<[f64; 3]>,
}

impl<V: AsRef<[u32]>, W: AsRef<[f64]>> FrozenFriction<V, W> {
    /// The slots of the frozen frame.
    pub fn slots(&self) -> FrictionSlots<'_> {
        FrictionSlots { weights: self.weights.as_ref() }
    }

    /// v_rel = v_P − (v_Q + v_c) in m/s at global velocities `v` (3 per vertex), with
    /// v_P = Σ_{kᵢ≥0} kᵢvᵢ and v_Q = −Σ_{kᵢ<0} kᵢvᵢ.
    pub fn relative_velocity<T: Real>(&self, v: &[T]) -> V3<T> {
        let mut p: Option<V3<T>> = None;
        let mut q = [c::<T>(0.0); 3];
        for (&vertex, &k) in self.vertices.as_ref().iter().zip(self.weights.as_ref()) {
            let j = 3 * vertex as usize;
            let x = [v[j], v[j + 1], v[j + 2]];
            if k >= 0.0 {
                p = Some(match p {
                    Some(p) => [0, 1, 2].map(|i| p[i] + x[i] * k),
                    None => x.map(|xi| xi * k),
                });
            } else {
                q = [0, 1, 2].map(|i| q[i] + x[i] * -k);
            }
        }
        if let Some(vc) = self.frame_velocity {
            q = [0, 1, 2].map(|i| q[i] + vc[i]);
        }
        let p = p.unwrap_or([c(0.0); 3]);
        [0, 1, 2].map(|i| p[i] - q[i])
    }

    /// The friction forces (N, paper Eq. 25) on the stencil at global velocities `v`, 3 per slot.
    pub fn forces<T: Real, B: StencilBuffer<T>>(&self, law: &ContactLaw, v: &[T]) -> B {
        let f = law.friction(self.mu, c(self.lambda), self.normal.map(c::<T>), self.relative_velocity(v));
        let weights = self.weights.as_ref();
        let mut out = B::filled(3 * weights.len(), c(0.0));
        let values = out.as_mut();
        for (i, &k) in weights.iter().enumerate() {
            for j in 0..3 {
                values[3 * i + j] = f[j] * k;
            }
        }
        out
    }

    /// dF/dv (N·s/m) of [`FrozenFriction::forces`] at global velocities `v`, a D × D stencil
    /// matrix for the stencil's D = 3 × slots coordinates (exact: only v_rel varies).
    pub fn jacobian<D: Dim>(&self, law: &ContactLaw, v: &[f64], d: D) -> OMatrix<f64, D, D>
    where
        DefaultAllocator: Allocator<D> + Allocator<D, D> + Allocator<U1, D> + Allocator<U3, D>,
    {
        let mut force = OVector::<f64, D>::zeros_generic(d, U1);
        let mut jac = OMatrix::<f64, D, D>::zeros_generic(d, d);
        let (n, v_rel) = (Vector3::from(self.normal), Vector3::from(self.relative_velocity(v)));
        let slopes: FrameSlopes<D, U1> = FrameSlopes::Frozen;
        add_friction(law, self.mu, self.lambda, &n, &v_rel, &self.slots(), &slopes, 0.0, &mut force, Some(&mut jac));
        jac
    }

    /// The dissipation potential D = μλ f₀(|v̄|) in W whose negative gradient in the stencil's
    /// velocities is [`FrozenFriction::forces`] (paper Eq. 14–15 integrated; the merit's friction).
    pub fn potential(&self, law: &ContactLaw, v: &[f64]) -> f64 {
        law.friction_potential(self.mu, self.lambda, self.normal, self.relative_velocity(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
    use nalgebra::Const;

    fn law(smoothing: FrictionSmoothing) -> ContactLaw {
        ContactLaw { kappa: 1.0, delta: 1e-3, epsilon: 1e-2, smoothing, coupling: FrictionCoupling::Implicit }
    }

    /// A frozen frame on three vertices: P = vertex 0 and 4 (weights 0.3, 0.7), Q = vertex 2.
    fn frozen(frame_velocity: Option<[f64; 3]>) -> FrozenFriction<[u32; 3], [f64; 3]> {
        FrozenFriction {
            vertices: [0, 4, 2],
            weights: [0.3, 0.7, -1.0],
            mu: 0.4,
            lambda: 2.5,
            normal: [0.0, 0.6, 0.8],
            frame_velocity,
        }
    }

    /// −∇D is the frozen force, its Jacobian matches central differences of it, and the forces
    /// on P and Q cancel (without a collider), in the stick and slip zones of both smoothings.
    #[test]
    fn frozen_friction_is_the_potentials_gradient_and_its_jacobian_matches_differences() {
        for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
            let law = law(smoothing);
            for (scale, vc) in [(1e-3, None), (1.0, None), (0.1, Some([0.02, -0.01, 0.03]))] {
                let fr = frozen(vc);
                let v: Vec<f64> = (0..15).map(|i| scale * ((i * 7 % 5) as f64 - 2.0 + 0.3 * i as f64)).collect();
                let f: [f64; 9] = fr.forces(&law, &v);
                if vc.is_none() {
                    let total: f64 = (0..3).map(|k| f[k] + f[3 + k] + f[6 + k]).map(f64::abs).sum();
                    assert!(total < 1e-12, "{total}");
                }
                let jac = fr.jacobian(&law, &v, Const::<9>);
                let step = 1e-7 * scale;
                for (slot, &vertex) in fr.vertices.iter().enumerate() {
                    for k in 0..3 {
                        let (mut vp, mut vm) = (v.clone(), v.clone());
                        vp[3 * vertex as usize + k] += step;
                        vm[3 * vertex as usize + k] -= step;
                        let fd = (fr.potential(&law, &vp) - fr.potential(&law, &vm)) / (2.0 * step);
                        assert!(
                            (fd + f[3 * slot + k]).abs() < 1e-6,
                            "{smoothing:?} slot {slot}: {fd} vs {}",
                            f[3 * slot + k]
                        );
                        let (fp, fm): ([f64; 9], [f64; 9]) = (fr.forces(&law, &vp), fr.forces(&law, &vm));
                        for row in 0..9 {
                            let fd = (fp[row] - fm[row]) / (2.0 * step);
                            let col = 3 * slot + k;
                            assert!((fd - jac[(row, col)]).abs() < 1e-5 * jac.amax().max(1.0), "J[{row},{col}]");
                        }
                    }
                }
            }
        }
    }
}
