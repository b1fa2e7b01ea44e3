//! Exact intersection tests between closed triangles and segments, built on Shewchuk's adaptive
//! orientation predicates (the `robust` crate): every decision is the exact sign of a
//! determinant of the input coordinates, so touching counts as intersecting and nothing depends
//! on a tolerance. Coplanar configurations are decided in 2D, after dropping the coordinate axis
//! along which the plane's triangle projects without degenerating (exact too: dropping an axis
//! is an affine bijection of that plane, so it keeps or reverses every orientation alike).
//! Used by the surface check of `tetrahedralize` and by the intersection checker
//! (`intersection.rs`).

use robust::{Coord, Coord3D};

/// A point (m).
pub(crate) type P3 = [f64; 3];

/// Sign (−1, 0, +1) of the orientation of d relative to plane (a, b, c): the sign of
/// det[a − d, b − d, c − d], exact. Four points with one coordinate equal lie in a plane
/// normal to that axis: 0 at once (an exact zero is the slowest case of the adaptive
/// predicate, and flat axis-aligned cloth is common).
pub(crate) fn orient3d(a: P3, b: P3, c: P3, d: P3) -> i8 {
    if (0..3).any(|k| a[k] == d[k] && b[k] == d[k] && c[k] == d[k]) {
        return 0;
    }
    let q = |p: P3| Coord3D { x: p[0], y: p[1], z: p[2] };
    sign(robust::orient3d(q(a), q(b), q(c), q(d)))
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else {
        -i8::from(x < 0.0)
    }
}

/// `p` with coordinate `drop` removed.
fn project(p: P3, drop: usize) -> Coord<f64> {
    Coord { x: p[(drop + 1) % 3], y: p[(drop + 2) % 3] }
}

/// Sign of the 2D orientation of (a, b, c) projected along axis `drop`, exact.
fn orient2d(a: P3, b: P3, c: P3, drop: usize) -> i8 {
    sign(robust::orient2d(project(a, drop), project(b, drop), project(c, drop)))
}

/// The axis to drop so that triangle (a, b, c) stays non-degenerate in 2D (the one with the
/// largest projected area), or `None` when the three points are collinear.
pub(crate) fn projection_axis(a: P3, b: P3, c: P3) -> Option<usize> {
    let area = |k: usize| robust::orient2d(project(a, k), project(b, k), project(c, k)).abs();
    let k = (0..3).max_by(|&i, &j| area(i).total_cmp(&area(j)))?;
    (area(k) > 0.0).then_some(k)
}

/// Whether `r`, collinear with segment (p, q), lies on it (closed).
fn on_segment(p: P3, q: P3, r: P3) -> bool {
    (0..3).all(|k| p[k].min(q[k]) <= r[k] && r[k] <= p[k].max(q[k]))
}

/// Closed segments (p, q) and (a, b), coplanar, in the 2D projection `drop`.
fn segments_meet_2d(p: P3, q: P3, a: P3, b: P3, drop: usize) -> bool {
    let (o1, o2) = (orient2d(p, q, a, drop), orient2d(p, q, b, drop));
    let (o3, o4) = (orient2d(a, b, p, drop), orient2d(a, b, q, drop));
    (o1 * o2 < 0 && o3 * o4 < 0)
        || (o1 == 0 && on_segment(p, q, a))
        || (o2 == 0 && on_segment(p, q, b))
        || (o3 == 0 && on_segment(a, b, p))
        || (o4 == 0 && on_segment(a, b, q))
}

/// Whether `p` lies in the closed triangle t (coplanar, non-degenerate in projection `drop`).
fn inside_2d(p: P3, t: [P3; 3], drop: usize) -> bool {
    let o = [0, 1, 2].map(|k| orient2d(t[k], t[(k + 1) % 3], p, drop));
    o.iter().all(|&s| s >= 0) || o.iter().all(|&s| s <= 0)
}

