//! Rigid motions of the kinematic parts of a scene (analytic colliders, collider meshes, pin
//! groups): a pose per output frame, and the 4×4 helpers that compose them.
//!
//! Matrices are column-major `[f64; 16]` (element (row, col) at `col * 4 + row`), rigid, and in
//! world coordinates: the pose at frame k maps the part as defined (at t = 0) to where it is at
//! the end of frame k, t = k / fps.

use crate::math::real::norm;

/// Easing of a [`Motion::Hinge`]: the fraction of the angle reached at the fraction `u` ∈ [0, 1]
/// of the duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ease {
    /// Smoothstep 3u² − 2u³: starts and ends at rest (largest slope 1.5 at u = ½).
    Smoothstep,
    /// u: constant angular velocity.
    Linear,
}

impl Ease {
    /// The eased fraction of `u` (clamped to [0, 1] first).
    pub fn apply(self, u: f64) -> f64 {
        let u = u.clamp(0.0, 1.0);
        match self {
            Ease::Smoothstep => u * u * (3.0 - 2.0 * u),
            Ease::Linear => u,
        }
    }

    /// Largest slope d(ease)/du over [0, 1].
    fn max_slope(self) -> f64 {
        match self {
            Ease::Smoothstep => 1.5,
            Ease::Linear => 1.0,
        }
    }

    /// The name used in scene files.
    pub fn name(self) -> &'static str {
        match self {
            Ease::Smoothstep => "smoothstep",
            Ease::Linear => "linear",
        }
    }
}

/// How a kinematic part moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// It never moves.
    Fixed,
    /// The pose at the end of each frame, index 0 being the initial pose (frame 0); frames past
    /// the end of the list hold the last pose.
    Frames(Vec<[f64; 16]>),
    /// Constant linear velocity (m/s) and angular velocity (rad/s) about `pivot` in m (the pose
    /// at t = 0 is the identity).
    Steady {
        /// Linear velocity (m/s).
        velocity: [f64; 3],
        /// Angular velocity (rad/s); its direction is the rotation axis (right-handed).
        angular_velocity: [f64; 3],
        /// A point on the rotation axis, at t = 0 (m).
        pivot: [f64; 3],
    },
    /// Rotation by θ(t) = angle · ease(u), u = clamp((t − start) / duration, 0, 1), about the
    /// line through `pivot` along `axis` (right-handed); a zero duration turns at once at
    /// `start`.
    Hinge {
        /// Rotation axis (any length > 0).
        axis: [f64; 3],
        /// A point on the rotation axis (m).
        pivot: [f64; 3],
        /// Final angle (degrees).
        angle_deg: f64,
        /// When the rotation starts (s).
        start: f64,
        /// How long it takes in s (≥ 0).
        duration: f64,
        /// The easing of the angle over the duration.
        ease: Ease,
    },
}

impl Motion {
    /// The pose at the end of `frame` (0: the initial pose) when each frame lasts 1/`fps` s.
    pub fn transform(&self, frame: usize, fps: f64) -> [f64; 16] {
        let t = frame as f64 / fps;
        match self {
            Motion::Fixed => IDENTITY,
            Motion::Frames(poses) => poses.get(frame).or(poses.last()).copied().unwrap_or(IDENTITY),
            Motion::Steady { velocity, angular_velocity, pivot } => steady(*velocity, *angular_velocity, *pivot, t),
            Motion::Hinge { axis, pivot, angle_deg, start, duration, ease } => {
                let u = if *duration > 0.0 {
                    (t - start) / duration
                } else if t >= *start {
                    1.0
                } else {
                    0.0
                };
                let angle = angle_deg.to_radians() * ease.apply(u);
                let n = norm(*axis);
                let w = axis.map(|x| x / n * angle);
                steady([0.0; 3], w, *pivot, 1.0)
            }
        }
    }

    /// Checks the numbers and that the poses of frames 0..=`frames` are rigid and turn less
    /// than 162° per frame (the solver interpolates collider poses along the shorter arc).
    pub fn check(&self, frames: usize, fps: f64) -> Result<(), String> {
        let per_frame = match self {
            Motion::Fixed => return Ok(()),
            Motion::Frames(poses) => {
                for (k, m) in poses.iter().enumerate() {
                    crate::contact::Pose::from_column_major(m).map_err(|e| format!("pose of frame {k}: {e}"))?;
                }
                return Ok(());
            }
            Motion::Steady { velocity, angular_velocity, pivot } => {
                if velocity.iter().chain(angular_velocity).chain(pivot).any(|x| !x.is_finite()) {
                    return Err("velocity, angular_velocity and pivot must be finite".into());
                }
                norm(*angular_velocity) / fps
            }
            Motion::Hinge { axis, pivot, angle_deg, start, duration, ease } => {
                if axis.iter().chain(pivot).any(|x| !x.is_finite()) || !(norm(*axis) > 1e-12) {
                    return Err(format!("hinge axis must be finite and nonzero, pivot finite: {axis:?}, {pivot:?}"));
                }
                if !(angle_deg.is_finite() && start.is_finite()) {
                    return Err(format!("hinge angle and start must be finite, got {angle_deg}, {start}"));
                }
                if !(duration.is_finite() && *duration >= 0.0) {
                    return Err(format!("hinge duration must be finite and >= 0 s, got {duration}"));
                }
                let fraction = if *duration > 0.0 { (ease.max_slope() / (duration * fps)).min(1.0) } else { 1.0 };
                angle_deg.abs().to_radians() * fraction
            }
        };
        if per_frame >= 0.9 * std::f64::consts::PI {
            return Err(format!(
                "it turns up to {:.0}° per frame at {fps} frames/s; the solver interpolates poses along the shorter \
                 arc, so keep it below 162° per frame",
                per_frame.to_degrees()
            ));
        }
        for k in [0, frames] {
            crate::contact::Pose::from_column_major(&self.transform(k, fps))
                .map_err(|e| format!("pose of frame {k}: {e}"))?;
        }
        Ok(())
    }
}

