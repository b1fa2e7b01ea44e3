//! The simulated surfaces' edges against collider meshes' ridges
//! ([`crate::contact::collider_mesh::ridges`]): the edge–edge penalty of self-contact,
//! W = w m(|e₀ × e₁|²) b(g) (paper Eq. 3 on the edge–edge gap, with IPC's parallel-edge mollifier
//! m, [`crate::contact::self_contact`]), where g is signed by the ridge's two faces
//! ([`SolidSide`]) and w is the ridge's weight for its angle. It keeps a sharp proxy edge from
//! cutting the cloth between two vertices that both rest on its faces.
//!
//! A taut cloth over a prism touches it at the ridges alone, so the pairs carry the smoothed
//! Coulomb friction of self-contact pairs too (paper Eq. 8, 16;
//! `crate::contact::self_contact::friction`), with the μ of the edge's object and the mesh; the
//! ridge's prescribed motion enters through its corners' velocities. Their friction is lagged
//! (paper Eq. 25: normal force, contact normal and closest-point weights frozen at the
//! substep's start) whatever the coupling of the vertex contacts: the common perpendicular of
//! two edges turns with the cloth edge and its closest points jump to an end as a vertex
//! crosses the ridge, and fully implicit, Newton stalled on the authors' tube-cloth scene at
//! μ = 0.6 (and needed 45 iterations a substep at μ = 0.3, against 13 lagged).
//!
//! A ridge that cuts an edge deeper than a full-weight one should is reported as the
//! substep's deepest gap, so the adaptive stiffness rises (paper §4.4); a weaker ridge (a
//! smooth body's faceting) is not: stiffening the whole contact for it made sphere-and-floor
//! stall.
//!
//! Candidates are gathered per edge within δ + padding around the edge's midpoint (plus half
//! its length) and gathered again for an edge whose end moved more than half the padding, as
//! the vertex contacts are, so no ridge entering the δ band is missed.

use super::StageMesh;
use crate::assemble::element_terms;
use crate::contact::self_contact::friction::FrozenPairFriction;
use crate::contact::self_contact::{EdgeEdge, SelfContactPair, SolidSide};
use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::autodiff::{self, project_psd};
use crate::math::real::{c, Real};
use crate::model::{Model, ObjectKind};
use crate::solve::pattern::BlockPattern;
use nalgebra::SMatrix;
use num_dual::DualSVec64;
use rayon::prelude::*;
use std::sync::Arc;

/// The Jacobian of `f`, a function of the stencil's 12 coordinates, at `x` in the edge's six
/// (slots 0–1), zero elsewhere: the ridge's corners are prescribed, so their rows and columns
/// never enter the system, and six dual directions do instead of twelve.
fn edge_block<F>(f: F, x: &[f64; 12]) -> SMatrix<f64, 12, 12>
where
    F: Fn(&[DualSVec64<6>; 12]) -> [DualSVec64<6>; 12],
{
    let edge: [f64; 6] = std::array::from_fn(|i| x[i]);
    let block = autodiff::jacobian(
        |y: &[DualSVec64<6>; 6]| {
            let full: [DualSVec64<6>; 12] = std::array::from_fn(|i| if i < 6 { y[i] } else { c(x[i]) });
            let out = f(&full);
            std::array::from_fn(|i| out[i])
        },
        &edge,
    );
    let mut m = SMatrix::<f64, 12, 12>::zeros();
    m.fixed_view_mut::<6, 6>(0, 0).copy_from(&block);
    m
}

/// The stencil's coordinates from a flat array of any [`Real`].
fn stencil<T: Real>(vertices: &[u32; 4], q: &[T]) -> [T; 12] {
    std::array::from_fn(|i| q[3 * vertices[i / 3] as usize + i % 3])
}

/// The edges of every simulated surface (shells' triangles, solids' boundary faces) that can
/// meet one collider mesh's ridges, with their friction against it and every vertex's rest
/// position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactEdges {
    /// Each edge once (global vertex indices, lower first), increasing.
    pub edges: Vec<[u32; 2]>,
    /// Per edge: μ between its object and the mesh (dimensionless).
    pub mu: Vec<f64>,
    /// Rest positions of all vertices (flat, 3 per vertex, m): the mollifier's threshold.
    pub rest: Arc<Vec<f64>>,
}

