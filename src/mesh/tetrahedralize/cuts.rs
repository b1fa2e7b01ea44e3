//! Cut points and warping (Labelle & Shewchuk 2007, §2).
//!
//! A lattice edge whose ends have opposite signs is *cut* where the implicit function crosses
//! zero; the crossing is found by bracketing on the true function (Illinois false position with
//! bisection fallback), not by linear interpolation. A lattice vertex is *violated* when a cut
//! point on one of its edges lies closer to it than α times that edge's length (α_long on the long
//! edges, α_short on the short ones). Violated vertices are *warped*: moved onto their closest
//! violating cut point and given the value 0, which deletes the cut points on their other edges.
//! Inside (−) vertices are warped first, then outside (+) vertices against the cut points that
//! remain, so the result does not depend on any visiting order, and afterwards every remaining
//! cut point is at least α·length away from both ends of its edge.

use super::lattice::Lattice;
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;

/// α_long: warp threshold on the long lattice edges, as a fraction of their length (paper's value
/// for the [10.7°, 164.8°] dihedral-angle bound).
///
/// cbindgen:ignore
pub const ALPHA_LONG: f64 = 0.24999;
/// α_short: warp threshold on the short lattice edges, as a fraction of their length.
///
/// cbindgen:ignore
pub const ALPHA_SHORT: f64 = 0.41189;

/// Bracket width (as a fraction of the edge) at which root finding stops.
const ROOT_TOLERANCE: f64 = 1e-12;
/// Most function evaluations per cut point (bisection alone needs 40 for `ROOT_TOLERANCE`).
const ROOT_MAX_STEPS: usize = 100;

/// The cut lattice edges, sorted by (first, second) vertex with first < second.
pub(super) struct Cuts {
    /// Cut edges as (u, v), u < v, sorted.
    pub edges: Vec<(u32, u32)>,
    /// Where each edge is cut: `position(u) + t·(position(v) − position(u))` (m).
    pub positions: Vec<[f64; 3]>,
    /// The parameter t ∈ (0, 1) of each cut, measured from u.
    pub params: Vec<f64>,
}

impl Cuts {
    /// Index of the cut on edge {u, v}, if that edge is cut.
    pub fn find(&self, u: u32, v: u32) -> Option<usize> {
        self.edges.binary_search(&(u.min(v), u.max(v))).ok()
    }
}

/// `a + t(b − a)`.
fn lerp(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    std::array::from_fn(|k| a[k] + t * (b[k] - a[k]))
}

/// The parameter t ∈ (0, 1) where `f(a + t(b − a))` crosses zero, given `fa = f(a)` and
/// `fb = f(b)` of opposite signs. Illinois false position: the secant root of the bracket, with
/// the value at an end that survives twice in a row halved; a bisection step whenever two steps
/// in a row failed to halve the bracket.
fn crossing(f: &(dyn Fn([f64; 3]) -> f64 + Sync), a: [f64; 3], b: [f64; 3], fa: f64, fb: f64) -> Result<f64> {
    let (mut t0, mut f0, mut t1, mut f1) = (0.0, fa, 1.0, fb);
    let (mut kept, mut slow) = (0i8, 0u8);
    for _ in 0..ROOT_MAX_STEPS {
        let width = t1 - t0;
        if width <= ROOT_TOLERANCE {
            break;
        }
        let secant = (t0 * f1 - t1 * f0) / (f1 - f0);
        let t = if slow >= 2 || !(secant > t0 && secant < t1) { 0.5 * (t0 + t1) } else { secant };
        if slow >= 2 {
            slow = 0;
        }
        let p = lerp(a, b, t);
        let ft = f(p);
        if ft.is_nan() {
            return Err(Error::invalid(format!("the implicit function returned NaN at {p:?}")));
        }
        if ft == 0.0 {
            return Ok(t);
        }
        if (ft < 0.0) == (f0 < 0.0) {
            (t0, f0) = (t, ft);
            if kept == 1 {
                f1 *= 0.5;
            }
            kept = 1;
        } else {
            (t1, f1) = (t, ft);
            if kept == -1 {
                f0 *= 0.5;
            }
            kept = -1;
        }
        slow = if t1 - t0 > 0.5 * width { slow + 1 } else { 0 };
    }
    let secant = (t0 * f1 - t1 * f0) / (f1 - f0);
    Ok(if secant >= t0 && secant <= t1 { secant } else { 0.5 * (t0 + t1) })
}

