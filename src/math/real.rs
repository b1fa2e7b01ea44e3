//! The scalar abstraction the element gradients are written over, plus the few 3-vector helpers
//! they need. Gradients are generic so that forward-mode dual numbers (`num_dual`) can differentiate
//! them exactly: element Hessians are the Jacobians of these gradients.

use num_dual::DualNum;

/// A real scalar: `f64`, or a forward-mode dual number over `f64`.
pub trait Real: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> Real for T {}

/// Converts a constant into the scalar type.
#[inline]
pub fn c<T: Real>(x: f64) -> T {
    T::from(x)
}

/// A 3-vector of scalars.
pub type V3<T> = [T; 3];

/// Component-wise `a - b`.
#[inline]
pub fn sub<T: Real>(a: V3<T>, b: V3<T>) -> V3<T> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Component-wise `a + b`.
#[inline]
pub fn add<T: Real>(a: V3<T>, b: V3<T>) -> V3<T> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `s · a`.
#[inline]
pub fn scale<T: Real>(s: T, a: V3<T>) -> V3<T> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Dot product.
#[inline]
pub fn dot<T: Real>(a: V3<T>, b: V3<T>) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product.
#[inline]
pub fn cross<T: Real>(a: V3<T>, b: V3<T>) -> V3<T> {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// |a| of a plain `f64` vector [the unit of a].
#[inline]
pub fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// `a / |a|` of a plain `f64` vector (normals of geometry, not differentiated), or the zero
/// vector where |a| is 0 or not finite.
#[inline]
pub fn unit(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    if n > 0.0 && n.is_finite() {
        a.map(|x| x / n)
    } else {
        [0.0; 3]
    }
}

/// Vertex `i` of a flat coordinate array.
#[inline]
pub fn vertex<T: Real, const D: usize>(x: &[T; D], i: usize) -> V3<T> {
    [x[3 * i], x[3 * i + 1], x[3 * i + 2]]
}

/// Writes vertex `i` of a flat coordinate array.
#[inline]
pub fn set_vertex<T: Real, const D: usize>(x: &mut [T; D], i: usize, v: V3<T>) {
    x[3 * i] = v[0];
    x[3 * i + 1] = v[1];
    x[3 * i + 2] = v[2];
}

/// Lifts an `f64` array into the scalar type.
#[inline]
pub fn lift<T: Real, const D: usize>(x: &[f64; D]) -> [T; D] {
    x.map(T::from)
}
