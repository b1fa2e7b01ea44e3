//! A collider mesh's sharp convex corners: vertices where two or more ridges
//! ([`super::ridges`]) meet, a box's corner or a prism's rim vertex. Vertex contact keeps the
//! cloth's vertices out of the mesh and ridge contact its edges, but a corner can still poke
//! up through the middle of a cloth triangle draped over it (measured: 1.1 mm through a
//! 2.5 cm cloth triangle over a box corner). So the simulated surfaces' triangles meet the
//! corners too, with self-contact's vertex–triangle penalty, signed by the corner's
//! angle-weighted pseudonormal (`crate::contact::pair::SolidSide::vertex`).
//!
//! A corner's weight is the smallest of the second largest weight of the ridges meeting there
//! and two smoothsteps from `CORNER_START` (10°) to `CORNER_FULL` (20°): of its sharpness, the
//! largest angle between its pseudonormal and its faces' normals, and of its ridges' turn, the
//! largest angle by which one ridge through it turns into another. Full at a box's corner
//! (54.7° and 90°) or a prism's rim vertex; zero on a cylinder's fan centre (its spokes are
//! flat), on a vertex along a straight ridge (the faceted side of a cylinder, whose ridges do
//! not turn there and hold the cloth already) and on a 32-segment UV sphere's vertices (under
//! 10° sharp), whose faceting cannot poke through a cloth triangle that its ridges and vertex
//! contact already hold. An open mesh's rim vertex where the rim turns (a table top's corner)
//! is a full corner, whose normal leans out over the rim: the unit sum of its pseudonormal and
//! its rim ridges' end normals (`super::ridges`).

use super::ridges::Ridges;
use super::MeshTopology;
use crate::math::real::{dot, scale, sub};

/// Sharpness (rad) below which a vertex carries no corner penalty: 10°.
pub(crate) const CORNER_START: f64 = 10.0 * std::f64::consts::PI / 180.0;

/// Sharpness (rad) from which a vertex carries the full corner penalty: 20°.
pub(crate) const CORNER_FULL: f64 = 20.0 * std::f64::consts::PI / 180.0;

/// One sharp convex vertex of a collider mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corner {
    /// The vertex (object-local index, the welded representative of its position).
    pub vertex: u32,
    /// Its outward unit pseudonormal (angle-weighted, dimensionless).
    pub normal: [f64; 3],
    /// Penalty weight in (0, 1] (dimensionless): the second largest of its ridges' weights,
    /// or less for a blunt vertex.
    pub weight: f64,
}

/// The corners of a mesh at one stage, and per welded vertex its corner (`u32::MAX` for none).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Corners {
    /// Every corner, once, in vertex order.
    pub list: Vec<Corner>,
    /// Per object-local vertex: the index into `list` of its welded vertex's corner, or
    /// `u32::MAX`.
    pub of_vertex: Vec<u32>,
}

impl Corners {
    /// The corners of `topology` at `positions` (m) where two or more of `ridges` meet, with
    /// the mesh's (not necessarily unit) angle-weighted `vertex_normals` and unit
    /// `face_normals`.
    pub fn new(
        topology: &MeshTopology,
        positions: &[[f64; 3]],
        ridges: &Ridges,
        vertex_normals: &[[f64; 3]],
        face_normals: &[[f64; 3]],
    ) -> Self {
        let n = topology.welded.len();
        // The two largest ridge weights at each welded vertex, and its ridges' unit directions
        // away from it.
        let mut largest = vec![[0.0f64; 2]; n];
        let mut directions: Vec<Vec<[f64; 3]>> = vec![Vec::new(); n];
        for r in &ridges.list {
            for (end, other) in [(r.corners[0], r.corners[1]), (r.corners[1], r.corners[0])] {
                let v = topology.welded[end as usize] as usize;
                let w = &mut largest[v];
                if r.weight > w[0] {
                    *w = [r.weight, w[0]];
                } else if r.weight > w[1] {
                    w[1] = r.weight;
                }
                let d = sub(positions[other as usize], positions[end as usize]);
                let length = dot(d, d).sqrt();
                if length > 0.0 {
                    directions[v].push(scale(1.0 / length, d));
                }
            }
        }
        // The smallest cosine between each welded vertex's pseudonormal and its faces' normals.
        let unit: Vec<Option<[f64; 3]>> = vertex_normals
            .iter()
            .map(|&n| {
                let length = dot(n, n).sqrt();
                (length > 0.0).then(|| scale(1.0 / length, n))
            })
            .collect();
        let mut lowest_cosine = vec![1.0f64; n];
        for (t, face) in topology.triangles.iter().enumerate() {
            for &v in face {
                let w = topology.welded[v as usize] as usize;
                if let Some(normal) = unit[w] {
                    lowest_cosine[w] = lowest_cosine[w].min(dot(normal, face_normals[t]));
                }
            }
        }
        let mut list = Vec::new();
        let mut of_welded = vec![u32::MAX; n];
        for v in 0..n {
            let Some(normal) = unit[v] else { continue };
            // A rim is a knife edge, as sharp as a vertex can be, whatever its faces' normals.
            let rim = topology.rim[v];
            let sharpness = if rim { std::f64::consts::PI } else { lowest_cosine[v].clamp(-1.0, 1.0).acos() };
            // Two ridges through v turn by π − their angle: 0 along a straight ridge.
            let d = &directions[v];
            let turn = (0..d.len())
                .flat_map(|i| (i + 1..d.len()).map(move |j| (i, j)))
                .map(|(i, j)| std::f64::consts::PI - dot(d[i], d[j]).clamp(-1.0, 1.0).acos())
                .fold(0.0, f64::max);
            let weight = largest[v][1].min(smoothstep(sharpness, CORNER_START, CORNER_FULL)).min(smoothstep(
                turn,
                CORNER_START,
                CORNER_FULL,
            ));
            if topology.welded[v] as usize != v || !(weight > 0.0) {
                continue;
            }
            of_welded[v] = list.len() as u32;
            let normal = if rim { rim_normal(normal, ridges, v) } else { normal };
            list.push(Corner { vertex: v as u32, normal, weight });
        }
        let of_vertex = topology.welded.iter().map(|&w| of_welded[w as usize]).collect();
        Self { list, of_vertex }
    }

