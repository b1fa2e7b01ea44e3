//! Which primitive pairs of a shell may touch: the topological exclusion rule, and a brute-force
//! candidate gather for tests (the scalable broad phase is separate and feeds the same lists).
//!
//! **Exclusion rule.** Incident primitives are never tested (a vertex against a triangle it is a
//! corner of, two edges sharing a vertex: their distance is 0 by construction). Every other pair
//! is tested, as in IPC, except a pair *in the 1-ring* (a vertex of one shares a mesh edge with
//! a vertex of the other) that is already closer than the thickness δ at rest: it would push the
//! rest shape apart. [`ExclusionFilter::new`] measures those rest distances once.
//!
//! So on a grid of right triangles of leg h, where a vertex is h/√2 from the hypotenuse across
//! each diagonal neighbour's edge, a flat sheet has no self-contact force for any δ < h (for δ >
//! h/√2 those pairs are excluded; beyond h, pairs two edges apart are within δ, so δ must stay
//! below the edge length), and for δ < h/√2 every non-incident pair is tested: a hinge
//! folded flat, or a crumple crushed in its plane to less than δ, meets contact, not just
//! bending. (Excluding the whole 1-ring would leave folds tighter than about two edges to the
//! bending energy alone, and such folds let the 7K twisted cylinder cross itself.)
//! [`rest_clearance`] reports the smallest rest distance of a tested pair.
//!
//! **Per object** ([`ExclusionFilter::with_objects`], `crate::model::self_contact`): a 1-ring
//! pair lies within one object (a mesh edge joins its vertices), so it is measured against that
//! object's own δ; and an object whose self-contact is off has every pair of two of its own
//! primitives excluded (incident or not), which also excuses its own intersections
//! ([`ExclusionFilter::excuses`]) from the guard against tunnelling.

use crate::contact::pair::distance::{distance, edge_edge_feature, point_triangle_feature};
use crate::contact::pair::{EdgeEdge, VertexTriangle};
use crate::energy::gather;
use rayon::prelude::*;

/// The topology of a triangle mesh needed by the exclusion rule, with the 1-ring pairs that are
/// within δ at rest.
#[derive(Clone, Debug)]
pub struct ExclusionFilter {
    /// Per vertex: itself and its edge neighbours, sorted.
    ring: Vec<Vec<u32>>,
    /// Unique edges (smaller index first), sorted.
    edges: Vec<[u32; 2]>,
    /// Excluded 1-ring vertex–triangle pairs (vertex, sorted corners), sorted.
    close_vt: Vec<(u32, [u32; 3])>,
    /// Excluded 1-ring edge–edge pairs (smaller edge first), sorted.
    close_ee: Vec<([u32; 2], [u32; 2])>,
    /// Per vertex: a tag of its object when that object's pairs with itself are excluded,
    /// `MEETS_ITSELF` otherwise (empty: no such object).
    apart: Vec<u32>,
}

/// The tag of [`ExclusionFilter::with_objects`] of a vertex whose object meets itself.
pub(crate) const MEETS_ITSELF: u32 = u32::MAX;

/// The corners of `t` in increasing order.
fn sorted(mut t: [u32; 3]) -> [u32; 3] {
    t.sort_unstable();
    t
}

/// Point–triangle distance (m) of vertex `v` and triangle `t` at `q`.
pub(crate) fn vt_distance(q: &[f64], v: u32, t: [u32; 3]) -> f64 {
    let x = gather::<12>(&[v, t[0], t[1], t[2]], q);
    distance(&x, point_triangle_feature(&x)).0
}

/// Edge–edge distance (m) of edges `a` and `b` at `q`.
pub(crate) fn ee_distance(q: &[f64], a: [u32; 2], b: [u32; 2]) -> f64 {
    let x = gather::<12>(&[a[0], a[1], b[0], b[1]], q);
    distance(&x, edge_edge_feature(&x)).0
}

