//! A simulated surface's edge against a collider mesh's sharp ridge
//! ([`crate::contact::collider_mesh::ridges`]): the edge–edge pair penalty
//! W = w m(|e₀ × e₁|²) b(g) (paper Eq. 3 on the edge–edge gap, with IPC's parallel-edge mollifier
//! m, [`crate::contact::pair`]), where g is signed by the ridge's two faces ([`SolidSide`]; an open
//! mesh's rim by its face and its end), and w is the ridge's weight for its angle. It keeps a
//! sharp proxy edge, or a table top's rim, from cutting the cloth between two vertices that
//! both rest on its faces.
//!
//! A taut cloth over a prism touches it at the ridges alone, so the pairs carry the smoothed
//! Coulomb friction of primitive pairs too (paper Eq. 8, 16; `crate::contact::pair::friction`),
//! lagged, with the μ of the edge's object and the mesh; the ridge's prescribed motion enters
//! through its corners' velocities. Gathering, sums and derivatives are
//! [`super::mesh_features`]'.
//!
//! Each edge's ridges are gathered around its midpoint, within half its length plus δ and
//! the padding.

use super::mesh_features::{FeaturePairs, Features};
use super::stage::{StageMesh, SurfacePrimitives};
use crate::contact::pair::{EdgeEdge, PrimitivePair, SolidSide};
use crate::contact::ContactLaw;
use crate::energy::gather;
use crate::math::real::{dot, sub};

/// Simulated edges against ridges: the edge in slots 0–1, the ridge in 2–3.
pub struct RidgeFeatures;

/// The ridge pairs of one stage.
pub type MeshRidges = FeaturePairs<RidgeFeatures, 2, 6>;

impl Features<2> for RidgeFeatures {
    const FIRST_SLOT: usize = 0;

    fn primitives(surface: &SurfacePrimitives) -> (&[[u32; 2]], &[f64]) {
        (&surface.edges, &surface.edge_mu)
    }

    fn present(mesh: &StageMesh) -> bool {
        !mesh.stage.ridges.list.is_empty()
    }

