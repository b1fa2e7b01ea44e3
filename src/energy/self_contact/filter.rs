//! Which primitive pairs of a shell may touch: the topological exclusion rule, and a brute-force
//! candidate gather for tests (the scalable broad phase is separate and feeds the same lists).
//!
//! **Exclusion ring.** Two primitives are never tested when a vertex of one lies in the closed
//! 1-ring of a vertex of the other (is that vertex, or shares a mesh edge with it):
//!
//! * a vertex v is not tested against a triangle containing v or any edge neighbour of v, i.e.
//!   against any triangle sharing a vertex with v's incident triangles;
//! * two edges are not tested when they share a vertex or a mesh edge joins an end of one to an
//!   end of the other.
//!
//! Excluding only the incident triangles (the 0-ring) is not enough for cloth at rest: on a
//! grid of right triangles of leg h a vertex is h/√2 from the hypotenuse of the triangle
//! across each of its diagonal neighbours' edges, so any δ > h/√2 would make a flat sheet push
//! itself apart. With this ring, the nearest tested primitives of such a grid are √2 h apart,
//! and a flat sheet has no self-contact energy for any δ < √2 h. In general the rest shape is
//! free of self-contact force when δ is below the smallest rest distance of a tested pair,
//! which [`rest_clearance`] reports. The price: a fold tighter than about two edges is resolved
//! by the bending energy, not by contact.

use super::distance::{distance, edge_edge_feature, point_triangle_feature};
use super::{EdgeEdge, VertexTriangle};
use crate::energy::gather;

/// The topology of a triangle mesh needed by the exclusion rule.
#[derive(Clone, Debug)]
pub struct ExclusionFilter {
    /// Per vertex: itself and its edge neighbours, sorted.
    ring: Vec<Vec<u32>>,
    /// Unique edges (smaller index first), sorted.
    edges: Vec<[u32; 2]>,
}

impl ExclusionFilter {
    /// Builds the filter of `triangles` over `vertex_count` vertices.
    pub fn new(vertex_count: usize, triangles: &[[u32; 3]]) -> Self {
        let mut ring: Vec<Vec<u32>> = (0..vertex_count as u32).map(|v| vec![v]).collect();
        let mut edges = Vec::with_capacity(3 * triangles.len());
        for t in triangles {
            for i in 0..3 {
                let (a, b) = (t[i], t[(i + 1) % 3]);
                ring[a as usize].push(b);
                ring[b as usize].push(a);
                edges.push([a.min(b), a.max(b)]);
            }
        }
        for r in &mut ring {
            r.sort_unstable();
            r.dedup();
        }
        edges.sort_unstable();
        edges.dedup();
        Self { ring, edges }
    }

    /// The mesh's unique edges.
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// Whether `b` is `a` or an edge neighbour of `a`.
    pub fn near(&self, a: u32, b: u32) -> bool {
        self.ring[a as usize].binary_search(&b).is_ok()
    }

    /// Whether the pair (v, t) is tested: no corner of `t` in v's closed 1-ring.
    pub fn allows_vertex_triangle(&self, v: u32, t: [u32; 3]) -> bool {
        t.iter().all(|&w| !self.near(v, w))
    }

    /// Whether the pair (e0, e1) is tested: no end of one in the closed 1-ring of an end of the
    /// other.
    pub fn allows_edge_edge(&self, e0: [u32; 2], e1: [u32; 2]) -> bool {
        e0.iter().all(|&a| e1.iter().all(|&b| !self.near(a, b)))
    }
}

/// Axis-aligned box of the listed vertices of `q`.
pub(crate) fn bounds(q: &[f64], vertices: &[u32]) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for &v in vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(q[3 * v as usize + k]);
            hi[k] = hi[k].max(q[3 * v as usize + k]);
        }
    }
    (lo, hi)
}

/// Whether two boxes come within `pad` of each other along every axis.
pub(crate) fn overlap(a: &([f64; 3], [f64; 3]), b: &([f64; 3], [f64; 3]), pad: f64) -> bool {
    (0..3).all(|k| a.0[k] <= b.1[k] + pad && b.0[k] <= a.1[k] + pad)
}

