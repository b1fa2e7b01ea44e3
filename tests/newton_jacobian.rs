//! The backward Euler Jacobian assembled for Newton equals finite differences of the residual
//! (tets, membranes, hinges, Rayleigh damping and pins together), so Newton converges
//! quadratically; and the matrix-free product J x by forward-mode AD equals both.

mod common;
use common::Lcg;
use grip::integrate::backward_euler::{BackwardEuler, DampingMatrices};
use grip::integrate::SystemLayout;
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::scene::Model;
use grip::solve::NonlinearSystem;
use grip::GripMaterial;

fn model() -> Model {
    let mut m = Model::default();
    let (p, t) = box_tets([0.3, 0.2, 0.2], [2, 1, 1], [0.0, 0.0, 0.0]);
    let solid = GripMaterial {
        youngs_modulus: 2e4,
        poisson_ratio: 0.4,
        damping_alpha: 0.3,
        damping_beta: 0.01,
        density: 500.0,
        ..Default::default()
    };
    m.add_solid(&p, &t, &solid).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 3, 3);
    let cloth = GripMaterial { bending_stiffness: 1e-3, damping_beta: 0.02, ..Default::default() };
    m.add_shell(&p, &t, &cloth).unwrap();
    m
}

/// Largest difference between the assembled Jacobian and central differences of the residual,
/// relative to the largest Jacobian entry; checks that pinned rows and columns are eliminated.
fn jacobian_error(be: &mut BackwardEuler, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    entry_error(be, layout, fixed, v, eps).max(product_error(be, layout, fixed, v, eps))
}

/// Largest difference between the assembled Jacobian's entries and central differences of the
/// residual, relative to the largest Jacobian entry (pinned rows and columns checked).
fn entry_error(be: &mut BackwardEuler, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    let n = v.len();
    let mut jac = vec![0.0; layout.pattern.nnz()];
    be.jacobian(v, &mut jac);
    let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
    let mut worst = 0.0f64;
    let mut col_vals = vec![0.0; n];
    let jmax = jac.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    for col in 0..n {
        let (mut vp, mut vm) = (v.to_vec(), v.to_vec());
        vp[col] += eps;
        vm[col] -= eps;
        be.residual(&vp, &mut rp);
        be.residual(&vm, &mut rm);
        col_vals.iter_mut().for_each(|x| *x = 0.0);
        for k in layout.pattern.col_ptr[col]..layout.pattern.col_ptr[col + 1] {
            col_vals[layout.pattern.row_idx[k]] = jac[k];
        }
        for row in 0..n {
            let fd = (rp[row] - rm[row]) / (2.0 * eps);
            if fixed[row / 3] || fixed[col / 3] {
                // Eliminated pins: identity on the diagonal, nothing else.
                let expected = if row == col && fixed[row / 3] { 1.0 } else { 0.0 };
                assert_eq!(col_vals[row], expected, "pinned entry ({row}, {col})");
                continue;
            }
            worst = worst.max((fd - col_vals[row]).abs() / jmax);
        }
    }
    worst
}

/// Largest relative difference between the matrix-free product J x (forward-mode AD of the
/// residual), the assembled J x, and central differences of the residual along x (x zero on
/// pinned vertices), over three random x.
fn product_error(be: &mut BackwardEuler, layout: &SystemLayout, fixed: &[bool], v: &[f64], eps: f64) -> f64 {
    let n = v.len();
    let mut jac = vec![0.0; layout.pattern.nnz()];
    be.jacobian(v, &mut jac);
    let mut rng = Lcg(77);
    let mut worst = 0.0f64;
    for trial in 0..3 {
        let mut x: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (mut ad, mut assembled) = (vec![0.0; n], vec![0.0; n]);
        assert!(be.jacobian_product(v, &x, &mut ad), "matrix-free products are supported");
        layout.pattern.multiply(&jac, &x, &mut assembled);
        let scale = assembled.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let gap = ad.iter().zip(&assembled).fold(0.0f64, |a, (p, q)| a.max((p - q).abs()));
        worst = worst.max(gap / scale);
        if trial == 0 {
            // Against finite differences along a direction that leaves the pins alone.
            for (d, xd) in x.iter_mut().enumerate() {
                if fixed[d / 3] {
                    *xd = 0.0;
                }
            }
            be.jacobian_product(v, &x, &mut ad);
            let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
            let vp: Vec<f64> = v.iter().zip(&x).map(|(a, b)| a + eps * b).collect();
            let vm: Vec<f64> = v.iter().zip(&x).map(|(a, b)| a - eps * b).collect();
            be.residual(&vp, &mut rp);
            be.residual(&vm, &mut rm);
            for d in (0..n).filter(|d| !fixed[d / 3]) {
                let fd = (rp[d] - rm[d]) / (2.0 * eps);
                worst = worst.max((fd - ad[d]).abs() / scale);
            }
        }
    }
    worst
}

