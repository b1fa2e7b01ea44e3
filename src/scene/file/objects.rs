//! `[[object]]` tables of scene files (shells, solids, collider meshes) and their
//! `[[object.pin_group]]` tables.

use super::motion::MotionToml;
use crate::energy::membrane::MembraneModel;
use crate::energy::volume::VolumeKind;
use crate::io::{obj, vtk};
use crate::mesh::generate::top_vertices;
use crate::model::ObjectSelfContact;
use crate::scene::description::{Elements, PinGroup, PinSelection, PreviewStyle, SceneObject, VolumeSpec};
use crate::scene::motion::Motion;
use crate::scene::point_cache::PointCache;
use crate::Material;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Shell,
    Solid,
    Collider,
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
#[serde(rename_all = "lowercase")]
enum Preview {
    Solid,
    Translucent,
}

#[derive(Deserialize, Clone, Copy)]
enum VolumeModelName {
    #[serde(rename = "quadratic")]
    Quadratic,
    #[serde(rename = "ideal-gas")]
    IdealGas,
    #[serde(rename = "nearly-incompressible")]
    NearlyIncompressible,
}

/// The scene-file name of volume law `kind`.
pub(super) fn volume_model_name(kind: VolumeKind) -> &'static str {
    match kind {
        VolumeKind::IdealGas => "ideal-gas",
        VolumeKind::NearlyIncompressible => "nearly-incompressible",
        VolumeKind::Quadratic => "quadratic",
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(untagged, expecting = "scale must be a number or an array [sx, sy, sz]")]
enum Scale {
    Uniform(f64),
    PerAxis([f64; 3]),
}

/// One `[[object]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ObjectToml {
    name: Option<String>,
    kind: Kind,
    pub(super) mesh: String,
    rest_mesh: Option<String>,
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
    pin_vertices: Option<Vec<usize>>,
    velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
    volume_model: Option<VolumeModelName>,
    compression_coefficient: Option<f64>,
    pressure: Option<f64>,
    motion: Option<MotionToml>,
    point_cache: Option<String>,
    preview: Option<Preview>,
    self_contact: Option<bool>,
    self_contact_thickness: Option<f64>,
    #[serde(default)]
    pin_group: Vec<PinGroupToml>,
}

/// One `[[object.pin_group]]`: `vertices`, or a box `min`..`max`; a motion (default fixed).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PinGroupToml {
    vertices: Option<Vec<usize>>,
    min: Option<[f64; 3]>,
    max: Option<[f64; 3]>,
    motion: Option<MotionToml>,
}

impl ObjectToml {
    /// The keys given that only solids and shells take.
    fn deformable_keys(&self) -> Vec<&'static str> {
        let given = [
            ("density", self.density.is_some()),
            ("youngs_modulus", self.youngs_modulus.is_some()),
            ("poisson_ratio", self.poisson_ratio.is_some()),
            ("thickness", self.thickness.is_some()),
            ("bending_stiffness", self.bending_stiffness.is_some()),
            ("damping_alpha", self.damping_alpha.is_some()),
            ("damping_beta", self.damping_beta.is_some()),
            ("membrane_model", self.membrane_model.is_some()),
            ("pin", self.pin.is_some()),
            ("pin_tolerance", self.pin_tolerance.is_some()),
            ("pin_vertices", self.pin_vertices.is_some()),
            ("velocity", self.velocity.is_some()),
            ("angular_velocity", self.angular_velocity.is_some()),
            ("volume_model", self.volume_model.is_some()),
            ("compression_coefficient", self.compression_coefficient.is_some()),
            ("pressure", self.pressure.is_some()),
            ("pin_group", !self.pin_group.is_empty()),
            ("rest_mesh", self.rest_mesh.is_some()),
        ];
        given.iter().filter(|(_, g)| *g).map(|(k, _)| *k).collect()
    }
}

