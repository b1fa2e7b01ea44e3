//! Self-contact of shells in the time-stepping residual and Jacobian: the cubic
//! penalty W_c = Σ b(d_i) of vertex–triangle and edge–edge pairs (paper §3.2, Eq. 3, applied
//! to the shells against themselves and each other, and against the solids' boundary faces
//! with a signed gap, `super::shell_solid`; `crate::contact::self_contact`) as an
//! energy of q = q̂ + h v, so it adds h ∇W_c to the residual, h² ∇²W_c to the Jacobian and W_c
//! to the incremental potential (paper Eq. 23).
//!
//! Candidate pairs come from the broad phase (`self_contact::broad_phase`) at a reference
//! configuration with reach δ + padding, kept only if their exact distance is within that
//! reach; whenever an evaluation point has moved a vertex more than half the padding from the
//! reference, they are gathered again, so no pair entering the δ band is ever missed and the
//! residual is always the exact one (the rule of `surface_terms`). (A shell–solid pair
//! crossed deeper than the reach is not gathered again, though its signed energy is not zero:
//! the residual then loses it.)
//! The Jacobian pattern covers the pairs gathered at the start of the substep; blocks of pairs
//! found later and missing from it are dropped (and counted). Pairs are evaluated in parallel
//! and summed serially in pair order (thread-count independent).
//!
//! Friction of the pairs (paper §3.3, Eq. 8, 16; `self_contact::friction`) adds −h F(q, v) to
//! the residual and −h dF/dv to the Jacobian, with the sliding basis, normal force and weights
//! at the end of the step (fully implicit, Eq. 23) or frozen at the substep start (lagged,
//! Eq. 25, `law.coupling`); the merit function takes h Σ D(v) with them frozen at its point.

use super::element_terms as terms;
use super::term::{StageContext, Term};
use crate::contact::law::FrictionCoupling;
pub use crate::contact::self_contact::contact_mesh::SelfContactMesh;
use crate::contact::self_contact::filter::{ee_distance, vt_distance};
use crate::contact::pair::friction::FrozenPairFriction;
use crate::contact::self_contact::shell_solid::{solid_law, vertex_normals, Sides, SOLID_THICKNESS_FRACTION};
use crate::contact::pair::SolidSide;
use crate::contact::pair::PrimitivePair;
use crate::contact::self_contact::broad_phase;
use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::autodiff::project_psd;
use crate::math::real::Real;
use crate::solve::pattern::BlockPattern;
use rayon::prelude::*;
use std::time::Instant;

mod friction;

/// The self-contact pairs of one substep.
pub struct SelfContactTerms<'a> {
    mesh: &'a SelfContactMesh,
    law: ContactLaw,
    /// Law of the shell–solid pairs (`super::shell_solid`).
    solid: ContactLaw,
    fixed: &'a [bool],
    padding: f64,
    /// Positions the candidates were gathered at.
    reference: Vec<f64>,
    pairs: Vec<PrimitivePair>,
    /// Friction frozen at the substep start (lagged coupling only).
    lagged: Vec<FrozenPairFriction>,
    /// Pair Hessians are projected onto the PSD cone in the Jacobian.
    pub definite: bool,
    /// Friction frozen by the last [`Term::freeze_friction`].
    frozen: Vec<FrozenPairFriction>,
    /// How many times the candidates were gathered again within the substep.
    pub refreshes: u32,
    /// Seconds spent in the broad phase.
    pub seconds_search: f64,
}

impl<'a> SelfContactTerms<'a> {
    /// Candidates around `q_guess` with reach δ + `padding` in m (`law.delta` is the thickness δ,
    /// `law.kappa` the stiffness κ); pairs whose four vertices are all `fixed` are left out.
    /// With a thickness table in `mesh` ([`SelfContactMesh::pair_delta`]), each pair's δ is
    /// the table's for its two objects instead, and the reach is the table's largest δ plus
    /// `padding`.
    pub fn new(mesh: &'a SelfContactMesh, law: ContactLaw, fixed: &'a [bool], q_guess: &[f64], padding: f64) -> Self {
        Self::with_laws(mesh, law, solid_law(law), fixed, q_guess, padding)
    }

