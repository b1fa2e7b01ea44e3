//! Broad phase of self-contact: the vertex–triangle and edge–edge pairs whose
//! bounding boxes come within a reach `pad` (m) of each other, for the penalty of §3.2 applied
//! to a shell against itself ([`crate::contact::pair::PrimitivePair`]). A pair at distance d < δ has boxes
//! within δ, so gathering with `pad` = δ + padding at a reference configuration finds every
//! pair that can enter the δ band while no vertex has moved more than padding/2 from it (each
//! box then grows by at most padding/2 per side).
//!
//! Uses the uniform grid of the intersection checker (`crate::mesh::intersection_grid`): boxes
//! are grown by a little more than the reach, overlapping boxes found in O(n) for a cloth, and
//! the result filtered by the exact box test of [`super::filter::brute_force_candidates`] and by
//! the [`ExclusionFilter`], so the set equals the brute-force one. Output is sorted as the brute
//! force sorts it (vertex–triangle by vertex then triangle order, edge–edge by the filter's edge
//! order), whatever the thread count.

use super::filter::{bounds, overlap, ExclusionFilter};
use crate::contact::pair::{EdgeEdge, VertexTriangle};
use crate::mesh::intersection_grid::{candidate_pairs, Box3};

/// The box of `vertices` at `q`, grown by `grow` (m) on every side.
fn grown(q: &[f64], vertices: &[u32], grow: f64) -> Box3 {
    let (lo, hi) = bounds(q, vertices);
    [lo.map(|x| x - grow), hi.map(|x| x + grow)]
}

/// Mean edge length (m) of `edges` at `q` (the grid's cell size; 0 without edges).
pub(crate) fn mean_edge(q: &[f64], edges: &[[u32; 2]]) -> f64 {
    let sum: f64 = edges
        .iter()
        .map(|e| {
            let (a, b) = (3 * e[0] as usize, 3 * e[1] as usize);
            (0..3).map(|k| (q[a + k] - q[b + k]).powi(2)).sum::<f64>().sqrt()
        })
        .sum();
    sum / edges.len().max(1) as f64
}