/// The identity transform.
///
/// cbindgen:ignore
pub const IDENTITY: [f64; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

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

/// `m` applied to every point of the flat array `xyz` in m (`x0 y0 z0 x1 …`).
pub fn apply_flat(m: &[f64; 16], xyz: &[f64]) -> Vec<f64> {
    xyz.chunks_exact(3).flat_map(|p| apply(m, [p[0], p[1], p[2]])).collect()
}

/// The pose after `t` seconds of constant velocity `v` and angular velocity `w` about `pivot`:
/// x ↦ R(x − pivot) + pivot + v t, R the rotation by |w| t about w (Rodrigues:
/// R = cos θ I + sin θ \[k\]ₓ + (1 − cos θ) k kᵀ).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() < 1e-12)
    }

    #[test]
    fn steady_motion_rotates_about_the_pivot_and_translates() {
        let m = steady([1.0, 0.0, 0.0], [0.0, 0.0, std::f64::consts::FRAC_PI_2], [1.0, 0.0, 0.0], 1.0);
        crate::contact::Pose::from_column_major(&m).expect("rigid");
        assert!(close(apply(&m, [1.0, 0.0, 0.0]), [2.0, 0.0, 0.0]), "the pivot only translates");
        assert!(close(apply(&m, [2.0, 0.0, 0.0]), [2.0, 1.0, 0.0]), "a quarter turn about z");
        let back = mul(&inverse(&m), &m);
        assert!(back.iter().zip(IDENTITY).all(|(a, b)| (a - b).abs() < 1e-12));
    }

    /// The tube demo's bend: 90° about z through (0, 0.075, 0) over 1 s, smoothstep. Halfway
    /// (t = 0.5 s) θ = 45°; from 1 s on it holds 90°, which carries (0.2, 0, 0) to
    /// (0.075, 0.275, 0).
    #[test]
    fn hinge_follows_the_eased_angle() {
        let make = |axis: [f64; 3], angle_deg: f64, start: f64, duration: f64| Motion::Hinge {
            axis,
            pivot: [0.0, 0.075, 0.0],
            angle_deg,
            start,
            duration,
            ease: Ease::Smoothstep,
        };
        let z = [0.0, 0.0, 2.0];
        let hinge = make(z, 90.0, 0.0, 1.0);
        hinge.check(48, 24.0).expect("valid");
        assert_eq!(hinge.transform(0, 24.0), IDENTITY);
        let p = [0.2, 0.0, 0.0];
        let (s, c) = 45f64.to_radians().sin_cos();
        let half = [0.2 * c + 0.075 * s, 0.075 - 0.075 * c + 0.2 * s, 0.0];
        assert!(close(apply(&hinge.transform(12, 24.0), p), half));
        for frame in [24, 48] {
            assert!(close(apply(&hinge.transform(frame, 24.0), p), [0.075, 0.275, 0.0]));
        }
        assert_eq!(Ease::Smoothstep.apply(0.25), 0.15625);
        assert_eq!(Ease::Linear.apply(1.5), 1.0);
        let step = make(z, 90.0, 0.5, 0.0);
        assert_eq!(step.transform(11, 24.0), IDENTITY);
        assert!(close(apply(&step.transform(12, 24.0), p), [0.075, 0.275, 0.0]));
        assert!(step.check(48, 24.0).is_ok(), "90° at once is below the 162° limit");
        let too_fast = make(z, 170.0, 0.5, 0.0);
        assert!(too_fast.check(48, 24.0).unwrap_err().contains("per frame"));
        let bad_axis = make([0.0; 3], 90.0, 0.0, 1.0);
        assert!(bad_axis.check(48, 24.0).unwrap_err().contains("axis"));
        let bad_duration = make(z, 90.0, 0.0, -1.0);
        assert!(bad_duration.check(48, 24.0).unwrap_err().contains("duration"));
    }
}
