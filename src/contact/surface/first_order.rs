//! The MLS potential φ with its first derivatives over the stencil, written over [`Real`]: the
//! residual evaluates it in `f64`, and matrix-free Jacobian products evaluate it in forward-mode
//! dual numbers (Jacobian–vector products of every contact force, paper §4.3). Same formulas as
//! `potential` (see its module doc): ∇φ = Σᵢ [(gᵢ − φ)∇wᵢ + wᵢ∇gᵢ]/D, Wⱼ = Σ_{i ∋ j} wᵢ/(3S).

use super::kernel::Kernel;
use super::sample;
use super::surface::ImplicitSurface;
use crate::math::real::{c, Real, V3};

/// φ, ∇φ over the stencil and the surface-velocity weights, over a scalar type `T`.
#[derive(Clone, Debug)]
pub struct FirstOrder<T> {
    /// Global vertices: the query vertex, then the surface vertices.
    pub stencil: Vec<u32>,
    /// φ, in m.
    pub phi: T,
    /// ∂φ/∂(stencil positions), 3 per stencil vertex.
    pub gradient: Vec<T>,
    /// Wⱼ per stencil vertex (0 for the query vertex).
    pub vertex_weights: Vec<T>,
}

fn vertex<T: Real>(q: &[T], v: u32) -> V3<T> {
    let i = 3 * v as usize;
    [q[i], q[i + 1], q[i + 2]]
}

/// φ at query vertex `query` from the candidate samples, positions `q` (any [`Real`]); `None`
/// when no candidate's support contains the query point (tested on the values). `far`: the
/// background value φ₀ on the query's side in m (see `potential::evaluate`).
pub fn evaluate<T: Real>(
    surface: &ImplicitSurface,
    kernel: Kernel,
    query: u32,
    candidates: &[u32],
    q: &[T],
    far: f64,
) -> Option<FirstOrder<T>> {
    let x = vertex(q, query);
    let mut stencil = vec![query];
    // Per active sample: stencil blocks, w, ∇_y w (y = x − p), g, ∂g/∂(x, a, b, c).
    let mut active: Vec<([usize; 4], T, V3<T>, T, [T; 12])> = Vec::with_capacity(candidates.len());
    for &i in candidates {
        let i = i as usize;
        let tri = surface.triangles[i];
        let [a, b, cc] = tri.map(|v| vertex(q, v));
        if sample::is_degenerate(&a.map(|t| t.re()), &b.map(|t| t.re()), &cc.map(|t| t.re())) {
            continue;
        }
        let y = [0, 1, 2].map(|k| x[k] - (a[k] + b[k] + cc[k]) * (1.0 / 3.0));
        let Some((w, dw)) = kernel.weight_first(y, surface.radius[i]) else { continue };
        let mut z = [c::<T>(0.0); 12];
        for k in 0..3 {
            (z[k], z[3 + k], z[6 + k], z[9 + k]) = (x[k], a[k], b[k], cc[k]);
        }
        let dg = sample::plane_distance_gradient(&z);
        // g = n·(x − p) = ∂g/∂x · y.
        let g = dg[0] * y[0] + dg[1] * y[1] + dg[2] * y[2];
        let mut blocks = [0; 4];
        for (m, &v) in tri.iter().enumerate() {
            blocks[m + 1] = match stencil.iter().position(|&s| s == v) {
                Some(k) => k,
                None => {
                    stencil.push(v);
                    stencil.len() - 1
                }
            };
        }
        active.push((blocks, w, dw, g, dg));
    }
    if active.is_empty() {
        return None;
    }
    let w0 = kernel.background_weight();
    let sum = active.iter().fold(c::<T>(0.0), |acc, a| acc + a.1);
    let den = sum + w0;
    let phi = (active.iter().fold(c::<T>(0.0), |acc, a| acc + a.1 * a.3) + w0 * far) / den;
    let mut gradient = vec![c::<T>(0.0); 3 * stencil.len()];
    let mut vertex_weights = vec![c::<T>(0.0); stencil.len()];
    for (blocks, w, dw, g, dg) in &active {
        // ∂w/∂z = [∇_y w, −∇_y w/3, −∇_y w/3, −∇_y w/3] (y = x − (a + b + c)/3).
        let coef = (*g - phi) / den;
        for (m, &blk) in blocks.iter().enumerate() {
            let sign = if m == 0 { 1.0 } else { -1.0 / 3.0 };
            for k in 0..3 {
                gradient[3 * blk + k] += dw[k] * coef * sign + dg[3 * m + k] * (*w / den);
            }
        }
        for &blk in &blocks[1..] {
            vertex_weights[blk] += *w / (sum * 3.0);
        }
    }
    Some(FirstOrder { stencil, phi, gradient, vertex_weights })
}
