//! Legacy VTK files (`# vtk DataFile Version 2.0`–`5.1`).
//!
//! Reads `ASCII` and big-endian `BINARY` files with `DATASET UNSTRUCTURED_GRID` (tetrahedra,
//! triangles, quads and polygons) or `DATASET POLYDATA` (polygons and triangle strips), in
//! both the classic `CELLS` layout and the 5.1 `OFFSETS`/`CONNECTIVITY` layout. Attribute
//! sections (`POINT_DATA`, `CELL_DATA`) after the geometry are skipped. Writes ASCII
//! unstructured grids.

use super::{err, validate_mesh, IoError};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// A mixed volume/surface mesh: positions (m), tetrahedra and surface triangles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VolumeMesh {
    /// Vertex positions in metres.
    pub positions: Vec<[f64; 3]>,
    /// Tetrahedra as 0-based indices into `positions` (VTK cell type 10).
    pub tets: Vec<[u32; 4]>,
    /// Triangles (VTK types 5, 7 and 9, or polydata polygons/strips, fan-triangulated).
    pub triangles: Vec<[u32; 3]>,
}

/// Byte cursor over the file, shared by the ASCII and binary code paths.
struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
    binary: bool,
}

impl<'a> Cursor<'a> {
    /// Describes the current position for error messages.
    fn at(&self) -> String {
        let line = self.b[..self.pos.min(self.b.len())].iter().filter(|&&c| c == b'\n');
        format!("line {}", line.count() + 1)
    }

    /// Returns the next whitespace-delimited token, or `None` at end of input.
    fn token(&mut self) -> Option<&'a str> {
        while self.pos < self.b.len() && self.b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.b.len() && !self.b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        // Non-UTF-8 tokens become "" and are then reported as unexpected.
        (start < self.pos).then(|| std::str::from_utf8(&self.b[start..self.pos]).unwrap_or(""))
    }

    /// Returns the next token or an error naming what was expected.
    fn expect(&mut self, what: &str) -> Result<&'a str, IoError> {
        self.token().ok_or_else(|| err(format!("unexpected end of file, expected {what}")))
    }

    /// Parses the next token as a count.
    fn count(&mut self, what: &str) -> Result<usize, IoError> {
        let t = self.expect(what)?;
        t.parse().map_err(|_| err(format!("{}: expected {what}, found '{t}'", self.at())))
    }

    /// Consumes the rest of the current line (including the newline) and returns it trimmed.
    fn line(&mut self) -> &'a str {
        let start = self.pos.min(self.b.len());
        let end = self.b[start..].iter().position(|&c| c == b'\n').map_or(self.b.len(), |i| start + i);
        self.pos = (end + 1).min(self.b.len());
        std::str::from_utf8(&self.b[start..end]).unwrap_or("").trim()
    }

    /// Reads `n` numbers of VTK data type `ty` (ASCII text or big-endian binary) as `f64`.
    fn values(&mut self, n: usize, ty: &str, what: &str) -> Result<Vec<f64>, IoError> {
        let size = match ty.to_ascii_lowercase().as_str() {
            "char" | "unsigned_char" | "vtktypeint8" | "vtktypeuint8" => 1,
            "short" | "unsigned_short" | "vtktypeint16" | "vtktypeuint16" => 2,
            "int" | "unsigned_int" | "float" | "vtktypeint32" | "vtktypeuint32" => 4,
            "long" | "unsigned_long" | "double" | "vtktypeint64" | "vtktypeuint64" | "vtkidtype" => 8,
            _ => return Err(err(format!("{}: unsupported data type '{ty}' in {what}", self.at()))),
        };
        let ty = ty.to_ascii_lowercase();
        let mut out = Vec::with_capacity(n.min(self.b.len()));
        if self.binary {
            self.line(); // binary data starts after the keyword line
            let len = n.checked_mul(size).filter(|&l| l <= self.b.len() - self.pos);
            let len = len.ok_or_else(|| err(format!("{what}: binary data truncated")))?;
            for c in self.b[self.pos..self.pos + len].chunks_exact(size) {
                let mut w = [0u8; 8];
                w[8 - size..].copy_from_slice(c);
                let u = u64::from_be_bytes(w);
                let signed = |bits: u32| ((u << (64 - bits)) as i64 >> (64 - bits)) as f64;
                out.push(match (ty.as_str(), size) {
                    ("float", _) => f32::from_bits(u as u32) as f64,
                    ("double", _) => f64::from_bits(u),
                    (t, _) if t.contains("unsigned") || t.contains("uint") => u as f64,
                    (_, s) => signed(8 * s as u32),
                });
            }
            self.pos += len;
        } else {
            for _ in 0..n {
                let t = self.expect(what)?;
                out.push(t.parse().map_err(|_| err(format!("{}: cannot parse '{t}' in {what}", self.at())))?);
            }
        }
        Ok(out)
    }

    /// Reads `n` integer values (binary `int` unless `ty` says otherwise) as indices/counts.
    fn ints(&mut self, n: usize, ty: &str, what: &str) -> Result<Vec<u64>, IoError> {
        let vals = self.values(n, ty, what)?;
        vals.iter()
            .map(|&v| {
                let ok = v >= 0.0 && v.fract() == 0.0 && v < 2f64.powi(53);
                ok.then_some(v as u64).ok_or_else(|| err(format!("{what}: invalid integer {v}")))
            })
            .collect()
    }

    /// Reads a cell array header's data (`n size` already parsed) in either layout.
    fn cells(&mut self, n: usize, size: usize, what: &str) -> Result<Vec<Vec<u64>>, IoError> {
        let save = self.pos;
        if self.token().is_some_and(|t| t.eq_ignore_ascii_case("OFFSETS")) {
            let ty = self.expect("offset type")?;
            let offsets = self.ints(n, ty, what)?;
            if !self.expect("CONNECTIVITY")?.eq_ignore_ascii_case("CONNECTIVITY") {
                return Err(err(format!("{}: expected CONNECTIVITY in {what}", self.at())));
            }
            let ty = self.expect("connectivity type")?;
            let conn = self.ints(size, ty, what)?;
            let mut cells = Vec::new();
            for w in offsets.windows(2) {
                let (a, b) = (w[0] as usize, w[1] as usize);
                cells.push(conn.get(a..b).ok_or_else(|| err(format!("{what}: bad offsets")))?.to_vec());
            }
            return Ok(cells);
        }
        self.pos = save;
        let flat = self.ints(size, "int", what)?;
        let (mut cells, mut i) = (Vec::new(), 0usize);
        for _ in 0..n {
            let k = *flat.get(i).ok_or_else(|| err(format!("{what}: fewer cells than declared")))? as usize;
            let slice = flat.get(i + 1..i.saturating_add(1).saturating_add(k));
            cells.push(slice.ok_or_else(|| err(format!("{what}: cell list truncated")))?.to_vec());
            i += 1 + k;
        }
        if i != flat.len() {
            return Err(err(format!("{what}: size {size} does not match the cells")));
        }
        Ok(cells)
    }
}