/// Every tested pair of `triangles` (global indices into `q`, 3 per vertex in m) whose bounding
/// boxes come within `pad` (m) along every axis, as [`super::filter::brute_force_candidates`]
/// finds them (same set, same order), in O(n) for a cloth without dense clusters.
pub fn candidates(
    filter: &ExclusionFilter,
    triangles: &[[u32; 3]],
    q: &[f64],
    pad: f64,
) -> (Vec<VertexTriangle>, Vec<EdgeEdge>) {
    let mut used: Vec<u32> = triangles.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let scale = q.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    // Slightly more than the reach: the grid's candidates are a superset of the exact test's.
    let grow = pad + 1e-9 * (pad + scale);
    let edges = filter.edges();
    let cell = mean_edge(q, edges) + pad;

    // Vertex boxes grown by the reach against plain triangle boxes.
    let nv = used.len();
    let mut boxes: Vec<Box3> = used.iter().map(|&v| grown(q, &[v], grow)).collect();
    boxes.extend(triangles.iter().map(|t| grown(q, t, 0.0)));
    // A pair (i < j) of the grid is a vertex's and a triangle's when i is a vertex and j not.
    let nv32 = nv as u32;
    let mut vt: Vec<(u32, u32)> = candidate_pairs(&boxes, cell, |i, j| i < nv32 && j >= nv32)
        .into_iter()
        .map(|(i, j)| (i, j - nv32))
        .filter(|&(a, t)| {
            let (v, tri) = (used[a as usize], triangles[t as usize]);
            filter.allows_vertex_triangle(v, tri) && overlap(&bounds(q, &[v]), &bounds(q, &tri), pad)
        })
        .collect();
    vt.sort_unstable();

    // Edge boxes grown by half the reach each.
    let boxes: Vec<Box3> = edges.iter().map(|e| grown(q, e, 0.5 * grow)).collect();
    let mut ee: Vec<(u32, u32)> = candidate_pairs(&boxes, cell, |_, _| true)
        .into_iter()
        .filter(|&(i, j)| {
            let (a, b) = (edges[i as usize], edges[j as usize]);
            filter.allows_edge_edge(a, b) && overlap(&bounds(q, &a), &bounds(q, &b), pad)
        })
        .collect();
    ee.sort_unstable();
    (
        vt.into_iter()
            .map(|(a, t)| VertexTriangle { vertex: used[a as usize], triangle: triangles[t as usize] })
            .collect(),
        ee.into_iter().map(|(i, j)| EdgeEdge { edges: [edges[i as usize], edges[j as usize]] }).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::filter::brute_force_candidates;
    use super::*;
    use crate::mesh::generate::grid_cloth;

    /// A small deterministic generator (xorshift) in [0, 1).
    fn rng(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn triangles(flat: &[u32]) -> Vec<[u32; 3]> {
        flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
    }

    fn check(tris: &[[u32; 3]], q: &[f64], pads: &[f64]) -> usize {
        // Rest = q, δ = 1 cm: the crumpled cloth's 1-ring pairs within 1 cm are excluded too.
        let filter = ExclusionFilter::new(tris, q, 0.01);
        let mut found = 0;
        for &pad in pads {
            let want = brute_force_candidates(&filter, tris, q, pad);
            let got = candidates(&filter, tris, q, pad);
            assert_eq!(got.0, want.0, "vertex-triangle pairs, pad {pad}");
            assert_eq!(got.1, want.1, "edge-edge pairs, pad {pad}");
            found += want.0.len() + want.1.len();
        }
        found
    }

    /// A random triangle soup and a randomly crumpled cloth: the grid finds exactly the
    /// brute-force pairs, in the same order.
    #[test]
    fn random_meshes_match_brute_force() {
        let mut next = rng(0x9e37_79b9_7f4a_7c15);
        let q: Vec<f64> = (0..3 * 150).map(|_| next()).collect();
        let soup: Vec<[u32; 3]> = (0..50).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        assert!(check(&soup, &q, &[0.0, 0.01, 0.05, 0.3]) > 100);
        let (flat, tris) = grid_cloth(0.3, 0.3, 12, 12);
        let q: Vec<f64> = flat.iter().map(|x| x + 0.05 * (next() - 0.5)).collect();
        assert!(check(&triangles(&tris), &q, &[0.001, 0.01, 0.04]) > 100);
    }

    /// A cloth (in the x–z plane) folded in two about x = 0 with its halves 4 mm apart in y: the
    /// folded halves meet within a 5 mm reach and not within 3 mm; the grid agrees with the
    /// brute force.
    #[test]
    fn folded_cloth_matches_brute_force() {
        let (flat, tris) = grid_cloth(0.4, 0.2, 20, 10);
        let tris = triangles(&tris);
        let fold = |gap: f64| -> Vec<f64> {
            let mut q = flat.clone();
            for p in q.chunks_exact_mut(3).filter(|p| p[0] > 0.0) {
                let over = p[0];
                let angle = std::f64::consts::PI * (over / 0.02).min(1.0);
                let r = 0.5 * gap;
                if over < 0.02 {
                    (p[0], p[1]) = (r * angle.sin(), r - r * angle.cos());
                } else {
                    (p[0], p[1]) = (-(over - 0.02), gap);
                }
            }
            q
        };
        let q = fold(0.004);
        check(&tris, &q, &[0.001, 0.003, 0.005, 0.02]);
        let filter = ExclusionFilter::new(&tris, &flat, 0.003);
        let near = candidates(&filter, &tris, &q, 0.005);
        let far = candidates(&filter, &tris, &q, 0.003);
        // A vertex of one flat half against a triangle lying in the other (not the bend's
        // triangles, which span both halves' heights and are tested against their 1-ring).
        let across = |p: &VertexTriangle| {
            let y = |v: u32| q[3 * v as usize + 1];
            let t = p.triangle.map(y);
            t[0] == t[1] && t[1] == t[2] && (y(p.vertex) - t[0]).abs() > 0.0039
        };
        assert!(near.0.iter().filter(|p| across(p)).count() > 50, "{}", near.0.len());
        assert_eq!(far.0.iter().filter(|p| across(p)).count(), 0);
    }
}
