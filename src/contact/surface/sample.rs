//! One sample of the implicit surface: a triangle (a, b, c) with centroid p = (a + b + c)/3 and
//! unit normal n = (b − a) × (c − a)/|(b − a) × (c − a)|, seen from a query point x. The MLS
//! potential (paper §3.2, Larionov et al. 2021) blends, per sample, the kernel weight
//! w(|x − p|) and the signed plane distance g = n·(x − p); this file gives both with exact
//! first and second derivatives in the sample's 12 local coordinates z = (x, a, b, c).

use super::kernel::Kernel;
use crate::math::autodiff;
use crate::math::real::{c, cross, dot, scale, sub, Real, V3};
use nalgebra::{Const, Matrix3, SMatrix, SVector, Vector3, U1};
use num_dual::{Derivative, DualSVec64};

/// Local gradient (12) and Hessian (12 × 12) types.
pub type Grad12 = SVector<f64, 12>;
/// See [`Grad12`].
pub type Hess12 = SMatrix<f64, 12, 12>;

/// Smallest |(b − a) × (c − a)| relative to the squared longest edge for which a sample's normal
/// is defined; flatter triangles are skipped as samples.
const DEGENERATE_AREA: f64 = 1e-12;

/// w, g and their first derivatives in z = (x, a, b, c).
#[derive(Clone, Copy, Debug)]
pub struct SampleFirst {
    /// Kernel weight w(|x − p|).
    pub w: f64,
    /// ∂w/∂z.
    pub dw: Grad12,
    /// Plane distance g = n·(x − p), in m.
    pub g: f64,
    /// ∂g/∂z.
    pub dg: Grad12,
}

/// Whether triangle (a, b, c) is too flat to carry a normal.
pub fn is_degenerate(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3]) -> bool {
    let (a, b, c) = (Vector3::from(*a), Vector3::from(*b), Vector3::from(*c));
    let longest = (b - a).norm_squared().max((c - b).norm_squared()).max((a - c).norm_squared());
    !((b - a).cross(&(c - a)).norm() > DEGENERATE_AREA * longest)
}

/// The plane distance g = n·(x − p) for local coordinates `z` = (x, a, b, c).
pub fn plane_distance(z: &[f64; 12]) -> f64 {
    let (x, a, b, cc) = split(z);
    let p = centroid(a, b, cc);
    let u = cross(sub(b, a), sub(cc, a));
    dot(u, sub(x, p)) / dot(u, u).sqrt()
}

/// ∂g/∂z, written over [`Real`] so forward-mode AD gives ∂²g/∂z² exactly. With y = x − p,
/// u = (b − a) × (c − a), n = u/|u| and t = (I − n nᵀ) y/|u|:
/// ∂g/∂x = n, ∂g/∂a = t × (c − b) − n/3, ∂g/∂b = t × (a − c) − n/3, ∂g/∂c = t × (b − a) − n/3
/// (from ∂u/∂a = [c − b]×, ∂u/∂b = [a − c]×, ∂u/∂c = [b − a]× and ∂n/∂u = (I − n nᵀ)/|u|).
pub fn plane_distance_gradient<T: Real>(z: &[T; 12]) -> [T; 12] {
    let (x, a, b, cc) = split(z);
    let y = sub(x, centroid(a, b, cc));
    let u = cross(sub(b, a), sub(cc, a));
    let len = dot(u, u).sqrt();
    let n = u.map(|k| k / len);
    let ny = dot(n, y);
    let t = [0, 1, 2].map(|k| (y[k] - n[k] * ny) / len);
    let third = scale(c(1.0 / 3.0), n);
    let grad_a = sub(cross(t, sub(cc, b)), third);
    let grad_b = sub(cross(t, sub(a, cc)), third);
    let grad_c = sub(cross(t, sub(b, a)), third);
    let mut out = [c::<T>(0.0); 12];
    for k in 0..3 {
        out[k] = n[k];
        out[3 + k] = grad_a[k];
        out[6 + k] = grad_b[k];
        out[9 + k] = grad_c[k];
    }
    out
}

