//! Wavefront OBJ surface meshes.
//!
//! Only geometry is read: `v` positions and `f` faces (polygons are fan-triangulated).
//! Texture coordinates, normals, groups, materials and any other statements are ignored.

use super::{err, validate_mesh, IoError};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// A triangle surface mesh: vertex positions (m) and 0-based triangle vertex indices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SurfaceMesh {
    /// Vertex positions in metres.
    pub positions: Vec<[f64; 3]>,
    /// Triangles as 0-based indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
}

/// Parses one coordinate, rejecting unparsable and non-finite values.
fn parse_coord(tok: &str, line: usize) -> Result<f64, IoError> {
    let v: f64 = tok.parse().map_err(|_| err(format!("line {line}: cannot parse number '{tok}'")))?;
    if !v.is_finite() {
        return Err(err(format!("line {line}: non-finite number '{tok}'")));
    }
    Ok(v)
}

/// Resolves one face-vertex token (`i`, `i/t`, `i//n`, `i/t/n`) to a 0-based index.
///
/// Positive indices may refer to vertices defined later in the file, so they are only
/// range-checked at the end; negative (relative) indices are resolved immediately.
fn parse_face_vertex(tok: &str, n_verts: usize, line: usize) -> Result<usize, IoError> {
    let mut parts = tok.split('/');
    let first = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    if rest.len() > 2 {
        return Err(err(format!("line {line}: malformed face vertex '{tok}'")));
    }
    for r in &rest {
        if !r.is_empty() && r.parse::<i64>().is_err() {
            return Err(err(format!("line {line}: malformed face vertex '{tok}'")));
        }
    }
    let i: i64 = first.parse().map_err(|_| err(format!("line {line}: cannot parse face index '{tok}'")))?;
    if i > 0 {
        usize::try_from(i - 1).map_err(|_| err(format!("line {line}: index {i} is too large")))
    } else if i < 0 {
        let back = usize::try_from(i.unsigned_abs()).unwrap_or(usize::MAX);
        n_verts
            .checked_sub(back)
            .ok_or_else(|| err(format!("line {line}: relative index {i} is out of range ({n_verts} vertices so far)")))
    } else {
        Err(err(format!("line {line}: face index 0 is invalid (OBJ is 1-based)")))
    }
}

/// Parses OBJ text into a triangle mesh; errors name the offending line (1-based).
pub fn parse_obj(text: &str) -> Result<SurfaceMesh, IoError> {
    let mut mesh = SurfaceMesh::default();
    // (0-based index, line) of positive indices that were ahead of the vertex count.
    let mut forward: Vec<(usize, usize)> = Vec::new();
    let mut face: Vec<usize> = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (ln, raw) in text.lines().enumerate() {
        let line = ln + 1;
        let content = raw.split('#').next().unwrap_or("");
        let mut toks = content.split_whitespace();
        match toks.next() {
            Some("v") => {
                let vals = toks.map(|t| parse_coord(t, line)).collect::<Result<Vec<f64>, _>>()?;
                if vals.len() < 3 {
                    return Err(err(format!("line {line}: vertex needs 3 coordinates, found {}", vals.len())));
                }
                // An optional 4th value (w) or trailing vertex colours are ignored.
                mesh.positions.push([vals[0], vals[1], vals[2]]);
            }
            Some("f") => {
                face.clear();
                for t in toks {
                    let idx = parse_face_vertex(t, mesh.positions.len(), line)?;
                    if idx >= mesh.positions.len() {
                        forward.push((idx, line));
                    }
                    face.push(idx);
                }
                if face.len() < 3 {
                    return Err(err(format!("line {line}: face has {} vertices, at least 3 are needed", face.len())));
                }
                for k in 1..face.len() - 1 {
                    let tri = [face[0], face[k], face[k + 1]].map(|i| i as u32);
                    mesh.triangles.push(tri);
                }
            }
            _ => {} // vt, vn, o, g, s, usemtl, mtllib, l, blank lines, ...
        }
    }
    let n = mesh.positions.len();
    if n > u32::MAX as usize {
        return Err(err(format!("too many vertices ({n}) for 32-bit indices")));
    }
    if let Some(&(idx, line)) = forward.iter().find(|&&(idx, _)| idx >= n) {
        return Err(err(format!("line {line}: face index {} is out of range ({n} vertices)", idx as u64 + 1)));
    }
    Ok(mesh)
}

/// Reads and parses an OBJ file; error messages include the path.
pub fn read_obj(path: &Path) -> Result<SurfaceMesh, IoError> {
    let bytes = std::fs::read(path).map_err(|e| IoError::from(e).context(path.display()))?;
    parse_obj(&String::from_utf8_lossy(&bytes)).map_err(|e| e.context(path.display()))
}