#[test]
fn assembled_jacobian_matches_finite_differences_of_the_residual() {
    let m = model();
    let layout = SystemLayout::new(&m, &[]);
    let n = 3 * m.vertex_count();
    let mut rng = Lcg(11);
    let q0: Vec<f64> = m.rest.iter().flatten().map(|x| x + rng.range(-0.02, 0.02)).collect();
    let v0: Vec<f64> = (0..n).map(|_| rng.range(-0.5, 0.5)).collect();
    let mut fixed = vec![false; m.vertex_count()];
    fixed[0] = true;
    fixed[m.vertex_count() - 1] = true;
    let v_fixed: Vec<f64> = (0..n).map(|_| rng.range(-0.1, 0.1)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping);
    let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.3, 0.3)).collect();
    let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-6);
    assert!(worst < 1e-6, "Jacobian differs from finite differences by {worst:e} (relative)");
}

/// With a tilted plane and a moving sphere under a cloth: contact and friction (implicit and
/// lagged, both smoothings) in the assembled Jacobian equal finite differences.
#[test]
fn jacobian_with_contact_and_friction_matches_finite_differences() {
    use grip::contact::law::*;
    use grip::contact::shape::{GRIP_SHAPE_PLANE, GRIP_SHAPE_SPHERE};
    use grip::contact::vertex_collider::ColliderMotion;
    use grip::contact::{ContactLaw, GripShape, Pose, Shape};
    use grip::integrate::contact_terms::{ContactPair, ContactTerms};

    let mut m = Model::default();
    let (p, t) = grid_cloth(0.3, 0.3, 3, 3);
    // Lay the cloth flat at z = 0 (grid_cloth builds it in the XZ plane).
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0], x[2], 0.0]).collect();
    m.add_shell(&p, &t, &GripMaterial { bending_stiffness: 1e-4, ..Default::default() }).unwrap();
    let layout = SystemLayout::new(&m, &[]);
    let nv = m.vertex_count();
    let plane =
        Shape::new(&GripShape { kind: GRIP_SHAPE_PLANE, axis: [0.1, -0.05, 1.0], ..Default::default() }).unwrap();
    let sphere = Shape::new(&GripShape {
        kind: GRIP_SHAPE_SPHERE,
        center: [0.15, 0.15, -0.2],
        radius: 0.2,
        ..Default::default()
    })
    .unwrap();
    let h = 0.01;
    let moved = Pose { translation: nalgebra::Vector3::new(0.002, -0.001, 0.003), ..Pose::default() };
    let motions = vec![
        ColliderMotion::new(plane, Pose::default(), Pose::default(), h),
        ColliderMotion::new(sphere, Pose::default(), moved, h),
    ];
    let pairs: Vec<ContactPair> =
        (0..nv as u32).flat_map(|v| [0, 1].map(|c| ContactPair { vertex: v, collider: c, mu: 0.4 })).collect();
    let mut rng = Lcg(5);
    // Vertices within the contact layer of the plane, moving at speeds around ε.
    let q0: Vec<f64> = m.rest.iter().flat_map(|x| [x[0], x[1], rng.range(-0.004, 0.012)]).collect();
    let v0: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.05, 0.05)).collect();
    let mut fixed = vec![false; nv];
    fixed[0] = true;
    let v_fixed = vec![0.0; 3 * nv];
    let damping = DampingMatrices::new(&m, &q0);
    let mut checked = 0;
    for smoothing in [GRIP_FRICTION_SMOOTHING_QUADRATIC, GRIP_FRICTION_SMOOTHING_RATIONAL] {
        for coupling in [GRIP_FRICTION_COUPLING_IMPLICIT, GRIP_FRICTION_COUPLING_LAGGED] {
            let law = ContactLaw { kappa: 1e5, delta: 0.01, epsilon: 0.02, smoothing, coupling };
            let terms = ContactTerms::new(law, motions.clone(), &pairs, &q0);
            let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
            let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
            let (_, active) = terms.gap_summary(&q_end, &fixed);
            assert!(active >= 4, "only {active} active contacts");
            let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping)
                .with_contact(Some(&terms));
            let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
            assert!(worst < 1e-5, "smoothing {smoothing}, coupling {coupling}: relative error {worst:e}");
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// A cloth on a soft tet slab, under a moving collider mesh: penalty and friction between
/// deforming surfaces (cloth vertices against the slab's and the collider's implicit surfaces,
/// slab vertices against the two-sided cloth surface), implicit and lagged, both kernels, in the
/// assembled Jacobian equal finite differences of the residual.
#[test]
fn jacobian_with_deforming_surface_contact_matches_finite_differences() {
    use grip::contact::implicit::Kernel;
    use grip::contact::law::*;
    use grip::contact::ContactLaw;
    use grip::integrate::surface_terms::SurfaceTerms;

    let mut m = Model::default();
    let (p, t) = box_tets([0.4, 0.4, 0.1], [3, 3, 1], [-0.05, -0.05, -0.1]);
    let slab = GripMaterial { youngs_modulus: 5e4, poisson_ratio: 0.3, density: 800.0, ..Default::default() };
    m.add_solid(&p, &t, &slab).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 4, 4);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0] + 0.15, x[2] + 0.3, 0.0]).collect();
    m.add_shell(&p, &t, &GripMaterial { bending_stiffness: 1e-4, ..Default::default() }).unwrap();
    let floor = [0.0, 0.0, -0.003, 0.3, 0.0, 0.012, 0.3, 0.3, 0.012, 0.0, 0.3, -0.003];
    m.add_collider_mesh(&floor, &[0, 1, 2, 0, 2, 3]).unwrap();
    let nv = m.vertex_count();
    let first_cloth = m.objects[1].first_vertex;
    let first_floor = m.objects[2].first_vertex;
    let surfaces = m.implicit_surfaces(2.0, 0.01);
    let queries = m.surface_queries(0.4, 0.01);
    assert!(queries.iter().any(|q| q.surface == 0) && queries.iter().any(|q| q.surface == 1));
    assert!(queries.iter().any(|q| q.surface == 2));

    let mut rng = Lcg(9);
    let mut q0: Vec<f64> = m.rest.iter().flatten().copied().collect();
    for v in first_cloth..first_floor {
        q0[3 * v + 2] = rng.range(-0.002, 0.008);
    }
    for x in q0.iter_mut().take(3 * first_cloth) {
        *x += rng.range(-0.001, 0.001);
    }
    let v0: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.05, 0.05)).collect();
    let mut fixed = vec![false; nv];
    fixed[first_floor..].iter_mut().for_each(|f| *f = true);
    fixed[first_cloth] = true;
    let v_fixed: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.02, 0.02)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let mut checked = 0;
    for kernel in [Kernel::Interpolating, Kernel::Cubic] {
        for (smoothing, coupling) in [
            (GRIP_FRICTION_SMOOTHING_QUADRATIC, GRIP_FRICTION_COUPLING_IMPLICIT),
            (GRIP_FRICTION_SMOOTHING_RATIONAL, GRIP_FRICTION_COUPLING_IMPLICIT),
            (GRIP_FRICTION_SMOOTHING_QUADRATIC, GRIP_FRICTION_COUPLING_LAGGED),
        ] {
            let law = ContactLaw { kappa: 1e5, delta: 0.01, epsilon: 0.02, smoothing, coupling };
            let mut v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
            for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
                v[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
            }
            let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
            let terms = SurfaceTerms::new(law, kernel, &surfaces, &queries, &q0, &q_end, 0.05);
            let (_, active) = terms.gap_summary(&q_end, &fixed);
            assert!(active >= 10, "only {active} active surface contacts");
            let layout = SystemLayout::new(&m, &terms.stencils());
            let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping)
                .with_surface_contact(Some(terms));
            let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
            assert!(be.dropped_blocks == 0, "blocks outside the pattern: {}", be.dropped_blocks);
            assert!(worst < 1e-5, "{kernel:?}, smoothing {smoothing}, coupling {coupling}: relative error {worst:e}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// Self-contact (issue 10) in the stage: two cloth squares 3 mm apart (the upper one turned by
/// 30°, both with ±1 mm of noise) within a 5 mm thickness. The assembled Jacobian (pair
/// Hessians in the pattern from the pairs' stencils) and the matrix-free AD product equal
/// central differences of the residual.
#[test]
fn jacobian_with_self_contact_matches_finite_differences() {
    use grip::contact::ContactLaw;
    use grip::integrate::self_contact_terms::{SelfContactMesh, SelfContactTerms};

    let mut m = Model::default();
    let (p, t) = grid_cloth(0.2, 0.2, 5, 5);
    let lower: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0], x[2] + 0.1, 0.0]).collect();
    let (s, c) = (0.5f64, 0.75f64.sqrt());
    let upper: Vec<f64> =
        p.chunks_exact(3).flat_map(|x| [c * x[0] - s * (x[2] + 0.1), s * x[0] + c * (x[2] + 0.1), 0.003]).collect();
    let cloth = GripMaterial { bending_stiffness: 1e-4, damping_beta: 0.01, ..Default::default() };
    m.add_shell(&lower, &t, &cloth).unwrap();
    m.add_shell(&upper, &t, &cloth).unwrap();
    let nv = m.vertex_count();
    let per = nv / 2;
    let triangles: Vec<[u32; 3]> = (0..2u32)
        .flat_map(|o| t.chunks_exact(3).map(move |x| [x[0], x[1], x[2]].map(|v| v + o * per as u32)))
        .collect();
    let mesh = SelfContactMesh::new(triangles, m.rest.iter().flatten().copied().collect()).unwrap();

    let mut rng = Lcg(31);
    let q0: Vec<f64> = m
        .rest
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, x)| if i % 3 == 2 { x + rng.range(-0.001, 0.001) } else { *x })
        .collect();
    let v0: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.05, 0.05)).collect();
    let mut fixed = vec![false; nv];
    fixed[0] = true;
    fixed[per + 3] = true;
    let v_fixed: Vec<f64> = (0..3 * nv).map(|_| rng.range(-0.02, 0.02)).collect();
    let damping = DampingMatrices::new(&m, &q0);
    let h = 0.01;
    let law = ContactLaw { kappa: 1e4, delta: 0.005, epsilon: 1e-3, smoothing: 0, coupling: 0 };
    let mut v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
    for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
        v[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
    }
    let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
    let mut terms = SelfContactTerms::new(&mesh, law, &fixed, &q_end, 0.005);
    let (closest, active) = terms.distance_summary(&q_end);
    assert!(active >= 40 && closest > 0.0, "{active} pairs within delta, closest {closest}");
    let layout = SystemLayout::new(&m, &terms.stencils());
    let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping)
        .with_self_contact(Some(terms));
    let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
    assert_eq!(be.dropped_blocks, 0, "blocks outside the pattern");
    assert_eq!(be.self_contact.as_ref().map(|s| s.refreshes), Some(0));
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
        let mut plain = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping);
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
    let mut plain = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping);
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
    use grip::contact::ContactLaw;
    use grip::integrate::self_contact_terms::{SelfContactMesh, SelfContactTerms};

    let mut m = Model::default();
    let (p, t) = grid_cloth(0.2, 0.2, 5, 5);
    let lower: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0], x[2] + 0.1, 0.0]).collect();
    let (s, c) = (0.5f64, 0.75f64.sqrt());
    let upper: Vec<f64> =
        p.chunks_exact(3).flat_map(|x| [c * x[0] - s * (x[2] + 0.1), s * x[0] + c * (x[2] + 0.1), 0.003]).collect();
    let cloth = GripMaterial { bending_stiffness: 1e-4, damping_beta: 0.01, ..Default::default() };
    m.add_shell(&lower, &t, &cloth).unwrap();
    m.add_shell(&upper, &t, &cloth).unwrap();
    let nv = m.vertex_count();
    let per = nv / 2;
    let triangles: Vec<[u32; 3]> = (0..2u32)
        .flat_map(|o| t.chunks_exact(3).map(move |x| [x[0], x[1], x[2]].map(|v| v + o * per as u32)))
        .collect();
    let shell: Vec<u32> = (0..nv).map(|v| u32::from(v >= per)).collect();
    let mesh = SelfContactMesh::new(triangles, m.rest.iter().flatten().copied().collect())
        .unwrap()
        .with_friction(shell, vec![0.2, 0.4, 0.4, 0.2]);
    assert_eq!((mesh.pair_mu(0, per as u32), mesh.pair_mu(1, 2)), (0.4, 0.2));

    let mut rng = Lcg(31);
    let q0: Vec<f64> = m
        .rest
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, x)| if i % 3 == 2 { x + rng.range(-0.001, 0.001) } else { *x })
        .collect();
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
        (GRIP_FRICTION_SMOOTHING_QUADRATIC, GRIP_FRICTION_COUPLING_IMPLICIT),
        (GRIP_FRICTION_SMOOTHING_RATIONAL, GRIP_FRICTION_COUPLING_IMPLICIT),
        (GRIP_FRICTION_SMOOTHING_QUADRATIC, GRIP_FRICTION_COUPLING_LAGGED),
    ] {
        let law = ContactLaw { kappa: 1e4, delta: 0.005, epsilon: 0.02, smoothing, coupling };
        let terms = SelfContactTerms::new(&mesh, law, &fixed, &q_end, 0.005).with_start(&q0);
        // Regimes of the active pairs with friction at the end of the step.
        let (mut sliding, mut sticking) = (0, 0);
        for p in terms.pairs() {
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
        let layout = SystemLayout::new(&m, &terms.stencils());
        let mut be = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping)
            .with_self_contact(Some(terms));
        let assembled = entry_error(&mut be, &layout, &fixed, &v, 1e-7);
        let matrix_free = product_error(&mut be, &layout, &fixed, &v, 1e-7);
        let worst = assembled.max(matrix_free);
        assert_eq!(be.dropped_blocks, 0, "blocks outside the pattern");
        // Friction's share of the Jacobian: against the same terms with μ = 0.
        let frictionless = SelfContactMesh { mu: vec![0.0; 4], ..mesh.clone() };
        let plain_terms = SelfContactTerms::new(&frictionless, law, &fixed, &q_end, 0.005).with_start(&q0);
        let mut plain = BackwardEuler::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, &damping)
            .with_self_contact(Some(plain_terms));
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
            "smoothing {smoothing}, coupling {coupling}: {sliding} sliding / {sticking} sticking pairs, \
             relative error of the assembled J vs FD {assembled:e}, of the matrix-free product vs \
             assembled and FD {matrix_free:e}, friction share of J {share:.3e}, dPhi {dphi:e} vs r.x {rx:e} \
             (frictionless r.x {rx0:e})"
        );
        assert!(worst < 1e-5, "smoothing {smoothing}, coupling {coupling}: relative error {worst:e}");
        assert!(share > 1e-3, "friction changes the Jacobian by {share:e} only");
        assert!((dphi - rx).abs() < 1e-6 * rx.abs(), "dPhi {dphi:e} vs r.x {rx:e}");
        assert!((rx - rx0).abs() > 1e-3 * rx.abs(), "friction should change r.x");
    }
}
