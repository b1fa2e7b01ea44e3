//! The point of a triangle closest to a query point, by the Voronoi regions of its corners,
//! edges and face (Ericson, *Real-Time Collision Detection*, §5.1.5): for the signed distance to
//! a surface (`tetrahedralize::surface_sdf`) and the cloth-slip metric (`crate::scene::slip`).

use crate::math::real::{dot, sub};

/// Where on a triangle the closest point lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Corner k.
    Vertex(usize),
    /// The edge from corner k to corner k + 1 (mod 3).
    Edge(usize),
    /// The interior.
    Face,
}

/// Barycentric coordinates (weights of corners a, b, c; they sum to 1) of the point of triangle
/// `[a, b, c]` (m) closest to `p` (m), and the feature it lies on. Exact 0 and 1 on corners and
/// edges. A degenerate triangle (coincident corners, zero area) may give non-finite weights.
pub fn closest_on_triangle(p: [f64; 3], [a, b, c]: [[f64; 3]; 3]) -> ([f64; 3], Feature) {
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ([1.0, 0.0, 0.0], Feature::Vertex(0));
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return ([0.0, 1.0, 0.0], Feature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return ([1.0 - v, v, 0.0], Feature::Edge(0));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return ([0.0, 0.0, 1.0], Feature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return ([1.0 - w, 0.0, w], Feature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return ([0.0, 1.0 - w, w], Feature::Edge(1));
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    ([1.0 - v - w, v, w], Feature::Face)
}

/// The point of weights `w` on triangle `t` (m): Σ wₖ tₖ.
pub fn point_at(t: [[f64; 3]; 3], w: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| w[0] * t[0][k] + w[1] * t[1][k] + w[2] * t[2][k])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the seven regions of the unit right triangle.
    #[test]
    fn closest_point_regions() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let at = |p| {
            let (w, f) = closest_on_triangle(p, t);
            (point_at(t, w), f)
        };
        assert_eq!(at([-1.0, -1.0, 1.0]), ([0.0; 3], Feature::Vertex(0)));
        assert_eq!(at([2.0, -0.5, 0.0]), ([1.0, 0.0, 0.0], Feature::Vertex(1)));
        assert_eq!(at([0.0, 3.0, 1.0]), ([0.0, 1.0, 0.0], Feature::Vertex(2)));
        assert_eq!(at([0.5, -1.0, 0.0]), ([0.5, 0.0, 0.0], Feature::Edge(0)));
        assert_eq!(at([1.0, 1.0, 0.0]), ([0.5, 0.5, 0.0], Feature::Edge(1)));
        assert_eq!(at([-0.5, 0.5, 0.0]), ([0.0, 0.5, 0.0], Feature::Edge(2)));
        let (w, f) = closest_on_triangle([0.2, 0.3, 5.0], t);
        assert_eq!(f, Feature::Face);
        assert!((0..3).all(|k| (w[k] - [0.5, 0.2, 0.3][k]).abs() < 1e-15), "{w:?}");
    }
}
