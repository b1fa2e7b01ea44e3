//! Shells against the surfaces of solids through self-contact's pairs (issue 10).
//!
//! A shell rests on a solid through the implicit surface of the solid (paper §3.2), which is
//! queried at the shell's vertices only and blends the planes of the solid's faces. Where the
//! solid's mesh has a sharp crease (a flesh bulge beside a pinned ring, the inside of a bent
//! elbow) its edges stand out of that smooth surface, and a shell edge lying across such a
//! crease passes under the solid's edge between the shell's vertices, which the surface keeps
//! at the contact thickness: an edge–edge crossing that no vertex query can see.
//!
//! With self-contact on, the solids' boundary faces therefore join the self-contact mesh, and
//! every pair of a shell's vertex with a solid's face, and of a shell's edge with a solid's
//! edge, gets the cubic penalty of §3.2 at a thinner layer δ_b = [`SOLID_THICKNESS_FRACTION`] δ_s with κ_b = κ_s (δ_s/δ_b)²
//! (the same force 3κδ² at touching), so that it stays idle where the implicit surface already
//! holds the shell at its thickness, and the same friction as the implicit surface between the
//! two objects. Its gap is signed by the solid's outward normal
//! ([`crate::energy::self_contact::SelfContactPair::gap`]): the solid has an inside, so a shell
//! primitive that a Newton iterate carried through the surface is pushed back out, and these
//! pairs need no guard against crossing (the guard of shells against themselves rejects such
//! iterates, which the implicit surface's penalty routinely makes in passing). Pairs of two
//! solid primitives are never formed (solids meet each other through their implicit
//! surfaces), nor pairs of a solid's vertex with a shell's triangle ([`Sides::vertex_triangle`]).

use crate::contact::ContactLaw;
use crate::energy::self_contact::{EdgeEdge, VertexTriangle};

/// δ_b / δ_s: the shell–solid pairs' layer as a fraction of the self-contact thickness.
pub(crate) const SOLID_THICKNESS_FRACTION: f64 = 0.5;

/// The law of shell–solid pairs from the self-contact law `law`: δ_b = f δ_s and
/// κ_b = κ_s / f² (f = [`SOLID_THICKNESS_FRACTION`]), so 3κ_b δ_b² = 3κ_s δ_s².
pub fn solid_law(law: ContactLaw) -> ContactLaw {
    let f = SOLID_THICKNESS_FRACTION;
    ContactLaw { delta: f * law.delta, kappa: law.kappa / (f * f), ..law }
}

