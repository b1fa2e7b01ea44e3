//! USD ASCII layers (`.usda`) of animated triangle meshes, as DCC tools (Houdini, Blender,
//! usdview) open them.
//!
//! A layer holds one `Xform` root prim (the layer's `defaultPrim`) with one `Mesh` prim per
//! object: its topology (`faceVertexCounts`, `faceVertexIndices`) once, then `points` and
//! `extent` as time samples, one per frame, time code k = frame k. Positions come in as `f64`
//! metres and are written as `point3f`, the `f32` nearest to each coordinate (the UsdGeomMesh
//! schema's type), in the shortest text that reads back to that `f32`. `extent` is the box of
//! those `f32` points, so it brackets them exactly. Meshes are not subdivided
//! (`subdivisionScheme = "none"`): a simulated surface is its own limit surface.
//!
//! The writer streams: a mesh's frames are asked for one at a time and written at once, and only
//! the extents (six numbers a frame) are kept until the mesh ends.

use super::{err, IoError};
use std::io::Write;

/// The world axis that points up in a layer (its `upAxis` metadata).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpAxis {
    /// +y up (Maya's, Houdini's and usdview's default).
    Y,
    /// +z up (Blender's convention, and grip's default gravity).
    Z,
}

/// Layer-wide metadata of a file written by [`UsdaWriter`].
#[derive(Clone, Debug)]
pub struct Layer<'a> {
    /// Name of the root `Xform` prim, the layer's `defaultPrim`: a valid identifier
    /// ([`is_identifier`]).
    pub root: &'a str,
    /// The `upAxis` metadata.
    pub up_axis: UpAxis,
    /// Frames per second: both `timeCodesPerSecond` and `framesPerSecond` (finite, > 0).
    pub fps: f64,
    /// The last frame, `endTimeCode` (`startTimeCode` is 0).
    pub last_frame: usize,
    /// The layer's `doc` string (any text; escaped as needed).
    pub doc: &'a str,
}

/// One animated `Mesh` prim: its name, topology and look.
#[derive(Clone, Debug)]
pub struct MeshPrim<'a> {
    /// Prim name, a valid identifier unique among the layer's meshes.
    pub name: &'a str,
    /// Vertices of every frame.
    pub vertices: usize,
    /// Triangles, 0-based indices below `vertices`, counter-clockwise seen from the front
    /// (`orientation = "rightHanded"`).
    pub triangles: &'a [[u32; 3]],
    /// `doubleSided`: true for open surfaces such as cloth, seen from both sides.
    pub double_sided: bool,
}

/// Whether `name` is a USD identifier, `[A-Za-z_][A-Za-z0-9_]*`, as prim names must be.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `name` made an identifier: every other character becomes `_`, a leading digit gets a `_`
/// put before it, and an empty name becomes `_`.
pub fn prim_name(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s
    } else {
        format!("_{s}")
    }
}

/// [`prim_name`] of each of `names`, made unique: a repeat gets `_2`, `_3`, … appended (so that
/// `a-b` and `a_b` become `a_b` and `a_b_2`).
pub fn unique_prim_names<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let base = prim_name(name.as_ref());
        let mut candidate = base.clone();
        let mut k = 2;
        while out.contains(&candidate) {
            candidate = format!("{base}_{k}");
            k += 1;
        }
        out.push(candidate);
    }
    out
}

