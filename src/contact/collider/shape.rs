//! Analytic collider shapes and their exact signed gap functions
//! d(y) with unit normals n = ∇d, written over [`Real`] so that forward-mode AD differentiates them
//! (∇²d enters the contact Jacobian). Gaps are Euclidean distances: positive outside the collider
//! material, negative inside it; with `inside` the material is the other side (a pipe or a
//! bowl holding the simulated objects), as Ratel's platen and cylinder conditions.

use crate::error::{Error, Result};
use crate::math::real::{c, dot, scale, sub, Real, V3};
use nalgebra::{Const, Matrix3, U1};
use num_dual::{Derivative, DualSVec64};

/// The kind of an analytic collider shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShapeKind {
    /// Half-space {a·(y − c) ≤ 0}: a platen (the normal `axis` points out of the material).
    #[default]
    Plane,
    /// Ball of `radius` about `center`.
    Sphere,
    /// Points within `radius` of the segment `center ± half_length · axis` (infinite when 0).
    Capsule,
    /// Cylinder of `radius` about `axis` through `center`, flat caps at ±`half_length` (infinite
    /// when 0).
    Cylinder,
}

/// Largest coordinate or length accepted in a shape (m): the coordinate limit of positions.
const MAX_LENGTH: f64 = crate::mesh::validate::MAX_COORDINATE;

/// A kinematic collider's shape, in its definition frame. As given by a caller the axis may have
/// any nonzero length; [`Shape::validated`] checks every field and normalises it, and the solver
/// keeps that validated copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Plane, sphere, capsule or cylinder.
    pub kind: ShapeKind,
    /// Objects kept inside instead of outside.
    pub inside: bool,
    /// Centre or point on the plane (m).
    pub center: [f64; 3],
    /// Plane normal (pointing away from the material) or the capsule/cylinder axis: unit once
    /// validated.
    pub axis: [f64; 3],
    /// Radius of sphere, capsule and cylinder (m).
    pub radius: f64,
    /// Half length along the axis of capsule and cylinder (m); 0 = infinite.
    pub half_length: f64,
}

impl Default for Shape {
    /// A ground plane through the origin with normal +Z (radius 0.5 m, infinite length).
    fn default() -> Self {
        Self {
            kind: ShapeKind::Plane,
            inside: false,
            center: [0.0; 3],
            axis: [0.0, 0.0, 1.0],
            radius: 0.5,
            half_length: 0.0,
        }
    }
}

impl Shape {
    /// Checks every field; the error names the field. Returns the shape with a unit axis.
    pub fn validated(&self) -> Result<Self> {
        let s = self;
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
        if s.kind != ShapeKind::Plane && !(s.radius > 0.0 && s.radius <= MAX_LENGTH) {
            return Err(Error::invalid(format!("shape.radius must be > 0 m and finite, got {}", s.radius)));
        }
        if !(s.half_length >= 0.0 && s.half_length <= MAX_LENGTH) {
            return Err(Error::invalid(format!("shape.half_length must be >= 0 m and finite, got {}", s.half_length)));
        }
        Ok(Self { axis: s.axis.map(|x| x / len), ..*s })
    }

    /// Signed gap d(y) in m and unit normal n = ∇d at a point `y` of the definition frame.
    pub fn gap<T: Real>(&self, y: V3<T>) -> (T, V3<T>) {
        let rel = sub(y, self.center.map(c::<T>));
        let axis = self.axis.map(c::<T>);
        let (d, n) = match self.kind {
            ShapeKind::Plane => (dot(axis, rel), axis),
            ShapeKind::Sphere => self.round(rel),
            ShapeKind::Capsule => {
                let t = dot(axis, rel);
                let l = self.half_length;
                // Nearest point of the axis segment; the clamp keeps d C¹ across the caps.
                let s = if l == 0.0 || t.re().abs() <= l { t } else { c(l * t.re().signum()) };
                self.round(sub(rel, scale(s, axis)))
            }
            ShapeKind::Cylinder => self.cylinder(rel, axis),
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
