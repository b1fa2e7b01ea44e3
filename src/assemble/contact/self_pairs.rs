//! Self-contact of shells: the cubic penalty W_c = Σ b(d_i) of vertex–triangle and edge–edge
//! pairs (paper §3.2, Eq. 3; `crate::contact::pair`) of the shells against themselves and each
//! other, and against the solids' boundary faces with a signed gap
//! (`crate::contact::self_contact::shell_solid`), as an energy of q = q̂ + h v, so it adds
//! h ∇W_c to the residual, h² ∇²W_c to the Jacobian and W_c to the incremental potential (paper
//! Eq. 23). Friction of the pairs (paper §3.3, Eq. 8, 16; `crate::contact::pair::friction`)
//! adds −h F(q, v) and −h dF/dv, with the sliding basis, normal force and weights at the end of
//! the step (fully implicit, Eq. 23) or frozen at the substep's start (lagged, Eq. 25).
//!
//! The candidates come from the broad phase (`crate::contact::self_contact::broad_phase`) as one
//! gather unit over every shell (and solid face) vertex, within the largest pair thickness plus
//! the padding, kept only where their exact distance is within that reach. (A shell–solid pair
//! crossed deeper than the reach is not gathered again, though its signed energy is not zero:
//! the residual then loses it.) The Jacobian pattern covers the pairs gathered at the guess;
//! blocks of pairs found later and missing from it are dropped (and counted).

use super::stage::{ContactStage, SelfContactStage};
use super::{CandidateCache, ContactKind, Frozen, JacobianBlock, JacobianStage, Units};
use crate::contact::pair::PrimitivePair;
use crate::contact::pair::SolidSide;
use crate::contact::self_contact::broad_phase;
use crate::contact::self_contact::contact_mesh::SelfContactMesh;
use crate::contact::self_contact::filter::{ee_distance, vt_distance};
use crate::contact::self_contact::shell_solid::{vertex_normals, Sides, SOLID_THICKNESS_FRACTION};
use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::autodiff::project_psd;
use crate::math::real::Real;
use nalgebra::U12;
use rayon::prelude::*;

/// The self-contact pairs of one stage.
pub struct SelfPairs<'a> {
    mesh: &'a SelfContactMesh,
    /// Law of pairs of shells (δ_min, κ_s).
    law: ContactLaw,
    /// Law of the shell–solid pairs (δ_b, κ_b).
    solid: ContactLaw,
    fixed: &'a [bool],
    padding: f64,
}

impl<'a> SelfPairs<'a> {
    /// The self-contact of `stage`, `None` when off.
    pub fn of(stage: &ContactStage<'a>) -> Option<Self> {
        let s: &SelfContactStage<'a> = stage.self_contact.as_ref()?;
        Some(Self { mesh: s.mesh, law: s.law, solid: s.solid, fixed: stage.fixed, padding: s.padding })
    }

    /// The largest δ of a pair (m): the mesh's table's, or the law's without one.
    fn max_delta(&self) -> f64 {
        self.mesh.thickness.as_ref().map_or(self.law.delta, |_| self.mesh.max_delta)
    }

    /// The law of the pair of the objects of vertices `a` and `b`: between shells, `law` with
    /// the mesh's δ for them; between a shell and a solid (`side` set), `solid` with
    /// `SOLID_THICKNESS_FRACTION` of it (each law as it is without a thickness table).
    fn pair_law(&self, a: u32, b: u32, side: &Option<SolidSide>) -> ContactLaw {
        let (law, fraction) = if side.is_some() { (self.solid, SOLID_THICKNESS_FRACTION) } else { (self.law, 1.0) };
        self.mesh.pair_delta(a, b).map_or(law, |delta| ContactLaw { delta: fraction * delta, ..law })
    }