/// Whether the closed segment (p, q) meets the closed, non-degenerate triangle t.
pub(crate) fn segment_meets_triangle(p: P3, q: P3, t: [P3; 3]) -> bool {
    let (sp, sq) = (orient3d(t[0], t[1], t[2], p), orient3d(t[0], t[1], t[2], q));
    if sp == 0 && sq == 0 {
        let Some(drop) = projection_axis(t[0], t[1], t[2]) else { return false };
        return inside_2d(p, t, drop)
            || inside_2d(q, t, drop)
            || (0..3).any(|k| segments_meet_2d(p, q, t[k], t[(k + 1) % 3], drop));
    }
    if sp * sq > 0 {
        return false;
    }
    // The segment reaches the plane; its line passes through the triangle iff it passes on the
    // same side of all three edges.
    let o = [0, 1, 2].map(|k| orient3d(p, q, t[k], t[(k + 1) % 3]));
    o.iter().all(|&s| s >= 0) || o.iter().all(|&s| s <= 0)
}

/// Whether all three signs are strictly positive or all strictly negative.
fn strictly_one_side(s: [i8; 3]) -> bool {
    s.iter().all(|&x| x > 0) || s.iter().all(|&x| x < 0)
}

/// Whether closed triangles t and u (sharing no vertex) meet. As in Möller's and Guigue and
/// Devillers' tests, the signs of each triangle's vertices against the other's plane reject
/// first: all strictly on one side, no contact. If u lies in the plane of t (t non-degenerate)
/// the coplanar test decides. Otherwise they meet iff an edge of one meets the other (an
/// extreme point of a non-empty intersection lies on an edge of t or of u). Exact also when one
/// triangle is degenerate (it is the union of its edges); two degenerate triangles never meet.
pub(crate) fn triangles_meet(t: [P3; 3], u: [P3; 3]) -> bool {
    let su = u.map(|p| orient3d(t[0], t[1], t[2], p));
    let st = t.map(|p| orient3d(u[0], u[1], u[2], p));
    if strictly_one_side(su) || strictly_one_side(st) {
        return false;
    }
    if su == [0; 3] {
        if let Some(drop) = projection_axis(t[0], t[1], t[2]) {
            return coplanar_triangles_meet(t, u, drop);
        }
    }
    (0..3).any(|k| segment_meets_triangle(t[k], t[(k + 1) % 3], u))
        || (0..3).any(|k| segment_meets_triangle(u[k], u[(k + 1) % 3], t))
}

/// Whether closed triangles t and u, u in the plane of t, meet; t is non-degenerate in the
/// projection `drop`, u may be degenerate. Two coplanar convex sets meet iff their boundaries
/// cross or one holds the other, and then it holds every vertex of the other.
fn coplanar_triangles_meet(t: [P3; 3], u: [P3; 3], drop: usize) -> bool {
    let edges = |x: [P3; 3]| [0, 1, 2].map(|k| (x[k], x[(k + 1) % 3]));
    edges(t).iter().any(|&(p, q)| edges(u).iter().any(|&(a, b)| segments_meet_2d(p, q, a, b, drop)))
        || inside_2d(u[0], t, drop)
        || (orient2d(u[0], u[1], u[2], drop) != 0 && inside_2d(t[0], u, drop))
}

/// Whether segment (v, x), which starts at vertex v of triangle (v, c, d), meets that triangle
/// anywhere but at v.
fn leaves_into(v: P3, x: P3, c: P3, d: P3) -> bool {
    if x == v || orient3d(v, c, d, x) != 0 {
        return false;
    }
    let Some(drop) = projection_axis(v, c, d) else { return false };
    // x must lie in the closed wedge at v spanned by c and d.
    let o = orient2d(v, c, d, drop);
    orient2d(v, c, x, drop) * o >= 0 && orient2d(v, x, d, drop) * o >= 0
}

