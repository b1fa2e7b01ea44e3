//! Shells against the surfaces of solids through self-contact's pairs.
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
//! edge, gets the cubic penalty of §3.2 at a thinner layer δ_b = `SOLID_THICKNESS_FRACTION` δ_s with κ_b = κ_s (δ_s/δ_b)²
//! (the same force 3κδ² at touching; raised where a substep ends with a shell cutting a solid's
//! face, `crate::solver` self-contact retries), so that it stays idle where the implicit surface already
//! holds the shell at its thickness, and the same friction as the implicit surface between the
//! two objects. Its gap is signed by the solid's outward normal
//! ([`crate::contact::pair::PrimitivePair::gap`]): the solid has an inside, so a shell
//! primitive that a Newton iterate carried through the surface is pushed back out, and these
//! pairs need no guard against crossing (the guard of shells against themselves rejects such
//! iterates, which the implicit surface's penalty routinely makes in passing).
//!
//! A solid's vertex against a shell's triangle gets the same signed pair, its side the
//! triangle's normal oriented by the vertex's angle-weighted pseudonormal ([`vertex_normals`],
//! [`SolidSide::vertex`]): the shell's implicit surface,
//! which otherwise meets the solid's vertices, fades out at the shell's open boundary, and a
//! pinned limb vertex under a sleeve's cuff passed 5 µm through a cuff triangle there
//! (high-res tube cloth bend, μ = 0.8, frames 43–48). Pairs of two solid primitives are never
//! formed (solids meet each other through their implicit surfaces).

use crate::contact::pair::{EdgeEdge, SolidSide, VertexTriangle};
use crate::contact::ContactLaw;
use crate::math::real::{cross, dot, sub, unit};
use crate::mesh::pseudonormal::angle_weighted_normals;
use std::collections::HashMap;

/// δ_b / δ_s: the shell–solid pairs' layer as a fraction of the self-contact thickness.
pub(crate) const SOLID_THICKNESS_FRACTION: f64 = 0.5;

/// The law of shell–solid pairs from the self-contact law `law`: δ_b = f δ_s and
/// κ_b = κ_s / f² (f = `SOLID_THICKNESS_FRACTION`), so 3κ_b δ_b² = 3κ_s δ_s². The solver
/// starts κ_b there and raises it on retries.
pub fn solid_law(law: ContactLaw) -> ContactLaw {
    let f = SOLID_THICKNESS_FRACTION;
    ContactLaw { delta: f * law.delta, kappa: law.kappa / (f * f), ..law }
}

/// (b − a) × (c − a), in m², of triangle `f` at positions `q` (m).
fn face_normal(f: [u32; 3], q: &[f64]) -> [f64; 3] {
    let p = |v: u32| [0, 1, 2].map(|k| q[3 * v as usize + k]);
    let (a, b, c) = (p(f[0]), p(f[1]), p(f[2]));
    cross(sub(b, a), sub(c, a))
}

/// The angle-weighted pseudonormal (`crate::mesh::pseudonormal`) of every vertex of the solids'
/// outward boundary `faces` at `q` (m), unit, per global vertex of `q` (zero for the others).
pub fn vertex_normals(faces: &[[u32; 3]], q: &[f64]) -> Vec<[f64; 3]> {
    let mut out = angle_weighted_normals(faces, q.len() / 3, |v| [0, 1, 2].map(|k| q[3 * v as usize + k]));
    out.iter_mut().filter(|n| **n != [0.0; 3]).for_each(|n| *n = unit(*n));
    out
}

/// The faces on either side of each edge of the solids' boundary faces `faces` (indices into
/// `faces` plus `first`), by the edge's end points in increasing order; an edge with one face
/// only has it twice.
pub fn edge_faces(faces: &[[u32; 3]], first: usize) -> HashMap<[u32; 2], [u32; 2]> {
    let index = |i: u32| first as u32 + i;
    crate::mesh::hinges::faces_by_edge(faces)
        .into_iter()
        .map(|(edge, beside)| (edge, [index(beside[0]), index(beside[beside.len() - 1])]))
        .collect()
}