/// Converts a cell's vertex list to `u32` indices after checking them against `n_points`.
fn check(cell: &[u64], n_points: usize, ci: usize, what: &str) -> Result<Vec<u32>, IoError> {
    match cell.iter().find(|&&v| v >= n_points as u64) {
        Some(v) => Err(err(format!("{what} cell {ci}: index {v} out of range ({n_points} points)"))),
        None => Ok(cell.iter().map(|&v| v as u32).collect()),
    }
}

/// Appends the fan triangulation of polygon `p` (at least 3 vertices) to `out`.
fn fan(p: &[u32], ci: usize, out: &mut Vec<[u32; 3]>) -> Result<(), IoError> {
    if p.len() < 3 {
        return Err(err(format!("polygon cell {ci} has only {} vertices", p.len())));
    }
    out.extend((1..p.len() - 1).map(|k| [p[0], p[k], p[k + 1]]));
    Ok(())
}

/// Parses a legacy VTK file (ASCII or BINARY) from memory.
pub fn parse_vtk(bytes: &[u8]) -> Result<VolumeMesh, IoError> {
    let mut c = Cursor { b: bytes, pos: 0, binary: false };
    let version = c.line();
    if !version.to_ascii_lowercase().starts_with("# vtk datafile version") {
        return Err(err("not a legacy VTK file (missing '# vtk DataFile Version' header)"));
    }
    let _title = c.line();
    c.binary = match c.line().to_ascii_uppercase().as_str() {
        "ASCII" => false,
        "BINARY" => true,
        f => return Err(err(format!("line 3: expected ASCII or BINARY, found '{f}'"))),
    };
    if !c.expect("DATASET")?.eq_ignore_ascii_case("DATASET") {
        return Err(err(format!("{}: expected DATASET", c.at())));
    }
    let kind = c.expect("dataset type")?.to_ascii_uppercase();
    if kind != "UNSTRUCTURED_GRID" && kind != "POLYDATA" {
        return Err(err(format!("unsupported dataset type {kind} (need UNSTRUCTURED_GRID or POLYDATA)")));
    }
    let (mut points, mut cells, mut types) = (None, None, None);
    let mut mesh = VolumeMesh::default();
    let mut poly: Vec<(String, Vec<Vec<u64>>)> = Vec::new();
    while let Some(tok) = c.token() {
        match tok.to_ascii_uppercase().as_str() {
            "POINTS" => {
                let n = c.count("point count")?;
                let ty = c.expect("point data type")?;
                let n3 = n.checked_mul(3).ok_or_else(|| err("POINTS count too large"))?;
                let v = c.values(n3, ty, "POINTS")?;
                if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                    return Err(err(format!("POINTS: point {} has a non-finite coordinate", i / 3)));
                }
                points = Some(v);
            }
            "CELLS" if kind == "UNSTRUCTURED_GRID" => {
                let (n, size) = (c.count("cell count")?, c.count("cell list size")?);
                cells = Some(c.cells(n, size, "CELLS")?);
            }
            "CELL_TYPES" if kind == "UNSTRUCTURED_GRID" => {
                let n = c.count("cell type count")?;
                types = Some(c.ints(n, "int", "CELL_TYPES")?);
            }
            s @ ("VERTICES" | "LINES" | "POLYGONS" | "TRIANGLE_STRIPS") if kind == "POLYDATA" => {
                let (n, size) = (c.count("cell count")?, c.count("cell list size")?);
                poly.push((s.to_string(), c.cells(n, size, s)?));
            }
            "FIELD" => {
                let (_name, arrays) = (c.expect("field name")?, c.count("array count")?);
                for _ in 0..arrays {
                    let name = c.expect("array name")?;
                    let (comp, tuples) = (c.count("components")?, c.count("tuples")?);
                    let ty = c.expect("array type")?;
                    let n = comp.checked_mul(tuples).ok_or_else(|| err("FIELD array too large"))?;
                    c.values(n, ty, name)?;
                }
            }
            "METADATA" => {
                c.line(); // skip lines up to the blank line that ends the block
                while c.pos < c.b.len() && !c.line().is_empty() {}
            }
            "POINT_DATA" | "CELL_DATA" => break,
            other => return Err(err(format!("{}: unexpected keyword '{other}' in {kind}", c.at()))),
        }
    }
    let pts = points.ok_or_else(|| err("missing POINTS section"))?;
    mesh.positions = pts.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    let np = mesh.positions.len();
    if np > u32::MAX as usize {
        return Err(err(format!("too many points ({np}) for 32-bit indices")));
    }
    if kind == "POLYDATA" {
        for (what, list) in &poly {
            for (ci, cell) in list.iter().enumerate() {
                let p = check(cell, np, ci, what)?;
                if what == "POLYGONS" {
                    fan(&p, ci, &mut mesh.triangles)?;
                } else if what == "TRIANGLE_STRIPS" {
                    mesh.triangles.extend((2..p.len()).map(|k| match k % 2 {
                        0 => [p[k - 2], p[k - 1], p[k]],
                        _ => [p[k - 1], p[k - 2], p[k]],
                    }));
                }
            }
        }
        return Ok(mesh);
    }
    let cells = cells.unwrap_or_default();
    let types = types.unwrap_or_default();
    if cells.len() != types.len() {
        return Err(err(format!("{} cells but {} cell types", cells.len(), types.len())));
    }
    for (ci, (cell, &ty)) in cells.iter().zip(&types).enumerate() {
        let p = check(cell, np, ci, "CELLS")?;
        match (ty, p.len()) {
            (10, 4) => mesh.tets.push([p[0], p[1], p[2], p[3]]),
            (5, 3) | (7, _) | (9, 4) => fan(&p, ci, &mut mesh.triangles)?,
            (5 | 9 | 10, k) => return Err(err(format!("cell {ci} of type {ty} has {k} vertices"))),
            _ => {
                return Err(err(format!(
                    "cell {ci}: unsupported VTK cell type {ty} (supported: 5 triangle, 7 polygon, 9 quad, 10 tetra)"
                )))
            }
        }
    }
    Ok(mesh)
}