/// (b − a) × (c − a) [m²] of triangle `f` at positions `q` [m].
fn face_normal(f: [u32; 3], q: &[f64]) -> [f64; 3] {
    let p = |v: u32| [0, 1, 2].map(|k| q[3 * v as usize + k]);
    let (a, b, c) = (p(f[0]), p(f[1]), p(f[2]));
    let (u, w) = ([0, 1, 2].map(|k| b[k] - a[k]), [0, 1, 2].map(|k| c[k] - a[k]));
    [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
}

/// Area-weighted outward normals [m²] of the vertices of the solids' boundary faces `faces`
/// (outward-wound, global indices) at positions `q` [m], 3 per vertex of `q` (zero elsewhere).
pub fn vertex_normals(faces: &[[u32; 3]], q: &[f64]) -> Vec<[f64; 3]> {
    let mut out = vec![[0.0; 3]; q.len() / 3];
    for &f in faces {
        let n = face_normal(f, q);
        for v in f {
            for k in 0..3 {
                out[v as usize][k] += 0.5 * n[k];
            }
        }
    }
    out
}

fn unit(n: [f64; 3]) -> [f64; 3] {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if l > 0.0 {
        n.map(|x| x / l)
    } else {
        n
    }
}

fn sum(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Which side of a candidate pair is a solid's, from `solid[v]` (per global vertex).
pub struct Sides<'a> {
    /// Whether each global vertex is a solid's.
    pub solid: &'a [bool],
    /// [`vertex_normals`] at the gather point.
    pub normals: &'a [[f64; 3]],
    /// The gather point [m], 3 per vertex.
    pub q: &'a [f64],
}

impl Sides<'_> {
    fn is_solid(&self, v: u32) -> bool {
        self.solid.get(v as usize).copied().unwrap_or(false)
    }

    /// A vertex–triangle pair's `outward`: `Some(None)` between shells, the outward face
    /// normal for a shell's vertex against a solid's face, and `None` (no pair) for a solid's
    /// vertex, against a solid's face or a shell's triangle. A solid's vertex already meets a
    /// shell through the shell's implicit surface, on the side its own outward normal gives
    /// (`crate::contact::surface_contact`); a shell triangle's normal does not tell which side
    /// of it the solid is on.
    pub fn vertex_triangle(&self, p: &VertexTriangle) -> Option<Option<[f64; 3]>> {
        match (self.is_solid(p.vertex), self.is_solid(p.triangle[0])) {
            (false, false) => Some(None),
            (false, true) => Some(Some(unit(face_normal(p.triangle, self.q)))),
            (true, _) => None,
        }
    }

    /// An edge–edge pair with the shell's edge first and its `outward` (the solid edge's
    /// normal, the sum of its end points' normals), as [`Sides::vertex_triangle`].
    pub fn edge_edge(&self, p: &EdgeEdge) -> Option<(EdgeEdge, Option<[f64; 3]>)> {
        let [a, b] = p.edges;
        match (self.is_solid(a[0]), self.is_solid(b[0])) {
            (false, false) => Some((*p, None)),
            (true, true) => None,
            (shell_second, _) => {
                let (shell, solid) = if shell_second { (b, a) } else { (a, b) };
                let n = sum(self.normals[solid[0] as usize], self.normals[solid[1] as usize]);
                Some((EdgeEdge { edges: [shell, solid] }, Some(unit(n))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit tetrahedron's outward faces give outward vertex normals; pairs of a shell vertex
    /// (index 4) or edge with the solid's face or edge are oriented out of it; pairs of two
    /// solid primitives and of a solid vertex with a shell triangle are not formed.
    #[test]
    fn pairs_take_the_solid_outward_side() {
        let q = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.2, 0.2, -0.1, 0.4, 0.2, -0.1];
        let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let normals = vertex_normals(&faces, &q);
        let n0 = unit(normals[0]);
        let s = 1.0 / 3f64.sqrt();
        assert!(n0.iter().all(|&x| (x + s).abs() < 1e-12), "{n0:?}");
        assert_eq!(normals[4], [0.0; 3]);
        let solid = [true, true, true, true, false, false];
        let sides = Sides { solid: &solid, normals: &normals, q: &q };
        let below = VertexTriangle { vertex: 4, triangle: [0, 2, 1] };
        let out = sides.vertex_triangle(&below).unwrap().unwrap();
        assert!(out[2] < -0.9, "{out:?}");
        assert_eq!(sides.vertex_triangle(&VertexTriangle { vertex: 0, triangle: [4, 5, 4] }), None);
        assert_eq!(sides.vertex_triangle(&VertexTriangle { vertex: 3, triangle: [0, 2, 1] }), None);
        let (e, out) = sides.edge_edge(&EdgeEdge { edges: [[0, 1], [4, 5]] }).unwrap();
        assert_eq!(e.edges, [[4, 5], [0, 1]]);
        assert!(out.unwrap()[2] < 0.0 && out.unwrap()[1] < 0.0);
        assert!(sides.edge_edge(&EdgeEdge { edges: [[0, 1], [2, 3]] }).is_none());
        assert_eq!(sides.edge_edge(&EdgeEdge { edges: [[4, 5], [5, 4]] }).unwrap().1, None);
    }
}