/// A lower bound (m) on the distance between the point sets `a` and `b` of `q`: the distance
/// of their centroids less each set's largest distance from its centroid (bounding spheres),
/// so that pairs clearly farther apart than δ skip the exact distance.
fn sphere_gap(q: &[f64], a: &[u32], b: &[u32]) -> f64 {
    let sphere = |s: &[u32]| {
        let p = |v: u32| [0, 1, 2].map(|k| q[3 * v as usize + k]);
        let mut c = [0.0; 3];
        s.iter().for_each(|&v| (0..3).for_each(|k| c[k] += p(v)[k] / s.len() as f64));
        let r = s.iter().map(|&v| (0..3).map(|k| (p(v)[k] - c[k]).powi(2)).sum::<f64>()).fold(0.0, f64::max);
        (c, r.sqrt())
    };
    let ((ca, ra), (cb, rb)) = (sphere(a), sphere(b));
    (0..3).map(|k| (ca[k] - cb[k]).powi(2)).sum::<f64>().sqrt() - ra - rb
}

impl ExclusionFilter {
    /// Builds the filter of `triangles` (indices into `rest`, 3 coordinates per vertex in m) for
    /// thickness `delta` (m): 1-ring pairs closer than `delta` at `rest` are excluded.
    pub fn new(triangles: &[[u32; 3]], rest: &[f64], delta: f64) -> Self {
        Self::with_objects(triangles, rest, |_| delta, Vec::new())
    }