impl ContactEdges {
    /// The surface edges of every shell and solid of `model` against the collider mesh of
    /// object id `mesh`; `rest` is the model's rest positions, flat.
    pub fn of_model(model: &Model, mesh: u32, rest: Arc<Vec<f64>>) -> Self {
        let mut edges: Vec<([u32; 2], u32)> = Vec::new();
        for o in model.objects.iter().filter(|o| matches!(o.kind, ObjectKind::Shell | ObjectKind::Solid)) {
            let first = o.first_vertex as u32;
            for t in &o.surface {
                for k in 0..3 {
                    let (a, b) = (t[k] + first, t[(k + 1) % 3] + first);
                    edges.push(([a.min(b), a.max(b)], o.id));
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mu = edges.iter().map(|&(_, owner)| model.friction.pair(owner, mesh)).collect();
        Self { edges: edges.into_iter().map(|(e, _)| e).collect(), mu, rest }
    }
}

/// The ridge pairs of one stage.
pub(super) struct RidgePairs {
    /// Per edge: its ends where its pairs were gathered (m).
    reference: Vec<[f64; 6]>,
    /// Per edge: the ridges within δ + padding at the reference.
    per_edge: Vec<Vec<SelfContactPair>>,
    /// `per_edge` in edge order, the list every sum runs over.
    pairs: Vec<SelfContactPair>,
    /// Friction frozen at the substep start (lagged coupling only).
    lagged: Vec<FrozenPairFriction>,
}

/// The ridge pairs of edge `k` at positions `q` (m): every ridge of `meshes` whose signed gap
/// to the edge is below `reach` (m).
fn pairs_of(k: usize, meshes: &[StageMesh], law: &ContactLaw, q: &[f64], reach: f64) -> Vec<SelfContactPair> {
    let edge = meshes[0].edges.edges[k];
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
            let pair = SelfContactPair {
                mu: mesh.edges.mu[k],
                outward: Some(SolidSide { normals: ridge.normals, convex: true }),
                ..SelfContactPair::edge_edge(EdgeEdge { edges: [edge, corners] }, weighted, &mesh.edges.rest)
            };
            // The signed gap: a ridge that already cuts through the edge deeper than the reach
            // (a chord sagging below it) is kept, and pushed back out. The ridges come from
            // every triangle near the edge, and a large triangle's far ridge puts an edge
            // beyond it inside its wedge (a box's far top edge, for an edge hanging down the
            // near side): a cut is no deeper than the edge is long, since with both ends
            // outside a wedge of interior angle α the chord sags at most L / (2 tan(α/2)) into
            // it, below L for α above 53°.
            let gap = pair.distance(&gather::<12>(&pair.vertices, q));
            if gap < reach && -gap <= 2.0 * half + reach {
                out.push(pair);
            }
        }
    }
    out
}

/// Whether either end of an edge at `x` moved more than half the `padding` (m) from where its
/// candidates were gathered, `reference`: beyond that a ridge outside the gather's reach could
/// have come within δ.
fn moved_beyond(x: &[f64; 6], reference: &[f64; 6], padding: f64) -> bool {
    let limit = 0.25 * padding * padding;
    // Written as "not within" so that a non-finite position counts as moved.
    (0..2).any(|end| !((0..3).map(|i| (x[3 * end + i] - reference[3 * end + i]).powi(2)).sum::<f64>() <= limit))
}

impl RidgePairs {
    /// The pairs of every edge of `meshes`' contact edges (the first mesh's list: every mesh
    /// holds the same edges) not wholly `fixed`, around `q` (m), with `padding` (m).
    pub fn new(meshes: &[StageMesh], law: &ContactLaw, fixed: &[bool], q: &[f64], padding: f64) -> Self {
        let count = meshes.first().map_or(0, |m| m.edges.edges.len());
        let mut pairs = Self {
            reference: vec![[f64::INFINITY; 6]; count],
            per_edge: vec![Vec::new(); count],
            pairs: Vec::new(),
            lagged: Vec::new(),
        };
        pairs.gather(meshes, law, fixed, q, padding);
        pairs
    }

    /// Freezes the friction of the pairs within δ at the substep's start positions `q_start`
    /// (m) (paper Eq. 25). An edge whose ends are within half the `padding` (m) of where its
    /// candidates were gathered has all of them among its candidates; the others are gathered
    /// at `q_start`.
    pub fn with_start(
        mut self,
        meshes: &[StageMesh],
        law: &ContactLaw,
        fixed: &[bool],
        q_start: &[f64],
        padding: f64,
    ) -> Self {
        if !meshes.iter().any(|m| m.edges.mu.iter().any(|&mu| mu > 0.0)) {
            return self;
        }
        let edges = &meshes[0].edges.edges;
        let at_start: Vec<Vec<FrozenPairFriction>> = (0..edges.len())
            .into_par_iter()
            .map(|k| {
                let e = edges[k];
                if fixed[e[0] as usize] && fixed[e[1] as usize] {
                    return Vec::new();
                }
                let x: [f64; 6] = gather::<6>(&e, q_start);
                let fresh;
                let candidates = if !moved_beyond(&x, &self.reference[k], padding) {
                    &self.per_edge[k]
                } else {
                    fresh = pairs_of(k, meshes, law, q_start, law.delta);
                    &fresh
                };
                candidates
                    .iter()
                    .filter_map(|p| FrozenPairFriction::new(p, &gather::<12>(&p.vertices, q_start)))
                    .collect()
            })
            .collect();
        self.lagged = at_start.into_iter().flatten().collect();
        self
    }

