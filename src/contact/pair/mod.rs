//! Pairs of mesh primitives, a vertex against a triangle or an edge against an edge, on a
//! 4-vertex stencil: the contact of shells with themselves and each other
//! (`crate::contact::self_contact`), of shells with solids' boundary faces, and of simulated
//! surfaces with a collider mesh's sharp ridges and corners. Each pair carries the paper's cubic
//! penalty b(d) = κ(δ − d)³ for d < δ (Larionov et al. 2022 §3.2, [`ContactLaw::energy`]) applied to the unsigned distance of
//! every candidate vertex–triangle and edge–edge pair of the cloth against itself (or between
//! two shells), W_c = Σ b(d_i) (paper §3.2, the aggregate contact energy), and to a signed gap
//! between a shell and a solid's boundary faces (below).
//!
//! * Vertex–triangle: W = b(d_PT(p; a, b, c)).
//! * Edge–edge: W = m(|e0 × e1|²) b(d_EE(p0, p1; q0, q1)), with the mollifier of IPC
//!   (Li et al. 2020 §4.3) in a C² form: m(x) = 1 − (1 − x/ε_×)³ for x < ε_×, 1 beyond, with
//!   ε_× = 10⁻³ |ē0|²|ē1|² from the rest edges ē. Where two edges turn parallel their closest
//!   points jump along the edges, so d_EE is only Lipschitz there and its Hessian blows up as
//!   1/sin²θ nearby (measured in tests/self_contact_derivatives.rs). m vanishes to first order
//!   in |e0 × e1|² (∝ sin²θ), so the product and its gradient are continuous (C¹) through
//!   parallel configurations (where both are 0) and the Hessian stays bounded. m, m′ and m″
//!   are continuous at x = ε_× (IPC's quadratic m is only C¹ there).
//!
//! b, b′ and b″ vanish at d = δ, so a pair enters contact with no jump in energy, force or
//! stiffness. Within a closest-feature case ([`mod@distance`]) the energy is smooth; across cases
//! d is C¹, so W is C¹ everywhere d > 0 (C² within a case). At d = 0 (primitives touching or
//! crossing; the unsigned distance has no direction) the force is set to 0. (For shell–solid
//! pairs, W is C¹ wherever it does not cross the solid: the sign changes only through d = 0
//! inside a case, or where a crossed pair changes case or leaves [`SolidSide::inside`].)
//!
//! Pairs between a shell and a solid's boundary faces (`crate::contact::self_contact::shell_solid`) carry
//! the solid's outward side ([`PrimitivePair::outward`]) and measure a signed gap instead
//! ([`PrimitivePair::gap`]): negative once the shell's primitive is inside, where b keeps
//! growing, so the penalty pushes it back out rather than on through.
//!
//! Pairs come in explicit lists ([`VertexTriangle`], [`EdgeEdge`]) so that any broad phase can
//! feed them; `crate::contact::self_contact::filter` has the topological exclusion rule and a brute-force gather for tests.
//! [`evaluate`] returns the energy, the gradient and the active pairs' 12 × 12 Hessians with
//! their vertices; each pair is also an [`Element<12>`], so `crate::assemble::element_terms`
//! sums them like any elastic element.

pub mod distance;
pub mod friction;

use crate::contact::ContactLaw;
use crate::energy::{gather, Element};
use crate::math::real::{add, c, cross, dot, sub, vertex, Real};
use distance::{closest_points, distance, edge_edge_feature, point_triangle_feature, Closest};
use nalgebra::SMatrix;
use rayon::prelude::*;

/// ε_× relative to the product of the rest squared edge lengths (IPC's value).
pub(crate) const MOLLIFIER_RELATIVE: f64 = 1e-3;

/// The cosine between P − Q and a solid face's (or edge's mean) outward normal below −this,
/// and only there, counts as inside (an angle over 120°; see [`SolidSide`],
/// [`PrimitivePair::gap`]).
pub(crate) const SIDE_COSINE: f64 = 0.5;

/// The |cosine| between a shell triangle's normal and a solid vertex's pseudonormal below which
/// their pair is unsigned ([`SolidSide::vertex`], [`SolidSide::UNSIGNED`]): the shell is then
/// nearly edge-on to the vertex's normal, and which side of it the solid is on is not reliably
/// told.
pub(crate) const VERTEX_SIDE_MIN_COSINE: f64 = 0.1;

/// A candidate vertex–triangle pair (global vertex indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexTriangle {
    /// The vertex p.
    pub vertex: u32,
    /// The triangle's corners a, b, c.
    pub triangle: [u32; 3],
}

/// A candidate edge–edge pair (global vertex indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeEdge {
    /// Edges (p0, p1) and (q0, q1).
    pub edges: [[u32; 2]; 2],
}

