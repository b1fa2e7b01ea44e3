//! TOML scene files (`grip run`), and their export (`grip demo NAME --export DIR`).
//!
//! The keys, their units and defaults are documented in one place, `docs/scene-file.md`, which
//! `grip run --help` prints. The tables here mirror it: every struct denies unknown fields, so a
//! key the page does not list is an error that names it.

pub mod codes;
mod colliders;
pub mod export;
mod motion;
mod objects;
pub mod overrides;
mod solver;

use super::description::{FrictionPair, Scene, SlipPair, DEFAULT_FPS, DEFAULT_FRAMES};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SceneToml {
    #[serde(default)]
    solver: solver::SolverToml,
    #[serde(default)]
    output: OutputToml,
    #[serde(default)]
    object: Vec<objects::ObjectToml>,
    #[serde(default)]
    collider: Vec<colliders::ColliderToml>,
    #[serde(default)]
    friction: Vec<FrictionToml>,
    #[serde(default)]
    slip: Vec<SlipToml>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OutputToml {
    name: Option<String>,
    frames: Option<usize>,
    fps: Option<f64>,
    view: Option<[f64; 3]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrictionToml {
    a: String,
    b: String,
    mu: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SlipToml {
    object: String,
    on: String,
}

/// Reads the scene file at `path`; errors name the file and the key or mesh at fault.
pub fn load(path: &Path) -> Result<Scene, String> {
    load_with_overrides::<&str>(path, &[])
}

/// Reads the scene file at `path` with `overrides` (`KEY=VALUE`, [`overrides`]) applied in
/// order; errors name the file and the key, mesh or override at fault.
pub fn load_with_overrides<S: AsRef<str>>(path: &Path, overrides: &[S]) -> Result<Scene, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let parsed = overrides.iter().map(|o| overrides::parse_override(o.as_ref())).collect::<Result<Vec<_>, _>>();
    parsed.and_then(|o| parse_with_overrides(&text, base, &name, &o)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses scene TOML `text`; mesh paths are relative to `base`; `name` names the scene unless
/// `[output] name` does. The scene is validated (names of pairs, pins, motions).
pub fn parse(text: &str, base: &Path, name: &str) -> Result<Scene, String> {
    parse_with_overrides(text, base, name, &[])
}

/// [`parse`] with `overrides` applied to the file's tables first.
pub fn parse_with_overrides(
    text: &str,
    base: &Path,
    name: &str,
    overrides: &[overrides::Override],
) -> Result<Scene, String> {
    let toml_error = |e: toml::de::Error| e.to_string().trim_end().to_string();
    let file: SceneToml = if overrides.is_empty() {
        // Straight from the text, so that errors point at the line.
        toml::from_str(text).map_err(toml_error)?
    } else {
        let mut table: toml::Table = text.parse().map_err(toml_error)?;
        overrides::apply(&mut table, overrides)?;
        toml::Value::Table(table).try_into().map_err(toml_error)?
    };
    let params = solver::params(&file.solver)?;
    let fps = file.output.fps.unwrap_or(DEFAULT_FPS);
    if !(fps.is_finite() && fps > 0.0) {
        return Err(format!("[output]: fps must be finite and > 0, got {fps}"));
    }
    if file.object.is_empty() {
        return Err("no [[object]] table: a scene needs at least one object".into());
    }
    let objects = file
        .object
        .iter()
        .enumerate()
        .map(|(i, o)| objects::object(o, base).map_err(|e| format!("[[object]] #{} (mesh \"{}\"): {e}", i + 1, o.mesh)))
        .collect::<Result<Vec<_>, _>>()?;
    let colliders = file
        .collider
        .iter()
        .enumerate()
        .map(|(i, c)| {
            colliders::collider(c, i + 1, params.default_friction, fps)
                .map_err(|e| format!("[[collider]] #{} (kind \"{}\"): {e}", i + 1, colliders::kind_name(c.kind)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let scene = Scene {
        name: file.output.name.clone().unwrap_or_else(|| name.to_string()),
        params,
        frames: file.output.frames.unwrap_or(DEFAULT_FRAMES),
        fps,
        objects,
        colliders,
        friction: file.friction.iter().map(|f| FrictionPair { a: f.a.clone(), b: f.b.clone(), mu: f.mu }).collect(),
        slip: file.slip.iter().map(|s| SlipPair { object: s.object.clone(), on: s.on.clone() }).collect(),
        view: file.output.view,
    };
    scene.validate().map_err(|e| match e.split_once(' ') {
        Some(("friction", _)) => format!("[[friction]]: {e}"),
        Some(("slip", _)) => format!("[[slip]]: {e}"),
        Some(("view", _)) => format!("[output]: {e}"),
        _ => e,
    })?;
    Ok(scene)
}