    /// Gathers again the pairs of every edge whose end in `q` (m) moved more than half the
    /// padding from its reference; returns whether any did.
    pub fn gather(&mut self, meshes: &[StageMesh], law: &ContactLaw, fixed: &[bool], q: &[f64], padding: f64) -> bool {
        let Some(first) = meshes.first() else { return false };
        let edges = &first.edges.edges;
        if !meshes.iter().any(|m| !m.stage.ridges.list.is_empty()) {
            return false;
        }
        let reach = law.delta + padding;
        let reference = &self.reference;
        let fresh: Vec<Option<([f64; 6], Vec<SelfContactPair>)>> = (0..edges.len())
            .into_par_iter()
            .map(|k| {
                let e = edges[k];
                if fixed[e[0] as usize] && fixed[e[1] as usize] {
                    return None;
                }
                let x: [f64; 6] = gather::<6>(&e, q);
                if !moved_beyond(&x, &reference[k], padding) {
                    return None;
                }
                Some((x, pairs_of(k, meshes, law, q, reach)))
            })
            .collect();
        let mut any = false;
        for (k, f) in fresh.into_iter().enumerate() {
            if let Some((x, p)) = f {
                self.reference[k] = x;
                self.per_edge[k] = p;
                any = true;
            }
        }
        if any {
            self.pairs = self.per_edge.iter().flatten().cloned().collect();
        }
        any
    }

    /// The pairs (fresh for the last gather).
    pub fn pairs(&self) -> &[SelfContactPair] {
        &self.pairs
    }

    /// out += scale · ∇W(q) over [`Real`].
    pub fn add_gradient<T: Real + Send + Sync>(&self, q: &[T], scale: f64, out: &mut [T]) {
        element_terms::add_gradient(&self.pairs, q, scale, out);
    }

    /// W(q) in J.
    pub fn energy(&self, q: &[f64]) -> f64 {
        element_terms::energy(&self.pairs, q)
    }

    /// jac += scale · ∇²W(q) (pairs within δ, PSD-projected when `definite`) into `pattern`'s
    /// values, skipping fixed vertices; returns the blocks the pattern lacks. The exact Hessian
    /// needs only the edge's block ([`edge_block`]); the projection is of the whole stencil's,
    /// whose coupling to the ridge's corners makes the edge's block stiffer than its own
    /// projection would (Newton on sphere-and-floor stalled with the latter).
    pub fn add_hessian(
        &self,
        q: &[f64],
        scale: f64,
        definite: bool,
        pattern: &BlockPattern,
        fixed: &[bool],
        jac: &mut [f64],
    ) -> u32 {
        let local: Vec<Option<SMatrix<f64, 12, 12>>> = self
            .pairs
            .par_iter()
            .map(|p| {
                let x = gather::<12>(&p.vertices, q);
                (p.distance(&x) < p.law.delta).then(|| {
                    if definite {
                        project_psd(&p.hessian(&x))
                    } else {
                        let mut h = edge_block(|y| p.gradient(y), &x);
                        autodiff::symmetrize(&mut h);
                        h
                    }
                })
            })
            .collect();
        let mut dropped = 0;
        for (p, m) in self.pairs.iter().zip(&local) {
            if let Some(m) = m {
                dropped += pattern.add_stencil_matrix(&p.vertices, |i, j| m[(i, j)], scale, fixed, jac);
            }
        }
        dropped
    }

    /// out −= scale · F(v) of the pairs' lagged friction (paper Eq. 25) at velocities `v` (m/s)
    /// over [`Real`].
    pub fn add_friction<T: Real + Send + Sync>(&self, law: &ContactLaw, v: &[T], scale: f64, out: &mut [T]) {
        let local: Vec<[T; 12]> = self.lagged.par_iter().map(|l| l.forces(law, &stencil(&l.vertices, v))).collect();
        for (l, f) in self.lagged.iter().zip(&local) {
            for (slot, &vertex) in l.vertices.iter().enumerate() {
                for k in 0..3 {
                    out[3 * vertex as usize + k] -= f[3 * slot + k] * scale;
                }
            }
        }
    }

