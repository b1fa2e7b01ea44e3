//! Self-contact physics and the exclusion rule: two parallel cloth squares 0.5δ
//! apart are pushed apart with equal and opposite total forces; a flat sheet exerts no
//! self-contact force on itself at rest for thicknesses below its edge length, yet resists
//! being crushed in its plane below δ, and a hinge folded flat is pushed open.

use grip::contact::pair::{elements, evaluate, SelfContactEval};
use grip::contact::self_contact::filter::{brute_force_candidates, rest_clearance, ExclusionFilter};
use grip::contact::ContactLaw;
use grip::contact::FrictionCoupling;
use grip::contact::FrictionSmoothing;
use grip::mesh::generate::grid_cloth;

fn law(delta: f64) -> ContactLaw {
    ContactLaw {
        kappa: 1e6,
        delta,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    }
}

fn triples(flat: &[u32]) -> Vec<[u32; 3]> {
    flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
}

/// Self-contact of `triangles` (rest positions `rest`) at positions `q` with candidates
/// gathered by brute force.
fn self_contact_from(rest: &[f64], q: &[f64], triangles: &[[u32; 3]], delta: f64) -> SelfContactEval {
    let filter = ExclusionFilter::new(triangles, rest, delta);
    let (vt, ee) = brute_force_candidates(&filter, triangles, q, delta);
    evaluate(&elements(law(delta), q, &vt, &ee), q)
}

/// Self-contact of `triangles` at positions `q`, which are also the rest positions.
fn self_contact(q: &[f64], triangles: &[[u32; 3]], delta: f64) -> SelfContactEval {
    self_contact_from(q, q, triangles, delta)
}

/// Two 0.2 m squares of 8 × 8 quads (grid_cloth, normal +y), the top one 0.5δ above the bottom
/// one: the force −∇W on the top sheet points up (+y) at every vertex, and its total is equal
/// and opposite to the bottom sheet's, in-plane offset or aligned.
#[test]
fn parallel_sheets_are_pushed_apart() {
    let delta = 0.004;
    let (bottom, tris) = grid_cloth(0.2, 0.2, 8, 8);
    let n = bottom.len() / 3;
    for offset in [[0.0, 0.0], [0.0071, -0.0043]] {
        let mut q = bottom.clone();
        for v in 0..n {
            q.extend_from_slice(&[bottom[3 * v] + offset[0], 0.5 * delta, bottom[3 * v + 2] + offset[1]]);
        }
        let mut all = triples(&tris);
        all.extend(triples(&tris).iter().map(|t| t.map(|i| i + n as u32)));
        let eval = self_contact(&q, &all, delta);
        assert!(eval.energy > 0.0 && !eval.hessians.is_empty());
        // Every active pair spans both sheets (a flat sheet does not touch itself).
        assert!(eval.hessians.iter().all(|h| {
            let top = h.vertices.iter().filter(|&&v| v as usize >= n).count();
            top > 0 && top < 4
        }));
        let force = |v: usize, k: usize| -eval.gradient[3 * v + k];
        let total = |range: std::ops::Range<usize>, k: usize| range.map(|v| force(v, k)).sum::<f64>();
        let (up, down) = (total(n..2 * n, 1), total(0..n, 1));
        let scale = up.abs();
        assert!(up > 0.0, "offset {offset:?}: the top sheet is pushed up: {up}");
        assert!((up + down).abs() < 1e-12 * scale, "equal and opposite: {up} vs {down}");
        for k in [0, 2] {
            assert!((total(0..2 * n, k)).abs() < 1e-12 * scale, "no net in-plane force");
        }
        assert!((n..2 * n).all(|v| force(v, 1) >= -1e-12 * scale), "no top vertex is pulled down");
        assert!((0..n).all(|v| force(v, 1) <= 1e-12 * scale), "no bottom vertex is pulled up");
        println!(
            "offset {offset:?}: {} active pairs, total normal force on the top sheet {up:.6e} N",
            eval.hessians.len()
        );
    }
}

