//! Smoothed Coulomb friction of one contact on its stencil (paper Eq. 8, 11, 16), for every
//! contact kind: the frame it acts in, the force spread onto the stencil's vertices, and the one
//! way its Jacobian is computed, by the law's partial derivatives and the chain rule (Eq. 23).
//!
//! A contact's frame is its normal force λ, its unit normal n and the relative velocity
//! v_rel = Σ kᵢvᵢ − v_c of the point P = Σ_{kᵢ≥0} kᵢxᵢ against the point Q = −Σ_{kᵢ<0} kᵢxᵢ it
//! touches, with signed stencil weights kᵢ ([`FrictionSlots`]) and v_c the prescribed velocity
//! of a collider's surface (a vertex against an analytic collider: k = (1), Q is on the collider;
//! a vertex against an implicit surface: k = (1, −W₁, …), Q under it on the surface; a pair of
//! primitives: their closest points' barycentric weights). The friction force
//! F = −μλ η(v̄) of [`ContactLaw::friction`] acts on P, so slot i receives kᵢF.
//!
//! Its Jacobian along x = x̂ + h v is [`add_friction`]'s
//! dF/dv = ∂F/∂v_rel ∂v_rel/∂v + h (∂F/∂λ ∇λ + ∂F/∂n ∂n/∂x + ∂F/∂v_rel ∂v_rel/∂x),
//! with the law's part from [`ContactLaw::friction_partials`] and the frame's slopes from the
//! contact kind ([`FrameSlopes`]), plus the reactions' own change h F ⊗ ∇kᵢ. Lagged friction
//! (Eq. 25) and the merit's friction hold the frame ([`FrozenFriction`]).

use crate::contact::ContactLaw;
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, Matrix3, OMatrix, OVector, Vector3, U1, U3};

mod frozen;

pub use frozen::{FrozenFriction, StencilBuffer};

/// The signed weights kᵢ (dimensionless) of a contact's stencil slots in P − Q = Σ kᵢxᵢ.
#[derive(Clone, Copy, Debug)]
pub struct FrictionSlots<'a> {
    /// kᵢ per slot: P's barycentric weights (≥ 0) on its slots, minus Q's on the others.
    pub weights: &'a [f64],
}

impl FrictionSlots<'_> {
    /// Adds kᵢF to slot i of `force` (3 per slot).
    fn spread<D: Dim>(&self, force: &mut OVector<f64, D>, f: &Vector3<f64>)
    where
        DefaultAllocator: Allocator<D>,
    {
        for (i, &k) in self.weights.iter().enumerate() {
            for j in 0..3 {
                force[3 * i + j] += k * f[j];
            }
        }
    }

    /// ∂F/∂v through v_rel alone, [k₀F_v, k₁F_v, …] (3 × D).
    fn velocity_jacobian<D: Dim>(&self, f_v: &Matrix3<f64>, d: D) -> OMatrix<f64, U3, D>
    where
        DefaultAllocator: Allocator<U3, D>,
    {
        let mut out = OMatrix::<f64, U3, D>::zeros_generic(U3, d);
        for (i, &k) in self.weights.iter().enumerate() {
            out.fixed_view_mut::<3, 3>(0, 3 * i).copy_from(&(f_v * k));
        }
        out
    }

    /// Adds kᵢ times the rows of dF/dv (3 × D) to slot i's rows of the stencil Jacobian.
    fn spread_jacobian<D: Dim>(&self, jac: &mut OMatrix<f64, D, D>, df: &OMatrix<f64, U3, D>)
    where
        DefaultAllocator: Allocator<D, D> + Allocator<U3, D>,
    {
        for (i, &k) in self.weights.iter().enumerate() {
            let mut rows = jac.rows_mut(3 * i, 3);
            rows += df * k;
        }
    }
}

/// ∇λ over the stencil as `scale` · `row` (1/m times N: λ′ times the gap's gradient for a penalty
/// on one gap, or any gradient with `scale` 1).
#[derive(Clone, Debug)]
pub struct LambdaSlope<D: Dim>
where
    DefaultAllocator: Allocator<U1, D>,
{
    /// The gradient's direction over the stencil coordinates.
    pub row: OMatrix<f64, U1, D>,
    /// The factor on `row`.
    pub scale: f64,
}

