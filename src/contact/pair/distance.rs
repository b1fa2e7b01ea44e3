//! Unsigned distances between the primitives of a shell, on a 4-vertex stencil: point–triangle
//! d_PT(p; a, b, c) with p in slot 0 and the triangle in slots 1–3, and edge–edge
//! d_EE(p0, p1; q0, q1) with the edges in slots 0–1 and 2–3.
//!
//! Each distance is the minimum of |P − Q| over points P, Q of the two primitives. Which
//! features carry the minimum (the closest-feature case: face, edge or vertex of the triangle;
//! interior of both edges or an end point against the other edge) is chosen in `f64` by
//! [`point_triangle_feature`] and [`edge_edge_feature`]; [`distance`] then evaluates that case's
//! closed form over [`Real`]. Within a case the minimizer P = Σ wᵢxᵢ, Q = Σ wⱼxⱼ is a smooth
//! function of the stencil, and because it is a minimizer (envelope theorem) the gradient is
//! ∂d/∂xᵢ = ±wᵢ u with u = (P − Q)/d: the weights times the unit direction. Written over dual
//! numbers, that gradient differentiates into the exact Hessian of the case. Across case
//! boundaries d and ∇d are continuous (the minimizer moves continuously), the Hessian is not.

use crate::math::real::{c, cross, dot, scale, sub, vertex, Real, V3};

/// Relative size below which a triangle (|n|² against the square of its largest squared edge
/// length) has no face case, and two edges (|e0 × e1|² against |e0|²|e1|²) count as parallel and
/// have no interior case (an angle below 10⁻¹⁰ rad; the end point cases carry the minimum then).
pub(crate) const DEGENERATE: f64 = 1e-20;

/// The closest-feature case of a distance, by stencil slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closest {
    /// Vertex `.0` to vertex `.1`: d = |x₀ − x₁|.
    PointPoint(usize, usize),
    /// Vertex `.0` to the line through `.1` and `.2`: d = |x − x₁ − t e|, t = (x − x₁)·e/|e|², e = x₂ − x₁.
    PointEdge(usize, usize, usize),
    /// Vertex `.0` to the plane of triangle `.1`: d = |(x − x_a)·n|/|n|, n = (x_b − x_a)×(x_c − x_a).
    PointFace(usize, [usize; 3]),
    /// Line of slots 0–1 to line of slots 2–3: d = |(p0 − q0)·(e0 × e1)|/|e0 × e1|.
    LineLine,
}

/// The closest point of segment `i0`–`i1` to vertex `ip`: the squared distance and its case.
fn point_segment(x: &[f64; 12], ip: usize, i0: usize, i1: usize) -> (f64, Closest) {
    let (p, a, b) = (vertex(x, ip), vertex(x, i0), vertex(x, i1));
    let e = sub(b, a);
    let ee = dot(e, e);
    let t = if ee > 0.0 { dot(sub(p, a), e) / ee } else { 0.0 };
    if t <= 0.0 {
        let r = sub(p, a);
        (dot(r, r), Closest::PointPoint(ip, i0))
    } else if t >= 1.0 {
        let r = sub(p, b);
        (dot(r, r), Closest::PointPoint(ip, i1))
    } else {
        let r = sub(sub(p, a), scale(t, e));
        (dot(r, r), Closest::PointEdge(ip, i0, i1))
    }
}

/// The case of the smallest of several point–segment distances.
fn nearest(cases: impl Iterator<Item = (f64, Closest)>) -> Closest {
    cases.fold((f64::INFINITY, Closest::PointPoint(0, 1)), |best, c| if c.0 < best.0 { c } else { best }).1
}