/// Reads and parses a legacy VTK file; error messages include the path.
pub fn read_vtk(path: &Path) -> Result<VolumeMesh, IoError> {
    let bytes = std::fs::read(path).map_err(|e| IoError::from(e).context(path.display()))?;
    parse_vtk(&bytes).map_err(|e| e.context(path.display()))
}

/// Writes an ASCII legacy VTK (4.2) unstructured grid of tetrahedra and triangles.
///
/// Returns an error (and writes nothing) on non-finite positions or out-of-range indices.
pub fn write_vtk(
    path: &Path,
    positions: &[[f64; 3]],
    tets: &[[u32; 4]],
    triangles: &[[u32; 3]],
) -> Result<(), IoError> {
    let ctx = |e: IoError| e.context(path.display());
    validate_mesh(positions, tets, "tetrahedron").map_err(ctx)?;
    validate_mesh(positions, triangles, "triangle").map_err(ctx)?;
    let write = || -> std::io::Result<()> {
        let mut w = BufWriter::new(File::create(path)?);
        writeln!(w, "# vtk DataFile Version 4.2\nwritten by grip\nASCII\nDATASET UNSTRUCTURED_GRID")?;
        writeln!(w, "POINTS {} double", positions.len())?;
        for p in positions {
            writeln!(w, "{} {} {}", p[0], p[1], p[2])?;
        }
        let n = tets.len() + triangles.len();
        writeln!(w, "CELLS {} {}", n, tets.len() * 5 + triangles.len() * 4)?;
        for t in tets {
            writeln!(w, "4 {} {} {} {}", t[0], t[1], t[2], t[3])?;
        }
        for t in triangles {
            writeln!(w, "3 {} {} {}", t[0], t[1], t[2])?;
        }
        writeln!(w, "CELL_TYPES {n}")?;
        for i in 0..n {
            writeln!(w, "{}", if i < tets.len() { 10 } else { 5 })?;
        }
        w.flush()
    };
    write().map_err(|e| ctx(e.into()))
}

#[cfg(test)]
mod tests;
