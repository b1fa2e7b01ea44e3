//! `[[collider]]` tables of scene files: kinematic analytic shapes.

use super::motion::MotionToml;
use crate::contact::collider::shape::ShapeKind as Kind;
use crate::contact::Shape;
use crate::scene::collider::SceneCollider;
use crate::scene::motion::Motion;
use serde::Deserialize;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(super) enum ShapeKind {
    Plane,
    Sphere,
    Capsule,
    Cylinder,
}

/// One `[[collider]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ColliderToml {
    name: Option<String>,
    pub(super) kind: ShapeKind,
    center: Option<[f64; 3]>,
    axis: Option<[f64; 3]>,
    radius: Option<f64>,
    half_length: Option<f64>,
    inside: Option<bool>,
    mu: Option<f64>,
    velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
    motion: Option<MotionToml>,
}

/// The scene-file name of a shape kind.
pub(super) fn kind_name(k: ShapeKind) -> &'static str {
    match k {
        ShapeKind::Plane => "plane",
        ShapeKind::Sphere => "sphere",
        ShapeKind::Capsule => "capsule",
        ShapeKind::Cylinder => "cylinder",
    }
}

/// The scene-file name of a solver shape's `kind`.
pub(super) fn shape_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Sphere => "sphere",
        Kind::Capsule => "capsule",
        Kind::Cylinder => "cylinder",
        Kind::Plane => "plane",
    }
}

/// One `[[collider]]` (number `index`, from 1): shape, μ (`default_mu` when absent) and motion.
pub(super) fn collider(c: &ColliderToml, index: usize, default_mu: f64, fps: f64) -> Result<SceneCollider, String> {
    let d = Shape::default();
    let kind = match c.kind {
        ShapeKind::Plane => Kind::Plane,
        ShapeKind::Sphere => Kind::Sphere,
        ShapeKind::Capsule => Kind::Capsule,
        ShapeKind::Cylinder => Kind::Cylinder,
    };
    let radius = match (c.radius, c.kind) {
        (Some(r), _) => r,
        (None, ShapeKind::Plane) => d.radius,
        (None, k) => return Err(format!("radius is required for a {}", kind_name(k))),
    };
    let shape = Shape {
        kind,
        inside: c.inside.unwrap_or(false),
        center: c.center.unwrap_or(d.center),
        axis: c.axis.unwrap_or(d.axis),
        radius,
        half_length: c.half_length.unwrap_or(d.half_length),
        ..d
    };
    let motion = match (&c.motion, c.velocity, c.angular_velocity) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err("give either motion or velocity/angular_velocity, not both".into())
        }
        (Some(m), None, None) => m.motion(),
        (None, None, None) => Motion::Fixed,
        (None, v, w) => Motion::Steady {
            velocity: v.unwrap_or([0.0; 3]),
            angular_velocity: w.unwrap_or([0.0; 3]),
            pivot: shape.center,
        },
    };
    let name = c.name.clone().unwrap_or_else(|| format!("{}-{index}", kind_name(c.kind)));
    let collider = SceneCollider { name, shape, mu: c.mu.unwrap_or(default_mu), motion };
    // Frame count only matters for checking poses; 0 checks the first.
    collider.check(0, fps)?;
    Ok(collider)
}