/// A flat 1 m sheet of 10 × 10 quads (h = 0.1 m, checkerboard diagonals): a vertex lies h/√2
/// from the triangles across its diagonal neighbours' edges, the rest clearance of the tested
/// pairs. At rest the sheet has no self-contact energy for δ below it (every non-incident pair
/// tested) or above it up to h (the 1-ring pairs within δ excluded); beyond h, pairs two rings
/// apart are within δ, which is why δ_s must stay below the edge length.
#[test]
fn flat_sheet_does_not_touch_itself() {
    let h = 0.1;
    let (q, flat) = grid_cloth(1.0, 1.0, 10, 10);
    let tris = triples(&flat);
    let below = ExclusionFilter::new(&tris, &q, 0.5 * h);
    assert_eq!(below.excluded_close_pairs(), (0, 0));
    let clearance = rest_clearance(&below, &tris, &q);
    assert!((clearance - h / 2f64.sqrt()).abs() < 1e-12, "clearance {clearance}");
    for delta in [0.5 * h, 0.99 * h] {
        let eval = self_contact(&q, &tris, delta);
        assert_eq!(eval.energy, 0.0, "δ = {delta}");
        assert!(eval.gradient.iter().all(|&g| g == 0.0) && eval.hessians.is_empty());
    }
    let above = ExclusionFilter::new(&tris, &q, 0.99 * h);
    let (vt, ee) = above.excluded_close_pairs();
    println!("flat sheet: rest clearance {clearance:.4} m = {:.4} h; δ = 0.99 h excludes {vt} vertex–triangle, {ee} edge–edge 1-ring pairs", clearance / h);
    assert!(vt > 0 && rest_clearance(&above, &tris, &q) >= 0.99 * h);
    let beyond = ExclusionFilter::new(&tris, &q, 1.5 * h);
    assert!(rest_clearance(&beyond, &tris, &q) < 1.5 * h && self_contact(&q, &tris, 1.5 * h).energy > 0.0);
}

/// The same sheet (δ = h/2) crushed to half its width in x: each vertex comes h/√5 ≈ 0.447 h
/// from the triangles across its diagonal neighbours' edges, inside δ, and self-contact
/// pushes the sheet back out (positive virial Σ fᵢ·(xᵢ − x̄) of the in-plane forces). Excluding
/// the whole 1-ring would give no force here.
#[test]
fn sheet_crushed_in_its_plane_resists() {
    let h = 0.1;
    let (rest, flat) = grid_cloth(1.0, 1.0, 10, 10);
    let tris = triples(&flat);
    let crushed: Vec<f64> = rest.iter().enumerate().map(|(i, &x)| if i % 3 == 0 { 0.5 * x } else { x }).collect();
    let eval = self_contact_from(&rest, &crushed, &tris, 0.5 * h);
    assert!(eval.energy > 0.0);
    let n = crushed.len() / 3;
    let mean_x = (0..n).map(|v| crushed[3 * v]).sum::<f64>() / n as f64;
    let virial: f64 = (0..n).map(|v| -eval.gradient[3 * v] * (crushed[3 * v] - mean_x)).sum();
    println!(
        "crushed sheet: energy {:.3e} J, {} active pairs, x virial {virial:.3e} J",
        eval.energy,
        eval.hessians.len()
    );
    assert!(virial > 0.0, "x virial {virial}");
    // Out of the plane nothing moves: the sheet stays flat.
    assert!((0..n).all(|v| eval.gradient[3 * v + 1] == 0.0));
}

/// Two triangles on the unit-length hinge 1–2 (apexes 0.5 m from it), folded until apex 3 is
/// δ/2 = 0.05 m above triangle 0–1–2: a 1-ring vertex–triangle pair, 0.5 m apart at rest, so
/// tested. The force on apex 3 points away from triangle 0–1–2, opening the fold.
#[test]
fn hinge_folded_flat_is_pushed_open() {
    let delta = 0.1;
    let tris = [[0, 1, 2], [1, 3, 2]];
    let rest = [0.5, -0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.5, 0.0];
    let s: f64 = 0.5 * delta / 0.5;
    let c = (1.0 - s * s).sqrt();
    let mut folded = rest;
    folded[9..12].copy_from_slice(&[0.5, -0.5 * c, 0.5 * s]);
    let eval = self_contact_from(&rest, &folded, &tris, delta);
    assert!(eval.energy > 0.0, "the folded hinge is in contact");
    let force = [9, 10, 11].map(|i| -eval.gradient[i]);
    println!("folded hinge: energy {:.3e} J, force on apex 3 {force:?} N", eval.energy);
    assert!(force[2] > 0.0 && force[2] > force[0].abs() && force[2] > force[1].abs());
    assert_eq!(self_contact_from(&rest, &rest, &tris, delta).energy, 0.0);
}
