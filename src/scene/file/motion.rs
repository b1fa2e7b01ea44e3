//! `motion = ...` in scene files: `"fixed"`, `{ steady = {...} }`, `{ hinge = {...} }` or
//! `{ frames = [...] }` (see the module documentation of `scene::file`).

use crate::scene::motion::{Ease, Motion};
use serde::Deserialize;

/// A motion as written in a scene file.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "lowercase")]
pub(super) enum MotionToml {
    Fixed,
    Steady(SteadyToml),
    Hinge(HingeToml),
    Frames(Vec<[f64; 16]>),
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct SteadyToml {
    velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
    pivot: Option<[f64; 3]>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct HingeToml {
    axis: [f64; 3],
    pivot: Option<[f64; 3]>,
    angle: f64,
    start: Option<f64>,
    duration: f64,
    ease: Option<EaseToml>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum EaseToml {
    Smoothstep,
    Linear,
}

impl MotionToml {
    /// The motion (checked later, with the frame count, by `Scene::validate`).
    pub(super) fn motion(&self) -> Motion {
        match self {
            MotionToml::Fixed => Motion::Fixed,
            MotionToml::Steady(s) => Motion::Steady {
                velocity: s.velocity.unwrap_or([0.0; 3]),
                angular_velocity: s.angular_velocity.unwrap_or([0.0; 3]),
                pivot: s.pivot.unwrap_or([0.0; 3]),
            },
            MotionToml::Hinge(h) => Motion::Hinge {
                axis: h.axis,
                pivot: h.pivot.unwrap_or([0.0; 3]),
                angle_deg: h.angle,
                start: h.start.unwrap_or(0.0),
                duration: h.duration,
                ease: match h.ease {
                    None | Some(EaseToml::Smoothstep) => Ease::Smoothstep,
                    Some(EaseToml::Linear) => Ease::Linear,
                },
            },
            MotionToml::Frames(poses) => Motion::Frames(poses.clone()),
        }
    }
}

/// A number as TOML: `inf`, `-inf`, `nan`, or the shortest decimal that reads back exactly.
pub(super) fn number(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:?}")
    }
}

/// Numbers as a TOML array.
pub(super) fn numbers(xs: &[f64]) -> String {
    format!("[{}]", xs.iter().map(|&x| number(x)).collect::<Vec<_>>().join(", "))
}

/// `motion` as a TOML value on one line, or `None` for [`Motion::Frames`] (written as a table,
/// see [`frames_table`]).
pub(super) fn inline(motion: &Motion) -> Option<String> {
    Some(match motion {
        Motion::Fixed => "\"fixed\"".into(),
        Motion::Steady { velocity, angular_velocity, pivot } => format!(
            "{{ steady = {{ velocity = {}, angular_velocity = {}, pivot = {} }} }}",
            numbers(velocity),
            numbers(angular_velocity),
            numbers(pivot)
        ),
        Motion::Hinge { axis, pivot, angle_deg, start, duration, ease } => format!(
            "{{ hinge = {{ axis = {}, pivot = {}, angle = {}, start = {}, duration = {}, ease = \"{}\" }} }}",
            numbers(axis),
            numbers(pivot),
            number(*angle_deg),
            number(*start),
            number(*duration),
            ease.name()
        ),
        Motion::Frames(_) => return None,
    })
}

/// The body of a `[<table>.motion]` table holding `frames = [...]`, one pose per line.
pub(super) fn frames_table(poses: &[[f64; 16]]) -> String {
    let rows: String = poses.iter().map(|p| format!("  {},\n", numbers(p))).collect();
    format!("frames = [\n{rows}]\n")
}
