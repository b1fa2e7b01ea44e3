//! Contact and friction of one simulated vertex against one kinematic collider over one substep:
//! the force F(x, v) on the vertex (paper Eq. 3 and 16 restricted to the pair) and its exact
//! derivative dF/dv along x = qₜ + h v: the penalty λn by forward-mode AD through the gap and
//! its normal, the friction by the law's partials chained with the slopes of λ, the friction
//! normal and the collider's surface velocity (`crate::contact::friction::add_friction`), which
//! the same AD pass gives. The collider is any [`GapField`]: an analytic shape on a rigid path
//! ([`ColliderMotion`]) or a collider mesh's closest feature (`crate::contact::collider_mesh`).

use super::pose::{rotate, to_local, AffineMap, Pose};
use super::shape::Shape;
use crate::contact::friction::{add_friction, FrameSlopes, FrictionSlots, FrozenFriction, LambdaSlope};
use crate::contact::law::ContactLaw;
use crate::math::real::{Real, V3};
use nalgebra::{Const, Matrix3, RowVector3, Vector3, U1, U3};
use num_dual::{Derivative, DualSVec64};

/// A vertex's friction against a collider with its frame frozen (lagged coupling, the merit's).
pub type FrozenVertexFriction = FrozenFriction<[u32; 1], [f64; 1]>;

/// What a vertex's contact needs of a kinematic collider at the end of a stage: the signed gap
/// with its unit normal, and the velocity of the collider's surface, at any point near it.
pub trait GapField {
    /// Gap d(x) in m (negative inside the collider) and the unit normal n = ∇d at world point `x`.
    fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>);

    /// Velocity (m/s) of the collider's surface point nearest to `x`.
    fn surface_velocity<T: Real>(&self, x: V3<T>) -> V3<T>;

    /// The unit normal whose tangent plane the friction acts in at `x`, given the gap's normal
    /// `n` there: `n` itself unless the collider smooths it (a collider mesh, whose gap normal
    /// turns over a length equal to the gap at its edges and corners).
    fn friction_normal<T: Real>(&self, _x: V3<T>, n: V3<T>) -> V3<T> {
        n
    }

    /// The friction of `vertex` at end-of-step position `x` (m), with coefficient `mu`: the
    /// implicit coupling's n, λ and collider velocity, frozen there for the Newton merit function.
    fn frozen(&self, law: &ContactLaw, mu: f64, vertex: u32, x: [f64; 3]) -> FrozenVertexFriction {
        let (d, n) = self.gap(x);
        FrozenFriction {
            vertices: [vertex],
            weights: [1.0],
            mu,
            lambda: law.force(d),
            normal: self.friction_normal(x, n),
            frame_velocity: Some(self.surface_velocity(x)),
        }
    }
}

impl<G: GapField> GapField for &G {
    fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>) {
        (**self).gap(x)
    }

    fn surface_velocity<T: Real>(&self, x: V3<T>) -> V3<T> {
        (**self).surface_velocity(x)
    }

    fn friction_normal<T: Real>(&self, x: V3<T>, n: V3<T>) -> V3<T> {
        (**self).friction_normal(x, n)
    }
}

/// A collider over one substep: its shape, its pose at the end, and the rigid motion that
/// relates the two ends (for the surface velocity).
#[derive(Clone, Copy, Debug)]
pub struct ColliderMotion {
    /// The shape in its definition frame.
    pub shape: Shape,
    /// Rotation of the pose at the end of the substep.
    pub rotation: Matrix3<f64>,
    /// Translation of the pose at the end of the substep (m).
    pub translation: Vector3<f64>,
    /// Maps a body point at the end pose to where it was at the start pose.
    pub end_to_start: AffineMap,
    /// Maps a body point at the start pose to where it is at the end pose.
    pub start_to_end: AffineMap,
    /// Rotation and translation of the start pose.
    pub start: Pose,
    /// Substep length h (s).
    pub h: f64,
}

impl ColliderMotion {
    /// The collider moving from pose `start` to pose `end` in `h` seconds.
    pub fn new(shape: Shape, start: Pose, end: Pose, h: f64) -> Self {
        Self {
            shape,
            rotation: end.matrix(),
            translation: end.translation,
            end_to_start: end.map_to(&start),
            start_to_end: start.map_to(&end),
            start,
            h,
        }
    }

    /// The collider frozen at the start of this substep, moving with the same rigid velocity:
    /// its gap is the start pose's, its surface velocity at x is (A x + b − x)/h with A x + b
    /// the start-to-end motion (the forward difference also used by lagged friction). For forces
    /// at the start of a step (the explicit part of the trapezoidal rule, paper Eq. 24/27).
    pub fn at_start(&self) -> Self {
        let m = self.start_to_end;
        let two = nalgebra::Matrix3::identity() * 2.0;
        Self {
            shape: self.shape,
            rotation: self.start.matrix(),
            translation: self.start.translation,
            end_to_start: AffineMap { a: two - m.a, b: -m.b },
            start_to_end: m,
            start: self.start,
            h: self.h,
        }
    }

