//! `GripShape`: the C layout of [`Shape`], with a code for its kind and a tag that tells a
//! struct from `grip_shape_default()` apart from uninitialised memory.

use crate::contact::collider::shape::{Shape, ShapeKind};
use crate::error::{Error, Result};

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
        Self::from(&Shape::default())
    }
}

/// The shape kind with code `code` (`GRIP_SHAPE_*`).
pub fn shape_kind(code: u32) -> Option<ShapeKind> {
    match code {
        GRIP_SHAPE_PLANE => Some(ShapeKind::Plane),
        GRIP_SHAPE_SPHERE => Some(ShapeKind::Sphere),
        GRIP_SHAPE_CAPSULE => Some(ShapeKind::Capsule),
        GRIP_SHAPE_CYLINDER => Some(ShapeKind::Cylinder),
        _ => None,
    }
}

/// The `GRIP_SHAPE_*` code of `kind`.
pub fn shape_kind_code(kind: ShapeKind) -> u32 {
    match kind {
        ShapeKind::Plane => GRIP_SHAPE_PLANE,
        ShapeKind::Sphere => GRIP_SHAPE_SPHERE,
        ShapeKind::Capsule => GRIP_SHAPE_CAPSULE,
        ShapeKind::Cylinder => GRIP_SHAPE_CYLINDER,
    }
}

impl From<&Shape> for GripShape {
    fn from(s: &Shape) -> Self {
        Self {
            kind: shape_kind_code(s.kind),
            inside: s.inside as u32,
            center: s.center,
            axis: s.axis,
            radius: s.radius,
            half_length: s.half_length,
            struct_tag: GRIP_SHAPE_TAG,
        }
    }
}

impl TryFrom<&GripShape> for Shape {
    type Error = Error;

    /// Checks the struct tag, the kind and `inside`; the other fields are checked (and the axis
    /// normalised) by [`Shape::validated`] when the collider is added.
    fn try_from(s: &GripShape) -> Result<Self> {
        if s.struct_tag != GRIP_SHAPE_TAG {
            return Err(Error::invalid("shape.struct_tag is not set: start from grip_shape_default()"));
        }
        let kind = shape_kind(s.kind).ok_or_else(|| Error::invalid(format!("shape.kind: unknown value {}", s.kind)))?;
        if s.inside > 1 {
            return Err(Error::invalid(format!("shape.inside must be 0 or 1, got {}", s.inside)));
        }
        Ok(Self {
            kind,
            inside: s.inside == 1,
            center: s.center,
            axis: s.axis,
            radius: s.radius,
            half_length: s.half_length,
        })
    }
}
