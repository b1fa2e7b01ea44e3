//! Friction of the shells' self-contact pairs (paper Eq. 8, 16): its force, fully implicit
//! (Eq. 23) or lagged (Eq. 25), its Jacobian, and the frozen friction of the merit function.

use super::{stencil, SelfContactTerms};
use crate::contact::law::FrictionCoupling;
use crate::contact::pair::friction::FrozenPairFriction;
use crate::energy::gather;
use crate::math::real::Real;
use crate::solve::pattern::BlockPattern;
use rayon::prelude::*;

impl SelfContactTerms<'_> {
    pub(super) fn implicit(&self) -> bool {
        self.law.coupling != FrictionCoupling::Lagged
    }

    /// out −= scale · F(q, v) of the pairs' friction (paper Eq. 8, 16) over [`Real`]: fully
    /// implicit at end positions `q` (m) and velocities `v` in m/s (Eq. 23), or lagged (Eq. 25);
    /// candidates must be fresh for the values of `q`.
    pub fn add_friction<T: Real + Send + Sync>(&self, q: &[T], v: &[T], scale: f64, out: &mut [T]) {
        let local: Vec<Option<[T; 12]>> = if self.implicit() {
            self.pairs.par_iter().map(|p| p.friction(&stencil(&p.vertices, q), &stencil(&p.vertices, v))).collect()
        } else {
            self.lagged.par_iter().map(|l| Some(l.forces(&self.law, &stencil(&l.vertices, v)))).collect()
        };
        let vertices = |i: usize| if self.implicit() { self.pairs[i].vertices } else { self.lagged[i].vertices };
        for (i, f) in local.iter().enumerate() {
            let Some(f) = f else { continue };
            for (slot, &vertex) in vertices(i).iter().enumerate() {
                for k in 0..3 {
                    out[3 * vertex as usize + k] -= f[3 * slot + k] * scale;
                }
            }
        }
    }

    /// jac −= scale · dF/dv of the pairs' friction (paper Eq. 23's Jacobian; Eq. 25's when
    /// lagged) at `q`, `v` along q = q̂ + h v (exact, or with the sliding basis held when
    /// `definite`, as for surface contact) into `pattern`'s values, skipping fixed vertices;
    /// returns how many blocks were dropped because the pattern lacks them.
    pub fn add_friction_jacobian(
        &mut self,
        q: &[f64],
        v: &[f64],
        h: f64,
        scale: f64,
        pattern: &BlockPattern,
        jac: &mut [f64],
    ) -> u32 {
        self.ensure_fresh(q);
        let exact = !self.definite;
        let local: Vec<Option<([u32; 4], nalgebra::SMatrix<f64, 12, 12>)>> = if self.implicit() {
            self.pairs
                .par_iter()
                .map(|p| {
                    let (x, u) = (gather::<12>(&p.vertices, q), gather::<12>(&p.vertices, v));
                    p.friction_jacobian(&x, &u, h, exact).map(|m| (p.vertices, m))
                })
                .collect()
        } else {
            self.lagged.par_iter().map(|l| Some((l.vertices, l.jacobian(&self.law, &gather(&l.vertices, v))))).collect()
        };
        let mut dropped = 0;
        for (vertices, m) in local.iter().flatten() {
            dropped += pattern.add_stencil_matrix(vertices, |i, j| m[(i, j)], -scale, self.fixed, jac);
        }
        dropped
    }

    /// The friction frozen for the Newton merit function (λ, n, kᵢ of paper Eq. 16 held) at end
    /// positions `q`: the implicit coupling's frames at `q` (candidates gathered again first if
    /// needed), or the lagged ones.
    pub fn frozen_friction(&mut self, q: &[f64]) -> Vec<FrozenPairFriction> {
        if !self.implicit() {
            return self.lagged.clone();
        }
        self.ensure_fresh(q);
        let local: Vec<Option<FrozenPairFriction>> =
            self.pairs.par_iter().map(|p| FrozenPairFriction::new(p, &gather::<12>(&p.vertices, q))).collect();
        local.into_iter().flatten().collect()
    }

    /// h Σ D(v) in J of the friction frozen in `frozen` (paper Eq. 14–15 integrated): the
    /// self-contact friction part of the merit function.
    pub fn friction_potential(&self, v: &[f64], h: f64, frozen: &[FrozenPairFriction]) -> f64 {
        let local: Vec<f64> = frozen.par_iter().map(|f| f.potential(&self.law, &gather(&f.vertices, v))).collect();
        h * local.iter().sum::<f64>()
    }
}