/// Which distance a pair measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PairKind {
    /// Vertex in slot 0, triangle in slots 1–3.
    VertexTriangle,
    /// Edges in slots 0–1 and 2–3, with the mollifier threshold ε_× (m⁴).
    EdgeEdge {
        /// ε_× = 10⁻³ |ē0|²|ē1|² (rest lengths), in m⁴; 0 disables the mollifier.
        eps_cross: f64,
    },
}

/// One self-contact pair as an energy element on its 4-vertex stencil.
#[derive(Clone, Debug, PartialEq)]
pub struct PrimitivePair {
    /// Global indices of the stencil (see [`PairKind`] for the slots).
    pub vertices: [u32; 4],
    /// The distance measured.
    pub kind: PairKind,
    /// Penalty stiffness κ and thickness δ; the friction fields (ε, smoothing, coupling) are
    /// those of [`friction`].
    pub law: ContactLaw,
    /// Friction coefficient μ of the pair's smoothed Coulomb friction (paper Eq. 8;
    /// dimensionless; 0: penalty only), see [`friction`].
    pub mu: f64,
    /// For a pair of a shell's primitive and a solid's (a shell's vertex or edge in slots 0 or
    /// 0–1 and a solid's face or edge, or a solid's vertex in slot 0 and a shell's triangle):
    /// the solid's outward side there, which makes the gap signed ([`PrimitivePair::gap`]).
    /// `None` between shells: the unsigned distance.
    pub outward: Option<SolidSide>,
}

/// The side of a solid's face or edge (unit normals, dimensionless, frozen when the pair is
/// gathered; a solid's vertex against a shell triangle is stored as a face too,
/// [`SolidSide::vertex`]): the direction u = (P − Q)/d of [`SolidSide::inside`] points inside
/// where it makes a cosine below −`SIDE_COSINE` with the mean of the two normals (a face's two
/// normals are its own), and, across a convex edge, also points below both faces' planes
/// (there the inside is where both faces' insides meet; across a concave edge, where either's
/// does, which contains the first cone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidSide {
    /// Outward unit normals of the faces on either side (the same one twice for a face; for a
    /// solid's vertex, the stored normal of [`SolidSide::vertex`], which is not outward).
    pub normals: [[f64; 3]; 2],
    /// Whether the solid is convex across the edge; always for a face.
    pub convex: bool,
}

impl SolidSide {
    /// The side of a face of outward unit normal `n`.
    pub fn face(n: [f64; 3]) -> Self {
        Self { normals: [n, n], convex: true }
    }

    /// A side that never puts the shell's point inside (zero normals: `inside` compares 0 < 0),
    /// so the pair's gap is the unsigned distance, as between shells, with the shell–solid law.
    pub const UNSIGNED: Self = Self { normals: [[0.0; 3]; 2], convex: false };

    /// The side of a solid's vertex of outward unit pseudonormal `vertex_normal` in a pair with
    /// a shell triangle of unit normal `shell_normal`, both at the gather point; [`Self::UNSIGNED`]
    /// where |c| < `VERTEX_SIDE_MIN_COSINE`, c = `shell_normal` · `vertex_normal`, so that the
    /// pair, and its energy within δ, stays when a re-gather finds the triangle edge-on. P is the
    /// solid's vertex and Q on the shell, and the shell's point is inside where u = (P − Q)/d
    /// runs along the pseudonormal, u · n_v > 0 (Bærentzen & Aanæs's sign test). In the
    /// pair's signed case, point–face, u = ±n_s, so that is u along sign(c) n_s: stored as the
    /// side of a face of normal −sign(c) n_s, whose test u · (−sign(c) n_s) < −`SIDE_COSINE`
    /// then has the full margin however far n_s is from n_v: the gap keeps its sign while
    /// the shell triangle turns by up to 60° from where it was gathered.
    pub fn vertex(vertex_normal: [f64; 3], shell_normal: [f64; 3]) -> Self {
        let c = dot(shell_normal, vertex_normal);
        if c.abs() >= VERTEX_SIDE_MIN_COSINE {
            Self::face(shell_normal.map(|x| -c.signum() * x))
        } else {
            Self::UNSIGNED
        }
    }

    /// Whether the pair's unit direction `u` = (P − Q)/d (P on the primitive in slot 0: from
    /// the solid's closest point to the shell's for a shell's vertex or edge there, the reverse
    /// for a solid's vertex) puts the shell's point inside the solid.
    pub fn inside(&self, u: [f64; 3]) -> bool {
        let [a, b] = self.normals;
        let m = add(a, b);
        let along = |n: [f64; 3]| dot(n, u);
        along(m) < -SIDE_COSINE * dot(m, m).sqrt() && (!self.convex || (along(a) < 0.0 && along(b) < 0.0))
    }
}

