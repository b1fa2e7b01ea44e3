//! Self-contact energy: gradients against central differences of the energy and
//! Hessians against central differences of the gradient, on random pairs within the thickness,
//! across closest-feature regions of a triangle, on nearly parallel and parallel edges and at
//! the thickness itself, plus the assembled energy of a small mesh.

mod common;

use common::{rel_err, Lcg};
use grip::contact::pair::distance::Closest;
use grip::contact::pair::{evaluate, EdgeEdge, PairKind, PrimitivePair, VertexTriangle};
use grip::contact::ContactLaw;
use grip::contact::FrictionCoupling;
use grip::contact::FrictionSmoothing;
use grip::energy::Element;

const TOL: f64 = 1e-6;

fn law(kappa: f64, delta: f64) -> ContactLaw {
    ContactLaw {
        kappa,
        delta,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    }
}

fn pt(delta: f64) -> PrimitivePair {
    PrimitivePair::vertex_triangle(VertexTriangle { vertex: 0, triangle: [1, 2, 3] }, law(1e3, delta))
}

fn ee(delta: f64, rest: &[f64; 12]) -> PrimitivePair {
    PrimitivePair::edge_edge(EdgeEdge { edges: [[0, 1], [2, 3]] }, law(1e3, delta), rest)
}

/// (gradient error, Hessian error), each the largest deviation from central differences with
/// step `h` relative to the largest entry of the quantity (for the gradient at least
/// `g_floor`, the force scale where the gradient itself vanishes).
fn fd_scaled(e: &PrimitivePair, x: &[f64; 12], h: f64, g_floor: f64) -> (f64, f64) {
    let (g, hs) = (e.gradient(x), e.hessian(x));
    let mut g_fd = [0.0; 12];
    let mut h_fd = vec![0.0; 144];
    for i in 0..12 {
        let (mut xp, mut xm) = (*x, *x);
        xp[i] += h;
        xm[i] -= h;
        g_fd[i] = (e.energy(&xp) - e.energy(&xm)) / (2.0 * h);
        let (gp, gm) = (e.gradient(&xp), e.gradient(&xm));
        for j in 0..12 {
            h_fd[12 * j + i] = (gp[j] - gm[j]) / (2.0 * h);
        }
    }
    let h_an: Vec<f64> = (0..144).map(|k| hs[(k / 12, k % 12)]).collect();
    let big = |a: &[f64], b: &[f64]| a.iter().chain(b).fold(1e-300f64, |m, v| m.max(v.abs()));
    (rel_err(&g, &g_fd, big(&g, &g_fd).max(g_floor)), rel_err(&h_an, &h_fd, big(&h_an, &h_fd)))
}

/// [`fd_scaled`] relative to the largest entries.
fn fd(e: &PrimitivePair, x: &[f64; 12], h: f64) -> (f64, f64) {
    fd_scaled(e, x, h, 0.0)
}

fn case_name(c: Closest) -> &'static str {
    match c {
        Closest::PointPoint(..) => "vertex",
        Closest::PointEdge(..) => "edge",
        Closest::PointFace(..) => "face",
        Closest::LineLine => "interior",
    }
}

fn random_stencil(rng: &mut Lcg) -> [f64; 12] {
    std::array::from_fn(|_| rng.range(-0.5, 0.5))
}

/// Random pairs whose distance lies in (0.05δ, 0.95δ), every closest-feature case hit.
#[test]
fn random_pairs_within_thickness() {
    let mut rng = Lcg(3);
    let delta = 0.1;
    let mut worst = (0.0f64, 0.0f64);
    let mut seen = std::collections::BTreeMap::new();
    for triangle in [true, false] {
        let mut accepted = 0;
        while accepted < 400 {
            let mut x = random_stencil(&mut rng);
            // Pull slot 0 (and for edges slot 1) towards the other primitive's centroid, or
            // for a third of the triangles towards a corner (to reach the vertex regions).
            let pull = rng.range(0.5, 1.0);
            let corner = (accepted % 3 == 0).then(|| 1 + (rng.uniform() * 3.0) as usize);
            for k in 0..3 {
                let target = match (triangle, corner) {
                    (true, Some(i)) => x[3 * i + k],
                    (true, None) => (x[3 + k] + x[6 + k] + x[9 + k]) / 3.0,
                    (false, _) => 0.5 * (x[6 + k] + x[9 + k]),
                };
                x[k] += pull * (target - x[k]);
                if !triangle {
                    x[3 + k] += pull * (target - x[3 + k]);
                }
            }
            let e = if triangle { pt(delta) } else { ee(delta, &x) };
            let d = e.distance(&x);
            if !(d > 0.05 * delta && d < 0.95 * delta) {
                continue;
            }
            accepted += 1;
            let (ge, he) = fd(&e, &x, 1e-7);
            let name = case_name(e.closest(&x));
            *seen.entry((triangle, name)).or_insert(0) += 1;
            assert!(ge < TOL && he < TOL, "{name} (triangle {triangle}) d {d:.4}: {ge:e} {he:e} at {x:?}");
            worst = (worst.0.max(ge), worst.1.max(he));
        }
    }
    println!("random pairs: cases {seen:?}; max gradient error {:e}, max Hessian error {:e}", worst.0, worst.1);
    assert_eq!(seen.len(), 6, "every closest-feature case is exercised: {seen:?}");
}

