//! The stencils of isosurface stuffing (Labelle & Shewchuk 2007, §3): how one lattice tet is
//! replaced by the part of it inside the surface, given the sign of each of its vertices after
//! warping (− inside, 0 on the surface, + outside) and the cut points on its (+, −) edges.
//!
//! | + | − | 0 | output |
//! |---|---|---|--------|
//! | 0 | ≥1 | any | the whole tet |
//! | 1 | 1 | 2 | one tet: the two 0s, the −, the cut point |
//! | 1 | 2 | 1 | a pyramid (apex the 0) over a quadrilateral in face (+, −, −): two tets |
//! | 1 | 3 | 0 | a prism between face (−, −, −) and the three cut points: three tets |
//! | 2 | 1 | 1 | one tet: the 0, the −, two cut points |
//! | 2 | 2 | 0 | a prism between the two (−, cut, cut) triangles: three tets |
//! | 3 | 1 | 0 | one tet: the − and three cut points |
//! | any | 0 | any | nothing (this includes a tet whose four vertices are all 0) |
//!
//! A quadrilateral lying in a face of the lattice tet is shared with the neighbouring lattice
//! tet, so its diagonal must be a function of the face alone ([`diagonal_from_first`]): when the
//! quadrilateral's lattice edge (−, −) is short, the diagonal joins the cut point on the face's
//! long edge to the opposite − vertex; when it is long, the *parity rule* alternates the diagonal
//! around that long edge. These are the choices for which the paper proves dihedral angles in
//! [10.7°, 164.8°] with α_long = 0.24999 and α_short = 0.41189.

/// A vertex of an output tet, in the parent lattice tet's local numbering (0..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Point {
    /// Lattice vertex `i` of the parent tet (possibly warped onto the surface).
    Vertex(usize),
    /// The cut point on the parent's edge between local vertices `i < j`.
    Cut(usize, usize),
}

/// The cut point on edge {i, j}, with its ends in increasing order.
fn cut(i: usize, j: usize) -> Point {
    Point::Cut(i.min(j), i.max(j))
}

/// Whether local edge {i, j} is one of the two long edges: lattice tets keep them at (0, 1) and
/// (2, 3) (see `Lattice::tets_of_cube`).
fn is_long(i: usize, j: usize) -> bool {
    matches!((i.min(j), i.max(j)), (0, 1) | (2, 3))
}

/// The diagonal of the quadrilateral `(a, b, cut(p, b), cut(p, a))` in face (p, a, b) of a lattice
/// tet, where p is outside and a, b inside: `true` for the diagonal a–cut(p, b), `false` for
/// b–cut(p, a). `coords` are the doubled integer lattice coordinates of the four local vertices.
///
/// - Lattice edge ab short: the face's long edge is pa or pb, and the diagonal leaves from the
///   cut point on it (so it ends at the other one of a, b).
/// - Lattice edge ab long (along axis k): with `lo` the end of ab with the smaller k coordinate
///   and (s₁, s₂) the signs of p − lo on the two other axes, the diagonal leaves from `lo` when
///   s₁·s₂ > 0 and from the other end otherwise. The four faces around a long edge then alternate,
///   so the two faces of one tet that contain it always get diagonals from different ends.
pub(super) fn diagonal_from_first(p: usize, a: usize, b: usize, coords: &[[i64; 3]; 4]) -> bool {
    if !is_long(a, b) {
        return is_long(p, b);
    }
    let k = (0..3).find(|&k| coords[a][k] != coords[b][k]).unwrap_or(0);
    let lo = if coords[a][k] < coords[b][k] { a } else { b };
    let s = |axis: usize| (coords[p][axis] - coords[lo][axis]).signum();
    let from_lo = s((k + 1) % 3) * s((k + 2) % 3) > 0;
    from_lo == (lo == a)
}

/// Splits the pyramid with apex `apex` over the quadrilateral `q` (cyclic order) into two tets,
/// along diagonal q0–q2 when `diag02`, else q1–q3.
fn pyramid(apex: Point, q: [Point; 4], diag02: bool, out: &mut Vec<[Point; 4]>) {
    if diag02 {
        out.push([apex, q[0], q[1], q[2]]);
        out.push([apex, q[0], q[2], q[3]]);
    } else {
        out.push([apex, q[0], q[1], q[3]]);
        out.push([apex, q[1], q[2], q[3]]);
    }
}

/// Splits the prism with end triangles `bottom` and `top` (vertical edges bottom[i]–top[i]) into
/// three tets. Quadrilateral side `i` lies between vertical edges i and i+1; `rising[i]` is its
/// diagonal: `Some(true)` for bottom[i]–top[i+1], `Some(false)` for bottom[i+1]–top[i], `None`
/// when it is free (inside the lattice tet) and may be chosen. A prism can be split without new
/// vertices unless the three diagonals turn the same way; the free side is chosen to avoid that.
fn prism(bottom: [Point; 3], top: [Point; 3], rising: [Option<bool>; 3], out: &mut Vec<[Point; 4]>) {
    let free = |x: Option<bool>, y: Option<bool>| match (x, y) {
        (Some(x), Some(y)) if x == y => !x,
        _ => true,
    };
    let r: [bool; 3] =
        std::array::from_fn(|i| rising[i].unwrap_or_else(|| free(rising[(i + 1) % 3], rising[(i + 2) % 3])));
    debug_assert!(!(r[0] == r[1] && r[1] == r[2]), "cyclic prism diagonals {r:?}");
    // A bottom vertex on two diagonals: side k rises from it and side k−1 falls to it.
    if let Some(k) = (0..3).find(|&k| r[k] && !r[(k + 2) % 3]) {
        split_at_bottom(bottom, top, r, k, out);
    } else if let Some(k) = (0..3).find(|&k| !r[k] && r[(k + 2) % 3]) {
        // Same with the ends exchanged: a top vertex on two diagonals.
        split_at_bottom(top, bottom, r.map(|x| !x), k, out);
    }
}