/// Closest feature of triangle (slots 1, 2, 3) to the point in slot 0: the face when the point
/// projects inside the triangle (all barycentric coordinates ≥ 0), else the nearest of the three
/// edges, or of their end points when the projection onto that edge falls outside it.
pub fn point_triangle_feature(x: &[f64; 12]) -> Closest {
    let (p, a, b, cc) = (vertex(x, 0), vertex(x, 1), vertex(x, 2), vertex(x, 3));
    let n = cross(sub(b, a), sub(cc, a));
    let longest = [sub(b, a), sub(cc, b), sub(a, cc)].iter().fold(0.0f64, |m, e| m.max(dot(*e, *e)));
    if dot(n, n) > DEGENERATE * longest * longest {
        let w = [
            dot(cross(sub(cc, b), sub(p, b)), n),
            dot(cross(sub(a, cc), sub(p, cc)), n),
            dot(cross(sub(b, a), sub(p, a)), n),
        ];
        if w.iter().all(|&wi| wi >= 0.0) {
            return Closest::PointFace(0, [1, 2, 3]);
        }
    }
    nearest([(1, 2), (2, 3), (3, 1)].into_iter().map(|(i, j)| point_segment(x, 0, i, j)))
}

/// Closest features of edges p0p1 (slots 0, 1) and q0q1 (slots 2, 3): both interiors when the
/// closest points of the two lines lie strictly inside both segments and the edges are not
/// parallel (see `DEGENERATE`), else the nearest of the four end point–segment cases (the
/// minimum over the parameter square then lies on its boundary).
pub fn edge_edge_feature(x: &[f64; 12]) -> Closest {
    let (p0, p1, q0, q1) = (vertex(x, 0), vertex(x, 1), vertex(x, 2), vertex(x, 3));
    let (e0, e1) = (sub(p1, p0), sub(q1, q0));
    let n = cross(e0, e1);
    let nn = dot(n, n);
    if nn > DEGENERATE * dot(e0, e0) * dot(e1, e1) {
        let w = sub(q0, p0);
        let s = dot(cross(w, e1), n) / nn;
        let t = dot(cross(w, e0), n) / nn;
        if s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0 {
            return Closest::LineLine;
        }
    }
    nearest([(0, 2, 3), (1, 2, 3), (2, 0, 1), (3, 0, 1)].into_iter().map(|(i, j, k)| point_segment(x, i, j, k)))
}

/// The distance d of case `case` and its gradient ∂d/∂x over the stencil, ∂d/∂xᵢ = kᵢ u with
/// kᵢ the weight of slot i in P − Q and u the unit direction from Q to P. At d = 0 (the
/// primitives touch or pass through each other; the direction is undefined) the gradient is 0.
pub fn distance<T: Real>(x: &[T; 12], case: Closest) -> (T, [T; 12]) {
    let (d, k, u) = closest_points(x, case);
    let mut g = [c::<T>(0.0); 12];
    if d.re() > 0.0 {
        for (slot, ks) in k.iter().enumerate() {
            for i in 0..3 {
                g[3 * slot + i] = *ks * u[i];
            }
        }
    }
    (d, g)
}

/// The closest points of case `case`: the distance d, the weights kᵢ of the slots in
/// P − Q = Σ kᵢ xᵢ (Σ kᵢ = 0: +1 or the P-side barycentric weights on P's slots, minus Q's on
/// Q's), and the unit direction u = (P − Q)/d (0 when d = 0). The contact frame of
/// self-contact friction (paper Eq. 8, 16): v_rel = Σ kᵢ vᵢ, normal u.
pub fn closest_points<T: Real>(x: &[T; 12], case: Closest) -> (T, [T; 4], V3<T>) {
    let zero = c::<T>(0.0);
    let one = c::<T>(1.0);
    let mut k = [zero; 4];
    let (d, u): (T, V3<T>) = match case {
        Closest::PointPoint(i, j) => {
            k[i] = one;
            k[j] = -one;
            unit(sub(vertex(x, i), vertex(x, j)))
        }
        Closest::PointEdge(i, j, l) => {
            let (p, a) = (vertex(x, i), vertex(x, j));
            let e = sub(vertex(x, l), a);
            let t = dot(sub(p, a), e) / dot(e, e);
            k[i] = one;
            k[j] = t - 1.0;
            k[l] = -t;
            unit(sub(sub(p, a), scale(t, e)))
        }
        Closest::PointFace(i, [ja, jb, jc]) => {
            let (p, a, b, cc) = (vertex(x, i), vertex(x, ja), vertex(x, jb), vertex(x, jc));
            let n = cross(sub(b, a), sub(cc, a));
            let nn = dot(n, n);
            // Barycentric coordinates of the projection of p: the minimizer's weights.
            k[i] = one;
            k[ja] = -dot(cross(sub(cc, b), sub(p, b)), n) / nn;
            k[jb] = -dot(cross(sub(a, cc), sub(p, cc)), n) / nn;
            k[jc] = -dot(cross(sub(b, a), sub(p, a)), n) / nn;
            signed_unit(dot(sub(p, a), n), n, nn)
        }
        Closest::LineLine => {
            let (p0, q0) = (vertex(x, 0), vertex(x, 2));
            let (e0, e1) = (sub(vertex(x, 1), p0), sub(vertex(x, 3), q0));
            let n = cross(e0, e1);
            let nn = dot(n, n);
            let w = sub(q0, p0);
            let s = dot(cross(w, e1), n) / nn;
            let t = dot(cross(w, e0), n) / nn;
            k = [one - s, s, t - 1.0, -t];
            signed_unit(dot(sub(p0, q0), n), n, nn)
        }
    };
    (d, k, u)
}

