//! Analytic collider shapes (`GripShape` in `grip.h`) and their exact signed gap functions
//! d(y) with unit normals n = ∇d, written over [`Real`] so that forward-mode AD differentiates them
//! (∇²d enters the contact Jacobian). Gaps are Euclidean distances: positive outside the collider
//! material, negative inside it; with `inside = 1` the material is the other side (a pipe or a
//! bowl holding the simulated objects), as Ratel's platen and cylinder conditions.

use crate::error::{Error, Result};
use crate::math::real::{c, dot, scale, sub, Real, V3};
use nalgebra::{Const, Matrix3, U1};
use num_dual::{Derivative, DualSVec64};

/// Half-space {a·(y − c) ≤ 0}: a platen (the normal `axis` points out of the material).
pub const GRIP_SHAPE_PLANE: u32 = 0;
/// Ball of `radius` about `center`.
pub const GRIP_SHAPE_SPHERE: u32 = 1;
/// Points within `radius` of the segment `center ± half_length · axis` (infinite when 0).
pub const GRIP_SHAPE_CAPSULE: u32 = 2;
/// Cylinder of `radius` about `axis` through `center`, flat caps at ±`half_length` (infinite when 0).
pub const GRIP_SHAPE_CYLINDER: u32 = 3;
/// Value of `GripShape::struct_tag` written by `grip_shape_default()`.
pub const GRIP_SHAPE_TAG: u32 = 0x4752_5331;

/// A kinematic collider's shape, in its definition frame (the pose set by
/// `grip_solver_set_collider_transform` moves it rigidly). Start from `grip_shape_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GripShape {
    /// One of `GRIP_SHAPE_*`. Default `GRIP_SHAPE_PLANE`.
    pub kind: u32,
    /// 0: objects stay outside the shape; 1: objects stay inside it (a pipe, a bowl). Default 0.
    pub inside: u32,
    /// A point on the plane, or the centre of the sphere, capsule or cylinder (m). Default 0.
    pub center: [f64; 3],
    /// Plane normal (pointing away from the material) or the capsule/cylinder axis; any nonzero
    /// length, normalised by the solver. Default (0, 0, 1).
    pub axis: [f64; 3],
    /// Radius of sphere, capsule and cylinder in m (> 0; ignored for planes). Default 0.5 m.
    pub radius: f64,
    /// Half length along the axis of capsule and cylinder in m (≥ 0; 0 = infinite). Default 0.
    pub half_length: f64,
    /// Written by `grip_shape_default()`; do not change.
    pub struct_tag: u32,
}

impl Default for GripShape {
    fn default() -> Self {
        Self {
            kind: GRIP_SHAPE_PLANE,
            inside: 0,
            center: [0.0; 3],
            axis: [0.0, 0.0, 1.0],
            radius: 0.5,
            half_length: 0.0,
            struct_tag: GRIP_SHAPE_TAG,
        }
    }
}

/// Largest coordinate or length accepted in a shape (m).
const MAX_LENGTH: f64 = 1e9;

/// A validated shape with a unit axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// `GRIP_SHAPE_*`.
    pub kind: u32,
    /// Objects kept inside instead of outside.
    pub inside: bool,
    /// Centre or point on the plane (m).
    pub center: [f64; 3],
    /// Unit axis or normal.
    pub axis: [f64; 3],
    /// Radius (m).
    pub radius: f64,
    /// Half length (m); 0 = infinite.
    pub half_length: f64,
}

impl Shape {
    /// Checks every field of `s`; the error names the field.
    pub fn new(s: &GripShape) -> Result<Self> {
        if s.struct_tag != GRIP_SHAPE_TAG {
            return Err(Error::invalid("shape.struct_tag is not set: start from grip_shape_default()"));
        }
        if s.kind > GRIP_SHAPE_CYLINDER {
            return Err(Error::invalid(format!("shape.kind: unknown value {}", s.kind)));
        }
        if s.inside > 1 {
            return Err(Error::invalid(format!("shape.inside must be 0 or 1, got {}", s.inside)));
        }
        if let Some(x) = s.center.iter().find(|x| !(x.abs() <= MAX_LENGTH)) {
            return Err(Error::invalid(format!("shape.center must be finite and within ±{MAX_LENGTH:e} m, got {x}")));
        }
        if s.axis.iter().any(|x| !(x.abs() <= MAX_LENGTH)) {
            return Err(Error::invalid(format!("shape.axis must be finite, got {:?}", s.axis)));
        }
        let len = s.axis.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(len > 1e-12) {
            return Err(Error::invalid(format!("shape.axis must be nonzero, got {:?}", s.axis)));
        }
        if s.kind != GRIP_SHAPE_PLANE && !(s.radius > 0.0 && s.radius <= MAX_LENGTH) {
            return Err(Error::invalid(format!("shape.radius must be > 0 m and finite, got {}", s.radius)));
        }
        if !(s.half_length >= 0.0 && s.half_length <= MAX_LENGTH) {
            return Err(Error::invalid(format!("shape.half_length must be >= 0 m and finite, got {}", s.half_length)));
        }
        Ok(Self {
            kind: s.kind,
            inside: s.inside == 1,
            center: s.center,
            axis: s.axis.map(|x| x / len),
            radius: s.radius,
            half_length: s.half_length,
        })
    }

