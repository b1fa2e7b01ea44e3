//! One USD file per bake: the OBJ frames a run wrote (`output.rs`) gathered into
//! `<out>/<scene>.usda` (`crate::io::usda`), which Houdini, Blender and usdview open
//! (`docs/usd.md`).
//!
//! Every object is a `Mesh` prim under one `Xform` root named after the scene: shells, the
//! boundary triangles of solids, and collider meshes, with the triangles of their OBJ files and
//! the positions of each frame as time samples (time code k = frame k). Analytic colliders have
//! no mesh and are left out. The up axis is `Z` unless the scene's gravity points mostly along
//! −y (its y component is negative and larger in size than the x and z ones): then `Y`.

use super::description::{file_stem, Elements, Scene};
use super::output::frame_file_name;
use crate::io::obj::{read_obj, SurfaceMesh};
use crate::io::usda::{prim_name, unique_prim_names, Layer, MeshPrim, UpAxis, UsdaWriter};
use crate::io::IoError;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The up axis of a scene with `gravity` (m/s², any length): `Y` when it points mostly along −y,
/// else `Z` (zero gravity included).
pub fn up_axis(gravity: [f64; 3]) -> UpAxis {
    let [x, y, z] = gravity;
    if -y > x.abs() && -y > z.abs() {
        UpAxis::Y
    } else {
        UpAxis::Z
    }
}

/// Writes `<out>/<stem>.usda` (stem: [`file_stem`] of the scene's name) from the OBJ files
/// `<name>_<frame:04>.obj` of frames 0 to `last_frame` that a run of `scene` wrote into `out`
/// (`names`: the objects' file stems, `unique_names(scene)`), and returns its path. Every frame
/// of an object must have the vertices and triangles of its frame 0 (the error names the file
/// that differs). The file is written as `<stem>.usda.partial` and renamed when complete, so an
/// existing `<stem>.usda` is replaced only by a whole one.
pub fn write_usd(out: &Path, scene: &Scene, names: &[String], last_frame: usize) -> Result<PathBuf, String> {
    if names.len() != scene.objects.len() {
        return Err(format!("{} names for {} objects", names.len(), scene.objects.len()));
    }
    let stem = file_stem(&scene.name);
    let path = out.join(format!("{stem}.usda"));
    let partial = out.join(format!("{stem}.usda.partial"));
    let file = File::create(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    let written = write_layer(BufWriter::new(file), out, scene, names, last_frame)
        .and_then(|w| w.into_inner().map_err(|e| e.into_error().into()))
        .and_then(|file| file.sync_all().map_err(IoError::from));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("{}: {e}", path.display()));
    }
    std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Writes the layer of [`write_usd`] to `w`, reading one OBJ file at a time.
fn write_layer(
    w: BufWriter<File>,
    out: &Path,
    scene: &Scene,
    names: &[String],
    last_frame: usize,
) -> Result<BufWriter<File>, IoError> {
    let root = prim_name(&file_stem(&scene.name));
    let doc = format!(
        "grip {} bake of scene {:?}: frames 0 to {last_frame} at {} frames/s, SI units (m)",
        env!("CARGO_PKG_VERSION"),
        scene.name,
        scene.fps
    );
    let layer = Layer { root: &root, up_axis: up_axis(scene.params.gravity), fps: scene.fps, last_frame, doc: &doc };
    let mut usda = UsdaWriter::new(w, &layer)?;
    let prims = unique_prim_names(names);
    for ((name, prim), object) in names.iter().zip(&prims).zip(&scene.objects) {
        let file = |frame: usize| out.join(frame_file_name(name, frame));
        let SurfaceMesh { positions: first, triangles } = read_obj(&file(0))?;
        let (n0, t0) = (first.len(), triangles.len());
        let double_sided = matches!(object.elements, Elements::Triangles(_));
        let mesh = MeshPrim { name: prim, vertices: n0, triangles: &triangles, double_sided };
        let mut frame0 = Some(first);
        let positions = |frame: usize| -> Result<Vec<[f64; 3]>, IoError> {
            if frame == 0 {
                if let Some(p) = frame0.take() {
                    return Ok(p);
                }
            }
            let path = file(frame);
            let m = read_obj(&path)?;
            let (n, t) = (m.positions.len(), m.triangles.len());
            let differs = if (n, t) != (n0, t0) {
                format!("{n} vertices and {t} triangles, frame 0 has {n0} and {t0}")
            } else if m.triangles != triangles {
                "other triangles than frame 0".to_string()
            } else {
                return Ok(m.positions);
            };
            Err(IoError { message: format!("{}: {differs}", path.display()) })
        };
        // The prim is named after the object's file stem; name the object too when it differs.
        let named = |e: IoError| if *prim == object.name { e } else { e.context(format!("object {:?}", object.name)) };
        usda.mesh(&mesh, positions).map_err(named)?;
    }
    usda.finish()
}

#[cfg(test)]
mod tests;
