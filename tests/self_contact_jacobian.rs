//! Self-contact in a backward Euler stage: the assembled Jacobian and the
//! matrix-free AD product equal central differences of the residual, with and without friction
//! between the sheets, and the line search's merit has directional derivative r·x.

mod common;
use common::stage_checks::{entry_error, jacobian_error, product_error};
use common::Lcg;
use grip::assemble::contact::stage::{ContactStage, SelfContactStage};
use grip::assemble::terms::Terms;
use grip::assemble::SystemLayout;
use grip::assemble::{DampingMatrices, ImplicitStage};
use grip::contact::pair::PrimitivePair;
use grip::contact::self_contact::contact_mesh::SelfContactMesh;
use grip::contact::self_contact::shell_solid::solid_law;
use grip::contact::ContactLaw;
use grip::contact::FrictionCoupling;
use grip::contact::FrictionSmoothing;
use grip::mesh::generate::grid_cloth;
use grip::model::Model;
use grip::solve::NonlinearSystem;
use grip::Material;

/// Two 5 × 5 cloth squares 3 mm apart, the upper one turned by 30° about the vertical: the model,
/// both sheets' triangles (global indices), the vertex count and the vertices per sheet.
fn two_sheets() -> (Model, Vec<[u32; 3]>, usize, usize) {
    let mut m = Model::default();
    let (p, t) = grid_cloth(0.2, 0.2, 5, 5);
    let lower: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0], x[2] + 0.1, 0.0]).collect();
    let (s, c) = (0.5f64, 0.75f64.sqrt());
    let upper: Vec<f64> =
        p.chunks_exact(3).flat_map(|x| [c * x[0] - s * (x[2] + 0.1), s * x[0] + c * (x[2] + 0.1), 0.003]).collect();
    let cloth = Material { bending_stiffness: 1e-4, damping_beta: 0.01, ..Default::default() };
    m.add_shell(&lower, &t, &cloth).unwrap();
    m.add_shell(&upper, &t, &cloth).unwrap();
    let nv = m.vertex_count();
    let per = nv / 2;
    let triangles: Vec<[u32; 3]> = (0..2u32)
        .flat_map(|o| t.chunks_exact(3).map(move |x| [x[0], x[1], x[2]].map(|v| v + o * per as u32)))
        .collect();
    (m, triangles, nv, per)
}

/// The terms of a stage of `m` with the self-contact of `mesh` under `law` (padding 5 mm),
/// the substep starting at `q0`, candidates gathered at `q_end`; with `mesh` `None`, no contact.
fn terms<'a>(
    m: &'a Model,
    damping: &'a DampingMatrices,
    mesh: Option<&'a SelfContactMesh>,
    law: ContactLaw,
    fixed: &'a [bool],
    q0: &'a [f64],
    q_end: &[f64],
) -> Terms<'a> {
    let self_contact = mesh.map(|mesh| SelfContactStage { mesh, law, solid: solid_law(law), padding: 0.005 });
    Terms::new(m, damping, &ContactStage { self_contact, ..ContactStage::none(law, fixed, q0) }, q_end)
}

/// The self-contact pairs of `terms`.
fn pairs<'t>(terms: &'t Terms) -> &'t [PrimitivePair] {
    terms.self_contact.as_ref().expect("self-contact").candidates()
}

/// Rest positions with ±1 mm of vertical noise.
fn roughened(m: &Model, rng: &mut Lcg) -> Vec<f64> {
    m.rest
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, x)| if i % 3 == 2 { x + rng.range(-0.001, 0.001) } else { *x })
        .collect()
}