    /// The pairs with a free vertex among the broad phase's candidates at `q` (m) within
    /// `reach` (m), each with the μ of its two objects; shell–solid pairs signed by the solid's
    /// outward side and with the thinner law of `shell_solid`, solid–solid ones dropped.
    fn pairs_within(&self, q: &[f64], reach: f64) -> Vec<PrimitivePair> {
        let m = self.mesh;
        let (vt, ee) = broad_phase::candidates(&m.filter, &m.triangles, q, reach);
        let normals = if m.solid.is_empty() { Vec::new() } else { vertex_normals(m.solid_faces(), q) };
        let sides = Sides {
            triangles: &m.triangles,
            solid: &m.solid,
            edge_faces: &m.solid_edge_faces,
            vertex_normals: &normals,
            q,
        };
        // Boxes within reach but the primitives themselves farther apart: until a vertex has
        // moved half the padding (each primitive then moves at most that far, so their distance
        // falls by at most the padding) such a pair cannot come within δ.
        let vt: Vec<_> = vt
            .into_par_iter()
            .filter_map(|p| sides.vertex_triangle(&p).map(|side| (p, side)))
            .filter(|(p, _)| vt_distance(q, p.vertex, p.triangle) < reach)
            .collect();
        let ee: Vec<_> = ee
            .into_par_iter()
            .filter_map(|p| sides.edge_edge(&p))
            .filter(|(p, _)| ee_distance(q, p.edges[0], p.edges[1]) < reach)
            .collect();
        let vt = vt.iter().map(|(p, side)| PrimitivePair {
            mu: m.pair_mu(p.vertex, p.triangle[0]),
            outward: *side,
            ..PrimitivePair::vertex_triangle(*p, self.pair_law(p.vertex, p.triangle[0], side))
        });
        let ee = ee.iter().map(|(p, side)| PrimitivePair {
            mu: m.pair_mu(p.edges[0][0], p.edges[1][0]),
            outward: *side,
            ..PrimitivePair::edge_edge(*p, self.pair_law(p.edges[0][0], p.edges[1][0], side), &m.rest)
        });
        vt.chain(ee).filter(|p| p.vertices.iter().any(|&v| !self.fixed[v as usize])).collect()
    }
}

