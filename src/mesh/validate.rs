//! Checks of host-supplied meshes before anything is stored: counts, finiteness, index ranges,
//! repeated vertices in an element, duplicate elements. Orientation and area are checked by the
//! element constructors, which know their rest shape.

use std::collections::HashSet;
use std::fmt;

/// Why a mesh was refused; the message names the offending element or vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshError(pub String);

impl From<MeshError> for crate::error::Error {
    fn from(e: MeshError) -> Self {
        crate::error::Error::InvalidMesh(e.0)
    }
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Largest vertex count one object may have (indices are `u32`).
pub(crate) const MAX_VERTICES: usize = u32::MAX as usize / 4;

/// Largest coordinate magnitude accepted (m): beyond it squared lengths lose all precision.
pub(crate) const MAX_COORDINATE: f64 = 1e9;

/// Positions as `[x, y, z]` triples: at least one vertex, all finite and within ±`MAX_COORDINATE` m.
pub fn validate_positions(positions: &[f64]) -> Result<Vec<[f64; 3]>, MeshError> {
    if positions.is_empty() || !positions.len().is_multiple_of(3) {
        return Err(MeshError(format!("positions must hold 3 coordinates per vertex, got {}", positions.len())));
    }
    if positions.len() / 3 > MAX_VERTICES {
        return Err(MeshError(format!("vertex count {} exceeds {}", positions.len() / 3, MAX_VERTICES)));
    }
    if let Some(i) = positions.iter().position(|v| !v.is_finite()) {
        return Err(MeshError(format!("position of vertex {} is not finite ({})", i / 3, positions[i])));
    }
    if let Some(i) = positions.iter().position(|v| v.abs() > MAX_COORDINATE) {
        return Err(MeshError(format!(
            "position of vertex {} is {} m, beyond the limit of {MAX_COORDINATE:e} m",
            i / 3,
            positions[i]
        )));
    }
    Ok(positions.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect())
}

/// Generic element check: indices in range, no repeated vertex, no duplicate element.
fn validate_elements<const N: usize>(
    indices: &[u32],
    vertex_count: usize,
    kind: &str,
) -> Result<Vec<[u32; N]>, MeshError> {
    if indices.is_empty() || !indices.len().is_multiple_of(N) {
        return Err(MeshError(format!("{kind} indices must hold {N} per element, got {}", indices.len())));
    }
    let mut seen = HashSet::with_capacity(indices.len() / N);
    let mut out = Vec::with_capacity(indices.len() / N);
    for (e, chunk) in indices.chunks_exact(N).enumerate() {
        let el: [u32; N] = std::array::from_fn(|i| chunk[i]);
        if let Some(&v) = el.iter().find(|&&v| v as usize >= vertex_count) {
            return Err(MeshError(format!("{kind} {e} refers to vertex {v}, but there are {vertex_count} vertices")));
        }
        let mut sorted = el;
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(MeshError(format!("{kind} {e} repeats a vertex: {el:?}")));
        }
        if !seen.insert(sorted) {
            return Err(MeshError(format!("{kind} {e} duplicates an earlier {kind}: {el:?}")));
        }
        out.push(el);
    }
    Ok(out)
}

/// Tetrahedra as 4 vertex indices each.
pub fn validate_tets(indices: &[u32], vertex_count: usize) -> Result<Vec<[u32; 4]>, MeshError> {
    validate_elements::<4>(indices, vertex_count, "tet")
}

/// Triangles as 3 vertex indices each.
pub fn validate_triangles(indices: &[u32], vertex_count: usize) -> Result<Vec<[u32; 3]>, MeshError> {
    validate_elements::<3>(indices, vertex_count, "triangle")
}

/// Vertices used by no element (their motion would be undetermined under elasticity alone:
/// they still fall under gravity, so they are allowed, but hosts usually want to know).
pub fn unused_vertices<const N: usize>(elements: &[[u32; N]], vertex_count: usize) -> usize {
    let mut used = vec![false; vertex_count];
    for el in elements {
        for &v in el {
            used[v as usize] = true;
        }
    }
    used.iter().filter(|u| !**u).count()
}