impl PrimitivePair {
    /// A vertex–triangle pair (μ = 0).
    pub fn vertex_triangle(pair: VertexTriangle, law: ContactLaw) -> Self {
        let [a, b, cc] = pair.triangle;
        Self { vertices: [pair.vertex, a, b, cc], kind: PairKind::VertexTriangle, law, mu: 0.0, outward: None }
    }

    /// An edge–edge pair (μ = 0), its mollifier threshold from the rest positions `rest` (flat, 3 per
    /// vertex, in m).
    pub fn edge_edge(pair: EdgeEdge, law: ContactLaw, rest: &[f64]) -> Self {
        let [[p0, p1], [q0, q1]] = pair.edges;
        let vertices = [p0, p1, q0, q1];
        let x = gather::<12>(&vertices, rest);
        let (e0, e1) = (sub(vertex(&x, 1), vertex(&x, 0)), sub(vertex(&x, 3), vertex(&x, 2)));
        let eps_cross = MOLLIFIER_RELATIVE * dot(e0, e0) * dot(e1, e1);
        Self { vertices, kind: PairKind::EdgeEdge { eps_cross }, law, mu: 0.0, outward: None }
    }

    /// The closest-feature case at stencil positions `x`.
    pub fn closest(&self, x: &[f64; 12]) -> Closest {
        match self.kind {
            PairKind::VertexTriangle => point_triangle_feature(x),
            PairKind::EdgeEdge { .. } => edge_edge_feature(x),
        }
    }

    /// The gap (m) at stencil positions `x` ([`PrimitivePair::gap`]): the unsigned distance d
    /// between shells, the signed gap σd between a shell and a solid.
    pub fn distance(&self, x: &[f64; 12]) -> f64 {
        self.gap(x, self.closest(x)).0
    }

    /// The gap g of closest-feature case `case` and its gradient over the stencil [m, 1]:
    /// g = d between shells. Between a shell and a solid (`outward` set), g = σd with σ = −1
    /// where u = (P − Q)/d puts the shell's point inside the solid ([`SolidSide::inside`]), else 1, in the
    /// interior cases, point–face and line–line. There u is the plane's or the common
    /// perpendicular's normal and σd = ±(x − x_a)·n/|n| or ±(p0 − q0)·n/|n|: smooth through
    /// d = 0, negative once the shell's primitive has passed through the solid's, so the
    /// penalty b(g) keeps growing there and pushes it back (the unsigned d would push it on
    /// through). The edge and corner cases keep σ = 1: beside a convex ridge the shell's
    /// primitive is below the plane of the face over the ridge yet outside the solid, and a
    /// point's side of an edge or corner alone is not defined. So do directions within 120° of
    /// an outward normal (`SIDE_COSINE`): two edges side by side, nearly parallel in the
    /// surface but one tilted out of it, have a common perpendicular along the surface, whose
    /// sign flips with their small angle in the surface although neither is inside (with
    /// σ = sign(u · n) alone the gap jumped there, and Newton's line search stalled in the
    /// low-res tube cloth bend at μ = 0.8, frame 23). And a convex edge's inside is where both
    /// faces' insides meet: a shell edge hanging just outside a box's side face, below the
    /// top edge, is within 120° of the top face's and the edge's mean normal, yet outside.
    pub fn gap<T: Real>(&self, x: &[T; 12], case: Closest) -> (T, [T; 12]) {
        let (d, g) = distance(x, case);
        if self.side(x, case) < 0.0 {
            (-d, g.map(|v| -v))
        } else {
            (d, g)
        }
    }

    /// σ of [`PrimitivePair::gap`] (from the real parts): −1 only where u points inside
    /// ([`SolidSide::inside`]).
    pub(crate) fn side<T: Real>(&self, x: &[T; 12], case: Closest) -> f64 {
        match (self.outward, case) {
            (Some(side), Closest::PointFace(..) | Closest::LineLine) => {
                let (_, _, u) = closest_points(&x.map(|v| v.re()), case);
                if side.inside(u) {
                    -1.0
                } else {
                    1.0
                }
            }
            _ => 1.0,
        }
    }
}