/// |r| and r/|r| (the direction is 0 when r = 0).
fn unit<T: Real>(r: V3<T>) -> (T, V3<T>) {
    let d = dot(r, r).sqrt();
    if d.re() > 0.0 {
        (d, scale(d.recip(), r))
    } else {
        (d, [c(0.0); 3])
    }
}

/// For a plane (or line pair) of normal `n` with |n|² = `nn` and signed offset s = r·n:
/// d = |s|/|n| and u = sign(s) n/|n|.
fn signed_unit<T: Real>(s: T, n: V3<T>, nn: T) -> (T, V3<T>) {
    let inv = nn.sqrt().recip();
    let sign = if s.re() < 0.0 { -1.0 } else { 1.0 };
    (s * inv * sign, scale(inv * sign, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (64-bit LCG) for random stencils.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    /// min |P − Q| over a dense sampling of the two primitives' parameters.
    fn sampled(x: &[f64; 12], triangle: bool) -> f64 {
        let n = 150;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            for j in 0..=n {
                let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
                let (pq, w) = if triangle {
                    if u + v > 1.0 {
                        continue;
                    }
                    (vertex(x, 0), [1.0 - u - v, u, v])
                } else {
                    let (p0, p1) = (vertex(x, 0), vertex(x, 1));
                    ([0, 1, 2].map(|k| p0[k] + u * (p1[k] - p0[k])), [0.0, 1.0 - v, v])
                };
                let q = [0, 1, 2].map(|k| w[0] * x[3 + k] + w[1] * x[6 + k] + w[2] * x[9 + k]);
                let r = sub(pq, q);
                best = best.min(dot(r, r).sqrt());
            }
        }
        best
    }

    /// The case chosen carries the true minimum: never above the sampled minimum, and within
    /// the sampling resolution of it; its gradient has unit length on p (or the P-weights).
    #[test]
    fn chosen_case_is_the_true_minimum() {
        let mut rng = Lcg(11);
        let mut seen = std::collections::BTreeSet::new();
        for case in 0..600 {
            let triangle = case % 2 == 0;
            let mut x: [f64; 12] = std::array::from_fn(|_| rng.next());
            if !triangle && case % 6 == 1 {
                // Nearly parallel edges (shift along a copy of the first).
                for k in 0..3 {
                    x[6 + k] = x[k] + 0.3 + 1e-3 * rng.next();
                    x[9 + k] = x[3 + k] + 0.3 + 1e-3 * rng.next();
                }
            }
            let closest = if triangle { point_triangle_feature(&x) } else { edge_edge_feature(&x) };
            let d = distance(&x, closest).0;
            let s = sampled(&x, triangle);
            // Sampling spacing 1/150 of edges of length ≤ 2√3: error ≤ ~0.03.
            assert!(d <= s + 1e-12 && d > s - 0.03, "case {case} {closest:?}: {d} vs sampled {s}");
            let key = match closest {
                Closest::PointPoint(..) => 0,
                Closest::PointEdge(..) => 1,
                Closest::PointFace(..) => 2,
                Closest::LineLine => 3,
            };
            seen.insert((triangle, key));
        }
        assert_eq!(seen.len(), 6, "every case is exercised: {seen:?}");
    }
}
