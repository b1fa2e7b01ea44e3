//! Contact and friction of one simulated vertex against one kinematic collider over one substep:
//! the force F(x, v) on the vertex (paper Eq. 3 and 16 restricted to the pair) and its exact
//! derivative dF/dv along x = qₜ + h v, by forward-mode AD through the gap, the normal, the
//! collider's surface velocity and the friction law. The collider is any [`GapField`]: an
//! analytic shape on a rigid path ([`ColliderMotion`]) or a collider mesh's closest feature
//! (`crate::contact::collider_mesh`).

use super::pose::{rotate, to_local, AffineMap, Pose};
use super::shape::Shape;
use crate::contact::law::ContactLaw;
use crate::math::real::{c, Real, V3};
use nalgebra::{Const, Matrix3, Vector3, U1};
use num_dual::{Derivative, DualSVec64};

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

    /// Friction data at end-of-step position `x` (the implicit coupling's n, λ and collider
    /// velocity, frozen there for the Newton merit function).
    fn frozen(&self, law: &ContactLaw, x: [f64; 3]) -> LaggedFriction {
        let (d, n) = self.gap(x);
        LaggedFriction {
            normal: self.friction_normal(x, n),
            lambda: law.force(d),
            collider_velocity: self.surface_velocity(x),
        }
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

    /// Friction data at the start of the substep, for lagged coupling (paper Eq. 25): the
    /// normal, the contact force and the collider's surface velocity at `x_start`.
    pub fn lagged(&self, law: &ContactLaw, x_start: [f64; 3]) -> LaggedFriction {
        let r0 = self.start.matrix();
        let (d, n) = self.shape.gap(to_local(&r0, &self.start.translation, x_start));
        let x1 = self.start_to_end.apply(x_start);
        LaggedFriction {
            normal: rotate(&r0, n),
            lambda: law.force(d),
            collider_velocity: [0, 1, 2].map(|k| (x1[k] - x_start[k]) / self.h),
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

/// Sliding basis, contact force and collider velocity frozen at the start of the step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaggedFriction {
    /// Unit normal at qₜ.
    pub normal: [f64; 3],
    /// Contact force λ(qₜ) (N).
    pub lambda: f64,
    /// Collider surface velocity at qₜ (m/s).
    pub collider_velocity: [f64; 3],
}

/// Force (N) on a vertex at end-of-step position `x` with velocity `v`: contact λ n plus
/// friction −μ λ η(v̄), with n, λ and the collider's velocity at `x` (implicit), or frozen in
/// `lagged`.
pub fn force<T: Real>(
    law: &ContactLaw,
    motion: &impl GapField,
    mu: f64,
    lagged: Option<&LaggedFriction>,
    x: V3<T>,
    v: V3<T>,
) -> V3<T> {
    let (d, n) = motion.gap(x);
    let lambda = law.force(d);
    let mut f = n.map(|nk| nk * lambda);
    let friction = match lagged {
        _ if mu == 0.0 => None,
        None if d.re() < law.delta => {
            let vc = motion.surface_velocity(x);
            Some(law.friction(mu, lambda, motion.friction_normal(x, n), [0, 1, 2].map(|k| v[k] - vc[k])))
        }
        None => None,
        Some(l) if l.lambda > 0.0 => {
            let v_rel = [0, 1, 2].map(|k| v[k] - l.collider_velocity[k]);
            Some(law.friction(mu, c(l.lambda), l.normal.map(c::<T>), v_rel))
        }
        Some(_) => None,
    };
    if let Some(ff) = friction {
        f = [0, 1, 2].map(|k| f[k] + ff[k]);
    }
    f
}

/// Whether the pair can exert any force this substep at end position `x`.
pub fn is_active(
    law: &ContactLaw,
    motion: &impl GapField,
    mu: f64,
    lagged: Option<&LaggedFriction>,
    x: [f64; 3],
) -> bool {
    motion.gap(x).0 < law.delta || (mu > 0.0 && lagged.is_some_and(|l| l.lambda > 0.0))
}

/// F and dF/dv (N·s/m) along x = x_start + h v (so dF/dv = ∂F/∂v + h ∂F/∂x), by one forward-mode
/// pass with three dual directions.
pub fn force_and_jacobian(
    law: &ContactLaw,
    motion: &ColliderMotion,
    mu: f64,
    lagged: Option<&LaggedFriction>,
    x_start: [f64; 3],
    v: [f64; 3],
) -> ([f64; 3], Matrix3<f64>) {
    force_and_jacobian_along(law, motion, mu, lagged, x_start, v, motion.h)
}

/// F and dF/dv along x = x_base + h v for any `h` in s (an integrator stage's effective step,
/// which differs from the collider's substep `motion.h`).
pub fn force_and_jacobian_along(
    law: &ContactLaw,
    motion: &impl GapField,
    mu: f64,
    lagged: Option<&LaggedFriction>,
    x_start: [f64; 3],
    v: [f64; 3],
    h: f64,
) -> ([f64; 3], Matrix3<f64>) {
    let dv: [DualSVec64<3>; 3] =
        std::array::from_fn(|i| DualSVec64::new(v[i], Derivative::derivative_generic(Const::<3>, U1, i)));
    let dx: [DualSVec64<3>; 3] = std::array::from_fn(|i| dv[i] * h + x_start[i]);
    let f = force(law, motion, mu, lagged, dx, dv);
    let mut jac = Matrix3::zeros();
    for (row, fi) in f.iter().enumerate() {
        let d = fi.eps.unwrap_generic(Const::<3>, U1);
        for col in 0..3 {
            jac[(row, col)] = d[col];
        }
    }
    (f.map(|fi| fi.re), jac)
}