/// Every tested pair whose bounding boxes come within `delta` [m] at positions `q`, by brute
/// force over all primitive pairs (O(n²); for tests and small meshes). Vertices are those used
/// by `triangles`; vertex–triangle pairs come out ordered by vertex then triangle, edge–edge
/// pairs by the filter's edge order.
pub fn brute_force_candidates(
    filter: &ExclusionFilter,
    triangles: &[[u32; 3]],
    q: &[f64],
    delta: f64,
) -> (Vec<VertexTriangle>, Vec<EdgeEdge>) {
    let mut used: Vec<u32> = triangles.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let tri_boxes: Vec<_> = triangles.iter().map(|t| bounds(q, t)).collect();
    let mut vt = Vec::new();
    for &v in &used {
        let b = bounds(q, &[v]);
        for (t, tb) in triangles.iter().zip(&tri_boxes) {
            if filter.allows_vertex_triangle(v, *t) && overlap(&b, tb, delta) {
                vt.push(VertexTriangle { vertex: v, triangle: *t });
            }
        }
    }
    let edges = filter.edges();
    let edge_boxes: Vec<_> = edges.iter().map(|e| bounds(q, e)).collect();
    let mut ee = Vec::new();
    for i in 0..edges.len() {
        for j in (i + 1)..edges.len() {
            if filter.allows_edge_edge(edges[i], edges[j]) && overlap(&edge_boxes[i], &edge_boxes[j], delta) {
                ee.push(EdgeEdge { edges: [edges[i], edges[j]] });
            }
        }
    }
    (vt, ee)
}

/// The smallest distance [m] over all tested pairs at positions `q` (∞ without any): the rest
/// shape has no self-contact force when δ is below this at rest. Brute force, O(n²).
pub fn rest_clearance(filter: &ExclusionFilter, triangles: &[[u32; 3]], q: &[f64]) -> f64 {
    let (vt, ee) = brute_force_candidates(filter, triangles, q, f64::INFINITY);
    let pt = vt.iter().map(|p| {
        let x = gather::<12>(&[p.vertex, p.triangle[0], p.triangle[1], p.triangle[2]], q);
        distance(&x, point_triangle_feature(&x)).0
    });
    let edge = ee.iter().map(|p| {
        let x = gather::<12>(&[p.edges[0][0], p.edges[0][1], p.edges[1][0], p.edges[1][1]], q);
        distance(&x, edge_edge_feature(&x)).0
    });
    pt.chain(edge).fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles sharing edge 1–2, and a vertex-disjoint third triangle.
    fn filter() -> ExclusionFilter {
        ExclusionFilter::new(7, &[[0, 1, 2], [1, 3, 2], [4, 5, 6]])
    }

    #[test]
    fn neighbours_are_excluded_and_strangers_are_not() {
        let f = filter();
        assert_eq!(f.edges(), &[[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [4, 5], [4, 6], [5, 6]]);
        // A vertex against its own triangle, and against a triangle holding its neighbour.
        assert!(!f.allows_vertex_triangle(0, [0, 1, 2]));
        assert!(!f.allows_vertex_triangle(0, [1, 3, 2]));
        assert!(!f.allows_vertex_triangle(3, [0, 1, 2]));
        assert!(f.allows_vertex_triangle(0, [4, 5, 6]) && f.allows_vertex_triangle(5, [1, 3, 2]));
        // Edges sharing a vertex, or joined by an edge (0–1 and 2–3 via 1–2), are excluded.
        assert!(!f.allows_edge_edge([0, 1], [1, 3]));
        assert!(!f.allows_edge_edge([0, 1], [2, 3]));
        assert!(f.allows_edge_edge([0, 1], [5, 6]));
        // The closed 1-ring: the vertex itself and its edge neighbours, not vertices 2 edges away.
        assert!(f.near(0, 0) && f.near(0, 2) && !f.near(0, 3));
    }

    #[test]
    fn brute_force_gathers_only_tested_pairs_within_reach() {
        let f = filter();
        // Triangle 4–5–6 0.05 above triangle 0–1–2's plane, over its interior.
        let mut q = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0];
        q.extend_from_slice(&[0.2, 0.2, 0.05, 0.4, 0.2, 0.05, 0.2, 0.4, 0.05]);
        let tris = [[0, 1, 2], [1, 3, 2], [4, 5, 6]];
        let (vt, ee) = brute_force_candidates(&f, &tris, &q, 0.1);
        assert!(vt.iter().all(|p| f.allows_vertex_triangle(p.vertex, p.triangle)));
        assert!(vt.contains(&VertexTriangle { vertex: 4, triangle: [0, 1, 2] }));
        // Vertex 3 = (1, 1, 0) is 0.6 m from triangle 4–5–6's box: culled.
        assert!(!vt.iter().any(|p| p.vertex == 3 && p.triangle == [4, 5, 6]));
        assert!(ee.iter().all(|p| f.allows_edge_edge(p.edges[0], p.edges[1])) && !ee.is_empty());
        // Raised out of reach, nothing is gathered.
        let far: Vec<f64> =
            q.iter().enumerate().map(|(i, &v)| if i >= 12 && i % 3 == 2 { v + 1.0 } else { v }).collect();
        let (vt, ee) = brute_force_candidates(&f, &tris, &far, 0.1);
        assert!(vt.is_empty() && ee.is_empty());
        assert!((rest_clearance(&f, &tris, &q) - 0.05).abs() < 1e-12);
    }
}