    /// The corners at the vertices of `triangles` of `topology`, each once, increasing.
    pub fn on(&self, topology: &MeshTopology, triangles: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = triangles
            .iter()
            .flat_map(|&t| topology.triangles[t as usize])
            .map(|v| self.of_vertex[v as usize])
            .filter(|&c| c != u32::MAX)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The normal of the rim corner at welded vertex `v` of unit pseudonormal `normal`: the unit
/// sum of it and the end normals of the rim ridges through it, or `normal` where they cancel.
fn rim_normal(normal: [f64; 3], ridges: &Ridges, v: usize) -> [f64; 3] {
    let ends = ridges.rim_at_vertex[v].iter().filter_map(|&r| ridges.list.get(r as usize)).map(|r| r.normals[1]);
    let sum = ends.fold(normal, |s, m| [s[0] + m[0], s[1] + m[1], s[2] + m[2]]);
    let length = dot(sum, sum).sqrt();
    if length > 1e-9 {
        scale(1.0 / length, sum)
    } else {
        normal
    }
}

/// The smoothstep of `x` from `start` (0) to `full` (1).
fn smoothstep(x: f64, start: f64, full: f64) -> f64 {
    let s = ((x - start) / (full - start)).clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

#[cfg(test)]
mod tests {
    use crate::contact::collider_mesh::still_mesh as geometry;
    use crate::math::real::dot;

    /// An octagonal prism with fanned caps has its 16 vertices, all on the rims, as full
    /// corners, each pointing out along the side and the cap at once.
    #[test]
    fn a_prism_has_its_rim_vertices_as_corners() {
        let (p, t) = crate::mesh::shapes::prism(0.1, -0.5, 0.5, 8);
        let (_, g) = geometry(&p, &t);
        let corners = &g.corners.list;
        assert_eq!(corners.len(), 16, "{corners:?}");
        for c in corners {
            let x = g.positions[c.vertex as usize];
            assert!((x[0].abs() - 0.5).abs() < 1e-12, "a rim vertex: {x:?}");
            assert_eq!(c.weight, 1.0);
            let radial = (x[1] * c.normal[1] + x[2] * c.normal[2]) / 0.1;
            assert!(radial > 0.3 && c.normal[0] * x[0] > 0.15, "out along the side and the cap: {c:?}");
        }
    }

    /// A fine sphere has no corner, whose edges turn by less than 5°, nor a 32-segment one,
    /// whose edges are full ridges (11.25°) but whose vertices are blunt; an open 8-sided
    /// cylinder has none along its straight 45° side ridges, only where its rims turn.
    #[test]
    fn smooth_meshes_and_straight_ridges_have_none() {
        let (p, t) = crate::mesh::shapes::open_cylinder(0.1, -0.5, 0.5, 8, 6);
        let (topology, g) = geometry(&p, &t);
        assert!(g.ridges.list.iter().any(|r| !r.rim));
        assert_eq!(g.corners.list.len(), 16, "{:?}", g.corners.list);
        assert!(g.corners.list.iter().all(|c| topology.rim[c.vertex as usize] && c.weight == 1.0));
        for segments in [32, 128] {
            let (p, t) = crate::mesh::shapes::uv_sphere(0.3, segments, segments / 2);
            assert!(geometry(&p, &t).1.corners.list.is_empty(), "{segments} segments");
        }
    }

    /// A flat 4 × 4 grid, an open sheet, has its rim as ridges, each between the face and an
    /// end facing out across the rim, and its four corners, where the rim turns by 90°, as
    /// corners whose normals lean out over both rims; the vertices along its straight sides
    /// are none.
    #[test]
    fn an_open_sheet_has_its_rim_and_its_four_corners() {
        let (p, t) = crate::mesh::generate::grid_cloth(1.0, 1.0, 4, 4);
        let (_, g) = geometry(&p, &t);
        assert_eq!(g.ridges.list.len(), 16, "{:?}", g.ridges.list);
        for r in &g.ridges.list {
            let [a, b] = r.corners.map(|v| g.positions[v as usize]);
            let middle = [0, 1, 2].map(|k| 0.5 * (a[k] + b[k]) - [0.0, 0.0, -0.5][k]);
            let [face, end] = r.normals;
            assert!(r.rim && r.weight == 1.0 && face[1].abs() == 1.0, "{r:?}");
            assert!(end[1] == 0.0 && dot(end, middle) > 0.49, "the end faces out: {r:?}");
        }
        assert_eq!(g.corners.list.len(), 4, "{:?}", g.corners.list);
        for c in &g.corners.list {
            let x = g.positions[c.vertex as usize];
            assert!(x[0].abs() == 0.5 && (x[2] == 0.0 || x[2] == -1.0), "{c:?} at {x:?}");
            let out = [x[0], 0.0, x[2] + 0.5];
            assert!((c.normal[1].abs() - 3f64.sqrt().recip()).abs() < 1e-12 && dot(c.normal, out) > 0.0, "{c:?}");
        }
    }
}