/// Reads the mesh of one `[[object]]`: positions and elements of its kind.
fn read_mesh(kind: Kind, path: &Path) -> Result<(Vec<[f64; 3]>, Elements), String> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    Ok(match (kind, ext.as_deref()) {
        (Kind::Solid, Some("obj")) => return Err("a solid needs a VTK tet mesh, not an OBJ surface".into()),
        (_, Some("obj")) => {
            let m = obj::read_obj(path).map_err(|e| e.to_string())?;
            let t = m.triangles.concat();
            (m.positions, if kind == Kind::Shell { Elements::Triangles(t) } else { Elements::ColliderMesh(t) })
        }
        (_, Some("vtk")) => {
            let m = vtk::read_vtk(path).map_err(|e| e.to_string())?;
            match kind {
                Kind::Solid if m.tets.is_empty() => return Err(format!("{}: has no tetrahedra", path.display())),
                Kind::Solid => (m.positions, Elements::Tets(m.tets.concat())),
                _ if m.triangles.is_empty() => return Err(format!("{}: has no triangles", path.display())),
                Kind::Shell => (m.positions, Elements::Triangles(m.triangles.concat())),
                Kind::Collider => (m.positions, Elements::ColliderMesh(m.triangles.concat())),
            }
        }
        _ => return Err(format!("{}: unknown mesh format (use .obj or .vtk)", path.display())),
    })
}

/// Scales, rotates and translates `points` (in that order); without any of the three keys the
/// positions are the file's, bit for bit.
fn place(o: &ObjectToml, points: &[[f64; 3]]) -> Result<Vec<f64>, String> {
    if o.scale.is_none() && o.rotate.is_none() && o.translate.is_none() {
        return Ok(points.iter().flatten().copied().collect());
    }
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
    Ok(positions)
}

