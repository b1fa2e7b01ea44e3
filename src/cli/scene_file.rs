//! TOML scene files for `grip run`.
//!
//! ```toml
//! [solver]            # any GripSolverParams field; defaults from GripSolverParams::default()
//! time_step = 0.004   # s
//! gravity = [0, 0, -9.81]
//! friction_coupling = "implicit"   # or "lagged"; friction_smoothing = "quadratic" | "rational"
//! [output]
//! frames = 48
//! fps = 24
//! [[object]]
//! name = "cloth"      # output file stem; default: the mesh file stem
//! kind = "shell"      # or "solid"
//! mesh = "cloth.obj"  # relative to this file; OBJ or legacy VTK (tets for solids)
//! translate = [0, 0, 1]
//! scale = 1.0         # or [sx, sy, sz]; applied first
//! rotate = [90, 0, 0] # degrees about x, then y, then z; after scale, before translate
//! damping_alpha = 0.5 # any GripMaterial field; membrane_model = "neo-hookean" | "stvk"
//! pin = "top"         # vertices within pin_tolerance (m) of the largest z
//! pin_vertices = [0, 10]
//! velocity = [0, 1, 0]
//! [[collider]]        # a kinematic analytic shape
//! kind = "sphere"     # "plane" | "sphere" | "capsule" | "cylinder"
//! center = [0, 0, 0]  # m; a point on a plane. axis = [0, 0, 1]: plane normal or shape axis
//! radius = 0.3        # m; required except for planes. half_length = 0.0: 0 = infinite
//! inside = false      # true: objects are kept inside (a bowl, a pipe)
//! mu = 0.3            # friction against every object; default [solver] default_friction
//! velocity = [0, 0, 0]          # m/s, constant translation; angular_velocity: rad/s about center
//! ```
//! Unknown keys are errors.

