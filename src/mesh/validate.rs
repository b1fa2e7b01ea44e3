//! Checks of host-supplied meshes before anything is stored: counts, finiteness, index ranges,
//! repeated vertices in an element, duplicate elements. Orientation and area are checked by the
//! element constructors, which know their rest shape.

use std::collections::HashSet;
use std::fmt;

use nalgebra::Vector3;

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

/// Largest coordinate magnitude accepted (m), for positions, pin targets, collider poses and
/// shapes: 100 km. f64 spaces numbers near x by 2.2e-16·|x|, and a step's position change must
/// stay far above that spacing for Newton's velocity test (1e-5 m/s over a 1/3840 s substep is
/// 2.6e-9 m). Measured on a cloth dropped onto a sphere, every integrator runs 12 frames at
/// 1e6 m, and the trapezoidal rule and BDF2 fail from 1e7 m; 1e5 m keeps a factor of 100.
pub(crate) const MAX_COORDINATE: f64 = 1e5;

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

/// Smallest relative thickness of an accepted shell triangle or solid tet: its smallest height
/// over its longest edge. Thinner elements carry no area or volume worth simulating, yet their
/// stiffness grows as 1/thickness: at 1e-11 (triangles) and 1e-10 (tets) a cloth holding one
/// fails every step with a singular Jacobian or a stalled line search. 1e-6 (a 1 µm high
/// triangle on a 1 m edge) keeps a factor of 100 to the thinnest elements that still step.
///
/// cbindgen:ignore
pub const MIN_ELEMENT_THICKNESS: f64 = 1e-6;

/// The smallest height of triangle (a, b, c) over its longest edge: 2·area / (longest edge)²,
/// √3/2 for an equilateral triangle, 0 for a degenerate one.
pub fn triangle_thickness(p: [[f64; 3]; 3]) -> f64 {
    let [a, b, c] = p.map(Vector3::from);
    let longest = (b - a).norm_squared().max((c - a).norm_squared()).max((c - b).norm_squared());
    let double_area = (b - a).cross(&(c - a)).norm();
    if longest > 0.0 {
        double_area / longest
    } else {
        0.0
    }
}

/// The smallest height of tet (a, b, c, d) over its longest edge: 3·|volume| / (largest face
/// area · longest edge), √(2/3) for a regular tet, 0 for a flat one.
pub fn tet_thickness(p: [[f64; 3]; 4]) -> f64 {
    let x = p.map(Vector3::from);
    let six_volume = (x[1] - x[0]).cross(&(x[2] - x[0])).dot(&(x[3] - x[0])).abs();
    let faces = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let double_area = faces.iter().map(|f| (x[f[1]] - x[f[0]]).cross(&(x[f[2]] - x[f[0]])).norm()).fold(0.0, f64::max);
    let edges = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let longest = edges.iter().map(|&(i, j)| (x[j] - x[i]).norm()).fold(0.0, f64::max);
    // height = 3V / A = six_volume / double_area.
    if double_area > 0.0 && longest > 0.0 {
        six_volume / double_area / longest
    } else {
        0.0
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thickness_is_height_over_longest_edge() {
        let equilateral = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 3f64.sqrt(), 0.0]];
        assert!((triangle_thickness(equilateral) - 3f64.sqrt() / 2.0).abs() < 1e-15);
        // Height 1e-7 on a 2 m edge: 5e-8.
        assert!((triangle_thickness([[0.0; 3], [2.0, 0.0, 0.0], [0.7, 1e-7, 0.0]]) / 5e-8 - 1.0).abs() < 1e-9);
        assert_eq!(triangle_thickness([[1.0; 3]; 3]), 0.0);
        let s = 1.0 / 2f64.sqrt();
        let regular = [[1.0, 0.0, -s], [-1.0, 0.0, -s], [0.0, 1.0, s], [0.0, -1.0, s]];
        assert!((tet_thickness(regular) - (2.0f64 / 3.0).sqrt()).abs() < 1e-12, "{}", tet_thickness(regular));
        // A unit right-angle corner lifted 1e-7 out of the plane of its square base's three
        // corners: height 1e-7 over its longest edge √2.
        let flat = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1e-7]];
        assert!((tet_thickness(flat) / (1e-7 / 2f64.sqrt()) - 1.0).abs() < 1e-6, "{}", tet_thickness(flat));
    }
}