/// Whether triangles (v, a, b) and (v, c, d), which share vertex v, meet anywhere but at v.
/// Complete by the same extreme-point argument as [`triangles_meet`]: a second intersection
/// point lies on edge ab, on edge cd, or on an edge leaving v. Rejected first when c and d lie
/// strictly on one side of the plane of (v, a, b), or a and b of that of (v, c, d): then the
/// second triangle leaves that plane at v.
pub(crate) fn meet_beyond_vertex(v: P3, a: P3, b: P3, c: P3, d: P3) -> bool {
    if orient3d(v, a, b, c) * orient3d(v, a, b, d) > 0 || orient3d(v, c, d, a) * orient3d(v, c, d, b) > 0 {
        return false;
    }
    segment_meets_triangle(a, b, [v, c, d])
        || segment_meets_triangle(c, d, [v, a, b])
        || leaves_into(v, a, c, d)
        || leaves_into(v, b, c, d)
        || leaves_into(v, c, a, b)
        || leaves_into(v, d, a, b)
}

/// Whether triangles (v, w, a) and (v, w, b), which share edge vw, meet anywhere but on it: only
/// when they are coplanar and fold onto the same side of the edge.
pub(crate) fn meet_beyond_edge(v: P3, w: P3, a: P3, b: P3) -> bool {
    if orient3d(v, w, a, b) != 0 {
        return false;
    }
    let Some(drop) = projection_axis(v, w, a) else { return false };
    orient2d(v, w, a, drop) * orient2d(v, w, b, drop) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: [P3; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn segments_against_a_triangle() {
        assert!(segment_meets_triangle([0.2, 0.2, -1.0], [0.2, 0.2, 1.0], T));
        assert!(segment_meets_triangle([0.5, 0.5, -1.0], [0.5, 0.5, 1.0], T)); // through the hypotenuse
        assert!(!segment_meets_triangle([0.6, 0.6, -1.0], [0.6, 0.6, 1.0], T));
        assert!(segment_meets_triangle([0.2, 0.2, 0.0], [0.2, 0.2, 1.0], T)); // touches
        assert!(!segment_meets_triangle([0.2, 0.2, 1e-300], [0.2, 0.2, 1.0], T));
        // Coplanar.
        assert!(segment_meets_triangle([-1.0, 0.3, 0.0], [2.0, 0.3, 0.0], T));
        assert!(!segment_meets_triangle([-1.0, 1.3, 0.0], [2.0, 1.3, 0.0], T));
        assert!(segment_meets_triangle([0.1, 0.1, 0.0], [0.2, 0.1, 0.0], T)); // inside
    }

    #[test]
    fn shared_vertex_and_edge_cases() {
        let v = [0.0, 0.0, 0.0];
        // A fan around v: neighbours that only touch at v.
        assert!(!meet_beyond_vertex(v, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]));
        // Second triangle pierces the first.
        assert!(meet_beyond_vertex(v, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, 0.3, 1.0], [0.3, 0.3, -1.0]));
        // Coplanar overlap at the shared vertex.
        assert!(meet_beyond_vertex(v, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [2.0, 0.5, 0.0]));
        // Shared edge along x: a fold in the plane overlaps, a hinge does not.
        let w = [1.0, 0.0, 0.0];
        assert!(meet_beyond_edge(v, w, [0.5, 1.0, 0.0], [0.2, 0.5, 0.0]));
        assert!(!meet_beyond_edge(v, w, [0.5, 1.0, 0.0], [0.2, -0.5, 0.0]));
        assert!(!meet_beyond_edge(v, w, [0.5, 1.0, 0.0], [0.2, 0.5, 1e-12]));
    }

    #[test]
    fn disjoint_and_crossing_triangles() {
        let up = |z: f64| [[0.2, 0.2, z], [0.3, 0.2, z + 1.0], [0.2, 0.3, z + 1.0]];
        assert!(triangles_meet(T, up(-0.5)));
        assert!(triangles_meet(T, up(0.0)));
        assert!(!triangles_meet(T, up(1e-9)));
        assert!(projection_axis([0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]).is_none());
    }
}