use super::collider::{Motion, SceneCollider};
use super::scene::{Elements, Scene, SceneObject, DEFAULT_FPS, DEFAULT_FRAMES};
use crate::contact::law::{
    GRIP_FRICTION_COUPLING_IMPLICIT, GRIP_FRICTION_COUPLING_LAGGED, GRIP_FRICTION_SMOOTHING_QUADRATIC,
    GRIP_FRICTION_SMOOTHING_RATIONAL,
};
use crate::contact::shape::{GRIP_SHAPE_CAPSULE, GRIP_SHAPE_CYLINDER, GRIP_SHAPE_PLANE, GRIP_SHAPE_SPHERE};
use crate::contact::GripShape;
use crate::io::{obj, vtk};
use crate::mesh::generate::top_vertices;
use crate::scene::material::{GRIP_MEMBRANE_NEO_HOOKEAN, GRIP_MEMBRANE_STVK};
use crate::{GripMaterial, GripSolverParams};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SceneToml {
    #[serde(default)]
    solver: SolverToml,
    #[serde(default)]
    output: OutputToml,
    #[serde(default)]
    object: Vec<ObjectToml>,
    #[serde(default)]
    collider: Vec<ColliderToml>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SolverToml {
    time_step: Option<f64>,
    gravity: Option<[f64; 3]>,
    max_newton_iterations: Option<u32>,
    max_line_search_steps: Option<u32>,
    residual_tolerance: Option<f64>,
    velocity_tolerance: Option<f64>,
    linear_solver: Option<u32>,
    integrator: Option<u32>,
    worker_count: Option<u32>,
    max_substep_halvings: Option<u32>,
    contact_thickness: Option<f64>,
    contact_stiffness: Option<f64>,
    friction_epsilon: Option<f64>,
    default_friction: Option<f64>,
    friction_smoothing: Option<Smoothing>,
    friction_coupling: Option<Coupling>,
    max_contact_retries: Option<u32>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Smoothing {
    Quadratic,
    Rational,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Coupling {
    Implicit,
    Lagged,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ShapeKind {
    Plane,
    Sphere,
    Capsule,
    Cylinder,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColliderToml {
    name: Option<String>,
    kind: ShapeKind,
    center: Option<[f64; 3]>,
    axis: Option<[f64; 3]>,
    radius: Option<f64>,
    half_length: Option<f64>,
    inside: Option<bool>,
    mu: Option<f64>,
    velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OutputToml {
    frames: Option<usize>,
    fps: Option<f64>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Shell,
    Solid,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Pin {
    Top,
}

#[derive(Deserialize, Clone, Copy)]
enum Membrane {
    #[serde(rename = "neo-hookean")]
    NeoHookean,
    #[serde(rename = "stvk")]
    StVk,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(untagged, expecting = "scale must be a number or an array [sx, sy, sz]")]
enum Scale {
    Uniform(f64),
    PerAxis([f64; 3]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectToml {
    name: Option<String>,
    kind: Kind,
    mesh: String,
    translate: Option<[f64; 3]>,
    scale: Option<Scale>,
    rotate: Option<[f64; 3]>,
    density: Option<f64>,
    youngs_modulus: Option<f64>,
    poisson_ratio: Option<f64>,
    thickness: Option<f64>,
    bending_stiffness: Option<f64>,
    damping_alpha: Option<f64>,
    damping_beta: Option<f64>,
    membrane_model: Option<Membrane>,
    pin: Option<Pin>,
    pin_tolerance: Option<f64>,
    #[serde(default)]
    pin_vertices: Vec<usize>,
    velocity: Option<[f64; 3]>,
}

/// Reads the scene file at `path`; errors name the file and the key or mesh at fault.
pub fn load(path: &Path) -> Result<Scene, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse(&text, base, &name).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses scene TOML `text`; mesh paths are relative to `base`, `name` names the scene.
pub fn parse(text: &str, base: &Path, name: &str) -> Result<Scene, String> {
    let file: SceneToml = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    let d = GripSolverParams::default();
    let s = &file.solver;
    let params = GripSolverParams {
        time_step: s.time_step.unwrap_or(d.time_step),
        gravity: s.gravity.unwrap_or(d.gravity),
        max_newton_iterations: s.max_newton_iterations.unwrap_or(d.max_newton_iterations),
        max_line_search_steps: s.max_line_search_steps.unwrap_or(d.max_line_search_steps),
        residual_tolerance: s.residual_tolerance.unwrap_or(d.residual_tolerance),
        velocity_tolerance: s.velocity_tolerance.unwrap_or(d.velocity_tolerance),
        linear_solver: s.linear_solver.unwrap_or(d.linear_solver),
        integrator: s.integrator.unwrap_or(d.integrator),
        worker_count: s.worker_count.unwrap_or(d.worker_count),
        max_substep_halvings: s.max_substep_halvings.unwrap_or(d.max_substep_halvings),
        contact_thickness: s.contact_thickness.unwrap_or(d.contact_thickness),
        contact_stiffness: s.contact_stiffness.unwrap_or(d.contact_stiffness),
        friction_epsilon: s.friction_epsilon.unwrap_or(d.friction_epsilon),
        default_friction: s.default_friction.unwrap_or(d.default_friction),
        friction_smoothing: match s.friction_smoothing {
            None => d.friction_smoothing,
            Some(Smoothing::Quadratic) => GRIP_FRICTION_SMOOTHING_QUADRATIC,
            Some(Smoothing::Rational) => GRIP_FRICTION_SMOOTHING_RATIONAL,
        },
        friction_coupling: match s.friction_coupling {
            None => d.friction_coupling,
            Some(Coupling::Implicit) => GRIP_FRICTION_COUPLING_IMPLICIT,
            Some(Coupling::Lagged) => GRIP_FRICTION_COUPLING_LAGGED,
        },
        max_contact_retries: s.max_contact_retries.unwrap_or(d.max_contact_retries),
        ..d
    };
    params.validate().map_err(|e| format!("[solver]: {e}"))?;
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
        .map(|(i, o)| object(o, base).map_err(|e| format!("[[object]] #{} (mesh \"{}\"): {e}", i + 1, o.mesh)))
        .collect::<Result<Vec<_>, _>>()?;
    let colliders = file
        .collider
        .iter()
        .enumerate()
        .map(|(i, c)| {
            collider(c, i + 1, params.default_friction, fps)
                .map_err(|e| format!("[[collider]] #{} (kind \"{}\"): {e}", i + 1, kind_name(c.kind)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Scene {
        name: name.to_string(),
        params,
        frames: file.output.frames.unwrap_or(DEFAULT_FRAMES),
        fps,
        objects,
        colliders,
    })
}

fn kind_name(k: ShapeKind) -> &'static str {
    match k {
        ShapeKind::Plane => "plane",
        ShapeKind::Sphere => "sphere",
        ShapeKind::Capsule => "capsule",
        ShapeKind::Cylinder => "cylinder",
    }
}

/// One `[[collider]]` (number `index`, from 1): shape, μ (`default_mu` when absent) and motion.
fn collider(c: &ColliderToml, index: usize, default_mu: f64, fps: f64) -> Result<SceneCollider, String> {
    let d = GripShape::default();
    let kind = match c.kind {
        ShapeKind::Plane => GRIP_SHAPE_PLANE,
        ShapeKind::Sphere => GRIP_SHAPE_SPHERE,
        ShapeKind::Capsule => GRIP_SHAPE_CAPSULE,
        ShapeKind::Cylinder => GRIP_SHAPE_CYLINDER,
    };
    let radius = match (c.radius, c.kind) {
        (Some(r), _) => r,
        (None, ShapeKind::Plane) => d.radius,
        (None, k) => return Err(format!("radius is required for a {}", kind_name(k))),
    };
    let shape = GripShape {
        kind,
        inside: c.inside.unwrap_or(false) as u32,
        center: c.center.unwrap_or(d.center),
        axis: c.axis.unwrap_or(d.axis),
        radius,
        half_length: c.half_length.unwrap_or(d.half_length),
        ..d
    };
    let motion = match (c.velocity, c.angular_velocity) {
        (None, None) => Motion::Fixed,
        (v, w) => Motion::Steady {
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

/// Loads the mesh of one `[[object]]` and applies scale, translation, material and pins.
fn object(o: &ObjectToml, base: &Path) -> Result<SceneObject, String> {
    let path = base.join(&o.mesh);
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    let (points, elements) = match (o.kind, ext.as_deref()) {
        (Kind::Shell, Some("obj")) => {
            let m = obj::read_obj(&path).map_err(|e| e.to_string())?;
            (m.positions, Elements::Triangles(m.triangles.concat()))
        }
        (kind, Some("vtk")) => {
            let m = vtk::read_vtk(&path).map_err(|e| e.to_string())?;
            match kind {
                Kind::Solid if m.tets.is_empty() => return Err(format!("{}: has no tetrahedra", path.display())),
                Kind::Solid => (m.positions, Elements::Tets(m.tets.concat())),
                Kind::Shell if m.triangles.is_empty() => return Err(format!("{}: has no triangles", path.display())),
                Kind::Shell => (m.positions, Elements::Triangles(m.triangles.concat())),
            }
        }
        (Kind::Solid, Some("obj")) => return Err("a solid needs a VTK tet mesh, not an OBJ surface".into()),
        _ => return Err(format!("{}: unknown mesh format (use .obj or .vtk)", path.display())),
    };
    let scale = match o.scale {
        None => [1.0; 3],
        Some(Scale::Uniform(s)) => [s; 3],
        Some(Scale::PerAxis(s)) => s,
    };
    if !scale.iter().all(|s| s.is_finite() && *s > 0.0) {
        return Err(format!("scale must be finite and > 0, got {scale:?}"));
    }
    let t = o.translate.unwrap_or([0.0; 3]);
    let r = rotation(o.rotate.unwrap_or([0.0; 3]));
    let positions: Vec<f64> = points
        .iter()
        .flat_map(|p| {
            let s = [0, 1, 2].map(|k| p[k] * scale[k]);
            [0, 1, 2].map(|k| r[k][0] * s[0] + r[k][1] * s[1] + r[k][2] * s[2] + t[k])
        })
        .collect();
    if let Some(x) = positions.iter().find(|x| !x.is_finite()) {
        return Err(format!("translate/rotate/scale give a non-finite coordinate {x}"));
    }
    let mut pinned = o.pin_vertices.clone();
    if let Some(&bad) = pinned.iter().find(|&&v| v >= points.len()) {
        return Err(format!("pin_vertices: vertex {bad} does not exist ({} vertices)", points.len()));
    }
    let tolerance = o.pin_tolerance.unwrap_or(1e-6);
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(format!("pin_tolerance must be finite and >= 0 m, got {tolerance}"));
    }
    if let Some(Pin::Top) = o.pin {
        pinned.extend(top_vertices(&positions, 2, tolerance));
    }
    pinned.sort_unstable();
    pinned.dedup();
    let velocity = o.velocity.unwrap_or([0.0; 3]);
    if velocity.iter().any(|v| !v.is_finite()) {
        return Err(format!("velocity must be finite, got {velocity:?}"));
    }
    let material = material(o);
    material.validate(matches!(o.kind, Kind::Shell)).map_err(|e| e.to_string())?;
    let stem = Path::new(&o.mesh).file_stem().map(|s| s.to_string_lossy().into_owned());
    Ok(SceneObject {
        name: o.name.clone().or(stem).unwrap_or_else(|| "object".into()),
        positions,
        elements,
        material,
        pinned,
        velocity,
    })
}

/// Rows of R_z R_y R_x for angles in degrees (rotate about x first, then y, then z).
fn rotation(deg: [f64; 3]) -> [[f64; 3]; 3] {
    let [(sx, cx), (sy, cy), (sz, cz)] = deg.map(|a| a.to_radians().sin_cos());
    [
        [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
        [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
        [-sy, cy * sx, cy * cx],
    ]
}

/// The object's material: `GripMaterial::default()` with the given fields replaced.
fn material(o: &ObjectToml) -> GripMaterial {
    let d = GripMaterial::default();
    GripMaterial {
        density: o.density.unwrap_or(d.density),
        youngs_modulus: o.youngs_modulus.unwrap_or(d.youngs_modulus),
        poisson_ratio: o.poisson_ratio.unwrap_or(d.poisson_ratio),
        thickness: o.thickness.unwrap_or(d.thickness),
        bending_stiffness: o.bending_stiffness.unwrap_or(d.bending_stiffness),
        damping_alpha: o.damping_alpha.unwrap_or(d.damping_alpha),
        damping_beta: o.damping_beta.unwrap_or(d.damping_beta),
        membrane_model: match o.membrane_model {
            None => d.membrane_model,
            Some(Membrane::NeoHookean) => GRIP_MEMBRANE_NEO_HOOKEAN,
            Some(Membrane::StVk) => GRIP_MEMBRANE_STVK,
        },
        ..d
    }
}
