//! Shell–solid pairs of self-contact (`grip::contact::self_contact::shell_solid`) one at a
//! time: the gap signed by the solid's outward side, its derivatives against central
//! differences through and beyond the solid's surface, the edge and side-by-side cases that
//! stay unsigned, and a solid's vertex through a shell triangle.

mod common;

use common::fd_errors;
use grip::contact::pair::distance::{edge_edge_feature, point_triangle_feature};
use grip::contact::pair::{EdgeEdge, PrimitivePair, SolidSide, VertexTriangle};
use grip::contact::ContactLaw;
use grip::contact::FrictionCoupling;
use grip::contact::FrictionSmoothing;
use grip::energy::Element;
/// Layer thickness δ [m] and stiffness κ [N/m²] of the unit tests.
const DELTA: f64 = 0.01;
const KAPPA: f64 = 1e3;

fn law() -> ContactLaw {
    ContactLaw {
        kappa: KAPPA,
        delta: DELTA,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    }
}

/// A shell vertex (slot 0) over the solid face (0,0,0), (1,0,0), (0,1,0) of outward normal +z,
/// at (0.2, 0.3, z).
fn vertex_over_face(z: f64) -> (PrimitivePair, [f64; 12]) {
    let pair = PrimitivePair {
        outward: Some(SolidSide::face([0.0, 0.0, 1.0])),
        ..PrimitivePair::vertex_triangle(VertexTriangle { vertex: 0, triangle: [1, 2, 3] }, law())
    };
    (pair, [0.2, 0.3, z, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
}

/// A shell edge along x (slots 0–1) crossing over a solid edge along y (slots 2–3) of outward
/// normal +z, at height z above it.
fn edge_over_edge(z: f64) -> (PrimitivePair, [f64; 12]) {
    let x = [-0.5, 0.1, z, 0.5, 0.15, z, 0.05, -0.5, 0.0, -0.02, 0.5, 0.0];
    let pair = PrimitivePair {
        outward: Some(SolidSide::face([0.0, 0.0, 1.0])),
        ..PrimitivePair::edge_edge(EdgeEdge { edges: [[0, 1], [2, 3]] }, law(), &x)
    };
    (pair, x)
}

/// The gap is the signed plane or common-perpendicular distance: negative through the solid,
/// and the force on the shell's primitive pushes it out (+z) on both sides of the surface.
#[test]
fn gap_is_signed_by_the_solid_outward_side() {
    for z in [0.008, 0.002, -0.002, -0.008, -0.03] {
        let (pair, x) = vertex_over_face(z);
        assert!((pair.distance(&x) - z).abs() < 1e-15, "{z}");
        assert!(pair.gradient(&x)[2] < 0.0, "the energy falls as the vertex rises, z = {z}");
        let (pair, x) = edge_over_edge(z);
        assert!((pair.distance(&x) - z).abs() < 1e-12, "{z}: {}", pair.distance(&x));
        assert!(pair.gradient(&x)[2] + pair.gradient(&x)[5] < 0.0, "z = {z}");
        // The same pair without a side: the unsigned distance, pushing on through below.
        let plain = PrimitivePair { outward: None, ..pair.clone() };
        assert!((plain.distance(&x) - z.abs()).abs() < 1e-12);
        if z < 0.0 && -z < DELTA {
            assert!(plain.gradient(&x)[2] > 0.0 && pair.energy(&x) > plain.energy(&x));
        }
    }
    // The energy keeps growing through the surface: b(g) = κ(δ − g)³.
    let e = |z: f64| {
        let (p, x) = vertex_over_face(z);
        p.energy(&x)
    };
    assert!(e(-0.005) > e(0.0) && e(0.0) > e(0.005) && e(0.0011 + DELTA) == 0.0);
    assert!((e(-0.005) - KAPPA * (DELTA + 0.005f64).powi(3)).abs() < 1e-12);
}

/// Beside a convex ridge the shell's vertex is below the plane of the face over the ridge yet
/// outside the solid: its closest feature is that face's edge, which keeps the unsigned
/// distance (no pull into the ridge).
#[test]
fn edge_and_corner_cases_stay_unsigned() {
    // Face in z = 0 over x ∈ [0, 1]; the vertex at x = −0.004, 0.003 below its plane.
    let (pair, mut x) = vertex_over_face(-0.003);
    x[0] = -0.004;
    assert!(!matches!(point_triangle_feature(&x), grip::contact::pair::distance::Closest::PointFace(..)));
    assert!((pair.distance(&x) - 0.005).abs() < 1e-12, "{}", pair.distance(&x));
    // Edges whose closest points are an end point: unsigned too.
    let (pair, mut x) = edge_over_edge(-0.003);
    x[3] = 0.0;
    x[0] = -0.5;
    assert!(!matches!(edge_edge_feature(&x), grip::contact::pair::distance::Closest::LineLine));
    assert!(pair.distance(&x) > 0.0);
}

/// Two edges side by side, 3 mm apart across the surface, nearly parallel in it (angle ±0.001)
/// with the shell's tilted out of it by 0.2: their common perpendicular runs along the surface
/// and turns over with the small angle. Neither is inside, so the gap stays +3 mm on both
/// sides (a sign taken from the perpendicular alone jumped to −3 mm).
#[test]
fn edges_side_by_side_keep_a_positive_gap() {
    let w = 0.003;
    for b in [1e-3, -1e-3] {
        let a = 0.2;
        let x = [-0.5, w - 0.5 * b, -0.5 * a, 0.5, w + 0.5 * b, 0.5 * a, -0.5, 0.0, 0.0, 0.5, 0.0, 0.0];
        let pair = PrimitivePair {
            outward: Some(SolidSide::face([0.0, 0.0, 1.0])),
            ..PrimitivePair::edge_edge(EdgeEdge { edges: [[0, 1], [2, 3]] }, law(), &x)
        };
        assert!(matches!(edge_edge_feature(&x), grip::contact::pair::distance::Closest::LineLine));
        assert!((pair.distance(&x) - w).abs() < 1e-5, "b = {b}: {}", pair.distance(&x));
    }
}

/// A shell edge just outside a box's side face (x > 0), passing 2 mm below its top edge along
/// y (the box at x < 0, z < 0): its common perpendicular with the top edge points down and
/// slightly out, within 120° of the top face's normal and of the edge's mean normal but past
/// the side face, so it is outside and its gap is +d (with the mean normal alone it was −d,
/// pulling the cloth into the edge).
#[test]
fn a_shell_edge_beside_a_convex_edge_is_outside() {
    // The shell's line passes (0.4, 0, −1.96) mm along (0.98, 0, 0.2), its segment from
    // t = −0.2 mm (still at x > 0) on: the common perpendicular u = (0.2, 0, −0.98).
    let (p, e) = ([0.0004, 0.0, -0.00196], [0.98, 0.0, 0.2]);
    let at = |t: f64| [0, 1, 2].map(|k| p[k] + t * e[k]);
    let (a, b) = (at(-0.0002), at(0.5));
    let x = [a[0], a[1], a[2], b[0], b[1], b[2], 0.0, 0.1, 0.0, 0.0, -0.1, 0.0];
    let side = SolidSide { normals: [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]], convex: true };
    let pair = PrimitivePair {
        outward: Some(side),
        ..PrimitivePair::edge_edge(EdgeEdge { edges: [[0, 1], [2, 3]] }, law(), &x)
    };
    assert!(matches!(edge_edge_feature(&x), grip::contact::pair::distance::Closest::LineLine));
    let d = pair.distance(&x);
    assert!(d > 0.0019 && d < 0.0021, "{d}");
    let mean = SolidSide::face([0.5f64.sqrt(), 0.0, 0.5f64.sqrt()]);
    assert!(PrimitivePair { outward: Some(mean), ..pair }.distance(&x) < 0.0, "the mean normal's verdict");
}

/// Gradients and Hessians against central differences of the energy and the gradient, above,
/// at and below the surface (the signed gap is smooth through 0 in the interior cases).
#[test]
fn derivatives_match_central_differences_through_the_surface() {
    for z in [0.009, 0.004, 1e-4, -1e-4, -0.004, -0.02] {
        for (name, (pair, x)) in [("vertex-face", vertex_over_face(z)), ("edge-edge", edge_over_edge(z))] {
            let (g, h) = fd_errors(&pair, &x, 1e-7);
            assert!(g < 1e-6 && h < 1e-5, "{name} z = {z}: gradient {g:e}, Hessian {h:e}");
        }
    }
}

/// A solid's vertex (slot 0) of outward pseudonormal +z under the shell triangle (0,0,z),
/// (1,0,z), (0,1,z), at (0.2, 0.3, 0): the vertex's side stores −z, as a face's would.
fn vertex_under_triangle(z: f64) -> (PrimitivePair, [f64; 12]) {
    let side = SolidSide::vertex([0.0, 0.0, 1.0], [0.0, 0.0, 1.0]);
    assert_eq!(side, SolidSide::face([0.0, 0.0, -1.0]));
    let pair = PrimitivePair {
        outward: Some(side),
        ..PrimitivePair::vertex_triangle(VertexTriangle { vertex: 0, triangle: [1, 2, 3] }, law())
    };
    (pair, [0.2, 0.3, 0.0, 0.0, 0.0, z, 1.0, 0.0, z, 0.0, 1.0, z])
}

/// A solid's vertex against a shell triangle: the gap is negative once the vertex is through
/// the triangle (the triangle below it, on its inside), the force lifts the triangle (+z) on
/// both sides, and the derivatives match central differences through the surface.
#[test]
fn a_solid_vertex_through_a_shell_triangle_has_a_negative_gap() {
    for z in [0.009, 0.004, 1e-4, -1e-4, -0.004, -0.02] {
        let (pair, x) = vertex_under_triangle(z);
        assert!((pair.distance(&x) - z).abs() < 1e-15, "{z}: {}", pair.distance(&x));
        let g = pair.gradient(&x);
        if z < DELTA {
            assert!(g[5] + g[8] + g[11] < 0.0 && g[2] > 0.0, "the energy falls as the triangle rises, z = {z}");
        }
        let (g, h) = fd_errors(&pair, &x, 1e-7);
        assert!(g < 1e-6 && h < 1e-5, "z = {z}: gradient {g:e}, Hessian {h:e}");
    }
}

/// A pair whose triangle a re-gather finds edge-on to the vertex's pseudonormal is kept
/// unsigned, not dropped: outside the solid and within δ its gap, gradient and Hessian are the
/// signed pair's, so the energy does not jump when the side changes at a re-gather; through
/// the triangle only the signed pair's gap is negative.
#[test]
fn an_edge_on_solid_vertex_pair_keeps_its_energy() {
    for z in [0.004, 1e-4, -1e-4] {
        let (signed, x) = vertex_under_triangle(z);
        let unsigned = PrimitivePair { outward: Some(SolidSide::UNSIGNED), ..signed };
        assert!((unsigned.distance(&x) - z.abs()).abs() < 1e-15, "{z}: {}", unsigned.distance(&x));
        if z > 0.0 {
            assert_eq!(unsigned.distance(&x), signed.distance(&x));
            assert_eq!(unsigned.gradient(&x), signed.gradient(&x));
        } else {
            assert!(signed.distance(&x) < 0.0);
        }
        let (g, h) = fd_errors(&unsigned, &x, 1e-7);
        assert!(g < 1e-6 && h < 1e-5, "z = {z}: gradient {g:e}, Hessian {h:e}");
    }
}