/// The prism split with apex `bottom[k]`: the tet (bottom[k], top) plus the pyramid from
/// bottom[k] over side k+1, cut along that side's diagonal.
fn split_at_bottom(bottom: [Point; 3], top: [Point; 3], r: [bool; 3], k: usize, out: &mut Vec<[Point; 4]>) {
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    out.push([bottom[k], top[0], top[1], top[2]]);
    pyramid(bottom[k], [bottom[k1], bottom[k2], top[k2], top[k1]], r[k1], out);
}

/// Appends the output tets of a lattice tet with vertex signs `labels` (after warping) and
/// doubled integer coordinates `coords` to `out`. Orientation is not fixed here.
pub(super) fn stencil(labels: [i8; 4], coords: &[[i64; 3]; 4], out: &mut Vec<[Point; 4]>) {
    let pick = |want: i8| {
        let mut v = [0usize; 4];
        let mut n = 0;
        for (i, &l) in labels.iter().enumerate() {
            if l == want {
                v[n] = i;
                n += 1;
            }
        }
        (v, n)
    };
    let ((pos, np), (neg, nn), (zero, _)) = (pick(1), pick(-1), pick(0));
    use Point::Vertex as V;
    match (np, nn) {
        (_, 0) => {}
        (0, _) => out.push([V(0), V(1), V(2), V(3)]),
        (1, 1) => out.push([V(zero[0]), V(zero[1]), V(neg[0]), cut(pos[0], neg[0])]),
        (1, 2) => {
            let (p, a, b) = (pos[0], neg[0], neg[1]);
            let quad = [V(a), V(b), cut(p, b), cut(p, a)];
            pyramid(V(zero[0]), quad, diagonal_from_first(p, a, b, coords), out);
        }
        (1, 3) => {
            let p = pos[0];
            let n = [neg[0], neg[1], neg[2]];
            let rising = [0, 1, 2].map(|i| Some(diagonal_from_first(p, n[i], n[(i + 1) % 3], coords)));
            prism(n.map(V), n.map(|m| cut(p, m)), rising, out);
        }
        (2, 1) => out.push([V(zero[0]), V(neg[0]), cut(pos[0], neg[0]), cut(pos[1], neg[0])]),
        (2, 2) => {
            let (p, q, a, b) = (pos[0], pos[1], neg[0], neg[1]);
            let bottom = [V(a), cut(p, a), cut(q, a)];
            let top = [V(b), cut(p, b), cut(q, b)];
            // Side 0 lies in face (p, a, b) and rises from a; side 2 lies in face (q, a, b) and
            // rises from b; side 1 is the quadrilateral on the surface, free.
            let rising =
                [Some(diagonal_from_first(p, a, b, coords)), None, Some(!diagonal_from_first(q, a, b, coords))];
            prism(bottom, top, rising, out);
        }
        (3, 1) => {
            let m = neg[0];
            out.push([V(m), cut(pos[0], m), cut(pos[1], m), cut(pos[2], m)]);
        }
        _ => unreachable!("a tet has four vertices"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lattice tet: black edge (0,0,0)–(2,0,0), red edge (1,1,−1)–(1,1,1) (doubled coordinates).
    const TET: [[i64; 3]; 4] = [[0, 0, 0], [2, 0, 0], [1, 1, -1], [1, 1, 1]];

    #[test]
    fn tet_counts_per_case() {
        let count = |labels: [i8; 4]| {
            let mut out = Vec::new();
            stencil(labels, &TET, &mut out);
            out.len()
        };
        assert_eq!(count([-1, -1, -1, -1]), 1);
        assert_eq!(count([0, 0, 0, 0]), 0);
        assert_eq!(count([1, 0, 0, 0]), 0);
        assert_eq!(count([1, -1, 0, 0]), 1);
        assert_eq!(count([1, -1, -1, 0]), 2);
        assert_eq!(count([1, -1, -1, -1]), 3);
        assert_eq!(count([1, 1, -1, -1]), 3);
        assert_eq!(count([-1, 1, 1, -1]), 3);
        assert_eq!(count([1, 1, -1, 0]), 1);
        assert_eq!(count([1, 1, 1, -1]), 1);
    }

    #[test]
    fn parity_rule_alternates_around_a_long_edge() {
        // The two faces of one tet that contain its black edge get diagonals from different ends.
        assert_ne!(diagonal_from_first(2, 0, 1, &TET), diagonal_from_first(3, 0, 1, &TET));
        // And a face's choice does not depend on which end is called `a`.
        assert_eq!(diagonal_from_first(2, 0, 1, &TET), !diagonal_from_first(2, 1, 0, &TET));
        // Short lattice edge 0–2 in face (3, 0, 2): the long edge there is 2–3, so the diagonal
        // joins cut(3, 2) to vertex 0 ("from 0").
        assert!(diagonal_from_first(3, 0, 2, &TET));
        assert!(!diagonal_from_first(3, 2, 0, &TET));
    }
}