    /// jac −= scale · dF/dv of the pairs' lagged friction at velocities `v` (m/s) into
    /// `pattern`'s values, skipping `fixed` vertices; returns the blocks the pattern lacks.
    pub fn add_friction_jacobian(
        &self,
        law: &ContactLaw,
        v: &[f64],
        scale: f64,
        pattern: &BlockPattern,
        fixed: &[bool],
        jac: &mut [f64],
    ) -> u32 {
        let local: Vec<SMatrix<f64, 12, 12>> =
            self.lagged.par_iter().map(|l| edge_block(|u| l.forces(law, u), &gather(&l.vertices, v))).collect();
        let mut dropped = 0;
        for (l, m) in self.lagged.iter().zip(&local) {
            dropped += pattern.add_stencil_matrix(&l.vertices, |i, j| m[(i, j)], -scale, fixed, jac);
        }
        dropped
    }

    /// h Σ D(v) in J of the lagged friction at velocities `v` (m/s) and step `h` (s) (paper
    /// Eq. 14–15 integrated): the merit function's friction term.
    pub fn friction_potential(&self, law: &ContactLaw, v: &[f64], h: f64) -> f64 {
        let local: Vec<f64> = self.lagged.par_iter().map(|f| f.potential(law, &gather(&f.vertices, v))).collect();
        h * local.iter().sum::<f64>()
    }

    /// The smallest gap (m) at `q` of the pairs with full-weight ridges, whose stiffness is
    /// `kappa` (N/m²) (∞ without one): a weaker ridge, a smooth body's faceting, may give.
    pub fn smallest_gap(&self, q: &[f64], kappa: f64) -> f64 {
        self.pairs
            .iter()
            .filter(|p| p.law.kappa >= kappa)
            .map(|p| p.distance(&gather::<12>(&p.vertices, q)))
            .fold(f64::INFINITY, f64::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::collider_mesh::{MeshGeometry, MeshSearch, MeshTopology};
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};

    fn law() -> ContactLaw {
        ContactLaw {
            kappa: 1e4,
            delta: 0.005,
            epsilon: 1e-3,
            smoothing: FrictionSmoothing::Quadratic,
            coupling: FrictionCoupling::Implicit,
        }
    }

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
        let edges = Arc::new(ContactEdges { edges: vec![[16, 17]], mu: vec![0.4], rest: Arc::new(q.clone()) });
        let mesh = StageMesh { topology, search, start: geometry.clone(), stage: geometry, first_vertex: 0, edges };
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
            let pairs = RidgePairs::new(&meshes, &law(), &fixed, &q, 0.001);
            let top = pairs.pairs().iter().find(|p| {
                let [a, b] = [p.vertices[2], p.vertices[3]].map(|v| q[3 * v as usize + 1]);
                a > 0.0999 && b > 0.0999
            });
            let top = top.unwrap_or_else(|| panic!("y = {y}: {:?}", pairs.pairs()));
            let gap = top.distance(&gather::<12>(&top.vertices, &q));
            assert_eq!(gap > 0.0, above, "y = {y}: gap {gap}");
            let mut force = vec![0.0; q.len()];
            pairs.add_gradient(&q, -1.0, &mut force);
            assert!(force[3 * 16 + 1] > 0.0 && force[3 * 17 + 1] > 0.0, "{:?}", &force[48..]);
        }
    }

    /// The edge's block from six dual directions is the whole stencil's Hessian's, and the
    /// lagged friction's Jacobian block is the full one's.
    #[test]
    fn edge_blocks_are_the_full_derivatives_blocks() {
        let fixed: Vec<bool> = (0..18).map(|v| v < 16).collect();
        let (meshes, q) = scene(0.1015);
        let pairs = RidgePairs::new(&meshes, &law(), &fixed, &q, 0.001).with_start(&meshes, &law(), &fixed, &q, 0.001);
        assert!(!pairs.lagged.is_empty());
        for p in pairs.pairs().iter().filter(|p| p.distance(&gather::<12>(&p.vertices, &q)) < p.law.delta) {
            let x = gather::<12>(&p.vertices, &q);
            let (full, block) = (p.hessian(&x), edge_block(|y| p.gradient(y), &x));
            let scale = full.amax();
            for i in 0..6 {
                for j in 0..6 {
                    assert!((full[(i, j)] - block[(i, j)]).abs() <= 1e-9 * scale, "H[{i},{j}]");
                }
            }
        }
        let v: Vec<f64> = (0..q.len()).map(|i| if i >= 48 { 0.01 * (i as f64 - 50.0) } else { 0.0 }).collect();
        for l in &pairs.lagged {
            let u = gather::<12>(&l.vertices, &v);
            let (full, block) = (l.jacobian(&law(), &u), edge_block(|w| l.forces(&law(), w), &u));
            for i in 0..6 {
                for j in 0..6 {
                    assert!((full[(i, j)] - block[(i, j)]).abs() <= 1e-9 * full.amax().max(1e-30), "J[{i},{j}]");
                }
            }
        }
    }
}
