//! Kinematic colliders of a scene: an analytic shape, its friction coefficient against every
//! object, and its motion (a rigid pose per output frame), with the 4×4 helpers that turn motions
//! into the transforms `Solver::set_collider_transform` takes.
//!
//! Matrices are column-major `[f64; 16]` (element (row, col) at `col * 4 + row`), rigid, and in
//! world coordinates: the pose at frame k maps the collider as defined (at frame 0) to where it is
//! at the end of frame k. Between frames the solver interpolates the pose over its substeps
//! (linear translation, slerp rotation along the shorter arc). The solver's poses are relative to
//! the shape as added, so a rotation about a pivot p away from the origin is followed along the
//! chord within a frame: the pivot strays by up to |p| (1 − cos(θ/2)) for θ radians per frame.

use crate::contact::{GripShape, Pose, Shape};

/// How a collider moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// It never moves.
    Fixed,
    /// The pose at the end of each frame, index 0 being the initial pose (frame 0); frames past
    /// the end of the list hold the last pose.
    Frames(Vec<[f64; 16]>),
    /// Constant linear velocity [m/s] and angular velocity [rad/s] about `pivot` [m] (the pose
    /// at frame 0 is the identity).
    Steady {
        /// Linear velocity [m/s].
        velocity: [f64; 3],
        /// Angular velocity [rad/s]; its direction is the rotation axis (right-handed).
        angular_velocity: [f64; 3],
        /// A point on the rotation axis, at t = 0 [m].
        pivot: [f64; 3],
    },
}

impl Motion {
    /// The pose at the end of `frame` (0: the initial pose) when each frame lasts 1/`fps` s.
    pub fn transform(&self, frame: usize, fps: f64) -> [f64; 16] {
        match self {
            Motion::Fixed => IDENTITY,
            Motion::Frames(poses) => poses.get(frame).or(poses.last()).copied().unwrap_or(IDENTITY),
            Motion::Steady { velocity, angular_velocity, pivot } => {
                steady(*velocity, *angular_velocity, *pivot, frame as f64 / fps)
            }
        }
    }
}

/// One collider of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneCollider {
    /// Name, used in error messages.
    pub name: String,
    /// The shape, in world coordinates at the identity pose (start from `GripShape::default()`).
    pub shape: GripShape,
    /// Friction coefficient μ (≥ 0) against every object of the scene.
    pub mu: f64,
    /// The motion.
    pub motion: Motion,
}

impl SceneCollider {
    /// Checks the shape, μ, and the poses of frames 0..=`frames`; errors name the collider.
    pub fn validate(&self, frames: usize, fps: f64) -> Result<(), String> {
        self.check(frames, fps).map_err(|m| format!("collider \"{}\": {m}", self.name))
    }

    /// [`SceneCollider::validate`] without the collider's name in the error.
    pub fn check(&self, frames: usize, fps: f64) -> Result<(), String> {
        let fail = |m: String| m;
        Shape::new(&self.shape).map_err(|e| fail(e.to_string()))?;
        if !(self.mu >= 0.0 && self.mu <= 100.0) {
            return Err(fail(format!("mu must be in [0, 100], got {}", self.mu)));
        }
        match &self.motion {
            Motion::Fixed => {}
            Motion::Frames(poses) => {
                for (k, m) in poses.iter().enumerate() {
                    Pose::from_column_major(m).map_err(|e| fail(format!("pose of frame {k}: {e}")))?;
                }
            }
            Motion::Steady { velocity, angular_velocity, pivot } => {
                let all = velocity.iter().chain(angular_velocity).chain(pivot);
                if all.clone().any(|x| !x.is_finite()) {
                    return Err(fail("velocity and angular_velocity must be finite".into()));
                }
                let per_frame = norm(*angular_velocity) / fps;
                if per_frame >= 0.9 * std::f64::consts::PI {
                    return Err(fail(format!(
                        "angular_velocity turns it {:.0}° per frame at {fps} frames/s; the solver interpolates \
                         poses along the shorter arc, so keep it below 162° per frame",
                        per_frame.to_degrees()
                    )));
                }
                for k in [0, frames] {
                    Pose::from_column_major(&self.motion.transform(k, fps))
                        .map_err(|e| fail(format!("pose of frame {k}: {e}")))?;
                }
            }
        }
        Ok(())
    }

    /// The shape as the solver receives it: moved to the pose of frame 0 (so that the solver's
    /// identity pose is the initial one).
    pub fn initial_shape(&self, fps: f64) -> GripShape {
        let m = self.motion.transform(0, fps);
        GripShape { center: apply(&m, self.shape.center), axis: rotate(&m, self.shape.axis), ..self.shape }
    }

    /// The transform to give `set_collider_transform` before advancing into `frame`: the pose of
    /// `frame` relative to the pose of frame 0 (see [`SceneCollider::initial_shape`]).
    pub fn solver_transform(&self, frame: usize, fps: f64) -> [f64; 16] {
        let first = self.motion.transform(0, fps);
        mul(&self.motion.transform(frame, fps), &inverse(&first))
    }
}