    /// As [`Self::new`], the shell–solid pairs with the law `solid` (δ_b and the κ_b in use,
    /// `super::shell_solid`) instead of the one derived from `law`.
    pub fn with_laws(
        mesh: &'a SelfContactMesh,
        law: ContactLaw,
        solid: ContactLaw,
        fixed: &'a [bool],
        q_guess: &[f64],
        padding: f64,
    ) -> Self {
        let mut terms = Self {
            mesh,
            law,
            solid,
            fixed,
            padding,
            reference: Vec::new(),
            pairs: Vec::new(),
            lagged: Vec::new(),
            definite: false,
            frozen: Vec::new(),
            refreshes: 0,
            seconds_search: 0.0,
        };
        terms.gather(q_guess);
        terms
    }

    fn gather(&mut self, q: &[f64]) {
        let started = Instant::now();
        self.reference = q.to_vec();
        let reach = self.max_delta() + self.padding;
        self.pairs = self.pairs_within(q, reach);
        self.seconds_search += started.elapsed().as_secs_f64();
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
    /// outward side and with the thinner law of `super::shell_solid`, solid–solid ones dropped.
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

    /// The substep's start positions `q_start` (m): with lagged coupling (paper Eq. 25) the
    /// friction of the pairs within δ there is frozen for the substep; no effect otherwise.
    pub fn with_start(mut self, q_start: &[f64]) -> Self {
        if self.law.coupling == FrictionCoupling::Lagged && self.mesh.mu.iter().any(|&mu| mu > 0.0) {
            let started = Instant::now();
            let pairs = self.pairs_within(q_start, self.max_delta());
            self.lagged = pairs
                .par_iter()
                .filter_map(|p| FrozenPairFriction::new(p, &gather::<12>(&p.vertices, q_start)))
                .collect();
            self.seconds_search += started.elapsed().as_secs_f64();
        }
        self
    }

    /// Gathers the candidates again when a vertex of `q` is more than half the padding from the
    /// reference.
    pub fn ensure_fresh(&mut self, q: &[f64]) {
        let limit = 0.25 * self.padding * self.padding;
        let stale = self.mesh.vertices.iter().any(|&v| {
            let i = 3 * v as usize;
            (0..3).map(|k| (q[i + k] - self.reference[i + k]).powi(2)).sum::<f64>() > limit
        });
        if stale {
            self.refreshes += 1;
            self.gather(q);
        }
    }

    /// The shells' intersecting triangle pairs at `q` (m) that self-contact acts on
    /// ([`SelfContactMesh::intersections`]).
    pub fn intersections(&self, q: &[f64]) -> usize {
        self.mesh.intersections(q)
    }

    /// The candidate pairs (fresh for the last `ensure_fresh` point).
    pub fn pairs(&self) -> &[PrimitivePair] {
        &self.pairs
    }

    /// The stencils whose blocks the Jacobian may couple: the four vertices of every pair and of
    /// every lagged friction.
    pub fn stencils(&self) -> Vec<Vec<u32>> {
        self.pairs.iter().map(|p| p.vertices.to_vec()).chain(self.lagged.iter().map(|l| l.vertices.to_vec())).collect()
    }

    /// out += scale · ∇W_c(q) over [`Real`] (`f64` for the residual, dual numbers for
    /// matrix-free products); candidates must be fresh for the values of `q`.
    pub fn add_gradient<T: Real + Send + Sync>(&self, q: &[T], scale: f64, out: &mut [T]) {
        terms::add_gradient(&self.pairs, q, scale, out);
    }

    /// W_c(q) = Σ b(d_i) in J (gathering again first if `q` needs it).
    pub fn energy(&mut self, q: &[f64]) -> f64 {
        self.ensure_fresh(q);
        terms::energy(&self.pairs, q)
    }

    /// jac += scale · ∇²W_c(q) (pairs within δ; PSD-projected when `definite`) into `pattern`'s
    /// values, skipping fixed vertices; returns how many blocks were dropped because the pattern
    /// lacks them.
    pub fn add_hessian(&mut self, q: &[f64], scale: f64, pattern: &BlockPattern, jac: &mut [f64]) -> u32 {
        self.ensure_fresh(q);
        let definite = self.definite;
        let local: Vec<Option<nalgebra::SMatrix<f64, 12, 12>>> = self
            .pairs
            .par_iter()
            .map(|p| {
                let x = gather::<12>(&p.vertices, q);
                (p.distance(&x) < p.law.delta).then(|| {
                    let h = p.hessian(&x);
                    if definite {
                        project_psd(&h)
                    } else {
                        h
                    }
                })
            })
            .collect();
        let mut dropped = 0;
        for (p, m) in self.pairs.iter().zip(&local) {
            if let Some(m) = m {
                dropped += pattern.add_stencil_matrix(&p.vertices, |i, j| m[(i, j)], scale, self.fixed, jac);
            }
        }
        dropped
    }

    /// The smallest distance (m) of a pair of shells at `q` (∞ without one; the unsigned
    /// distance's kink at 0 is what the touching retry is for, and shell–solid gaps have none)
    /// and how many pairs are within their thickness.
    pub fn distance_summary(&mut self, q: &[f64]) -> (f64, u32) {
        self.ensure_fresh(q);
        let d: Vec<f64> = self.pairs.par_iter().map(|p| p.distance(&gather::<12>(&p.vertices, q))).collect();
        let shells = self.pairs.iter().zip(&d).filter(|(p, _)| p.outward.is_none());
        let active = self.pairs.iter().zip(&d).filter(|(p, &x)| x < p.law.delta).count() as u32;
        (shells.map(|(_, &x)| x).fold(f64::INFINITY, f64::min), active)
    }
}

/// The stencil's coordinates from a flat array of any [`Real`].
fn stencil<T: Real>(vertices: &[u32; 4], q: &[T]) -> [T; 12] {
    std::array::from_fn(|i| q[3 * vertices[i / 3] as usize + i % 3])
}

/// Self-contact of the shells as a stage term: −f = ∇W_c − F_f (paper §3.2, Eq. 3, 16), merit
/// W_c + h Σ D_f with friction frozen by [`Term::freeze_friction`], Jacobian h² ∇²W_c − h ∂F_f/∂v.
impl Term for SelfContactTerms<'_> {
    fn refresh(&mut self, q: &[f64]) {
        self.ensure_fresh(q);
    }