/// How a contact's frame varies with the stencil positions x, for the friction Jacobian along
/// x = x̂ + h v.
#[derive(Clone, Debug)]
pub enum FrameSlopes<'a, D: Dim, S: Dim>
where
    DefaultAllocator: Allocator<U1, D> + Allocator<U3, D> + Allocator<S, D>,
{
    /// λ, n and the weights frozen, v_c constant: only v_rel's dependence on v (lagged friction,
    /// paper Eq. 25).
    Frozen,
    /// n, the weights and v_c held, λ(x) kept: the modified Jacobian of Newton's safeguard.
    HeldBasis {
        /// ∇λ.
        lambda: LambdaSlope<D>,
    },
    /// The exact Jacobian (paper Eq. 23): every part of the frame varies with x.
    Exact {
        /// ∇λ.
        lambda: LambdaSlope<D>,
        /// ∂n/∂x (1/m).
        normal: OMatrix<f64, U3, D>,
        /// ∂v_rel/∂x at fixed stencil velocities (1/s): the weights' and v_c's change.
        velocity: OMatrix<f64, U3, D>,
        /// ∇kᵢ by rows, if the weights vary.
        weights: Option<WeightSlopes<'a, D, S>>,
    },
}

/// How a contact's slot weights kᵢ vary with the stencil positions: ∇kᵢ = `sign` ·
/// `rows.row(i)` (1/m) for the slots from `first` on, the weights before it constant. (A kind
/// whose weights are −Wⱼ hands over ∇Wⱼ with sign −1.)
#[derive(Clone, Debug)]
pub struct WeightSlopes<'a, D: Dim, S: Dim>
where
    DefaultAllocator: Allocator<S, D>,
{
    /// One row per slot.
    pub rows: &'a OMatrix<f64, S, D>,
    /// The first slot whose weight varies.
    pub first: usize,
    /// ±1 on every row.
    pub sign: f64,
}