/// `text` as a USDA string literal: in double quotes, with `\` and `"` escaped and control
/// characters written as escapes, so that any name or note reads back as it was.
fn quoted(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            '\r' => s.push_str("\\r"),
            c if c.is_ascii_control() => s.push_str(&format!("\\x{:02x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Writes `x` in the shortest text that reads back to the same `f32` (Rust's `{}` and `{:e}`
/// both do): positional for zero and magnitudes from 1e-5 to 1e16, where it reads best, and with
/// an exponent outside, where positional text would run to dozens of zeros (`1e-30`).
fn write_f32<W: Write>(w: &mut W, x: f32) -> std::io::Result<()> {
    let a = x.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        write!(w, "{x}")
    } else {
        write!(w, "{x:e}")
    }
}

/// Writes one `(x, y, z)` tuple of `f32` values.
fn write_tuple<W: Write>(w: &mut W, p: &[f32; 3]) -> std::io::Result<()> {
    w.write_all(b"(")?;
    write_f32(w, p[0])?;
    w.write_all(b", ")?;
    write_f32(w, p[1])?;
    w.write_all(b", ")?;
    write_f32(w, p[2])?;
    w.write_all(b")")
}

/// A streaming USDA writer: the header and root prim on [`UsdaWriter::new`], one mesh per
/// [`UsdaWriter::mesh`], the end on [`UsdaWriter::finish`].
pub struct UsdaWriter<W: Write> {
    w: W,
    last_frame: usize,
    /// Names of the meshes written so far (they must be unique).
    names: Vec<String>,
}

impl<W: Write> UsdaWriter<W> {
    /// Writes the layer header of `layer` and opens its root prim.
    pub fn new(mut w: W, layer: &Layer) -> Result<Self, IoError> {
        if !is_identifier(layer.root) {
            return Err(err(format!("root prim name {:?} is not a USD identifier", layer.root)));
        }
        if !(layer.fps.is_finite() && layer.fps > 0.0) {
            return Err(err(format!("frames per second must be finite and positive, got {}", layer.fps)));
        }
        let up = match layer.up_axis {
            UpAxis::Y => "Y",
            UpAxis::Z => "Z",
        };
        // Metadata in the order usdcat prints it (alphabetical).
        let header = format!(
            "#usda 1.0\n(\n    defaultPrim = {root}\n    doc = {doc}\n    endTimeCode = {end}\n    \
             framesPerSecond = {fps}\n    metersPerUnit = 1\n    startTimeCode = 0\n    \
             timeCodesPerSecond = {fps}\n    upAxis = \"{up}\"\n)\n\ndef Xform {root}\n{{\n",
            root = quoted(layer.root),
            doc = quoted(layer.doc),
            end = layer.last_frame,
            fps = layer.fps,
        );
        w.write_all(header.as_bytes())?;
        Ok(Self { w, last_frame: layer.last_frame, names: Vec::new() })
    }

    /// Writes `mesh` as a `Mesh` prim under the root, its positions (m) at frames 0 to the
    /// layer's last taken from `positions(frame)` one frame at a time. Fails, naming the mesh and
    /// the frame, on a position that is not finite or out of `f32` range, on a frame with another
    /// vertex count, and on a bad name or triangle index; the output is then incomplete.
    pub fn mesh<F>(&mut self, mesh: &MeshPrim, mut positions: F) -> Result<(), IoError>
    where
        F: FnMut(usize) -> Result<Vec<[f64; 3]>, IoError>,
    {
        let name = mesh.name;
        if !is_identifier(name) {
            return Err(err(format!("mesh prim name {name:?} is not a USD identifier")));
        }
        if self.names.iter().any(|n| n == name) {
            return Err(err(format!("two meshes are named {name:?}")));
        }
        let n = mesh.vertices;
        if let Some((t, &bad)) = mesh
            .triangles
            .iter()
            .enumerate()
            .find_map(|(t, tri)| tri.iter().find(|&&v| v as usize >= n).map(|v| (t, v)))
        {
            return Err(err(format!(
                "mesh {name:?}: triangle {t} references vertex {bad}, but there are {n} vertices"
            )));
        }
        self.names.push(name.to_string());
        let w = &mut self.w;
        writeln!(w, "    def Mesh {}\n    {{", quoted(name))?;
        writeln!(w, "        uniform bool doubleSided = {}", mesh.double_sided as u8)?;
        write!(w, "        int[] faceVertexCounts = [")?;
        for t in 0..mesh.triangles.len() {
            w.write_all(if t == 0 { b"3" } else { b", 3" })?;
        }
        write!(w, "]\n        int[] faceVertexIndices = [")?;
        for (t, tri) in mesh.triangles.iter().enumerate() {
            let sep = if t == 0 { "" } else { ", " };
            write!(w, "{sep}{}, {}, {}", tri[0], tri[1], tri[2])?;
        }
        writeln!(w, "]\n        uniform token orientation = \"rightHanded\"")?;
        writeln!(w, "        point3f[] points.timeSamples = {{")?;
        let mut extents: Vec<[[f32; 3]; 2]> = Vec::with_capacity(self.last_frame + 1);
        for frame in 0..=self.last_frame {
            let at = |m: String| err(format!("mesh {name:?}, frame {frame}: {m}"));
            let p = positions(frame).map_err(|e| at(e.message))?;
            if p.len() != n {
                return Err(at(format!("{} vertices, but the mesh has {n}", p.len())));
            }
            let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
            write!(w, "            {frame}: [")?;
            for (i, x) in p.iter().enumerate() {
                let q = x.map(|c| c as f32);
                if !q.iter().all(|c| c.is_finite()) {
                    return Err(at(format!("vertex {i} is at {x:?}, not a finite float32 position")));
                }
                for k in 0..3 {
                    lo[k] = lo[k].min(q[k]);
                    hi[k] = hi[k].max(q[k]);
                }
                w.write_all(if i == 0 { b"" } else { b", " })?;
                write_tuple(w, &q)?;
            }
            writeln!(w, "],")?;
            // A mesh without vertices has an empty box: written as zeros, which USD accepts.
            extents.push(if n == 0 { [[0.0; 3]; 2] } else { [lo, hi] });
        }
        writeln!(w, "        }}\n        float3[] extent.timeSamples = {{")?;
        for (frame, [lo, hi]) in extents.iter().enumerate() {
            write!(w, "            {frame}: [")?;
            write_tuple(w, lo)?;
            w.write_all(b", ")?;
            write_tuple(w, hi)?;
            writeln!(w, "],")?;
        }
        writeln!(w, "        }}\n        uniform token subdivisionScheme = \"none\"\n    }}")?;
        Ok(())
    }

    /// Closes the root prim, flushes and hands back the output.
    pub fn finish(mut self) -> Result<W, IoError> {
        self.w.write_all(b"}\n")?;
        self.w.flush()?;
        Ok(self.w)
    }
}

#[cfg(test)]
mod tests;