    /// The ridge pairs of edge `k` at positions `q` (m): every ridge of `meshes` within `reach`
    /// (m) of the edge, in front of it or cutting it (deeper only where the edge crosses over
    /// the ridge, see below).
    fn pairs_of(k: usize, meshes: &[StageMesh], law: &ContactLaw, q: &[f64], reach: f64) -> Vec<PrimitivePair> {
        let edge = meshes[0].surface.edges[k];
        let [a, b] = edge.map(|v| [0, 1, 2].map(|k| q[3 * v as usize + k]));
        let mid = [0, 1, 2].map(|k| 0.5 * (a[k] + b[k]));
        let half = 0.5 * (0..3).map(|k| (b[k] - a[k]).powi(2)).sum::<f64>().sqrt();
        let mut out = Vec::new();
        for mesh in meshes {
            let ridges = &mesh.stage.ridges;
            if ridges.list.is_empty() {
                continue;
            }
            let near = mesh.search.within(&mesh.topology, &mesh.stage, mid, half + reach);
            for r in ridges.on(&near) {
                let ridge = &ridges.list[r as usize];
                let corners = ridge.corners.map(|c| c + mesh.first_vertex);
                let weighted = ContactLaw { kappa: law.kappa * ridge.weight, ..*law };
                let pair = PrimitivePair {
                    mu: mesh.surface.edge_mu[k],
                    outward: Some(SolidSide { normals: ridge.normals, convex: true }),
                    ..PrimitivePair::edge_edge(EdgeEdge { edges: [edge, corners] }, weighted, &mesh.surface.rest)
                };
                // The signed gap: a ridge that already cuts through the edge deeper than the reach
                // (a chord sagging below it) is kept, and pushed back out, but only if the edge
                // crosses over it (its ends on either side of the ridge's bisecting plane, whose
                // normal is n_A − n_B) and no deeper than the edge is long: with both ends
                // outside a wedge of interior angle α the chord sags at most L / (2 tan(α/2))
                // into it, below L for α above 53°. The ridges come from every triangle near
                // the edge, and a large triangle's far ridge, or the ridge just above an edge
                // hanging down a box's side, puts the edge inside its wedge: −0.41 m and −18 mm,
                // which failed the step.
                let gap = pair.distance(&gather::<12>(&pair.vertices, q));
                let split = sub(ridge.normals[0], ridge.normals[1]);
                let on_ridge = mesh.stage.positions[ridge.corners[0] as usize];
                let crosses = dot(sub(a, on_ridge), split) * dot(sub(b, on_ridge), split) < 0.0;
                if gap < reach && (-gap < reach || (crosses && -gap <= 2.0 * half + reach)) {
                    out.push(pair);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::mesh_features::testing::{law, stage};
    use super::super::ContactTerm;
    use super::*;
    use crate::assemble::term::Term;
    use crate::contact::collider_mesh::{MeshGeometry, MeshSearch, MeshTopology};
    use crate::energy::Element;
    use std::sync::Arc;

    /// An octagonal prism along x (r = 0.1 m, a ridge on top at y = 0.1) as vertices 0–15 and
    /// one edge (vertices 16, 17) across its top ridge at height `y`, the edge 0.06 m long.
    fn scene(y: f64) -> (Vec<StageMesh>, Vec<f64>) {
        let (p, t) = crate::mesh::shapes::prism(0.1, -0.5, 0.5, 8);
        let points = crate::mesh::triples(&p);
        let topology = Arc::new(MeshTopology::new(&points, &crate::mesh::triangle_list(&t)));
        let geometry = MeshGeometry::new(&topology, points.clone(), vec![[0.0; 3]; points.len()]);
        let search = Arc::new(MeshSearch::new(&topology, &geometry, &geometry));
        let mut q = p.clone();
        q.extend_from_slice(&[0.01, y, -0.03, 0.0, y, 0.03]);
        let surface = Arc::new(SurfacePrimitives {
            edges: vec![[16, 17]],
            edge_mu: vec![0.4],
            rest: Arc::new(q.clone()),
            ..SurfacePrimitives::default()
        });
        let mesh = StageMesh { topology, search, start: geometry.clone(), stage: geometry, first_vertex: 0, surface };
        (vec![mesh], q)
    }

    /// An edge resting across the top ridge 1 mm above it has a pair with the ridge; one
    /// 8 mm below it (cut by the ridge, beyond the reach of 6 mm from it) has it too, with a
    /// negative gap, and the force on it points up, out of the prism.
    #[test]
    fn a_ridge_is_found_above_and_below_the_edge() {
        let fixed: Vec<bool> = (0..18).map(|v| v < 16).collect();
        for (y, above) in [(0.101, true), (0.092, false)] {
            let (meshes, q) = scene(y);
            let term = ContactTerm::new(MeshRidges::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q);
            let top = term.candidates().iter().find(|p| {
                let [a, b] = [p.vertices[2], p.vertices[3]].map(|v| q[3 * v as usize + 1]);
                a > 0.0999 && b > 0.0999
            });
            let top = top.unwrap_or_else(|| panic!("y = {y}: {:?}", term.candidates()));
            let gap = top.distance(&gather::<12>(&top.vertices, &q));
            assert_eq!(gap > 0.0, above, "y = {y}: gap {gap}");
            let mut force = vec![0.0; q.len()];
            term.add_negative_force(&q, &vec![0.0; q.len()], -1.0, &mut force);
            assert!(force[3 * 16 + 1] > 0.0 && force[3 * 17 + 1] > 0.0, "{:?}", &force[48..]);
        }
    }

    /// The edge's block from six dual directions is the whole stencil's Hessian's.
    #[test]
    fn edge_blocks_are_the_full_hessians_blocks() {
        let fixed: Vec<bool> = (0..18).map(|v| v < 16).collect();
        let (meshes, q) = scene(0.1015);
        let term = ContactTerm::new(MeshRidges::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q);
        assert!(!term.lagged().is_empty());
        for p in term.candidates().iter().filter(|p| p.distance(&gather::<12>(&p.vertices, &q)) < p.law.delta) {
            let x = gather::<12>(&p.vertices, &q);
            let (full, block) = (p.hessian(&x), MeshRidges::block_hessian(p, &x));
            let scale = full.amax();
            for i in 0..6 {
                for j in 0..6 {
                    assert!((full[(i, j)] - block[(i, j)]).abs() <= 1e-9 * scale, "H[{i},{j}]");
                }
            }
        }
        assert_eq!(law().delta, 0.005);
    }
}
