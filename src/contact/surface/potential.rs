//! The MLS potential of an implicit surface at a query vertex (paper §3.2; Larionov et al. 2021):
//! φ(x) = (Σᵢ wᵢ gᵢ + w₀ φ₀) / (Σᵢ wᵢ + w₀) over the samples whose kernel support contains x,
//! with wᵢ = w(|x − pᵢ|; rᵢ) and gᵢ = nᵢ·(x − pᵢ), plus a constant far-field background sample
//! (weight w₀ = `Kernel::background_weight`, gap φ₀ = `ImplicitSurface::far`): without it φ
//! jumps from "no contact" to the nearest plane where a query enters the first support, at the
//! open edge of a shell, and the contact force with it; with it φ blends to φ₀ there. Inside the
//! surface's coverage w₀ is negligible (it shifts φ by w₀(φ₀ − φ)/D, well below a micrometre).
//! Derivatives are exact in the query point and every vertex of the samples involved (the
//! stencil). With N = Σ wᵢgᵢ + w₀φ₀ and D = Σ wᵢ + w₀ (w₀, φ₀ constant):
//! ∇φ = Σᵢ [(gᵢ − φ)∇wᵢ + wᵢ∇gᵢ]/D,
//! ∇²φ = (Σᵢ [(gᵢ − φ)∇²wᵢ + wᵢ∇²gᵢ + ∇wᵢ∇gᵢᵀ + ∇gᵢ∇wᵢᵀ] − ∇φ∇Dᵀ − ∇D∇φᵀ)/D.
//! It also gives the weight Wⱼ = Σ_{i ∋ j} wᵢ/(3S), S = Σᵢ wᵢ, of each surface vertex j in the
//! velocity of the surface point under the query, Σⱼ Wⱼ vⱼ (each sample moves with its
//! centroid), and ∇Wⱼ = (Σ_{i ∋ j} ∇wᵢ/3 − Wⱼ∇S)/S.

use super::kernel::Kernel;
use super::sample::{self, Grad12, Hess12};
use super::surface::ImplicitSurface;
use nalgebra::{DMatrix, DVector};

/// φ and its derivatives over a stencil.
#[derive(Clone, Debug)]
pub struct Potential {
    /// Global vertices: `stencil[0]` is the query vertex, then the surface vertices.
    pub stencil: Vec<u32>,
    /// φ, in m.
    pub phi: f64,
    /// ∂φ/∂(stencil positions), 3 per stencil vertex.
    pub gradient: DVector<f64>,
    /// Wⱼ per stencil vertex (0 for the query vertex); they sum to 1.
    pub vertex_weights: Vec<f64>,
    /// Second derivatives, when asked for.
    pub second: Option<PotentialSecond>,
}

/// Second-order part of a [`Potential`].
#[derive(Clone, Debug)]
pub struct PotentialSecond {
    /// ∂²φ/∂(stencil positions)², in 1/m.
    pub hessian: DMatrix<f64>,
    /// Row j: ∂Wⱼ/∂(stencil positions), in 1/m.
    pub vertex_weight_gradients: DMatrix<f64>,
}

/// One active sample: its index, its stencil blocks (query, a, b, c) and first-order terms.
struct Active {
    sample: usize,
    blocks: [usize; 4],
    first: sample::SampleFirst,
}

/// φ alone at point `x` in m (`None` when no candidate sample's support contains x); `far` is
/// the background sample's value φ₀ in m (see [`evaluate`]).
pub fn value(
    surface: &ImplicitSurface,
    kernel: Kernel,
    x: &[f64; 3],
    candidates: &[u32],
    q: &[f64],
    far: f64,
) -> Option<f64> {
    let w0 = kernel.background_weight();
    let (mut num, mut den, mut any) = (w0 * far, w0, false);
    for &i in candidates {
        let i = i as usize;
        let z = surface.local(i, x, q);
        if sample::is_degenerate(&[z[3], z[4], z[5]], &[z[6], z[7], z[8]], &[z[9], z[10], z[11]]) {
            continue;
        }
        let p = surface.centroid(i, q);
        let y = nalgebra::Vector3::new(x[0] - p[0], x[1] - p[1], x[2] - p[2]);
        let w = kernel.value(&y, surface.radius[i]);
        if w > 0.0 {
            num += w * sample::plane_distance(&z);
            den += w;
            any = true;
        }
    }
    any.then(|| num / den)
}

/// φ at query vertex `query` with first derivatives (and second ones when `second`), from the
/// candidate samples; `None` when no candidate's support contains the query point. `far` is the
/// background sample's value φ₀ in m: `surface.far` seen from the query's side, i.e. −far for a
/// query on the negative side of a two-sided (shell) surface, so that beyond an open edge the
/// gap d = side·φ + offset blends to +far (no contact) on both sides.
pub fn evaluate(
    surface: &ImplicitSurface,
    kernel: Kernel,
    query: u32,
    candidates: &[u32],
    q: &[f64],
    far: f64,
    second: bool,
) -> Option<Potential> {
    evaluate_where(surface, kernel, query, candidates, q, far, |_| second)
}