    /// The friction of `vertex` with coefficient `mu` frozen at the start of the substep, for
    /// lagged coupling (paper Eq. 25): the normal, the contact force and the collider's surface
    /// velocity at `x_start` (m).
    pub fn lagged(&self, law: &ContactLaw, mu: f64, vertex: u32, x_start: [f64; 3]) -> FrozenVertexFriction {
        let r0 = self.start.matrix();
        let (d, n) = self.shape.gap(to_local(&r0, &self.start.translation, x_start));
        let x1 = self.start_to_end.apply(x_start);
        FrozenFriction {
            vertices: [vertex],
            weights: [1.0],
            mu,
            lambda: law.force(d),
            normal: rotate(&r0, n),
            frame_velocity: Some([0, 1, 2].map(|k| (x1[k] - x_start[k]) / self.h)),
        }
    }
}

impl GapField for ColliderMotion {
    /// Gap (m) and world unit normal at world point `x` at the end of the substep.
    fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>) {
        let (d, n) = self.shape.gap(to_local(&self.rotation, &self.translation, x));
        (d, rotate(&self.rotation, n))
    }

    /// Velocity (m/s) of the collider's surface point that is at `x` at the end of the substep:
    /// (x − x_start)/h, x_start where that body point was at the start.
    fn surface_velocity<T: Real>(&self, x: V3<T>) -> V3<T> {
        let x0 = self.end_to_start.apply(x);
        [0, 1, 2].map(|k| (x[k] - x0[k]) * (1.0 / self.h))
    }
}

/// Force (N) on a vertex at end-of-step position `x` (m) with velocity `v` (m/s): contact λ n
/// plus, with `mu` > 0 within the contact thickness, the fully implicit friction −μλ η(v̄)
/// with n, λ and the collider's velocity at `x` (paper Eq. 3, 16, 23).
pub fn force<T: Real>(law: &ContactLaw, field: &impl GapField, mu: f64, x: V3<T>, v: V3<T>) -> V3<T> {
    let (d, n) = field.gap(x);
    let lambda = law.force(d);
    let f = n.map(|nk| nk * lambda);
    if mu == 0.0 || !(d.re() < law.delta) {
        return f;
    }
    let vc = field.surface_velocity(x);
    let friction = law.friction(mu, lambda, field.friction_normal(x, n), [0, 1, 2].map(|k| v[k] - vc[k]));
    [0, 1, 2].map(|k| f[k] + friction[k])
}

/// F and dF/dv (N·s/m) along x = x_base + h v for any `h` in s (an integrator stage's effective
/// step, which may differ from the collider's substep): one forward-mode pass in x with three
/// dual directions gives the penalty's Jacobian h ∂(λn)/∂x and the slopes of λ, the friction
/// normal and the surface velocity, which the friction law's partials chain
/// ([`add_friction`]).
pub fn force_and_jacobian_along(
    law: &ContactLaw,
    field: &impl GapField,
    mu: f64,
    x_base: [f64; 3],
    v: [f64; 3],
    h: f64,
) -> ([f64; 3], Matrix3<f64>) {
    let x: [f64; 3] = std::array::from_fn(|i| x_base[i] + h * v[i]);
    let seeded: [DualSVec64<3>; 3] =
        std::array::from_fn(|i| DualSVec64::new(x[i], Derivative::derivative_generic(Const::<3>, U1, i)));
    let slope = |t: &DualSVec64<3>| -> RowVector3<f64> { t.eps.unwrap_generic(Const::<3>, U1).transpose() };
    let rows = |t: &[DualSVec64<3>; 3]| Matrix3::from_rows(&[slope(&t[0]), slope(&t[1]), slope(&t[2])]);
    let (d, n) = field.gap(seeded);
    let lambda = law.force(d);
    let penalty = n.map(|nk| nk * lambda);
    let mut force = Vector3::new(penalty[0].re, penalty[1].re, penalty[2].re);
    let mut jacobian = rows(&penalty) * h;
    if mu != 0.0 && d.re < law.delta {
        let normal = field.friction_normal(seeded, n);
        let vc = field.surface_velocity(seeded);
        let v_rel = Vector3::new(v[0] - vc[0].re, v[1] - vc[1].re, v[2] - vc[2].re);
        let slopes: FrameSlopes<U3, U1> = FrameSlopes::Exact {
            lambda: LambdaSlope { row: slope(&lambda), scale: 1.0 },
            normal: rows(&normal),
            velocity: -rows(&vc),
            weights: None,
        };
        let unit = Vector3::new(normal[0].re, normal[1].re, normal[2].re);
        let slots = FrictionSlots { weights: &[1.0] };
        add_friction(law, mu, lambda.re, &unit, &v_rel, &slots, &slopes, h, &mut force, Some(&mut jacobian));
    }
    (force.into(), jacobian)
}

/// F and dF/dv (N·s/m) of a vertex against a collider moving over its substep, along
/// x = x_start + h v with h the substep.
pub fn force_and_jacobian(
    law: &ContactLaw,
    motion: &ColliderMotion,
    mu: f64,
    x_start: [f64; 3],
    v: [f64; 3],
) -> ([f64; 3], Matrix3<f64>) {
    force_and_jacobian_along(law, motion, mu, x_start, v, motion.h)
}
