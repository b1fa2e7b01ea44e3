//! The backward Euler Jacobian assembled for Newton equals finite differences of the residual
//! (tets, membranes, hinges, Rayleigh damping and pins together), so Newton converges
//! quadratically; and the matrix-free product J x by forward-mode AD equals both.

mod common;
use common::stage_checks::jacobian_error;
use common::Lcg;
use grip::assemble::contact::stage::ContactStage;
use grip::assemble::terms::Terms;
use grip::assemble::SystemLayout;
use grip::assemble::{DampingMatrices, ImplicitStage};
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::model::Model;
use grip::Material;

fn model() -> Model {
    let mut m = Model::default();
    let (p, t) = box_tets([0.3, 0.2, 0.2], [2, 1, 1], [0.0, 0.0, 0.0]);
    let solid = Material {
        youngs_modulus: 2e4,
        poisson_ratio: 0.4,
        damping_alpha: 0.3,
        damping_beta: 0.01,
        density: 500.0,
        ..Default::default()
    };
    m.add_solid(&p, &t, &solid).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 3, 3);
    let cloth = Material { bending_stiffness: 1e-3, damping_beta: 0.02, ..Default::default() };
    m.add_shell(&p, &t, &cloth).unwrap();
    m
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
    let terms =
        Terms::new(&m, &damping, &ContactStage::none(grip::SolverParams::default().contact_law(1.0), &fixed, &q0), &q0);
    let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, terms);
    let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.3, 0.3)).collect();
    let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-6);
    assert!(worst < 1e-6, "Jacobian differs from finite differences by {worst:e} (relative)");
}

/// With a tilted plane and a moving sphere under a cloth: contact and friction (implicit and
/// lagged, both smoothings) in the assembled Jacobian equal finite differences.
#[test]
fn jacobian_with_contact_and_friction_matches_finite_differences() {
    use grip::assemble::contact::collider_vertex::ContactPair;
    use grip::assemble::contact::stage::ColliderStage;
    use grip::contact::collider::shape::ShapeKind;
    use grip::contact::collider::vertex::ColliderMotion;
    use grip::contact::law::*;
    use grip::contact::{ContactLaw, Pose, Shape};

    let mut m = Model::default();
    let (p, t) = grid_cloth(0.3, 0.3, 3, 3);
    // Lay the cloth flat at z = 0 (grid_cloth builds it in the XZ plane).
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0], x[2], 0.0]).collect();
    m.add_shell(&p, &t, &Material { bending_stiffness: 1e-4, ..Default::default() }).unwrap();
    let layout = SystemLayout::new(&m, &[]);
    let nv = m.vertex_count();
    let plane = Shape { kind: ShapeKind::Plane, axis: [0.1, -0.05, 1.0], ..Default::default() }.validated().unwrap();
    let sphere = Shape { kind: ShapeKind::Sphere, center: [0.15, 0.15, -0.2], radius: 0.2, ..Default::default() }
        .validated()
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
    for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
        for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
            let law = ContactLaw { kappa: 1e5, delta: 0.01, epsilon: 0.02, smoothing, coupling };
            let v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
            let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
            let contacts = ContactStage {
                colliders: Some(ColliderStage { motions: motions.clone(), pairs: &pairs }),
                ..ContactStage::none(law, &fixed, &q0)
            };
            let mut terms = Terms::new(&m, &damping, &contacts, &q_end);
            let (_, active) = terms.gaps(&q_end, &fixed).expect("collider contacts report gaps");
            assert!(active >= 4, "only {active} active contacts");
            let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, terms);
            let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
            assert!(worst < 1e-5, "smoothing {smoothing:?}, coupling {coupling:?}: relative error {worst:e}");
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
    use grip::assemble::contact::stage::SurfaceStage;
    use grip::contact::law::*;
    use grip::contact::surface::Kernel;
    use grip::contact::ContactLaw;

    let mut m = Model::new(0.4);
    let (p, t) = box_tets([0.4, 0.4, 0.1], [3, 3, 1], [-0.05, -0.05, -0.1]);
    let slab = Material { youngs_modulus: 5e4, poisson_ratio: 0.3, density: 800.0, ..Default::default() };
    m.add_solid(&p, &t, &slab).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 4, 4);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|x| [x[0] + 0.15, x[2] + 0.3, 0.0]).collect();
    m.add_shell(&p, &t, &Material { bending_stiffness: 1e-4, ..Default::default() }).unwrap();
    let floor = [0.0, 0.0, -0.003, 0.3, 0.0, 0.012, 0.3, 0.3, 0.012, 0.0, 0.3, -0.003];
    m.add_collider_mesh(&floor, &[0, 1, 2, 0, 2, 3]).unwrap();
    let nv = m.vertex_count();
    let first_cloth = m.objects[1].first_vertex;
    let first_floor = m.objects[2].first_vertex;
    let surfaces = m.implicit_surfaces(2.0, 0.01);
    let queries = m.surface_queries(0.01);
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
            (FrictionSmoothing::Quadratic, FrictionCoupling::Implicit),
            (FrictionSmoothing::Rational, FrictionCoupling::Implicit),
            (FrictionSmoothing::Quadratic, FrictionCoupling::Lagged),
        ] {
            let law = ContactLaw { kappa: 1e5, delta: 0.01, epsilon: 0.02, smoothing, coupling };
            let mut v: Vec<f64> = v0.iter().map(|x| x + rng.range(-0.02, 0.02)).collect();
            for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
                v[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
            }
            let q_end: Vec<f64> = q0.iter().zip(&v).map(|(q, v)| q + h * v).collect();
            let contacts = ContactStage {
                surfaces: Some(SurfaceStage { surfaces: &surfaces, queries: &queries, kernel, padding: 0.05 }),
                ..ContactStage::none(law, &fixed, &q0)
            };
            let mut terms = Terms::new(&m, &damping, &contacts, &q_end);
            let (_, active) = terms.gaps(&q_end, &fixed).expect("surface contacts report gaps");
            assert!(active >= 10, "only {active} active surface contacts");
            let layout = SystemLayout::new(&m, &terms.stencils());
            let mut be = ImplicitStage::new(&m, &layout, &q0, &v0, h, [0.0, 0.0, -9.81], &fixed, &v_fixed, terms);
            let worst = jacobian_error(&mut be, &layout, &fixed, &v, 1e-7);
            assert!(be.dropped_blocks == 0, "blocks outside the pattern: {}", be.dropped_blocks);
            assert!(
                worst < 1e-5,
                "{kernel:?}, smoothing {smoothing:?}, coupling {coupling:?}: relative error {worst:e}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}