impl ContactKind for SelfPairs<'_> {
    type Stencil = PrimitivePair;
    type Vertices = [u32; 4];
    type Values<T: Real + Send + Sync> = [T; 12];
    type Block = nalgebra::SMatrix<f64, 12, 12>;
    type Weights = [f64; 4];
    const COUPLES: bool = true;

    fn law(&self) -> &ContactLaw {
        &self.law
    }

    /// One unit over every vertex of the self-contact mesh; the reach is the largest pair's δ
    /// plus the padding.
    fn units(&self) -> Units {
        Units::one(self.mesh.vertices.clone(), self.padding)
    }

    fn gather(&mut self, _units: &[usize], q: &[f64]) -> Vec<Vec<PrimitivePair>> {
        vec![self.pairs_within(q, self.max_delta() + self.padding)]
    }

    /// The friction of the pairs within δ at the substep's start `q_start` (m), lagged coupling.
    fn lagged(&self, q_start: &[f64], _candidates: &CandidateCache<PrimitivePair>) -> Vec<Frozen<Self>> {
        if !self.has_friction() {
            return Vec::new();
        }
        let pairs = self.pairs_within(q_start, self.max_delta());
        pairs.par_iter().filter_map(|p| p.frozen_friction(&gather::<12>(&p.vertices, q_start))).collect()
    }

    fn has_friction(&self) -> bool {
        self.mesh.mu.iter().any(|&mu| mu > 0.0)
    }

    /// −∇W of the pair plus, with implicit coupling, its friction.
    fn force<T: Real + Send + Sync>(&self, p: &PrimitivePair, q: &[T], v: &[T]) -> Option<([u32; 4], [T; 12])> {
        let stencil = |u: &[T]| -> [T; 12] { std::array::from_fn(|i| u[3 * p.vertices[i / 3] as usize + i % 3]) };
        let x = stencil(q);
        let mut f = p.gradient(&x).map(|g| -g);
        if !self.lagged_friction() {
            if let Some(friction) = p.friction(&x, &stencil(v)) {
                f = std::array::from_fn(|i| f[i] + friction[i]);
            }
        }
        Some((p.vertices, f))
    }

    fn energy(&self, p: &PrimitivePair, q: &[f64]) -> f64 {
        p.energy(&gather::<12>(&p.vertices, q))
    }

    /// h² ∇²W (pairs within δ; PSD-projected when definite) − h dF/dv of the implicit friction
    /// (exact, or with the sliding basis held when definite).
    fn jacobian(&self, p: &PrimitivePair, stage: &JacobianStage, q: &[f64], v: &[f64]) -> Option<JacobianBlock<Self>> {
        let x = gather::<12>(&p.vertices, q);
        let h = stage.h;
        let hessian = (p.distance(&x) < p.law.delta).then(|| {
            let hess = p.hessian(&x);
            if stage.definite {
                project_psd(&hess)
            } else {
                hess
            }
        });
        let friction = if self.lagged_friction() {
            None
        } else {
            p.friction_jacobian(&x, &gather::<12>(&p.vertices, v), h, !stage.definite)
        };
        let (block, scale) = match (hessian, friction) {
            (None, None) => return None,
            (Some(a), None) => (a, h * h),
            (None, Some(b)) => (b, -h),
            (Some(a), Some(b)) => (a * (h * h) - b * h, 1.0),
        };
        Some((p.vertices, block, scale))
    }

    fn frozen_jacobian(&self, f: &Frozen<Self>, v: &[f64]) -> Self::Block {
        f.jacobian(&self.law, v, U12)
    }

    fn freeze(&self, p: &PrimitivePair, q: &[f64]) -> Option<Frozen<Self>> {
        p.frozen_friction(&gather::<12>(&p.vertices, q))
    }

    fn shell_distance(&self, p: &PrimitivePair, q: &[f64]) -> Option<f64> {
        p.outward.is_none().then(|| p.distance(&gather::<12>(&p.vertices, q)))
    }

    fn intersections(&self, q: &[f64]) -> Option<usize> {
        Some(self.mesh.intersections(q))
    }

    fn coupling(&self, p: &PrimitivePair) -> Vec<u32> {
        p.vertices.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::super::stage::SelfContactStage;
    use super::super::ContactTerm;
    use super::*;
    use crate::assemble::term::Term;
    use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
    use crate::contact::self_contact::shell_solid::solid_law;

    /// Two triangles, the second `z` (m) above the first's interior.
    fn positions(z: f64) -> Vec<f64> {
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.2, 0.2, z, 0.4, 0.2, z, 0.2, 0.4, z]
    }

    /// A unit-stiffness law with δ = 0.01 m.
    fn test_law() -> ContactLaw {
        ContactLaw {
            kappa: 1.0,
            delta: 0.01,
            epsilon: 1e-3,
            smoothing: FrictionSmoothing::Quadratic,
            coupling: FrictionCoupling::Implicit,
        }
    }

    /// The self-contact term of `mesh` with `fixed` vertices, padding 0.1 m, gathered at `q`.
    fn term<'a>(mesh: &'a SelfContactMesh, fixed: &'a [bool], q: &'a [f64]) -> ContactTerm<SelfPairs<'a>> {
        let law = test_law();
        let stage = ContactStage {
            law,
            fixed,
            q_start: q,
            colliders: None,
            meshes: None,
            surfaces: None,
            self_contact: Some(SelfContactStage { mesh, law, solid: solid_law(law), padding: 0.1 }),
        };
        ContactTerm::new(SelfPairs::of(&stage).unwrap(), q, q)
    }

    /// Candidates stay while every vertex is within half the padding of the reference, and are
    /// gathered again (finding the pair that came within δ) once one moved further; pairs of
    /// pinned vertices only are left out.
    #[test]
    fn candidates_are_gathered_again_when_stale() {
        let mesh = SelfContactMesh::new(vec![[0, 1, 2], [3, 4, 5]], positions(0.0), 0.01).unwrap();
        let free = [false; 6];
        let start = positions(0.5);
        let mut terms = term(&mesh, &free, &start);
        assert!(terms.candidates().is_empty());
        // 0.04 m closer: within half the padding, nothing is gathered (and nothing can be in reach).
        terms.refresh(&positions(0.46));
        assert_eq!((terms.refreshes(), terms.candidates().len()), (0, 0));
        // Down to 5 mm: stale, gathered again; the top vertices now touch the lower triangle.
        let q = positions(0.005);
        let closest = terms.closest_shell_pair(&q).unwrap();
        assert_eq!(terms.refreshes(), 1);
        assert!((closest - 0.005).abs() < 1e-12, "{closest}");
        let active = terms.candidates().iter().filter(|p| p.distance(&gather::<12>(&p.vertices, &q)) < 0.01).count();
        assert!(active >= 3, "{active}");
        assert!(terms.candidates().iter().map(|p| p.energy(&gather::<12>(&p.vertices, &q))).sum::<f64>() > 0.0);
        let pinned = [true; 6];
        assert!(term(&mesh, &pinned, &q).candidates().is_empty());
    }

    /// A small triangle inside the first one's bounding box, in its plane beyond the hypotenuse
    /// x + y = 1: 0.42 m away it is culled (reach δ + padding = 0.11 m) though the boxes
    /// overlap; 0.028 m away its pairs are kept.
    #[test]
    fn pairs_beyond_reach_are_culled_though_their_boxes_overlap() {
        let beyond = |c: f64| {
            let mut q = positions(0.0);
            q[9..].copy_from_slice(&[c, c, 0.0, c + 0.1, c, 0.0, c, c + 0.1, 0.0]);
            q
        };
        let mesh = SelfContactMesh::new(vec![[0, 1, 2], [3, 4, 5]], beyond(0.8), 0.01).unwrap();
        let free = [false; 6];
        let far = beyond(0.8);
        assert!(term(&mesh, &free, &far).candidates().is_empty());
        let close = beyond(0.52);
        let near = term(&mesh, &free, &close);
        assert!(near.candidates().iter().any(|p| p.vertices[0] == 3), "{}", near.candidates().len());
    }
}