/// The sample's weight and plane distance with first derivatives; `None` when x is outside the
/// kernel support of radius `radius` (m) or the triangle is degenerate.
pub fn first_order(kernel: Kernel, radius: f64, z: &[f64; 12]) -> Option<SampleFirst> {
    let (w, dw_y, _) = weight(kernel, radius, z)?;
    let dg = plane_distance_gradient(z);
    Some(SampleFirst { w, dw: map_offset_gradient(&dw_y), g: plane_distance(z), dg: Grad12::from(dg) })
}

/// ∂²w/∂z² and ∂²g/∂z² alone (for a sample whose [`first_order`] terms are already known);
/// `None` exactly when [`first_order`] is.
pub fn hessians(kernel: Kernel, radius: f64, z: &[f64; 12]) -> Option<(Hess12, Hess12)> {
    let (_, _, ddw_y) = weight(kernel, radius, z)?;
    Some((map_offset_hessian(&ddw_y), plane_distance_hessian(z)))
}

/// ∂²g/∂z² by forward-mode AD of ∂g/∂z ([`plane_distance_gradient`]) along the 9 vertex
/// directions only: g is linear in x, so ∂²g/∂x² = 0, and the (vertex, x) blocks are the
/// transposes of the (x, vertex) ones. The vertex block is symmetrized (AD round-off).
fn plane_distance_hessian(z: &[f64; 12]) -> Hess12 {
    let seeded: [DualSVec64<9>; 12] = std::array::from_fn(|i| {
        let eps = if i < 3 { Derivative::none() } else { Derivative::derivative_generic(Const::<9>, U1, i - 3) };
        DualSVec64::new(z[i], eps)
    });
    let grad = plane_distance_gradient(&seeded);
    let mut h = Hess12::zeros();
    for (row, gi) in grad.iter().enumerate() {
        let d = gi.eps.unwrap_generic(Const::<9>, U1);
        for col in 0..9 {
            h[(row, 3 + col)] = d[col];
        }
    }
    for i in 3..12 {
        for j in 0..3 {
            h[(i, j)] = h[(j, i)];
        }
    }
    autodiff::symmetrize(&mut h);
    h
}

/// Kernel weight of the sample with its y-derivatives, y = x − p.
fn weight(kernel: Kernel, radius: f64, z: &[f64; 12]) -> Option<(f64, Vector3<f64>, Matrix3<f64>)> {
    let (x, a, b, cc) = split(z);
    if is_degenerate(&a, &b, &cc) {
        return None;
    }
    let p = centroid(a, b, cc);
    let y = Vector3::new(x[0] - p[0], x[1] - p[1], x[2] - p[2]);
    let k = kernel.weight(&y, radius)?;
    Some((k.value, k.gradient, k.hessian))
}

/// Eᵀ v with E = ∂y/∂z = [I, −I/3, −I/3, −I/3].
fn map_offset_gradient(v: &Vector3<f64>) -> Grad12 {
    let mut out = Grad12::zeros();
    for k in 0..3 {
        out[k] = v[k];
        for m in 1..4 {
            out[3 * m + k] = -v[k] / 3.0;
        }
    }
    out
}

/// Eᵀ H E: the (x, x) block H, (x, vertex) blocks −H/3, (vertex, vertex) blocks H/9.
fn map_offset_hessian(h: &Matrix3<f64>) -> Hess12 {
    let mut out = Hess12::zeros();
    let factor = |m: usize| if m == 0 { 1.0 } else { -1.0 / 3.0 };
    for bi in 0..4 {
        for bj in 0..4 {
            let f = factor(bi) * factor(bj);
            for r in 0..3 {
                for col in 0..3 {
                    out[(3 * bi + r, 3 * bj + col)] = f * h[(r, col)];
                }
            }
        }
    }
    out
}

fn split<T: Copy>(z: &[T; 12]) -> (V3<T>, V3<T>, V3<T>, V3<T>) {
    ([z[0], z[1], z[2]], [z[3], z[4], z[5]], [z[6], z[7], z[8]], [z[9], z[10], z[11]])
}

fn centroid<T: Real>(a: V3<T>, b: V3<T>, cc: V3<T>) -> V3<T> {
    [0, 1, 2].map(|k| (a[k] + b[k] + cc[k]) * (1.0 / 3.0))
}