/// Self-contact in the stage: two cloth squares 3 mm apart (the upper one turned by
/// 30°, both with ±1 mm of noise) within a 5 mm thickness. The assembled Jacobian (pair
/// Hessians in the pattern from the pairs' stencils) and the matrix-free AD product equal
/// central differences of the residual.
#[test]
fn jacobian_with_self_contact_matches_finite_differences() {
    let (m, triangles, nv, per) = two_sheets();
    let mesh = SelfContactMesh::new(triangles, m.rest.iter().flatten().copied().collect(), 0.005).unwrap();

    let mut rng = Lcg(31);
    let q0 = roughened(&m, &mut rng);
    let v0: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.05, 0.05)).collect();
    let mut fixed = vec![false; nv];
    fixed[0] = true;
    fixed[per + 3] = true;
    let v_fixed: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.02, 0.02)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let law = ContactLaw {
        kappa: 1e4,
        delta: 0.005,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    };
    let mut v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
    for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
        v[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
    }
    let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
    let mut stage_terms = terms(&m, &damping, Some(&mesh), law, &fixed, &q0, &q_end);
    let closest = stage_terms.closest_shell_pair(&q_end).unwrap();
    let active = pairs(&stage_terms)
        .iter()
        .filter(|p| p.distance(&grip::energy::gather::<12>(&p.vertices, &q_end)) < p.law.delta)
        .count();
    assert!(active >= 40 && closest > 0.0, "{active} pairs within delta, closest {closest}");
    let layout = SystemLayout::new(&m, &stage_terms.stencils());
    let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, stage_terms);
    let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
    assert_eq!(be.dropped_blocks, 0, "blocks outside the pattern");
    assert_eq!(be.terms.self_contact.as_ref().map(|s| s.refreshes()), Some(0));
    assert!(worst < 1e-5, "relative error {worst:e}");
    // The line search's potential includes W_c: its directional derivative is r·x (x zero on pins).
    be.freeze_merit(&v);
    let x: Vec<f64> = (0..v.len()).map(|d| if fixed[d / 3] { 0.0 } else { rng.range(-1.0, 1.0) }).collect();
    let eps = 1e-6;
    let shifted = |s: f64| -> Vec<f64> { v.iter().zip(&x).map(|(a, b)| a + s * eps * b).collect() };
    let dphi = (be.merit(&shifted(1.0)).unwrap() - be.merit(&shifted(-1.0)).unwrap()) / (2.0 * eps);
    let mut r = vec![0.0; v.len()];
    be.residual(&v, &mut r);
    let rx: f64 = r.iter().zip(&x).map(|(a, b)| a * b).sum();
    let without: f64 = {
        let plain_terms = terms(&m, &damping, None, law, &fixed, &q0, &q_end);
        let mut plain = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, plain_terms);
        let mut r0 = vec![0.0; v.len()];
        plain.residual(&v, &mut r0);
        r0.iter().zip(&x).map(|(a, b)| a * b).sum()
    };
    println!("merit: dPhi/dx {dphi:e}, r.x {rx:e}, r.x without self-contact {without:e}");
    assert!((dphi - rx).abs() < 1e-6 * rx.abs().max(1e-12), "dPhi {dphi:e} vs r.x {rx:e}");
    assert!((rx - without).abs() > 1e-3 * rx.abs(), "self-contact should change r.x");
    // The contact part matters: without it the Jacobian differs by far more than the tolerance.
    let mut jac_on = vec![0.0; layout.pattern.nnz()];
    be.jacobian(&v, &mut jac_on);
    let plain_terms = terms(&m, &damping, None, law, &fixed, &q0, &q_end);
    let mut plain = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, plain_terms);
    let mut jac_off = vec![0.0; layout.pattern.nnz()];
    plain.jacobian(&v, &mut jac_off);
    let jmax = jac_on.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let diff = jac_on.iter().zip(&jac_off).fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
    println!("self-contact stage Jacobian: FD relative error {worst:e}, contact share {:.3}", diff / jmax);
    assert!(diff / jmax > 1e-2, "self-contact changes the Jacobian by {:e} only", diff / jmax);
}