    /// Signed gap d(y) in m and unit normal n = ∇d at a point `y` of the definition frame.
    pub fn gap<T: Real>(&self, y: V3<T>) -> (T, V3<T>) {
        let rel = sub(y, self.center.map(c::<T>));
        let axis = self.axis.map(c::<T>);
        let (d, n) = match self.kind {
            GRIP_SHAPE_PLANE => (dot(axis, rel), axis),
            GRIP_SHAPE_SPHERE => self.round(rel),
            GRIP_SHAPE_CAPSULE => {
                let t = dot(axis, rel);
                let l = self.half_length;
                // Nearest point of the axis segment; the clamp keeps d C¹ across the caps.
                let s = if l == 0.0 || t.re().abs() <= l { t } else { c(l * t.re().signum()) };
                self.round(sub(rel, scale(s, axis)))
            }
            _ => self.cylinder(rel, axis),
        };
        if self.inside {
            (-d, n.map(|x| -x))
        } else {
            (d, n)
        }
    }

    /// d(y) in m, ∇d(y) and the Hessian ∇²d(y) in 1/m (forward-mode AD of the exact normal).
    pub fn gap_derivatives(&self, y: [f64; 3]) -> (f64, [f64; 3], Matrix3<f64>) {
        let dy: [DualSVec64<3>; 3] =
            std::array::from_fn(|i| DualSVec64::new(y[i], Derivative::derivative_generic(Const::<3>, U1, i)));
        let (d, n) = self.gap(dy);
        let mut hess = Matrix3::zeros();
        for (row, ni) in n.iter().enumerate() {
            let e = ni.eps.unwrap_generic(Const::<3>, U1);
            for col in 0..3 {
                hess[(row, col)] = e[col];
            }
        }
        (d.re, n.map(|x| x.re), hess)
    }

    /// Distance to a point (`rel` from it) minus the radius, and the radial unit normal.
    fn round<T: Real>(&self, rel: V3<T>) -> (T, V3<T>) {
        let (rho, dir) = unit(rel, self.axis);
        (rho - self.radius, dir)
    }

    /// Exact signed distance to a cylinder (capped when `half_length > 0`).
    fn cylinder<T: Real>(&self, rel: V3<T>, axis: V3<T>) -> (T, V3<T>) {
        let z = dot(axis, rel);
        let (rho, radial) = unit(sub(rel, scale(z, axis)), perpendicular(self.axis));
        let dx = rho - self.radius;
        if self.half_length == 0.0 {
            return (dx, radial);
        }
        let cap = scale(c(z.re().signum()), axis);
        let dz = z.abs() - self.half_length;
        match (dx.re() > 0.0, dz.re() > 0.0) {
            (true, true) => {
                // Nearest point on the rim circle.
                let d = (dx * dx + dz * dz).sqrt();
                let n = [0, 1, 2].map(|k| (radial[k] * dx + cap[k] * dz) / d);
                (d, n)
            }
            (true, false) => (dx, radial),
            (false, true) => (dz, cap),
            (false, false) if dx.re() > dz.re() => (dx, radial),
            (false, false) => (dz, cap),
        }
    }
}

/// |v| and v/|v|; at v = 0 (where the direction is undefined) 0 and `fallback`.
fn unit<T: Real>(v: V3<T>, fallback: [f64; 3]) -> (T, V3<T>) {
    let r2 = dot(v, v);
    if r2.re() <= 1e-300 {
        return (c(0.0), fallback.map(c::<T>));
    }
    let r = r2.sqrt();
    (r, v.map(|x| x / r))
}

/// A unit vector perpendicular to the unit vector `a`.
fn perpendicular(a: [f64; 3]) -> [f64; 3] {
    let e = if a[0].abs() < 0.9 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
    let ae = a[0] * e[0] + a[1] * e[1] + a[2] * e[2];
    let p = [0, 1, 2].map(|k| e[k] - a[k] * ae);
    let len = p.iter().map(|x| x * x).sum::<f64>().sqrt();
    p.map(|x| x / len)
}
