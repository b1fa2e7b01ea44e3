//! Self-contact of shells (issue 10) in the time-stepping residual and Jacobian: the cubic
//! penalty W_c = Σ b(d_i) of vertex–triangle and edge–edge pairs (paper §3.2, Eq. 3, applied
//! to the shells against themselves and each other; `crate::energy::self_contact`) as an
//! energy of q = q̂ + h v, so it adds h ∇W_c to the residual, h² ∇²W_c to the Jacobian and W_c
//! to the incremental potential (paper Eq. 23).
//!
//! Candidate pairs come from the broad phase (`self_contact::broad_phase`) at a reference
//! configuration with reach δ + padding; whenever an evaluation point has moved a vertex more
//! than half the padding from the reference, they are gathered again, so no pair entering the
//! δ band is ever missed and the residual is always the exact one (the rule of `surface_terms`).
//! The Jacobian pattern covers the pairs gathered at the start of the substep; blocks of pairs
//! found later and missing from it are dropped (and counted). Pairs are evaluated in parallel
//! and summed serially in pair order (thread-count independent).

use super::element_terms as terms;
use crate::contact::ContactLaw;
use crate::energy::autodiff::project_psd;
use crate::energy::real::Real;
use crate::energy::self_contact::filter::ExclusionFilter;
use crate::energy::self_contact::{broad_phase, elements, SelfContactPair};
use crate::energy::{gather, Element};
use crate::solve::pattern::BlockPattern;
use rayon::prelude::*;
use std::time::Instant;

/// The triangles that take part in self-contact and their exclusion topology, built once per
/// call from the model's shells.
#[derive(Clone, Debug)]
pub struct SelfContactMesh {
    /// Shell triangles, global vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// Topological neighbours excluded from contact.
    pub filter: ExclusionFilter,
    /// Rest positions (flat, 3 per vertex) [m]: the edge–edge mollifier thresholds.
    pub rest: Vec<f64>,
    /// Vertices of `triangles`, sorted.
    pub vertices: Vec<u32>,
}

impl SelfContactMesh {
    /// The mesh of `triangles` (global indices) over `rest` (3 per vertex) [m]; `None` without
    /// triangles.
    pub fn new(triangles: Vec<[u32; 3]>, rest: Vec<f64>) -> Option<Self> {
        if triangles.is_empty() {
            return None;
        }
        let filter = ExclusionFilter::new(rest.len() / 3, &triangles);
        let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        Some(Self { triangles, filter, rest, vertices })
    }
}

/// The self-contact pairs of one substep.
pub struct SelfContactTerms<'a> {
    mesh: &'a SelfContactMesh,
    law: ContactLaw,
    fixed: &'a [bool],
    padding: f64,
    /// Positions the candidates were gathered at.
    reference: Vec<f64>,
    pairs: Vec<SelfContactPair>,
    /// Pair Hessians are projected onto the PSD cone in the Jacobian.
    pub definite: bool,
    /// How many times the candidates were gathered again within the substep.
    pub refreshes: u32,
    /// Seconds spent in the broad phase.
    pub seconds_search: f64,
}

impl<'a> SelfContactTerms<'a> {
    /// Candidates around `q_guess` with reach δ + `padding` [m] (`law.delta` is the thickness δ,
    /// `law.kappa` the stiffness κ); pairs whose four vertices are all `fixed` are left out.
    pub fn new(mesh: &'a SelfContactMesh, law: ContactLaw, fixed: &'a [bool], q_guess: &[f64], padding: f64) -> Self {
        let mut terms = Self {
            mesh,
            law,
            fixed,
            padding,
            reference: Vec::new(),
            pairs: Vec::new(),
            definite: false,
            refreshes: 0,
            seconds_search: 0.0,
        };
        terms.gather(q_guess);
        terms
    }

    fn gather(&mut self, q: &[f64]) {
        let started = Instant::now();
        self.reference = q.to_vec();
        let m = self.mesh;
        let (vt, ee) = broad_phase::candidates(&m.filter, &m.triangles, q, self.law.delta + self.padding);
        let mut pairs = elements(self.law, &m.rest, &vt, &ee);
        pairs.retain(|p| p.vertices.iter().any(|&v| !self.fixed[v as usize]));
        self.pairs = pairs;
        self.seconds_search += started.elapsed().as_secs_f64();
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

    /// The candidate pairs (fresh for the last `ensure_fresh` point).
    pub fn pairs(&self) -> &[SelfContactPair] {
        &self.pairs
    }

    /// The stencils whose blocks the Jacobian may couple: the four vertices of every pair.
    pub fn stencils(&self) -> Vec<Vec<u32>> {
        self.pairs.iter().map(|p| p.vertices.to_vec()).collect()
    }

    /// out += scale · ∇W_c(q) over [`Real`] (`f64` for the residual, dual numbers for
    /// matrix-free products); candidates must be fresh for the values of `q`.
    pub fn add_gradient<T: Real + Send + Sync>(&self, q: &[T], scale: f64, out: &mut [T]) {
        terms::add_gradient(&self.pairs, q, scale, out);
    }

    /// W_c(q) = Σ b(d_i) [J] (gathering again first if `q` needs it).
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

    /// The smallest pair distance [m] at `q` (∞ without candidates) and how many pairs are
    /// within δ.
    pub fn distance_summary(&mut self, q: &[f64]) -> (f64, u32) {
        self.ensure_fresh(q);
        let d: Vec<f64> = self.pairs.par_iter().map(|p| p.distance(&gather::<12>(&p.vertices, q))).collect();
        (d.iter().copied().fold(f64::INFINITY, f64::min), d.iter().filter(|&&x| x < self.law.delta).count() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles, the second `z` [m] above the first's interior.
    fn positions(z: f64) -> Vec<f64> {
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.2, 0.2, z, 0.4, 0.2, z, 0.2, 0.4, z]
    }

    /// Candidates stay while every vertex is within half the padding of the reference, and are
    /// gathered again (finding the pair that came within δ) once one moved further; pairs of
    /// pinned vertices only are left out.
    #[test]
    fn candidates_are_gathered_again_when_stale() {
        let mesh = SelfContactMesh::new(vec![[0, 1, 2], [3, 4, 5]], positions(0.0)).unwrap();
        let law = ContactLaw { kappa: 1.0, delta: 0.01, epsilon: 1e-3, smoothing: 0, coupling: 0 };
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
}