/// A vertex 0.03 above the plane of triangle (0,0,0), (1,0,0), (0,1,0) moving from over the
/// face, across edge ab's region boundary, to beyond corner a: derivatives match in every
/// region, the expected case is chosen, and the gradient is continuous across each boundary.
#[test]
fn vertex_close_to_a_triangle_edge_and_corner() {
    let delta = 0.1;
    let e = pt(delta);
    let at = |px: f64, py: f64| [px, py, 0.03, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let mut worst = (0.0f64, 0.0f64);
    for (px, py, expect) in [
        (0.5, 1e-3, "face"),
        (0.5, 1e-6, "face"),
        (0.5, -1e-6, "edge"),
        (0.5, -1e-3, "edge"),
        (0.5, -0.05, "edge"),
        (1e-3, -0.05, "edge"),
        (-1e-6, -0.05, "vertex"),
        (-1e-3, -1e-3, "vertex"),
        (-0.02, 0.5, "edge"),
        (0.99, 1e-3, "face"),
        (1.0 + 1e-6, -1e-6, "vertex"),
    ] {
        let x = at(px, py);
        assert_eq!(case_name(e.closest(&x)), expect, "at ({px}, {py})");
        // The step stays well inside the region (10⁻⁹ < every boundary distance here).
        let (ge, he) = fd(&e, &x, 1e-9_f64.max(1e-3 * px.abs().min(py.abs())).min(1e-7));
        assert!(ge < TOL && he < TOL, "{expect} at ({px}, {py}): {ge:e} {he:e}");
        worst = (worst.0.max(ge), worst.1.max(he));
    }
    // C¹ across the face/edge and edge/vertex boundaries: one-sided gradients agree.
    for (a, b) in [((0.3, 1e-9), (0.3, -1e-9)), ((1e-9, -0.04), (-1e-9, -0.04))] {
        let (ga, gb) = (e.gradient(&at(a.0, a.1)), e.gradient(&at(b.0, b.1)));
        let scale = ga.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(rel_err(&ga, &gb, scale) < 1e-6, "gradient jumps between {a:?} and {b:?}");
    }
    println!("near edge/corner: max gradient error {:e}, max Hessian error {:e}", worst.0, worst.1);
}

/// Edge (0,0,0)–(1,0,0) and a unit edge at angle θ to it in the plane z = `z`, centred at
/// (0.5 + `shift`, `lateral`, z): with `lateral` = 0 their projections cross at its centre.
fn edges_at(theta: f64, z: f64, shift: f64, lateral: f64) -> [f64; 12] {
    let (c, s) = (0.5 * theta.cos(), 0.5 * theta.sin());
    [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5 + shift - c, lateral - s, z, 0.5 + shift + c, lateral + s, z]
}

/// [`edges_at`] with the projections crossing.
fn edges_at_angle(theta: f64, z: f64, shift: f64) -> [f64; 12] {
    edges_at(theta, z, shift, 0.0)
}

/// Edges at 10⁻⁴ rad, crossing over their interiors (the ill-conditioned line–line case) and
/// overlapping with closest points at an end (end point cases): the mollified energy's
/// derivatives match differences with steps small against θ.
#[test]
fn nearly_parallel_edges() {
    let delta = 0.1;
    let theta = 1e-4;
    // Lines crossing at x = 0.5 + shift − lateral/θ: inside both edges, or outside.
    for (shift, lateral, expect) in
        [(0.0, 0.0, "interior"), (0.3, 0.0, "interior"), (0.0, 2e-4, "edge"), (0.3, -1e-4, "edge")]
    {
        let x = edges_at(theta, 0.5 * delta, shift, lateral);
        let rest = edges_at_angle(0.3, 0.5 * delta, 0.0);
        let e = ee(delta, &rest);
        assert_eq!(case_name(e.closest(&x)), expect, "shift {shift}, lateral {lateral}");
        assert!(e.energy(&x) > 0.0, "mollified but not zero");
        let mut best = (f64::INFINITY, f64::INFINITY);
        for h in [1e-8, 1e-9, 1e-10] {
            let (ge, he) = fd(&e, &x, h);
            best = (best.0.min(ge), best.1.min(he));
        }
        println!(
            "θ = 1e-4 rad, {expect} (shift {shift}, lateral {lateral}): gradient error {:e}, Hessian error {:e}",
            best.0, best.1
        );
        assert!(best.0 < TOL && best.1 < TOL, "{expect}: {best:?}");
    }
    // Why the mollifier: unmollified, the interior case's Hessian grows as 1/θ² as the edges
    // turn parallel; mollified (m ≈ 3θ²/ε_×) it stays bounded.
    let rest = edges_at_angle(0.3, 0.05, 0.0);
    let plain = PrimitivePair { kind: PairKind::EdgeEdge { eps_cross: 0.0 }, ..ee(delta, &rest) };
    let norms = |theta: f64| {
        let x = edges_at_angle(theta, 0.05, 0.0);
        (plain.hessian(&x).norm(), ee(delta, &rest).hessian(&x).norm())
    };
    let (a, b) = (norms(theta), norms(0.1 * theta));
    println!("Hessian norms at θ = 1e-4 / 1e-5: unmollified {:e} / {:e}, mollified {:e} / {:e}", a.0, b.0, a.1, b.1);
    assert!(b.0 > 50.0 * a.0 && (b.1 - a.1).abs() < 0.1 * a.1, "{a:?} {b:?}");
}

/// Exactly parallel edges (overlapping, and collinear-offset): the mollifier makes energy and
/// gradient 0 there; the Hessian, b(d) m′(0) ∂²|e0 × e1|², matches differences of the gradient.
#[test]
fn exactly_parallel_edges() {
    let delta = 0.1;
    let rest = edges_at_angle(0.3, 0.5 * delta, 0.0);
    let e = ee(delta, &rest);
    for shift in [0.0, 0.4, 0.9] {
        let x = edges_at_angle(0.0, 0.5 * delta, shift);
        assert_eq!(e.energy(&x), 0.0);
        assert!(e.gradient(&x).iter().all(|&g| g == 0.0));
        let h = e.hessian(&x);
        assert!(h.iter().all(|v| v.is_finite()) && h.norm() > 0.0, "shift {shift}: Hessian {h}");
        // The gradient vanishes here: its errors relative to the force scale b′(d).
        let (ge, he) = fd_scaled(&e, &x, 1e-8, e.law.force(0.5 * delta));
        println!("parallel, shift {shift}: gradient error {ge:e}, Hessian error {he:e}");
        assert!(ge < TOL && he < TOL, "shift {shift}: {ge:e} {he:e}");
    }
}

/// The mollifier is C²: the Hessian is continuous where |e0 × e1|² crosses ε_×, and the energy
/// rises to the unmollified penalty there.
#[test]
fn mollifier_threshold_is_smooth() {
    let delta = 0.1;
    let rest = edges_at_angle(0.5, 0.5 * delta, 0.0);
    let e = ee(delta, &rest);
    let PairKind::EdgeEdge { eps_cross } = e.kind else { unreachable!() };
    // |e0 × e1|² = sin²θ for unit edges.
    let theta = eps_cross.sqrt().asin();
    let (below, above) = (edges_at_angle(theta - 1e-9, 0.05, 0.0), edges_at_angle(theta + 1e-9, 0.05, 0.0));
    let (hb, ha) = (e.hessian(&below), e.hessian(&above));
    assert!((hb - ha).norm() < 1e-6 * ha.norm(), "Hessian jumps: {:e}", (hb - ha).norm() / ha.norm());
    let b = e.law.energy(0.05);
    assert!((e.energy(&above) - b).abs() < 1e-12 * b && (e.energy(&below) - b).abs() < 1e-9 * b);
    for x in [edges_at_angle(0.5 * theta, 0.05, 0.0), edges_at_angle(0.99 * theta, 0.05, 0.0)] {
        let (ge, he) = fd(&e, &x, 1e-8);
        assert!(ge < TOL && he < TOL, "{ge:e} {he:e}");
    }
}

/// At d → δ energy and gradient vanish as (δ − d)³ and (δ − d)² (no jump when contact
/// appears); beyond δ they are exactly 0; just below δ the derivatives still match.
#[test]
fn continuous_at_the_thickness() {
    let delta = 0.1;
    let kappa = 1e3;
    let tri = |d: f64| [0.2, 0.2, d, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let edges = |d: f64| edges_at_angle(1.0, d, 0.0);
    for gap in [1e-2, 1e-4, 1e-6] {
        let d = delta * (1.0 - gap);
        let (e_pt, x_pt) = (pt(delta), tri(d));
        let e_ee = ee(delta, &edges(d));
        for (e, x) in [(&e_pt, x_pt), (&e_ee, edges(d))] {
            let expected = kappa * (delta - d).powi(3);
            assert!((e.energy(&x) - expected).abs() < 1e-9 * expected, "energy at gap {gap}");
            let g = e.gradient(&x);
            let force = 3.0 * kappa * (delta - d).powi(2);
            // On slot 0 the gradient is −b′ · (weight ≤ 1) along the normal.
            assert!(g.iter().all(|v| v.abs() <= force * (1.0 + 1e-9)) && g[2].abs() > 0.4 * force);
            let (ge, he) = fd(e, &x, 1e-3 * gap * delta);
            assert!(ge < TOL && he < TOL, "gap {gap}: {ge:e} {he:e}");
        }
    }
    for x in [tri(delta), tri(delta * (1.0 + 1e-12)), edges(delta), edges(delta * (1.0 + 1e-12))] {
        let e = if x[3] == 0.0 && x[6] == 1.0 { pt(delta) } else { ee(delta, &x) };
        assert_eq!(e.energy(&x), 0.0);
        assert!(e.gradient(&x).iter().all(|&g| g == 0.0) && e.hessian(&x).iter().all(|&v| v == 0.0));
    }
}

/// The assembled energy of overlapping pairs on 6 vertices: the global gradient matches
/// differences of the total energy, the scattered local Hessians those of the gradient.
#[test]
fn assembled_gradient_and_hessian() {
    let delta = 0.1;
    let law = law(1e3, delta);
    let mut rng = Lcg(9);
    let q0: Vec<f64> =
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.3, 0.05, 0.45, 0.65, 0.04, 0.7, 0.05, -0.03];
    let q: Vec<f64> = q0.iter().map(|v| v + rng.range(-0.005, 0.005)).collect();
    let vt = [VertexTriangle { vertex: 3, triangle: [0, 1, 2] }, VertexTriangle { vertex: 5, triangle: [0, 1, 2] }];
    let ee = [EdgeEdge { edges: [[1, 2], [3, 4]] }, EdgeEdge { edges: [[0, 1], [5, 3]] }];
    let pairs = grip::contact::pair::elements(law, &q0, &vt, &ee);
    let eval = evaluate(&pairs, &q);
    assert_eq!(eval.hessians.len(), 4, "most pairs are within δ: {}", eval.hessians.len());
    let n = q.len();
    let mut dense = vec![0.0; n * n];
    for lh in &eval.hessians {
        for (a, &va) in lh.vertices.iter().enumerate() {
            for (b, &vb) in lh.vertices.iter().enumerate() {
                for r in 0..3 {
                    for c in 0..3 {
                        dense[(3 * va as usize + r) * n + 3 * vb as usize + c] += lh.matrix[(3 * a + r, 3 * b + c)];
                    }
                }
            }
        }
    }
    let h = 1e-7;
    let (mut g_fd, mut h_fd) = (vec![0.0; n], vec![0.0; n * n]);
    for i in 0..n {
        let (mut qp, mut qm) = (q.clone(), q.clone());
        qp[i] += h;
        qm[i] -= h;
        let (ep, em) = (evaluate(&pairs, &qp), evaluate(&pairs, &qm));
        g_fd[i] = (ep.energy - em.energy) / (2.0 * h);
        for j in 0..n {
            h_fd[j * n + i] = (ep.gradient[j] - em.gradient[j]) / (2.0 * h);
        }
    }
    let gs = eval.gradient.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let hs = dense.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let (ge, he) = (rel_err(&eval.gradient, &g_fd, gs), rel_err(&dense, &h_fd, hs));
    println!("assembled: gradient error {ge:e}, Hessian error {he:e}");
    assert!(ge < TOL && he < TOL, "{ge:e} {he:e}");
}