/// Loads the mesh of one `[[object]]` and applies the transforms, material, pins, pin groups,
/// motion and preview style.
pub(super) fn object(o: &ObjectToml, base: &Path) -> Result<SceneObject, String> {
    let collider = o.kind == Kind::Collider;
    if collider {
        if let Some(key) = o.deformable_keys().first() {
            return Err(format!("{key} does not apply to kind = \"collider\" (a kinematic mesh moved by its motion)"));
        }
        if o.motion.is_some() && o.point_cache.is_some() {
            return Err("a collider moves by its motion or its point_cache, not both".into());
        }
    } else if o.motion.is_some() || o.point_cache.is_some() {
        return Err("motion and point_cache apply to kind = \"collider\"; drive vertices of a shell or solid \
                    with [[object.pin_group]] motion"
            .into());
    }
    let (points, elements) = read_mesh(o.kind, &base.join(&o.mesh))?;
    let positions = place(o, &points)?;
    let rest_positions = match &o.rest_mesh {
        None => None,
        Some(file) => {
            let (rest, rest_elements) = read_mesh(o.kind, &base.join(file)).map_err(|e| format!("rest_mesh: {e}"))?;
            if rest.len() != points.len() || rest_elements != elements {
                return Err(format!(
                    "rest_mesh: {file} must have the vertices and elements of {} in the same order ({} vertices \
                     against {})",
                    o.mesh,
                    rest.len(),
                    points.len()
                ));
            }
            Some(place(o, &rest)?)
        }
    };
    let point_cache = match &o.point_cache {
        None => None,
        Some(file) => {
            let cache = PointCache::read_pc2(&base.join(file)).map_err(|e| format!("point_cache: {e}"))?;
            let frames = cache
                .frames
                .iter()
                .map(|f| place(o, &f.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect::<Vec<_>>()))
                .collect::<Result<Vec<_>, _>>()?;
            let cache = PointCache::new(frames);
            cache.check(points.len())?;
            Some(cache)
        }
    };
    let mut pinned = o.pin_vertices.clone().unwrap_or_default();
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
    let angular_velocity = o.angular_velocity.unwrap_or([0.0; 3]);
    if angular_velocity.iter().any(|v| !v.is_finite()) {
        return Err(format!("angular_velocity must be finite, got {angular_velocity:?}"));
    }
    let volume = match (o.volume_model, o.compression_coefficient, o.pressure) {
        (None, None, None) => None,
        (None, _, _) => return Err("compression_coefficient and pressure need volume_model".into()),
        (Some(m), k, p) => Some(VolumeSpec {
            model: match m {
                VolumeModelName::Quadratic => VolumeKind::Quadratic,
                VolumeModelName::IdealGas => VolumeKind::IdealGas,
                VolumeModelName::NearlyIncompressible => VolumeKind::NearlyIncompressible,
            },
            compression: k.ok_or("volume_model needs compression_coefficient [1/Pa]")?,
            pressure: p.unwrap_or(0.0),
        }),
    };
    let material = material(o);
    if !collider {
        material.validate(o.kind == Kind::Shell).map_err(|e| e.to_string())?;
    }
    let pin_groups = o
        .pin_group
        .iter()
        .enumerate()
        .map(|(i, g)| pin_group(g).map_err(|e| format!("[[object.pin_group]] #{}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let self_contact = self_contact(o)?;
    let stem = Path::new(&o.mesh).file_stem().map(|s| s.to_string_lossy().into_owned());
    Ok(SceneObject {
        name: o.name.clone().or(stem).unwrap_or_else(|| "object".into()),
        positions,
        rest_positions,
        elements,
        material,
        pinned,
        pin_groups,
        velocity,
        angular_velocity,
        volume,
        motion: o.motion.as_ref().map_or(Motion::Fixed, |m| m.motion()),
        point_cache,
        preview: match o.preview {
            None | Some(Preview::Solid) => PreviewStyle::Solid,
            Some(Preview::Translucent) => PreviewStyle::Translucent,
        },
        self_contact,
    })
}

/// A shell's `self_contact` (default true) and `self_contact_thickness` (m; default the
/// solver's); an error for either key on a solid or collider, or a thickness out of range.
fn self_contact(o: &ObjectToml) -> Result<ObjectSelfContact, String> {
    if o.kind != Kind::Shell && (o.self_contact.is_some() || o.self_contact_thickness.is_some()) {
        return Err("self_contact and self_contact_thickness apply to kind = \"shell\"".into());
    }
    ObjectSelfContact::new(o.self_contact.unwrap_or(true), o.self_contact_thickness)
        .map_err(|e| format!("self_contact_thickness: {e}"))
}

/// One pin group: exactly one of `vertices` and the box `min`, `max`.
fn pin_group(g: &PinGroupToml) -> Result<PinGroup, String> {
    let selection = match (&g.vertices, g.min, g.max) {
        (Some(v), None, None) => PinSelection::Vertices(v.clone()),
        (None, Some(min), Some(max)) => PinSelection::Box { min, max },
        (None, Some(_), None) => return Err("min needs max (a box)".into()),
        (None, None, Some(_)) => return Err("max needs min (a box)".into()),
        (None, None, None) => return Err("give vertices = [...] or a box min = [...], max = [...]".into()),
        (Some(_), _, _) => return Err("give either vertices or a box min/max, not both".into()),
    };
    Ok(PinGroup { selection, motion: g.motion.as_ref().map_or(Motion::Fixed, |m| m.motion()) })
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

/// The object's material: `Material::default()` with the given fields replaced.
fn material(o: &ObjectToml) -> Material {
    let d = Material::default();
    Material {
        density: o.density.unwrap_or(d.density),
        youngs_modulus: o.youngs_modulus.unwrap_or(d.youngs_modulus),
        poisson_ratio: o.poisson_ratio.unwrap_or(d.poisson_ratio),
        thickness: o.thickness.unwrap_or(d.thickness),
        bending_stiffness: o.bending_stiffness.unwrap_or(d.bending_stiffness),
        damping_alpha: o.damping_alpha.unwrap_or(d.damping_alpha),
        damping_beta: o.damping_beta.unwrap_or(d.damping_beta),
        membrane_model: match o.membrane_model {
            None => d.membrane_model,
            Some(Membrane::NeoHookean) => MembraneModel::NeoHookean,
            Some(Membrane::StVk) => MembraneModel::StVenantKirchhoff,
        },
    }
}

/// The scene-file name of membrane model `model`.
pub(super) fn membrane_name(model: MembraneModel) -> &'static str {
    if model == MembraneModel::StVenantKirchhoff {
        "stvk"
    } else {
        "neo-hookean"
    }
}