/// The mollifier m(x) = 1 − (1 − x/ε)³ (x < ε), 1 (x ≥ ε) of x = |e0 × e1|² and its gradient
/// over the stencil, with ∂x/∂e0 = 2 e1 × (e0 × e1) and ∂x/∂e1 = 2 (e0 × e1) × e0.
pub fn mollifier<T: Real>(x: &[T; 12], eps: f64) -> (T, [T; 12]) {
    let mut g = [c::<T>(0.0); 12];
    let (e0, e1) = (sub(vertex(x, 1), vertex(x, 0)), sub(vertex(x, 3), vertex(x, 2)));
    let n = cross(e0, e1);
    let s = dot(n, n) * (1.0 / eps);
    if !(eps > 0.0) || s.re() >= 1.0 {
        return (c(1.0), g);
    }
    let r = -s + 1.0;
    // dm/dx = 3(1 − x/ε)²/ε.
    let dm = r * r * (3.0 / eps);
    let (g0, g1) = (cross(e1, n), cross(n, e0));
    for i in 0..3 {
        g[i] = -g0[i] * dm * 2.0;
        g[3 + i] = g0[i] * dm * 2.0;
        g[6 + i] = -g1[i] * dm * 2.0;
        g[9 + i] = g1[i] * dm * 2.0;
    }
    (-(r * r * r) + 1.0, g)
}

impl Element<12> for PrimitivePair {
    fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    /// b(d) for a vertex–triangle pair, m b(d) for an edge–edge pair; in J.
    fn energy(&self, x: &[f64; 12]) -> f64 {
        let d = self.distance(x);
        match self.kind {
            PairKind::VertexTriangle => self.law.energy(d),
            PairKind::EdgeEdge { eps_cross } if d < self.law.delta => mollifier(x, eps_cross).0 * self.law.energy(d),
            PairKind::EdgeEdge { .. } => 0.0,
        }
    }

    /// b′(d) ∇d (vertex–triangle), m b′(d) ∇d + b(d) ∇m (edge–edge), b′ = −3κ(δ − d)², with d
    /// the gap ([`PrimitivePair::gap`]); the case is fixed from the real part so dual numbers
    /// differentiate within it.
    fn gradient<T: Real>(&self, x: &[T; 12]) -> [T; 12] {
        let xr = x.map(|v| v.re());
        let (d, gd) = self.gap(x, self.closest(&xr));
        if d.re() >= self.law.delta {
            return [c(0.0); 12];
        }
        let db = -self.law.force(d);
        match self.kind {
            PairKind::VertexTriangle => gd.map(|g| g * db),
            PairKind::EdgeEdge { eps_cross } => {
                let (m, gm) = mollifier(x, eps_cross);
                let b = self.law.penalty(d);
                std::array::from_fn(|i| gd[i] * db * m + gm[i] * b)
            }
        }
    }
}

/// A pair's Hessian with the global vertices of its rows and columns (3 per vertex, in order).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalHessian {
    /// Global vertex indices of the 4 stencil slots.
    pub vertices: [u32; 4],
    /// ∂²W/∂x², rows and columns 3·slot + coordinate; in N/m.
    pub matrix: SMatrix<f64, 12, 12>,
}

/// Self-contact energy and derivatives at one configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfContactEval {
    /// W_c = Σ b(d_i), in J.
    pub energy: f64,
    /// ∂W_c/∂q, 3 per vertex, in N.
    pub gradient: Vec<f64>,
    /// Hessians of the pairs within the thickness (d < δ), in pair order.
    pub hessians: Vec<LocalHessian>,
}

/// The elements of explicit candidate lists: vertex–triangle pairs first, then edge–edge pairs
/// (their mollifier thresholds from rest positions `rest`).
pub fn elements(law: ContactLaw, rest: &[f64], vt: &[VertexTriangle], ee: &[EdgeEdge]) -> Vec<PrimitivePair> {
    let mut out: Vec<PrimitivePair> = vt.iter().map(|&p| PrimitivePair::vertex_triangle(p, law)).collect();
    out.extend(ee.iter().map(|&p| PrimitivePair::edge_edge(p, law, rest)));
    out
}

/// Energy, gradient and active Hessians of the pairs at positions `q` (flat, 3 per vertex).
/// Pairs are evaluated in parallel and summed serially in order (thread-count independent).
pub fn evaluate(pairs: &[PrimitivePair], q: &[f64]) -> SelfContactEval {
    let local: Vec<Option<(f64, [f64; 12], SMatrix<f64, 12, 12>)>> = pairs
        .par_iter()
        .map(|p| {
            let x = gather::<12>(&p.vertices, q);
            (p.distance(&x) < p.law.delta).then(|| (p.energy(&x), p.gradient(&x), p.hessian(&x)))
        })
        .collect();
    let mut out = SelfContactEval { gradient: vec![0.0; q.len()], ..Default::default() };
    for (p, l) in pairs.iter().zip(local) {
        let Some((e, g, h)) = l else { continue };
        out.energy += e;
        for (slot, &v) in p.vertices.iter().enumerate() {
            for k in 0..3 {
                out.gradient[3 * v as usize + k] += g[3 * slot + k];
            }
        }
        out.hessians.push(LocalHessian { vertices: p.vertices, matrix: h });
    }
    out
}