/// Finds the cut point of every lattice edge of `tets` whose ends have opposite `signs`
/// (values `values` of `f` at the lattice vertices). Runs in parallel; the result does not
/// depend on the thread count.
pub(super) fn cut_edges(
    f: &(dyn Fn([f64; 3]) -> f64 + Sync),
    lattice: &Lattice,
    values: &[f64],
    signs: &[i8],
    tets: &[[u32; 4]],
) -> Result<Cuts> {
    let mut edges: Vec<(u32, u32)> = tets
        .par_iter()
        .flat_map_iter(|t| {
            const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
            PAIRS.iter().filter_map(move |&(i, j)| {
                let (u, v) = (t[i], t[j]);
                (signs[u as usize] * signs[v as usize] < 0).then_some((u.min(v), u.max(v)))
            })
        })
        .collect();
    edges.par_sort_unstable();
    edges.dedup();
    let found: Vec<Result<f64>> = edges
        .par_iter()
        .map(|&(u, v)| crossing(f, lattice.position(u), lattice.position(v), values[u as usize], values[v as usize]))
        .collect();
    let params = found.into_iter().collect::<Result<Vec<f64>>>()?;
    let positions =
        edges.iter().zip(&params).map(|(&(u, v), &t)| lerp(lattice.position(u), lattice.position(v), t)).collect();
    Ok(Cuts { edges, positions, params })
}

/// No warp target.
pub(super) const NOT_WARPED: u32 = u32::MAX;

/// Warps the violated lattice vertices: first the inside (−) ones, then the outside (+) ones
/// that are still violated by a cut point whose inside end stayed put. Returns, for each
/// lattice vertex, the index of the cut point it moved onto, or [`NOT_WARPED`]. Warped vertices
/// count as 0 from then on.
///
/// Inside first is what keeps the dihedral angles within the paper's bounds: warping the
/// outside vertices first can leave a whole lattice tet with three warped corners (measured down
/// to 9.6°), which the inside-first order avoids.
pub(super) fn warp(lattice: &Lattice, signs: &[i8], cuts: &Cuts) -> Vec<u32> {
    let mut target = vec![NOT_WARPED; signs.len()];
    for (w, e) in violations(lattice, signs, cuts, -1, |_| true) {
        target[w as usize] = e;
    }
    // A cut survives the first pass if its inside end was not warped.
    let survives = |e: usize| {
        let (u, v) = cuts.edges[e];
        let inside = if signs[u as usize] < 0 { u } else { v };
        target[inside as usize] == NOT_WARPED
    };
    let outside = violations(lattice, signs, cuts, 1, survives);
    for (w, e) in outside {
        target[w as usize] = e;
    }
    target
}

/// The vertices of sign `sign` violated by a cut point `e` with `usable(e)`, each with its
/// closest violating cut point (by distance in m; ties to the lower cut index).
fn violations(
    lattice: &Lattice,
    signs: &[i8],
    cuts: &Cuts,
    sign: i8,
    usable: impl Fn(usize) -> bool,
) -> Vec<(u32, u32)> {
    let half_sqrt3 = 0.5 * 3f64.sqrt();
    let mut best: HashMap<u32, (f64, usize)> = HashMap::new();
    for (e, &(u, v)) in cuts.edges.iter().enumerate() {
        if !usable(e) {
            continue;
        }
        let (alpha, length) = if lattice.is_long(u, v) { (ALPHA_LONG, 1.0) } else { (ALPHA_SHORT, half_sqrt3) };
        let t = cuts.params[e];
        for (w, fraction) in [(u, t), (v, 1.0 - t)] {
            if signs[w as usize] == sign && fraction < alpha {
                let candidate = (fraction * length * lattice.spacing, e);
                let entry = best.entry(w).or_insert(candidate);
                if candidate.0 < entry.0 || (candidate.0 == entry.0 && candidate.1 < entry.1) {
                    *entry = candidate;
                }
            }
        }
    }
    best.into_iter().map(|(w, (_, e))| (w, e as u32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_finds_roots_of_linear_and_curved_functions() {
        let (a, b) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        let linear = |p: [f64; 3]| p[0] - 0.3;
        let t = crossing(&linear, a, b, -0.3, 0.7).unwrap();
        assert!((t - 0.3).abs() < 1e-12, "{t}");
        let sphere = |p: [f64; 3]| (p[0] * p[0] + 0.04).sqrt() - 0.5; // zero at x = √0.21
        let t = crossing(&sphere, a, b, sphere(a), sphere(b)).unwrap();
        assert!((t - 0.21f64.sqrt()).abs() < 1e-11, "{t}");
        let steep = |p: [f64; 3]| (p[0] - 0.9).powi(9);
        let t = crossing(&steep, a, b, steep(a), steep(b)).unwrap();
        assert!((t - 0.9).abs() < 1e-3, "{t}");
        let nan = |p: [f64; 3]| if p[0] > 0.4 { f64::NAN } else { p[0] - 0.5 };
        assert!(crossing(&nan, a, b, -0.5, 0.5).unwrap_err().message().contains("NaN"));
    }
}