/// [`evaluate`] with second derivatives only when `second(φ)` holds (a contact law asks for
/// them only where the gap is inside its band: most candidates are not, and the second
/// derivatives are most of the cost).
pub fn evaluate_where(
    surface: &ImplicitSurface,
    kernel: Kernel,
    query: u32,
    candidates: &[u32],
    q: &[f64],
    far: f64,
    second: impl Fn(f64) -> bool,
) -> Option<Potential> {
    let qi = 3 * query as usize;
    let x = [q[qi], q[qi + 1], q[qi + 2]];
    let mut stencil = vec![query];
    let mut active = Vec::with_capacity(candidates.len());
    for &i in candidates {
        let i = i as usize;
        let z = surface.local(i, &x, q);
        let Some(first) = sample::first_order(kernel, surface.radius[i], &z) else { continue };
        let mut blocks = [0; 4];
        for (m, &v) in surface.triangles[i].iter().enumerate() {
            blocks[m + 1] = match stencil.iter().position(|&s| s == v) {
                Some(k) => k,
                None => {
                    stencil.push(v);
                    stencil.len() - 1
                }
            };
        }
        active.push(Active { sample: i, blocks, first });
    }
    if active.is_empty() {
        return None;
    }
    let dim = 3 * stencil.len();
    let w0 = kernel.background_weight();
    let sum: f64 = active.iter().map(|a| a.first.w).sum();
    let den = sum + w0;
    let phi = (active.iter().map(|a| a.first.w * a.first.g).sum::<f64>() + w0 * far) / den;
    let mut gradient = DVector::zeros(dim);
    let mut vertex_weights = vec![0.0; stencil.len()];
    for a in &active {
        let f = &a.first;
        scatter_vector(&mut gradient, &a.blocks, &(f.dw * ((f.g - phi) / den) + f.dg * (f.w / den)));
        for &b in &a.blocks[1..] {
            vertex_weights[b] += f.w / (3.0 * sum);
        }
    }
    let second = second(phi).then(|| {
        let local = Local { surface, kernel, x: &x, q };
        second_derivatives(&local, &active, stencil.len(), phi, (den, sum), &gradient, &vertex_weights)
    });
    Some(Potential { stencil, phi, gradient, vertex_weights, second })
}

/// Where the samples' local coordinates come from (for their second derivatives).
struct Local<'a> {
    surface: &'a ImplicitSurface,
    kernel: Kernel,
    x: &'a [f64; 3],
    q: &'a [f64],
}

/// ∇²φ and ∇Wⱼ (see the module formulas); `(den, sum)` = (D, S). Each sample's 12 × 12 second
/// derivatives are computed here, once φ is known, and summed straight into ∇²φ.
fn second_derivatives(
    local: &Local,
    active: &[Active],
    vertices: usize,
    phi: f64,
    (den, sum): (f64, f64),
    gradient: &DVector<f64>,
    vertex_weights: &[f64],
) -> PotentialSecond {
    let dim = 3 * vertices;
    let mut hessian = DMatrix::zeros(dim, dim);
    let mut grad_den = DVector::zeros(dim);
    for a in active {
        let f = &a.first;
        let z = local.surface.local(a.sample, local.x, local.q);
        let (ddw, ddg) = sample::hessians(local.kernel, local.surface.radius[a.sample], &z)
            .expect("a sample with first-order terms has second-order ones");
        let term = ddw * ((f.g - phi) / den) + ddg * (f.w / den) + (f.dw * f.dg.transpose()) / den;
        scatter_matrix(&mut hessian, &a.blocks, &(term + (f.dg * f.dw.transpose()) / den));
        scatter_vector(&mut grad_den, &a.blocks, &f.dw);
    }
    // − (∇φ∇Dᵀ + ∇D∇φᵀ)/D as two rank-one updates in place.
    hessian.ger(-1.0 / den, gradient, &grad_den, 1.0);
    hessian.ger(-1.0 / den, &grad_den, gradient, 1.0);
    // ∇Wⱼ = (Σ_{i ∋ j} ∇wᵢ/3 − Wⱼ ∇S)/S, ∇S = ∇D (w₀ is constant).
    let mut vertex_weight_gradients = DMatrix::zeros(vertices, dim);
    for a in active {
        for &b in &a.blocks[1..] {
            for (m, &col) in a.blocks.iter().enumerate() {
                for k in 0..3 {
                    vertex_weight_gradients[(b, 3 * col + k)] += a.first.dw[3 * m + k] / 3.0;
                }
            }
        }
    }
    for (j, wj) in vertex_weights.iter().enumerate() {
        let mut row = vertex_weight_gradients.row_mut(j);
        row -= grad_den.transpose() * *wj;
        row /= sum;
    }
    PotentialSecond { hessian, vertex_weight_gradients }
}

/// out[blocks] += local (12 entries, 3 per block).
fn scatter_vector(out: &mut DVector<f64>, blocks: &[usize; 4], local: &Grad12) {
    for (m, &b) in blocks.iter().enumerate() {
        for k in 0..3 {
            out[3 * b + k] += local[3 * m + k];
        }
    }
}

/// out[blocks, blocks] += local.
fn scatter_matrix(out: &mut DMatrix<f64>, blocks: &[usize; 4], local: &Hess12) {
    for (mi, &bi) in blocks.iter().enumerate() {
        for (mj, &bj) in blocks.iter().enumerate() {
            for r in 0..3 {
                for c in 0..3 {
                    out[(3 * bi + r, 3 * bj + c)] += local[(3 * mi + r, 3 * mj + c)];
                }
            }
        }
    }
}