/// Self-contact friction (paper Eq. 8, 16, 23) in the stage: the two sheets of the test above,
/// μ = 0.4 between them (0.2 within each), the upper sheet sliding at 3 cm/s along x over
/// ±2 cm/s of noise, ε = 2 cm/s, so that active pairs are both sliding (|v̄| > ε) and in the
/// sticking zone (|v̄| < ε). For both smoothings with fully implicit coupling (λ, n and the
/// weights at the end of the step) and for lagged coupling (frozen at the start), the assembled
/// Jacobian and the matrix-free AD product equal central differences of the residual, friction
/// changes the Jacobian, and the merit's directional derivative is r·x.
#[test]
fn jacobian_with_self_contact_friction_matches_finite_differences() {
    use grip::contact::law::*;

    let (m, triangles, nv, per) = two_sheets();
    let shell: Vec<u32> = (0..nv).map(|v| u32::from(v >= per)).collect();
    let mesh = SelfContactMesh::new(triangles, m.rest.iter().flatten().copied().collect(), 0.005)
        .unwrap()
        .with_friction(shell, vec![0.2, 0.4, 0.4, 0.2]);
    assert_eq!((mesh.pair_mu(0, per as u32), mesh.pair_mu(1, 2)), (0.4, 0.2));

    let mut rng = Lcg(31);
    let q0 = roughened(&m, &mut rng);
    let slide = |d: usize| if d / 3 >= per && d.is_multiple_of(3) { 0.03 } else { 0.0 };
    let v0: Vec<f64> = (0..3 * nv).map(|d| slide(d) + rng.range(-0.02, 0.02)).collect();
    let mut fixed = vec![false; nv];
    fixed[0] = true;
    fixed[per + 3] = true;
    let v_fixed: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.02, 0.02)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let mut v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.01, 0.01)).collect();
    for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
        v[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
    }
    let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
    let x: Vec<f64> = (0..v.len()).map(|d| if fixed[d / 3] { 0.0 } else { rng.range(-1.0, 1.0) }).collect();
    for (smoothing, coupling) in [
        (FrictionSmoothing::Quadratic, FrictionCoupling::Implicit),
        (FrictionSmoothing::Rational, FrictionCoupling::Implicit),
        (FrictionSmoothing::Quadratic, FrictionCoupling::Lagged),
    ] {
        let law = ContactLaw { kappa: 1e4, delta: 0.005, epsilon: 0.02, smoothing, coupling };
        let stage_terms = terms(&m, &damping, Some(&mesh), law, &fixed, &q0, &q_end);
        // Regimes of the active pairs with friction at the end of the step.
        let (mut sliding, mut sticking) = (0, 0);
        for p in pairs(&stage_terms) {
            let (xs, vs) =
                (grip::energy::gather::<12>(&p.vertices, &q_end), grip::energy::gather::<12>(&p.vertices, &v));
            if let Some(f) = p.contact_frame(&xs).filter(|_| p.mu > 0.0) {
                let vr = f.relative_velocity(&vs);
                let vn: f64 = (0..3).map(|k| vr[k] * f.normal[k]).sum();
                let vt = (0..3).map(|k| (vr[k] - vn * f.normal[k]).powi(2)).sum::<f64>().sqrt();
                *(if vt > law.epsilon { &mut sliding } else { &mut sticking }) += 1;
            }
        }
        assert!(sliding >= 10 && sticking >= 10, "pairs sliding {sliding}, sticking {sticking}");
        let layout = SystemLayout::new(&m, &stage_terms.stencils());
        let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, stage_terms);
        let assembled = entry_error(&mut be, &layout, &fixed, &v, 1e-7);
        let matrix_free = product_error(&mut be, &layout, &fixed, &v, 1e-7);
        let worst = assembled.max(matrix_free);
        assert_eq!(be.dropped_blocks, 0, "blocks outside the pattern");
        // Friction's share of the Jacobian: against the same terms with μ = 0.
        let frictionless = SelfContactMesh { mu: vec![0.0; 4], ..mesh.clone() };
        let plain_terms = terms(&m, &damping, Some(&frictionless), law, &fixed, &q0, &q_end);
        let mut plain = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, plain_terms);
        let (mut jac_on, mut jac_off) = (vec![0.0; layout.pattern.nnz()], vec![0.0; layout.pattern.nnz()]);
        be.jacobian(&v, &mut jac_on);
        plain.jacobian(&v, &mut jac_off);
        let jmax = jac_on.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let share = jac_on.iter().zip(&jac_off).fold(0.0f64, |a, (p, q)| a.max((p - q).abs())) / jmax;
        // The merit (friction potential frozen at v) has directional derivative r·x at v.
        be.freeze_merit(&v);
        let eps = 1e-6;
        let shifted = |s: f64| -> Vec<f64> { v.iter().zip(&x).map(|(a, b)| a + s * eps * b).collect() };
        let dphi = (be.merit(&shifted(1.0)).unwrap() - be.merit(&shifted(-1.0)).unwrap()) / (2.0 * eps);
        let (mut r, mut r0) = (vec![0.0; v.len()], vec![0.0; v.len()]);
        be.residual(&v, &mut r);
        plain.residual(&v, &mut r0);
        let rx: f64 = r.iter().zip(&x).map(|(a, b)| a * b).sum();
        let rx0: f64 = r0.iter().zip(&x).map(|(a, b)| a * b).sum();
        println!(
            "smoothing {smoothing:?}, coupling {coupling:?}: {sliding} sliding / {sticking} sticking pairs, \
             relative error of the assembled J vs FD {assembled:e}, of the matrix-free product vs \
             assembled and FD {matrix_free:e}, friction share of J {share:.3e}, dPhi {dphi:e} vs r.x {rx:e} \
             (frictionless r.x {rx0:e})"
        );
        assert!(worst < 1e-5, "smoothing {smoothing:?}, coupling {coupling:?}: relative error {worst:e}");
        assert!(share > 1e-3, "friction changes the Jacobian by {share:e} only");
        assert!((dphi - rx).abs() < 1e-6 * rx.abs(), "dPhi {dphi:e} vs r.x {rx:e}");
        assert!((rx - rx0).abs() > 1e-3 * rx.abs(), "friction should change r.x");
    }
}