/// Writes OBJ text (full-precision `v` lines, 1-based `f` lines) to `w`.
fn write_obj_to<W: Write>(w: &mut W, positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> std::io::Result<()> {
    writeln!(w, "# written by grip")?;
    for p in positions {
        // `{}` on f64 prints the shortest representation that round-trips exactly.
        writeln!(w, "v {} {} {}", p[0], p[1], p[2])?;
    }
    for t in triangles {
        writeln!(w, "f {} {} {}", t[0] as u64 + 1, t[1] as u64 + 1, t[2] as u64 + 1)?;
    }
    Ok(())
}

/// Formats a triangle mesh as OBJ text (no validation; see [`write_obj`]).
pub fn obj_string(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec<u8> cannot fail, and the output is pure ASCII.
    let _ = write_obj_to(&mut buf, positions, triangles);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Writes a triangle mesh to an OBJ file.
///
/// Returns an error (and writes nothing) if a position is non-finite or an index is out of
/// range, so that the file can always be read back by [`read_obj`].
pub fn write_obj(path: &Path, positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> Result<(), IoError> {
    let ctx = |e: IoError| e.context(path.display());
    validate_mesh(positions, triangles, "triangle").map_err(ctx)?;
    let file = File::create(path).map_err(|e| ctx(e.into()))?;
    let mut w = BufWriter::new(file);
    write_obj_to(&mut w, positions, triangles).map_err(|e| ctx(e.into()))?;
    w.flush().map_err(|e| ctx(e.into()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_face_forms_and_ignores_extras() {
        let text = "# cube corner\nmtllib a.mtl\no thing\nv 0 0 0\nv 1 0 0 1.0\nv 1 1 0\n\
                    v 0 1 0\nvt 0 0\nvn 0 0 1\ng grp\ns off\nusemtl m\n\
                    f 1 2 3\nf 1/1 3/1 4/1\nf 1//1 2//1 3//1 # trailing comment\nf 1/1/1 3/1/1 4/1/1\n";
        let m = parse_obj(text).expect("parse");
        assert_eq!(m.positions.len(), 4);
        assert_eq!(m.positions[1], [1.0, 0.0, 0.0]);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn negative_indices_and_fan_triangulation() {
        let text = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf -5 -4 -3 -2 -1\n";
        let m = parse_obj(text).expect("parse");
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn forward_references_are_allowed() {
        let m = parse_obj("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n").expect("parse");
        assert_eq!(m.triangles, vec![[0, 1, 2]]);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", "line 4"),
            ("v 0 0 0\nv 1 0 nan\n", "line 2"),
            ("v 0 0 0\nv 1 0 inf\n", "line 2"),
            ("v 0 0\n", "line 1"),
            ("v 0 0 0\nv 1 0 0\n\nf 1 2\n", "line 4"),
            ("v 0 0 x\n", "line 1"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 a\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/x\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/1/1/1\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", "line 4"),
        ];
        for (text, want) in cases {
            match parse_obj(text) {
                Ok(m) => panic!("expected error for {text:?}, got {m:?}"),
                Err(e) => assert!(e.message.contains(want), "{text:?}: {}", e.message),
            }
        }
    }

    #[test]
    fn string_round_trip_is_exact() {
        let positions =
            vec![[0.1, -2.5e-7, 1.0 / 3.0], [1e300, -0.0, 123456.789], [std::f64::consts::PI, 2.0, -1e-300]];
        let triangles = vec![[0, 1, 2], [2, 1, 0]];
        let text = obj_string(&positions, &triangles);
        let m = parse_obj(&text).expect("parse");
        assert_eq!(m.positions, positions);
        assert_eq!(m.triangles, triangles);
    }

    #[test]
    fn file_round_trip_and_errors() {
        let dir = std::env::temp_dir().join(format!("grip_obj_test_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("tri.obj");
        let positions = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.5]];
        write_obj(&path, &positions, &[[0, 1, 2]]).expect("write");
        let m = read_obj(&path).expect("read");
        assert_eq!(m.positions, positions.to_vec());
        assert_eq!(m.triangles, vec![[0, 1, 2]]);
        assert!(write_obj(&path, &positions, &[[0, 1, 3]]).is_err());
        let missing = dir.join("missing.obj");
        let e = read_obj(&missing).expect_err("missing file");
        assert!(e.message.contains("missing.obj"), "{}", e.message);
        std::fs::write(&path, "v 0 0 0\nf 1 1\n").expect("write");
        let e = read_obj(&path).expect_err("bad face");
        assert!(e.message.contains("tri.obj") && e.message.contains("line 2"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