/// The identity transform.
///
/// cbindgen:ignore
pub const IDENTITY: [f64; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// a · b.
pub fn mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    std::array::from_fn(|i| {
        let (col, row) = (i / 4, i % 4);
        (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum()
    })
}

/// The inverse of a rigid transform: [Rᵀ, −Rᵀt].
pub fn inverse(m: &[f64; 16]) -> [f64; 16] {
    let mut r = IDENTITY;
    for row in 0..3 {
        for col in 0..3 {
            r[col * 4 + row] = m[row * 4 + col];
        }
        r[12 + row] = -(0..3).map(|k| m[row * 4 + k] * m[12 + k]).sum::<f64>();
    }
    r
}

/// R p + t.
pub fn apply(m: &[f64; 16], p: [f64; 3]) -> [f64; 3] {
    let r = rotate(m, p);
    [r[0] + m[12], r[1] + m[13], r[2] + m[14]]
}

/// R v.
pub fn rotate(m: &[f64; 16], v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row] * v[0] + m[4 + row] * v[1] + m[8 + row] * v[2])
}

/// The pose after `t` seconds of constant velocity `v` and angular velocity `w` about `pivot`:
/// x ↦ R(x − pivot) + pivot + v t, R the rotation by |w| t about w (Rodrigues).
pub fn steady(v: [f64; 3], w: [f64; 3], pivot: [f64; 3], t: f64) -> [f64; 16] {
    let angle = norm(w) * t;
    let mut m = IDENTITY;
    if angle != 0.0 {
        let k = w.map(|x| x / norm(w));
        let (s, c) = angle.sin_cos();
        for row in 0..3 {
            for col in 0..3 {
                let cross = match (row, col) {
                    (0, 1) => -k[2],
                    (0, 2) => k[1],
                    (1, 0) => k[2],
                    (1, 2) => -k[0],
                    (2, 0) => -k[1],
                    (2, 1) => k[0],
                    _ => 0.0,
                };
                let id = if row == col { 1.0 } else { 0.0 };
                m[col * 4 + row] = c * id + s * cross + (1.0 - c) * k[row] * k[col];
            }
        }
    }
    let rp = rotate(&m, pivot);
    for k in 0..3 {
        m[12 + k] = pivot[k] - rp[k] + v[k] * t;
    }
    m
}

/// Pose of a solver collider as a column-major matrix.
pub fn pose_matrix(p: &Pose) -> [f64; 16] {
    let r = p.matrix();
    let mut m = IDENTITY;
    for row in 0..3 {
        for col in 0..3 {
            m[col * 4 + row] = r[(row, col)];
        }
        m[12 + row] = p.translation[row];
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() < 1e-12)
    }

    #[test]
    fn steady_motion_rotates_about_the_pivot_and_translates() {
        let m = steady([1.0, 0.0, 0.0], [0.0, 0.0, std::f64::consts::FRAC_PI_2], [1.0, 0.0, 0.0], 1.0);
        Pose::from_column_major(&m).expect("rigid");
        assert!(close(apply(&m, [1.0, 0.0, 0.0]), [2.0, 0.0, 0.0]), "the pivot only translates");
        assert!(close(apply(&m, [2.0, 0.0, 0.0]), [2.0, 1.0, 0.0]), "a quarter turn about z");
        let back = mul(&inverse(&m), &m);
        assert!(back.iter().zip(IDENTITY).all(|(a, b)| (a - b).abs() < 1e-12));
    }

    #[test]
    fn frames_after_the_first_are_relative_to_it() {
        let first = steady([0.0; 3], [0.3, 0.0, 0.0], [0.0; 3], 1.0);
        let later = steady([0.0, 0.0, 2.0], [0.3, 0.0, 0.0], [0.0; 3], 1.0);
        let c = SceneCollider {
            name: "c".into(),
            shape: GripShape { center: [0.0, 1.0, 0.0], ..GripShape::default() },
            mu: 0.2,
            motion: Motion::Frames(vec![first, later]),
        };
        c.validate(5, 24.0).expect("valid");
        let s = c.initial_shape(24.0);
        assert!(close(s.center, apply(&first, [0.0, 1.0, 0.0])));
        // The solver's pose for frame 1 carries the initial shape to the pose of frame 1; frame 5 holds it.
        for frame in [1, 5] {
            let m = c.solver_transform(frame, 24.0);
            assert!(close(apply(&m, s.center), apply(&later, [0.0, 1.0, 0.0])));
        }
        let too_fast = SceneCollider {
            motion: Motion::Steady { velocity: [0.0; 3], angular_velocity: [0.0, 0.0, 100.0], pivot: [0.0; 3] },
            ..c
        };
        assert!(too_fast.validate(5, 24.0).unwrap_err().contains("per frame"));
    }
}
