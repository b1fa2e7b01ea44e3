//! TOML scene files for `grip run`, and their export (`grip demo NAME --export DIR`).
//!
//! ```toml
//! [solver]            # every GripSolverParams field; defaults from GripSolverParams::default()
//! time_step = 0.004   # s
//! gravity = [0, 0, -9.81]
//! friction_coupling = "implicit"   # or "lagged"; friction_smoothing = "quadratic" | "rational"
//! contact_kernel = "interpolating" # or "cubic"; contact_radius_multiplier = 2.0
//! self_contact = true # shells repel themselves and each other within
//! self_contact_thickness = 0.002   # m
//! [output]
//! name = "drape"      # default output directory out/<name>; default: the file stem
//! frames = 48
//! fps = 24
//! view = [0, 0, 1]    # direction from the scene towards the previews' viewer (default: 35°
//!                     #   off the thinnest horizontal axis, 20° above)
//! [[object]]
//! name = "cloth"      # output file stem, and the name friction and slip pairs use
//! kind = "shell"      # "shell" | "solid" | "collider" (a kinematic triangle mesh)
//! mesh = "cloth.obj"  # relative to this file; OBJ or legacy VTK (tets for solids)
//! translate = [0, 0, 1]
//! scale = 1.0         # or [sx, sy, sz]; applied first
//! rotate = [90, 0, 0] # degrees about x, then y, then z; after scale, before translate
//! damping_alpha = 0.5 # any GripMaterial field; membrane_model = "neo-hookean" | "stvk"
//! pin = "top"         # vertices within pin_tolerance (m) of the largest z, held in place
//! pin_vertices = [0, 10]            # held in place
//! velocity = [0, 1, 0]
//! angular_velocity = [0, 0, 50]     # rad/s about the mesh centroid, added to velocity
//! volume_model = "ideal-gas"        # volume-change penalty (paper §3.4): "quadratic" |
//! compression_coefficient = 4.9e-6  #   "ideal-gas" | "nearly-incompressible"; κ_v in 1/Pa,
//! pressure = 101325                 #   over-pressure in Pa (default 0); closed shells, solids
//! preview = "translucent" # half transparent in the PNG previews ("solid" by default)
//! # kind = "collider" takes name, mesh, the transforms, preview and
//! # motion = <motion> (below); material, pin and velocity keys are errors.
//! [[object.pin_group]]              # pinned vertices driven by a motion of their rest positions
//! min = [0.13, -inf, -inf]          # a box (inclusive, ±inf allowed) in the placed mesh's
//! max = [inf, inf, inf]             #   coordinates, or vertices = [i, ...]
//! motion = { hinge = { axis = [0, 0, 1], pivot = [0, 0.075, 0], angle = 90.0, duration = 1.0 } }
//! [[collider]]        # a kinematic analytic shape
//! kind = "sphere"     # "plane" | "sphere" | "capsule" | "cylinder"
//! center = [0, 0, 0]  # m; a point on a plane. axis = [0, 0, 1]: plane normal or shape axis
//! radius = 0.3        # m; required except for planes. half_length = 0.0: 0 = infinite
//! inside = false      # true: objects are kept inside (a bowl, a pipe)
//! mu = 0.3            # friction against every object; default [solver] default_friction
//! velocity = [0, 0, 0]          # m/s, constant translation; angular_velocity: rad/s about center
//! # or motion = <motion>: either motion or velocity/angular_velocity
//! [[friction]]        # μ of one pair of objects or colliders, by name (after colliders' mu);
//!                     # two shells, or a = b, is the friction of their self-contact (default 0)
//! a = "sleeve"
//! b = "limb"
//! mu = 0.2
//! [[slip]]            # a stats.csv column <object>_slip_on_<on> (m) (see slip.rs)
//! object = "sleeve"
//! on = "limb"
//! ```
//! A `<motion>` is `"fixed"` (the default), or one of
//! `{ steady = { velocity = [m/s], angular_velocity = [rad/s], pivot = [m] } }` (each default 0),
//! `{ hinge = { axis = [..], pivot = [m], angle = deg, start = s, duration = s,
//! ease = "smoothstep" | "linear" } }` (rotation by angle·ease(u), u = clamp((t − start) /
//! duration, 0, 1); pivot default origin, start 0, ease smoothstep), or
//! `{ frames = [[16 numbers], ...] }` (column-major 4×4 rigid poses at the end of frames 0, 1, …;
//! later frames hold the last). Unknown keys are errors; errors name the key.

mod colliders;
pub mod export;
mod motion;
mod objects;
mod solver;

use super::scene::{FrictionPair, Scene, SlipPair, DEFAULT_FPS, DEFAULT_FRAMES};
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
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse(&text, base, &name).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses scene TOML `text`; mesh paths are relative to `base`; `name` names the scene unless
/// `[output] name` does. The scene is validated (names of pairs, pins, motions).
pub fn parse(text: &str, base: &Path, name: &str) -> Result<Scene, String> {
    let file: SceneToml = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
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