    /// As [`Self::new`] with a thickness per object: a 1-ring pair is excluded when closer at
    /// `rest` than `delta(v)` (m) of its first vertex v (the pair's object's δ). `apart` tags
    /// each vertex (global index) with its object when that object's primitives must form no
    /// pair with each other (self-contact off), else `MEETS_ITSELF`; empty: every object
    /// meets itself.
    pub fn with_objects(
        triangles: &[[u32; 3]],
        rest: &[f64],
        delta: impl Fn(u32) -> f64 + Sync,
        apart: Vec<u32>,
    ) -> Self {
        let vertex_count = rest.len() / 3;
        let mut ring: Vec<Vec<u32>> = (0..vertex_count as u32).map(|v| vec![v]).collect();
        let mut incident: Vec<Vec<u32>> = vec![Vec::new(); vertex_count];
        let mut edges = Vec::with_capacity(3 * triangles.len());
        for (i, t) in triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                ring[a as usize].push(b);
                ring[b as usize].push(a);
                edges.push([a.min(b), a.max(b)]);
                incident[a as usize].push(i as u32);
            }
        }
        for r in &mut ring {
            r.sort_unstable();
            r.dedup();
        }
        edges.sort_unstable();
        edges.dedup();
        let mut filter = Self { ring, edges, close_vt: Vec::new(), close_ee: Vec::new(), apart };
        filter.close_vt = filter.close_vertex_triangles(triangles, &incident, rest, &delta);
        filter.close_ee = filter.close_edge_pairs(rest, &delta);
        filter
    }

    /// The 1-ring vertex–triangle pairs closer than `delta(v)` at `rest`: vertex v against the
    /// triangles around its neighbours that do not contain v.
    fn close_vertex_triangles(
        &self,
        triangles: &[[u32; 3]],
        incident: &[Vec<u32>],
        rest: &[f64],
        delta: &(impl Fn(u32) -> f64 + Sync),
    ) -> Vec<(u32, [u32; 3])> {
        let mut close: Vec<(u32, [u32; 3])> = (0..self.ring.len() as u32)
            .into_par_iter()
            .flat_map_iter(|v| {
                let delta = delta(v);
                let mut near: Vec<u32> =
                    self.ring[v as usize].iter().flat_map(|&w| incident[w as usize].iter().copied()).collect();
                near.sort_unstable();
                near.dedup();
                near.into_iter()
                    .map(|i| triangles[i as usize])
                    .filter(|t| {
                        !t.contains(&v) && sphere_gap(rest, &[v], t) < delta && vt_distance(rest, v, *t) < delta
                    })
                    .map(move |t| (v, sorted(t)))
                    .collect::<Vec<_>>()
            })
            .collect();
        close.sort_unstable();
        close
    }

    /// The 1-ring edge–edge pairs (no shared vertex, an end of one joined to an end of the
    /// other by a mesh edge) closer than `delta(a)` at `rest`, a being the first edge's first end.
    fn close_edge_pairs(&self, rest: &[f64], delta: &(impl Fn(u32) -> f64 + Sync)) -> Vec<([u32; 2], [u32; 2])> {
        // Edges by end point, to walk from an edge's ends to its neighbours' edges.
        let mut by_end: Vec<Vec<u32>> = vec![Vec::new(); self.ring.len()];
        for (i, e) in self.edges.iter().enumerate() {
            by_end[e[0] as usize].push(i as u32);
            by_end[e[1] as usize].push(i as u32);
        }
        let mut close: Vec<([u32; 2], [u32; 2])> = (0..self.edges.len())
            .into_par_iter()
            .flat_map_iter(|i| {
                let a = self.edges[i];
                let delta = delta(a[0]);
                let mut joined: Vec<u32> = a
                    .iter()
                    .flat_map(|&end| self.ring[end as usize].iter())
                    .flat_map(|&w| by_end[w as usize].iter().copied())
                    .filter(|&j| j as usize > i)
                    .collect();
                joined.sort_unstable();
                joined.dedup();
                joined
                    .into_iter()
                    .map(|j| self.edges[j as usize])
                    .filter(|b| {
                        !b.iter().any(|x| a.contains(x))
                            && sphere_gap(rest, &a, b) < delta
                            && ee_distance(rest, a, *b) < delta
                    })
                    .map(move |b| (a, b))
                    .collect::<Vec<_>>()
            })
            .collect();
        close.sort_unstable();
        close
    }

    /// The mesh's unique edges.
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// Whether `b` is `a` or an edge neighbour of `a`.
    pub fn near(&self, a: u32, b: u32) -> bool {
        self.ring[a as usize].binary_search(&b).is_ok()
    }

    /// Number of excluded 1-ring pairs (vertex–triangle, edge–edge): those within δ at rest.
    pub fn excluded_close_pairs(&self) -> (usize, usize) {
        (self.close_vt.len(), self.close_ee.len())
    }

    /// Whether vertices `a` and `b` are of one object whose pairs with itself are excluded.
    fn kept_apart(&self, a: u32, b: u32) -> bool {
        !self.apart.is_empty() && {
            let tag = self.apart[a as usize];
            tag != MEETS_ITSELF && tag == self.apart[b as usize]
        }
    }

    /// Whether the pair (v, t) is tested: v is not a corner of `t`, it is not a 1-ring pair
    /// within δ at rest, and not of one object kept apart from itself.
    pub fn allows_vertex_triangle(&self, v: u32, t: [u32; 3]) -> bool {
        !t.contains(&v)
            && !self.kept_apart(v, t[0])
            && (self.close_vt.is_empty() || self.close_vt.binary_search(&(v, sorted(t))).is_err())
    }

    /// Whether the pair (e0, e1) is tested: no shared vertex, not a 1-ring pair within δ at
    /// rest, and not of one object kept apart from itself.
    pub fn allows_edge_edge(&self, e0: [u32; 2], e1: [u32; 2]) -> bool {
        if e0.iter().any(|a| e1.contains(a)) || self.kept_apart(e0[0], e1[0]) {
            return false;
        }
        let (a, b) = ([e0[0].min(e0[1]), e0[0].max(e0[1])], [e1[0].min(e1[1]), e1[0].max(e1[1])]);
        let (a, b) = (a.min(b), a.max(b));
        self.close_ee.is_empty() || self.close_ee.binary_search(&(a, b)).is_err()
    }

    /// Whether triangles `t` and `u` hold an excluded pair (a corner of one against the other,
    /// or an edge of each: a 1-ring pair within δ at rest, or any pair of an object kept apart
    /// from itself): their intersection is then not self-contact's to prevent.
    pub fn excuses(&self, t: [u32; 3], u: [u32; 3]) -> bool {
        let vt = |a: [u32; 3], b: [u32; 3]| a.iter().any(|&v| !b.contains(&v) && !self.allows_vertex_triangle(v, b));
        let edges = |t: [u32; 3]| [0, 1, 2].map(|k| [t[k], t[(k + 1) % 3]]);
        let ee = edges(t)
            .iter()
            .any(|&a| edges(u).iter().any(|&b| !b.iter().any(|x| a.contains(x)) && !self.allows_edge_edge(a, b)));
        vt(t, u) || vt(u, t) || ee
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

/// Every tested pair whose bounding boxes come within `delta` (m) at positions `q`, by brute
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

/// The smallest distance (m) over all tested pairs at positions `q` (∞ without any): the rest
/// shape has no self-contact force when δ is below this at rest. Brute force, O(n²).
pub fn rest_clearance(filter: &ExclusionFilter, triangles: &[[u32; 3]], q: &[f64]) -> f64 {
    let (vt, ee) = brute_force_candidates(filter, triangles, q, f64::INFINITY);
    let pt = vt.iter().map(|p| vt_distance(q, p.vertex, p.triangle));
    let edge = ee.iter().map(|p| ee_distance(q, p.edges[0], p.edges[1]));
    pt.chain(edge).fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit square 0–1–3–2 in z = 0 split along 1–2, and triangle 4–5–6 0.05 above the
    /// first triangle's interior.
    fn square() -> (Vec<f64>, [[u32; 3]; 3]) {
        let mut q = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0];
        q.extend_from_slice(&[0.2, 0.2, 0.05, 0.4, 0.2, 0.05, 0.2, 0.4, 0.05]);
        (q, [[0, 1, 2], [1, 3, 2], [4, 5, 6]])
    }

    #[test]
    fn incident_pairs_are_excluded_and_close_ring_pairs_only_within_delta() {
        let (q, tris) = square();
        // δ = 0.01: only incident pairs are excluded.
        let f = ExclusionFilter::new(&tris, &q, 0.01);
        assert_eq!(f.edges(), &[[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [4, 5], [4, 6], [5, 6]]);
        assert_eq!(f.excluded_close_pairs(), (0, 0));
        assert!(!f.allows_vertex_triangle(0, [0, 1, 2]) && !f.allows_vertex_triangle(2, [1, 3, 2]));
        // Vertex 0 is 1/√2 from the triangle across edge 1–2; edges 0–1 and 2–3 are 1 apart.
        assert!(f.allows_vertex_triangle(0, [1, 3, 2]) && f.allows_vertex_triangle(3, [0, 1, 2]));
        assert!(!f.allows_edge_edge([0, 1], [1, 3]) && !f.allows_edge_edge([3, 1], [0, 1]));
        assert!(f.allows_edge_edge([0, 1], [2, 3]) && f.allows_edge_edge([0, 1], [5, 6]));
        assert!(!f.excuses(tris[0], tris[1]));
        // The closed 1-ring: the vertex itself and its edge neighbours, not vertices 2 edges away.
        assert!(f.near(0, 0) && f.near(0, 2) && !f.near(0, 3));
        // δ = 0.8: the two vertex–triangle pairs across the diagonal are within δ at rest.
        let f = ExclusionFilter::new(&tris, &q, 0.8);
        assert_eq!(f.excluded_close_pairs(), (2, 0));
        assert!(!f.allows_vertex_triangle(0, [1, 3, 2]) && !f.allows_vertex_triangle(3, [2, 1, 0]));
        assert!(f.allows_edge_edge([0, 1], [2, 3]) && f.excuses(tris[1], tris[0]));
        // Vertex 4 is 0.05 above triangle 0–1–2 but not in its 1-ring: always tested.
        assert!(f.allows_vertex_triangle(4, [0, 1, 2]) && !f.excuses(tris[0], tris[2]));
        // δ = 1.5: edges 0–1 and 2–3 (joined by 1–2... and by 0–2) too, in either order.
        let f = ExclusionFilter::new(&tris, &q, 1.5);
        assert!(!f.allows_edge_edge([3, 2], [1, 0]) && !f.allows_edge_edge([0, 2], [1, 3]));
        // Edge 0–1 passes 0.05 under edge 5–6's plane but no mesh edge joins them: tested.
        assert!(f.allows_edge_edge([0, 1], [5, 6]) && ee_distance(&q, [0, 1], [5, 6]) < 1.5);
    }

    /// Per object: the square's 1-ring pairs are measured against its own δ (0.8 m: the two
    /// across the diagonal are excluded, as with `new` at 0.8), not the triangle's 0.01 m; with
    /// the square kept apart from itself, none of its own pairs is tested (and its triangles'
    /// intersections are excused) while its pairs with the triangle still are.
    #[test]
    fn each_object_has_its_own_thickness_and_may_be_kept_apart_from_itself() {
        let (q, tris) = square();
        let delta = |v: u32| if v < 4 { 0.8 } else { 0.01 };
        let f = ExclusionFilter::with_objects(&tris, &q, delta, Vec::new());
        assert_eq!(f.excluded_close_pairs(), (2, 0));
        assert!(f.allows_edge_edge([0, 1], [2, 3]) && f.allows_vertex_triangle(4, [0, 1, 2]));
        let f = ExclusionFilter::with_objects(
            &tris,
            &q,
            |_| 0.01,
            vec![0, 0, 0, 0, MEETS_ITSELF, MEETS_ITSELF, MEETS_ITSELF],
        );
        assert!(!f.allows_vertex_triangle(0, [1, 3, 2]) && !f.allows_vertex_triangle(3, [0, 1, 2]));
        assert!(!f.allows_edge_edge([0, 1], [2, 3]) && f.excuses(tris[0], tris[1]));
        assert!(f.allows_vertex_triangle(4, [0, 1, 2]) && f.allows_vertex_triangle(0, [4, 5, 6]));
        assert!(f.allows_edge_edge([0, 1], [5, 6]) && !f.excuses(tris[0], tris[2]));
    }

    #[test]
    fn brute_force_gathers_only_tested_pairs_within_reach() {
        let (q, tris) = square();
        let f = ExclusionFilter::new(&tris, &q, 0.01);
        let (vt, ee) = brute_force_candidates(&f, &tris, &q, 0.1);
        assert!(vt.iter().all(|p| f.allows_vertex_triangle(p.vertex, p.triangle)));
        assert!(vt.contains(&VertexTriangle { vertex: 4, triangle: [0, 1, 2] }));
        // Vertex 3 = (1, 1, 0) is 0.6 m from triangle 4–5–6's box: culled.
        assert!(!vt.iter().any(|p| p.vertex == 3 && p.triangle == [4, 5, 6]));
        assert!(ee.iter().all(|p| f.allows_edge_edge(p.edges[0], p.edges[1])) && !ee.is_empty());
        // Raised out of reach, nothing between the two is gathered: only the square's own
        // diagonal pairs, vertices 0 and 3 against the far triangle (its box holds them; the
        // square's non-incident edges are 1 m apart).
        let far: Vec<f64> =
            q.iter().enumerate().map(|(i, &v)| if i >= 12 && i % 3 == 2 { v + 1.0 } else { v }).collect();
        let (vt, ee) = brute_force_candidates(&f, &tris, &far, 0.1);
        assert!(vt.iter().all(|p| p.vertex < 4 && p.triangle.iter().all(|&c| c < 4)) && vt.len() == 2);
        assert!(ee.is_empty());
        assert!((rest_clearance(&f, &tris, &q) - 0.05).abs() < 1e-12);
    }
}
