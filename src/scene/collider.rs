//! Kinematic analytic colliders of a scene: a shape, its friction coefficient against every
//! object, and its [`Motion`] (a rigid pose per output frame), turned into the transforms
//! `Solver::set_collider_transform` takes.
//!
//! The pose at frame k maps the collider as defined (at frame 0) to where it is at the end of
//! frame k. Between frames the solver interpolates the pose over its substeps
//! (linear translation, slerp rotation along the shorter arc). The solver's poses are relative to
//! the shape as added, so a rotation about a pivot p away from the origin is followed along the
//! chord within a frame: the pivot strays by up to |p| (1 − cos(θ/2)) for θ radians per frame.

pub use super::motion::{apply, inverse, mul, rotate, steady, Motion, IDENTITY};
use crate::contact::{Pose, Shape};

/// One collider of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneCollider {
    /// Name, used in error messages.
    pub name: String,
    /// The shape, in world coordinates at the identity pose (start from `Shape::default()`).
    pub shape: Shape,
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
        self.shape.validated().map_err(|e| e.to_string())?;
        if !(self.mu >= 0.0 && self.mu <= 100.0) {
            return Err(format!("mu must be in [0, 100], got {}", self.mu));
        }
        self.motion.check(frames, fps)
    }

    /// The shape as the solver receives it: moved to the pose of frame 0 (so that the solver's
    /// identity pose is the initial one).
    pub fn initial_shape(&self, fps: f64) -> Shape {
        let m = self.motion.transform(0, fps);
        Shape { center: apply(&m, self.shape.center), axis: rotate(&m, self.shape.axis), ..self.shape }
    }

    /// The transform to give `set_collider_transform` before advancing into `frame`: the pose of
    /// `frame` relative to the pose of frame 0 (see [`SceneCollider::initial_shape`]).
    pub fn solver_transform(&self, frame: usize, fps: f64) -> [f64; 16] {
        let first = self.motion.transform(0, fps);
        mul(&self.motion.transform(frame, fps), &inverse(&first))
    }
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
    fn frames_after_the_first_are_relative_to_it() {
        let first = steady([0.0; 3], [0.3, 0.0, 0.0], [0.0; 3], 1.0);
        let later = steady([0.0, 0.0, 2.0], [0.3, 0.0, 0.0], [0.0; 3], 1.0);
        let c = SceneCollider {
            name: "c".into(),
            shape: Shape { center: [0.0, 1.0, 0.0], ..Shape::default() },
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