/// Per-object thickness (`grip::model::self_contact`): the two sheets of the tests above at
/// 4 mm and 6 mm of their own, so the pairs between them are 5 mm thick (the law's 1 mm is not
/// used). Every pair between the sheets carries δ = 5 mm and every pair within one its own δ;
/// the assembled Jacobian equals central differences of the residual.
#[test]
fn jacobian_with_two_thicknesses_matches_finite_differences() {
    use grip::contact::self_contact::contact_mesh::PairThickness;

    let (m, triangles, nv, per) = two_sheets();
    let row: Vec<u32> = (0..nv).map(|v| u32::from(v >= per)).collect();
    let thickness =
        PairThickness { row: row.clone(), delta: vec![0.004, 0.005, 0.005, 0.006], meets_itself: vec![true, true] };
    let mesh =
        SelfContactMesh::with_objects(triangles, &[], m.rest.iter().flatten().copied().collect(), thickness).unwrap();
    assert_eq!(mesh.max_delta, 0.006);
    let mut rng = Lcg(47);
    let q0 = roughened(&m, &mut rng);
    let v0: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.05, 0.05)).collect();
    let mut fixed = vec![false; nv];
    fixed[0] = true;
    let v_fixed = vec![0.0; 3 * nv];
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let law = ContactLaw {
        kappa: 1e4,
        delta: 0.001,
        epsilon: 1e-3,
        smoothing: FrictionSmoothing::Quadratic,
        coupling: FrictionCoupling::Implicit,
    };
    let v: Vec<f64> =
        v0.iter().enumerate().map(|(i, x)| if fixed[i / 3] { 0.0 } else { x + rng.range(-0.02, 0.02) }).collect();
    let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
    let mut stage_terms = terms(&m, &damping, Some(&mesh), law, &fixed, &q0, &q_end);
    let expected = |p: &grip::contact::pair::PrimitivePair| {
        let [a, b] = [p.vertices[0], p.vertices[3]].map(|v| row[v as usize]);
        [[0.004, 0.005], [0.005, 0.006]][a as usize][b as usize]
    };
    let between = pairs(&stage_terms).iter().filter(|p| expected(p) == 0.005).count();
    assert!(between > 40, "only {between} pairs between the sheets");
    assert!(pairs(&stage_terms).iter().all(|p| p.law.delta == expected(p) && p.law.kappa == law.kappa));
    let closest = stage_terms.closest_shell_pair(&q_end).unwrap();
    let active = pairs(&stage_terms)
        .iter()
        .filter(|p| p.distance(&grip::energy::gather::<12>(&p.vertices, &q_end)) < p.law.delta)
        .count();
    assert!(active >= 40 && closest > 0.001, "{active} pairs within their δ, closest {closest}");
    let layout = SystemLayout::new(&m, &stage_terms.stencils());
    let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, stage_terms);
    let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
    println!("two thicknesses: {between} pairs between the sheets, {active} active, FD relative error {worst:e}");
    assert_eq!(be.dropped_blocks, 0, "blocks outside the pattern");
    assert!(worst < 1e-5, "relative error {worst:e}");
}