/// Which side of a candidate pair is a solid's: the mesh's triangles (shells' then solids'
/// faces), whether each global vertex is a solid's, the faces beside each solid edge
/// ([`edge_faces`]), the solids' vertex normals ([`vertex_normals`]) and the gather point `q`
/// (in m) at which the sides are frozen.
pub struct Sides<'a> {
    /// Shell triangles, then the solids' outward boundary faces.
    pub triangles: &'a [[u32; 3]],
    /// Whether each global vertex is a solid's.
    pub solid: &'a [bool],
    /// The faces on either side of each solid edge.
    pub edge_faces: &'a HashMap<[u32; 2], [u32; 2]>,
    /// The solids' vertices' outward unit pseudonormals at `q`, per global vertex
    /// ([`vertex_normals`]; empty without solids).
    pub vertex_normals: &'a [[f64; 3]],
    /// The gather point (m), 3 per vertex.
    pub q: &'a [f64],
}

impl Sides<'_> {
    fn is_solid(&self, v: u32) -> bool {
        self.solid.get(v as usize).copied().unwrap_or(false)
    }

    /// A vertex–triangle pair's `outward`: `Some(None)` between shells, the face's side for a
    /// shell's vertex against a solid's face, the vertex's side ([`SolidSide::vertex`]: the
    /// shell triangle's normal, oriented by the vertex's pseudonormal, which tells which side
    /// of the triangle the solid is on; unsigned where the two are nearly perpendicular) for a
    /// solid's vertex against a shell's triangle, and `None` (no pair) for a solid's vertex
    /// against a solid's face.
    pub fn vertex_triangle(&self, p: &VertexTriangle) -> Option<Option<SolidSide>> {
        match (self.is_solid(p.vertex), self.is_solid(p.triangle[0])) {
            (false, false) => Some(None),
            (false, true) => Some(Some(SolidSide::face(unit(face_normal(p.triangle, self.q))))),
            (true, false) => {
                let n = self.vertex_normals.get(p.vertex as usize).copied().unwrap_or([0.0; 3]);
                Some(Some(SolidSide::vertex(n, unit(face_normal(p.triangle, self.q)))))
            }
            (true, true) => None,
        }
    }

    /// An edge–edge pair with the shell's edge first and its `outward`: the solid edge's two
    /// face normals, convex when the second face's far corner is below the first face's
    /// plane; otherwise as [`Sides::vertex_triangle`].
    pub fn edge_edge(&self, p: &EdgeEdge) -> Option<(EdgeEdge, Option<SolidSide>)> {
        let [a, b] = p.edges;
        match (self.is_solid(a[0]), self.is_solid(b[0])) {
            (false, false) => Some((*p, None)),
            (true, true) => None,
            (shell_second, _) => {
                let (shell, solid) = if shell_second { (b, a) } else { (a, b) };
                let key = [solid[0].min(solid[1]), solid[0].max(solid[1])];
                let faces = self.edge_faces.get(&key)?.map(|f| self.triangles[f as usize]);
                let normals = faces.map(|f| unit(face_normal(f, self.q)));
                let far = faces[1].into_iter().find(|v| !key.contains(v)).unwrap_or(key[0]);
                let p = |v: u32| [0, 1, 2].map(|k| self.q[3 * v as usize + k]);
                let convex = dot(sub(p(far), p(key[0])), normals[0]) <= 0.0;
                Some((EdgeEdge { edges: [shell, solid] }, Some(SolidSide { normals, convex })))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::pair::VERTEX_SIDE_MIN_COSINE;
    use crate::math::real::add;

    /// The unit tetrahedron (outward faces), a shell triangle 4–5–6 and its edge 4–5: a shell
    /// vertex against a face takes the face's normal; a solid's vertex against a shell
    /// triangle takes the triangle's normal, oriented by the vertex's pseudonormal (unsigned
    /// edge-on to it); a shell edge against a solid edge
    /// comes first and takes the edge's two face normals, convex; pairs of two solid
    /// primitives are not formed.
    #[test]
    fn pairs_take_the_solid_outward_side() {
        let q = [
            0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.2, 0.2, -0.1, 0.4, 0.2, -0.1, 0.2, 0.4, -0.1,
        ];
        let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let solid = [true, true, true, true, false, false, false];
        let by_edge = edge_faces(&faces, 0);
        assert_eq!(by_edge.len(), 6);
        assert_eq!(by_edge[&[0, 1]], [0, 1]);
        let normals = vertex_normals(&faces, &q);
        // Three right angles at the origin: the diagonal; none at the shell's vertices.
        let r = 1.0 / 3f64.sqrt();
        assert!(normals[0].iter().all(|x| (x + r).abs() < 1e-15), "{:?}", normals[0]);
        assert_eq!(normals[4..], [[0.0; 3]; 3]);
        let sides = Sides { triangles: &faces, solid: &solid, edge_faces: &by_edge, vertex_normals: &normals, q: &q };
        let below = VertexTriangle { vertex: 4, triangle: [0, 2, 1] };
        assert_eq!(sides.vertex_triangle(&below), Some(Some(SolidSide::face([0.0, 0.0, -1.0]))));
        let corner = sides.vertex_triangle(&VertexTriangle { vertex: 0, triangle: [4, 5, 6] }).unwrap().unwrap();
        // The shell triangle's normal is +z and c = −1/√3: stored as a face of normal +z.
        assert_eq!(corner, SolidSide::face([0.0, 0.0, 1.0]));
        assert_eq!(SolidSide::vertex(normals[0], [0.0, 0.0, -1.0]), corner, "either orientation");
        // From the shell triangle below to the corner: up, out of the solid at the corner, so
        // the shell's point is outside; from above, inside.
        assert!(!corner.inside([0.0, 0.0, 1.0]) && corner.inside([0.0, 0.0, -1.0]));
        // A shell triangle edge-on to the corner's pseudonormal forms an unsigned pair: no
        // direction is inside. At |c| just above the threshold the pair is signed again.
        let edge_on = unit([1.0, -1.0, 0.0]);
        let unsigned = SolidSide::vertex(normals[0], edge_on);
        assert_eq!(unsigned, SolidSide::UNSIGNED);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..1000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let u = unit([0, 21, 42].map(|k| ((rng >> k) & 0xfffff) as f64 / 524288.0 - 1.0));
            assert!(!unsigned.inside(u), "{u:?}");
        }
        let n = normals[0];
        let c = VERTEX_SIDE_MIN_COSINE + 1e-9;
        let just_signed = unit(add(edge_on.map(|x| x * (1.0 - c * c).sqrt()), n.map(|x| x * c)));
        assert_eq!(SolidSide::vertex(n, just_signed), SolidSide::face(just_signed.map(|x| -x)));
        assert_eq!(sides.vertex_triangle(&VertexTriangle { vertex: 3, triangle: [0, 2, 1] }), None);
        let (e, side) = sides.edge_edge(&EdgeEdge { edges: [[0, 1], [4, 5]] }).unwrap();
        assert_eq!(e.edges, [[4, 5], [0, 1]]);
        let side = side.unwrap();
        assert_eq!(side.normals, [[0.0, 0.0, -1.0], [0.0, -1.0, 0.0]]);
        assert!(side.convex);
        // The tet is at y > 0, z > 0 beside edge 0–1: (0, 1, 1)/√2 points inside;
        // (0, −0.2, 0.98) points outside, past the face y = 0, though within 120° of the
        // other face's normal −z and of the edge's mean normal (0, −1, −1)/√2.
        let s = 0.5f64.sqrt();
        assert!(side.inside([0.0, s, s]) && !side.inside([0.0, -s, -s]) && !side.inside([0.0, -0.2, 0.98]));
        assert!(sides.edge_edge(&EdgeEdge { edges: [[0, 1], [2, 3]] }).is_none());
        assert_eq!(sides.edge_edge(&EdgeEdge { edges: [[4, 5], [5, 4]] }).unwrap().1, None);
    }
}
