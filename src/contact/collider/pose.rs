//! Rigid poses of kinematic colliders: parsed from a host's column-major 4×4 matrix, interpolated
//! over the substeps of a call (linear translation, spherical rotation), and the rigid map between
//! two poses that gives a collider's surface velocity.

use crate::error::{Error, Result};
use crate::math::real::{Real, V3};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

/// How far a host matrix may be from a rotation (orthonormality and determinant) and from an
/// affine bottom row.
const RIGID_TOLERANCE: f64 = 1e-6;

/// A rigid transform x ↦ R x + t.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Rotation R.
    pub rotation: UnitQuaternion<f64>,
    /// Translation t (m).
    pub translation: Vector3<f64>,
}

impl Default for Pose {
    fn default() -> Self {
        Self { rotation: UnitQuaternion::identity(), translation: Vector3::zeros() }
    }
}

impl Pose {
    /// Parses a column-major 4×4 matrix (OpenGL, Blender's `matrix_world` transposed, Houdini's
    /// row-vector matrices as stored): it must be rigid (R orthonormal, det R = +1, within 1e-6;
    /// bottom row 0 0 0 1) and finite.
    pub fn from_column_major(m: &[f64; 16]) -> Result<Self> {
        let limit = crate::mesh::validate::MAX_COORDINATE;
        if let Some(x) = m.iter().find(|x| !(x.abs() <= limit)) {
            return Err(Error::invalid(format!("transform entries must be finite and within ±{limit:e}, got {x}")));
        }
        let r = Matrix3::new(m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]);
        let off = (r.transpose() * r - Matrix3::identity()).abs().max();
        if off > RIGID_TOLERANCE || (r.determinant() - 1.0).abs() > RIGID_TOLERANCE {
            return Err(Error::invalid(format!(
                "transform is not rigid: |RᵀR − I| = {off:.2e}, det R = {:.6} (scale and shear are not supported)",
                r.determinant()
            )));
        }
        let bottom = [m[3], m[7], m[11], m[15] - 1.0];
        if bottom.iter().any(|x| x.abs() > RIGID_TOLERANCE) {
            return Err(Error::invalid(format!(
                "transform's bottom row must be 0 0 0 1, got {} {} {} {}",
                m[3], m[7], m[11], m[15]
            )));
        }
        let rotation = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
        Ok(Self { rotation, translation: Vector3::new(m[12], m[13], m[14]) })
    }

    /// The pose a fraction `f` of the way from `self` to `to` (slerp of the rotation along the
    /// shorter arc, linear translation).
    pub fn interpolate(&self, to: &Pose, f: f64) -> Pose {
        let rotation = self.rotation.try_slerp(&to.rotation, f, 1e-12).unwrap_or(if f < 0.5 {
            self.rotation
        } else {
            to.rotation
        });
        Pose { rotation, translation: self.translation.lerp(&to.translation, f) }
    }

    /// The affine map (A, b), x ↦ A x + b, taking a point attached to a body at pose `self` to
    /// where the same body point is at pose `to`: A = R_to R_selfᵀ, b = t_to − A t_self.
    pub fn map_to(&self, to: &Pose) -> AffineMap {
        let a =
            to.rotation.to_rotation_matrix().into_inner() * self.rotation.to_rotation_matrix().into_inner().transpose();
        AffineMap { a, b: to.translation - a * self.translation }
    }

    /// The pose's rotation matrix.
    pub fn matrix(&self) -> Matrix3<f64> {
        self.rotation.to_rotation_matrix().into_inner()
    }
}

/// An affine map x ↦ A x + b.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AffineMap {
    /// Linear part.
    pub a: Matrix3<f64>,
    /// Offset (m).
    pub b: Vector3<f64>,
}

impl AffineMap {
    /// A x + b for a generic 3-vector.
    pub fn apply<T: Real>(&self, x: V3<T>) -> V3<T> {
        [0, 1, 2].map(|i| x[0] * self.a[(i, 0)] + x[1] * self.a[(i, 1)] + x[2] * self.a[(i, 2)] + self.b[i])
    }
}

/// Rᵀ(x − t): a world point in the frame of a pose.
pub fn to_local<T: Real>(r: &Matrix3<f64>, t: &Vector3<f64>, x: V3<T>) -> V3<T> {
    let d = [x[0] - t[0], x[1] - t[1], x[2] - t[2]];
    [0, 1, 2].map(|i| d[0] * r[(0, i)] + d[1] * r[(1, i)] + d[2] * r[(2, i)])
}

/// R v: a frame vector in world coordinates.
pub fn rotate<T: Real>(r: &Matrix3<f64>, v: V3<T>) -> V3<T> {
    [0, 1, 2].map(|i| v[0] * r[(i, 0)] + v[1] * r[(i, 1)] + v[2] * r[(i, 2)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column-major matrix of a rotation by `angle` about z and a translation.
    fn rz(angle: f64, t: [f64; 3]) -> [f64; 16] {
        let (s, c) = angle.sin_cos();
        [c, s, 0.0, 0.0, -s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, t[0], t[1], t[2], 1.0]
    }

    #[test]
    fn parses_rigid_matrices_and_refuses_others() {
        let p = Pose::from_column_major(&rz(0.5, [1.0, 2.0, 3.0])).expect("rigid");
        let x = p.rotation * Vector3::new(1.0, 0.0, 0.0) + p.translation;
        assert!((x - Vector3::new(1.0 + 0.5f64.cos(), 2.0 + 0.5f64.sin(), 3.0)).norm() < 1e-15);
        let mut scaled = rz(0.5, [0.0; 3]);
        scaled[0] *= 1.01;
        assert!(Pose::from_column_major(&scaled).unwrap_err().message().contains("not rigid"));
        let mut mirror = rz(0.0, [0.0; 3]);
        mirror[10] = -1.0;
        assert!(Pose::from_column_major(&mirror).unwrap_err().message().contains("det"));
        let mut projective = rz(0.0, [0.0; 3]);
        projective[3] = 0.1;
        assert!(Pose::from_column_major(&projective).unwrap_err().message().contains("bottom row"));
        let mut nan = rz(0.0, [0.0; 3]);
        nan[13] = f64::NAN;
        assert!(Pose::from_column_major(&nan).is_err());
    }

    #[test]
    fn interpolates_and_maps_between_poses() {
        let a = Pose::from_column_major(&rz(0.2, [0.0, 0.0, 0.0])).unwrap();
        let b = Pose::from_column_major(&rz(0.6, [1.0, 0.0, 2.0])).unwrap();
        let mid = a.interpolate(&b, 0.5);
        assert!((mid.rotation.angle() - 0.4).abs() < 1e-12);
        assert!((mid.translation - Vector3::new(0.5, 0.0, 1.0)).norm() < 1e-15);
        // A body point carried from pose a to pose b.
        let body = Vector3::new(0.3, -0.2, 0.1);
        let (xa, xb) = (a.rotation * body + a.translation, b.rotation * body + b.translation);
        let m = a.map_to(&b);
        let mapped = m.apply([xa.x, xa.y, xa.z]);
        assert!((Vector3::from(mapped) - xb).norm() < 1e-14);
    }
}