/// The friction of one contact with frame (`lambda` in N, unit normal `n`, relative velocity
/// `v_rel` in m/s) on its stencil's `slots`: adds its force (N) to `force` (3 per slot) and, when
/// asked, dF/dv along x = x̂ + h v (N·s/m, `h` in s) to `jacobian`, the frame's dependence on x
/// given by `slopes` (paper Eq. 8, 16, 23). The one friction Jacobian of every contact kind.
#[allow(clippy::too_many_arguments)]
pub fn add_friction<D: Dim, S: Dim>(
    law: &ContactLaw,
    mu: f64,
    lambda: f64,
    n: &Vector3<f64>,
    v_rel: &Vector3<f64>,
    slots: &FrictionSlots,
    slopes: &FrameSlopes<D, S>,
    h: f64,
    force: &mut OVector<f64, D>,
    jacobian: Option<&mut OMatrix<f64, D, D>>,
) where
    DefaultAllocator: Allocator<D> + Allocator<D, D> + Allocator<U1, D> + Allocator<U3, D> + Allocator<S, D>,
{
    let (f, partials) = law.friction_partials(mu, lambda, n, v_rel);
    slots.spread(force, &f);
    let Some(jac) = jacobian else { return };
    let d = force.shape_generic().0;
    let f_lambda = partials.fixed_view::<3, 1>(0, 0).into_owned();
    let f_v = partials.fixed_view::<3, 3>(0, 4).into_owned();
    let df = match slopes {
        FrameSlopes::Frozen => slots.velocity_jacobian(&f_v, d),
        FrameSlopes::HeldBasis { lambda } => {
            slots.velocity_jacobian(&f_v, d) + f_lambda * (&lambda.row * (lambda.scale * h))
        }
        FrameSlopes::Exact { lambda, normal, velocity, .. } => {
            let f_n = partials.fixed_view::<3, 3>(0, 1).into_owned();
            let df_dx = f_lambda * (&lambda.row * lambda.scale) + f_n * normal + f_v * velocity;
            slots.velocity_jacobian(&f_v, d) + df_dx * h
        }
    };
    slots.spread_jacobian(jac, &df);
    // The reactions kᵢF also change with kᵢ(x): F ⊗ ∇kᵢ.
    if let FrameSlopes::Exact { weights: Some(w), .. } = slopes {
        for i in w.first..slots.weights.len() {
            let mut rows = jac.rows_mut(3 * i, 3);
            rows += f * w.rows.row(i) * (w.sign * h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
    use nalgebra::{DVector, Dyn};

    fn law(smoothing: FrictionSmoothing) -> ContactLaw {
        ContactLaw { kappa: 1.0, delta: 1e-3, epsilon: 1e-2, smoothing, coupling: FrictionCoupling::Implicit }
    }

    /// A frame that varies with x: P = x₀, Q = the mean of x₁ and x₂ moving with
    /// v_c(x) = A x₀, λ(x) = 2 + x₀·b, n(x) the unit of (1, x₀ᵧ, 3): `add_friction`'s exact
    /// Jacobian along x = x̂ + h v equals central differences of its force, and the held-basis one
    /// equals differences with n, the weights and v_c frozen.
    #[test]
    fn the_chained_jacobian_matches_differences_of_the_force() {
        let law = law(FrictionSmoothing::Quadratic);
        let (h, mu) = (0.01, 0.5);
        let a = Matrix3::new(0.3, -0.2, 0.1, 0.05, 0.4, -0.3, 0.2, 0.1, 0.25);
        let b = Vector3::new(10.0, -20.0, 5.0);
        let x_hat: Vec<f64> = (0..9).map(|i| 0.01 * (i as f64 - 4.0)).collect();
        let frame = |x: &DVector<f64>, v: &DVector<f64>| {
            let x0 = Vector3::new(x[0], x[1], x[2]);
            let lambda = 2.0 + x0.dot(&b);
            let m = Vector3::new(1.0, x[1], 3.0);
            let vc = a * x0;
            let v_rel = Vector3::new(v[0], v[1], v[2])
                - (Vector3::new(v[3], v[4], v[5]) * 0.5 + Vector3::new(v[6], v[7], v[8]) * 0.5 + vc);
            (lambda, m / m.norm(), v_rel)
        };
        let force_at = |v: &DVector<f64>, held: Option<&DVector<f64>>| {
            let x = DVector::from_fn(9, |i, _| x_hat[i] + h * v[i]);
            let (lambda, mut n, mut v_rel) = frame(&x, v);
            if let Some(v0) = held {
                let x0 = DVector::from_fn(9, |i, _| x_hat[i] + h * v0[i]);
                n = frame(&x0, v0).1;
                v_rel += a * Vector3::new(x[0], x[1], x[2]) - a * Vector3::new(x0[0], x0[1], x0[2]);
            }
            let mut force = DVector::zeros(9);
            let slots = FrictionSlots { weights: &[1.0, -0.5, -0.5] };
            let frozen: FrameSlopes<Dyn, Dyn> = FrameSlopes::Frozen;
            add_friction(&law, mu, lambda, &n, &v_rel, &slots, &frozen, h, &mut force, None);
            force
        };
        for scale in [1e-3, 0.3] {
            let v = DVector::from_fn(9, |i, _| scale * (((i * 5) % 7) as f64 - 3.0));
            let x = DVector::from_fn(9, |i, _| x_hat[i] + h * v[i]);
            let (lambda, n, v_rel) = frame(&x, &v);
            let mut row = nalgebra::RowDVector::zeros(9);
            row.fixed_view_mut::<1, 3>(0, 0).copy_from(&b.transpose());
            let m = Vector3::new(1.0, x[1], 3.0);
            let mut dm = OMatrix::<f64, U3, Dyn>::zeros(9);
            dm[(1, 1)] = 1.0;
            let normal = (Matrix3::identity() - n * n.transpose()) / m.norm() * dm;
            let mut velocity = OMatrix::<f64, U3, Dyn>::zeros(9);
            velocity.fixed_view_mut::<3, 3>(0, 0).copy_from(&-a);
            let slots = FrictionSlots { weights: &[1.0, -0.5, -0.5] };
            for exact in [true, false] {
                let lambda_slope = LambdaSlope { row: row.clone(), scale: 1.0 };
                let slopes: FrameSlopes<Dyn, Dyn> = if exact {
                    FrameSlopes::Exact {
                        lambda: lambda_slope,
                        normal: normal.clone(),
                        velocity: velocity.clone(),
                        weights: None,
                    }
                } else {
                    FrameSlopes::HeldBasis { lambda: lambda_slope }
                };
                let (mut force, mut jac) = (DVector::zeros(9), nalgebra::DMatrix::zeros(9, 9));
                add_friction(&law, mu, lambda, &n, &v_rel, &slots, &slopes, h, &mut force, Some(&mut jac));
                let step = 1e-6 * scale;
                for col in 0..9 {
                    let (mut vp, mut vm) = (v.clone(), v.clone());
                    vp[col] += step;
                    vm[col] -= step;
                    let held = (!exact).then_some(&v);
                    let fd = (force_at(&vp, held) - force_at(&vm, held)) / (2.0 * step);
                    for r in 0..9 {
                        let err = (fd[r] - jac[(r, col)]).abs();
                        assert!(
                            err < 1e-5 * jac.amax().max(1.0),
                            "exact {exact} scale {scale}: J[{r},{col}] {} vs {}",
                            jac[(r, col)],
                            fd[r]
                        );
                    }
                }
            }
        }
    }
}