    fn add_negative_force<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        self.add_gradient(q, scale, out);
        self.add_friction(q, v, scale, out);
    }

    fn merit(&mut self, stage: &StageContext, q: &[f64], v: &[f64]) -> f64 {
        self.energy(q) + self.friction_potential(v, stage.h, &self.frozen)
    }

    fn freeze_friction(&mut self, q: &[f64]) {
        self.frozen = self.frozen_friction(q);
    }

    fn set_definite(&mut self, definite: bool) {
        self.definite = definite;
    }

    fn add_jacobian(&mut self, stage: &StageContext, q: &[f64], v: &[f64], jac: &mut [f64]) -> u32 {
        let (h, pattern) = (stage.h, &stage.layout.pattern);
        self.add_hessian(q, h * h, pattern, jac) + self.add_friction_jacobian(q, v, h, h, pattern, jac)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::law::FrictionSmoothing;

    /// Two triangles, the second `z` (m) above the first's interior.
    fn positions(z: f64) -> Vec<f64> {
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.2, 0.2, z, 0.4, 0.2, z, 0.2, 0.4, z]
    }

    /// Candidates stay while every vertex is within half the padding of the reference, and are
    /// gathered again (finding the pair that came within δ) once one moved further; pairs of
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

    /// pinned vertices only are left out.
    #[test]
    fn candidates_are_gathered_again_when_stale() {
        let mesh = SelfContactMesh::new(vec![[0, 1, 2], [3, 4, 5]], positions(0.0), 0.01).unwrap();
        let law = test_law();
        let free = [false; 6];
        let mut terms = SelfContactTerms::new(&mesh, law, &free, &positions(0.5), 0.1);
        assert!(terms.pairs().is_empty());
        // 0.04 m closer: within half the padding, nothing is gathered (and nothing can be in reach).
        terms.ensure_fresh(&positions(0.46));
        assert_eq!((terms.refreshes, terms.pairs().len()), (0, 0));
        // Down to 5 mm: stale, gathered again; the top vertices now touch the lower triangle.
        let q = positions(0.005);
        terms.ensure_fresh(&q);
        assert_eq!(terms.refreshes, 1);
        let (closest, active) = terms.distance_summary(&q);
        assert!((closest - 0.005).abs() < 1e-12 && active >= 3, "{closest} {active}");
        assert!(terms.energy(&q) > 0.0);
        let pinned = [true; 6];
        assert!(SelfContactTerms::new(&mesh, law, &pinned, &q, 0.1).pairs().is_empty());
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
        let law = test_law();
        let free = [false; 6];
        assert!(SelfContactTerms::new(&mesh, law, &free, &beyond(0.8), 0.1).pairs().is_empty());
        let near = SelfContactTerms::new(&mesh, law, &free, &beyond(0.52), 0.1);
        assert!(near.pairs().iter().any(|p| p.vertices[0] == 3), "{}", near.pairs().len());
    }
}
