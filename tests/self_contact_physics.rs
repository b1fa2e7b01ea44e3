//! Self-contact physics and the exclusion rule (issue 10): two parallel cloth squares 0.5δ
//! apart are pushed apart with equal and opposite total forces, and a flat sheet exerts no
//! self-contact force on itself for thicknesses below its edge length.

use grip::contact::ContactLaw;
use grip::energy::self_contact::filter::{brute_force_candidates, rest_clearance, ExclusionFilter};
use grip::energy::self_contact::{elements, evaluate, SelfContactEval};
use grip::mesh::generate::grid_cloth;

fn law(delta: f64) -> ContactLaw {
    ContactLaw { kappa: 1e6, delta, epsilon: 1e-3, smoothing: 0, coupling: 0 }
}

fn triples(flat: &[u32]) -> Vec<[u32; 3]> {
    flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
}

/// Self-contact of `triangles` at positions `q` with candidates gathered by brute force.
fn self_contact(q: &[f64], triangles: &[[u32; 3]], delta: f64) -> SelfContactEval {
    let filter = ExclusionFilter::new(q.len() / 3, triangles);
    let (vt, ee) = brute_force_candidates(&filter, triangles, q, delta);
    evaluate(&elements(law(delta), q, &vt, &ee), q)
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

/// A flat 1 m sheet of 10 × 10 quads (h = 0.1 m, checkerboard diagonals): vertices lie h/√2
/// from triangles outside their own (the 0-ring), yet with the 1-ring exclusion the sheet has
/// zero self-contact energy and force for δ = 0.99 h, up to the reported rest clearance.
#[test]
fn flat_sheet_does_not_touch_itself() {
    let h = 0.1;
    let (q, flat) = grid_cloth(1.0, 1.0, 10, 10);
    let tris = triples(&flat);
    let filter = ExclusionFilter::new(q.len() / 3, &tris);
    let delta = 0.99 * h;
    // The rule matters: excluding only incident triangles leaves pairs closer than δ.
    let mut zero_ring_close = 0;
    for v in 0..(q.len() / 3) as u32 {
        for t in tris.iter().filter(|t| !t.contains(&v)) {
            let x = grip::energy::gather::<12>(&[v, t[0], t[1], t[2]], &q);
            let pair = grip::energy::self_contact::SelfContactPair::vertex_triangle(
                grip::energy::self_contact::VertexTriangle { vertex: v, triangle: *t },
                law(delta),
            );
            zero_ring_close += usize::from(pair.distance(&x) < delta);
        }
    }
    assert!(zero_ring_close > 0);
    let eval = self_contact(&q, &tris, delta);
    assert_eq!(eval.energy, 0.0);
    assert!(eval.gradient.iter().all(|&g| g == 0.0) && eval.hessians.is_empty());
    let clearance = rest_clearance(&filter, &tris, &q);
    println!("flat sheet: {zero_ring_close} vertex–triangle pairs within δ under a 0-ring rule; rest clearance {clearance:.4} m = {:.4} h", clearance / h);
    assert!(clearance > h, "clearance {clearance}");
    // Beyond the clearance the flat sheet would push itself apart: the check above is not vacuous.
    assert!(self_contact(&q, &tris, 1.01 * clearance).energy > 0.0);
}
