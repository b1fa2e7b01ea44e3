//! Finite-difference checks of every element energy's gradient and Hessian on random and
//! near-degenerate elements, zero force at rest, and invariance under rigid motion.

mod common;
use common::{fd_errors, flat, rigid, rotation, Lcg};
use grip::energy::dihedral_bending::BendingHinge;
use grip::energy::membrane::{MembraneModel, MembraneTriangle};
use grip::energy::stable_neo_hookean::NeoHookeanTet;
use grip::energy::Element;

const TOL: f64 = 2e-6;

fn random_tet(rng: &mut Lcg) -> ([[f64; 3]; 4], NeoHookeanTet) {
    loop {
        let p: [[f64; 3]; 4] =
            std::array::from_fn(|_| [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)]);
        let e = rng.range(1e4, 1e7);
        let nu = rng.range(0.0, 0.49);
        if let Some(t) = NeoHookeanTet::new([0, 1, 2, 3], p, e, nu) {
            if t.rest_volume > 0.02 {
                return (p, t);
            }
        }
    }
}

fn perturb<const D: usize>(rng: &mut Lcg, x: &[f64; D], amount: f64) -> [f64; D] {
    x.map(|v| v + rng.range(-amount, amount))
}

#[test]
fn neo_hookean_tet_derivatives_match_finite_differences() {
    let mut rng = Lcg(1);
    for case in 0..200 {
        let (p, tet) = random_tet(&mut rng);
        // Up to large deformations, including inverted elements.
        let x = perturb(&mut rng, &flat::<4, 12>(p), if case % 2 == 0 { 0.3 } else { 1.5 });
        let (ge, he) = fd_errors(&tet, &x, 1e-6);
        assert!(ge < TOL && he < TOL, "case {case}: gradient error {ge:e}, Hessian error {he:e}");
    }
}

#[test]
fn neo_hookean_tet_near_degenerate_configurations() {
    let mut rng = Lcg(2);
    let rest = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let tet = NeoHookeanTet::new([0, 1, 2, 3], rest, 1e6, 0.45).unwrap();
    for flatness in [1e-2, 1e-4, 1e-6, 0.0] {
        // Squash the tet onto the z = 0 plane: volume → 0, then exactly 0.
        let mut x = flat::<4, 12>(rest);
        x[11] = flatness;
        let x = perturb(&mut rng, &x, 1e-3);
        let (ge, he) = fd_errors(&tet, &x, 1e-7);
        assert!(ge < 1e-5 && he < 1e-5, "flatness {flatness}: {ge:e} {he:e}");
        assert!(tet.gradient(&x).iter().all(|g| g.is_finite()));
    }
    // A slender rest tet (aspect ratio 1000) is still accepted and differentiable.
    let sliver = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, 0.3, 1e-3]];
    let t = NeoHookeanTet::new([0, 1, 2, 3], sliver, 1e6, 0.3).unwrap();
    let x = perturb(&mut rng, &flat::<4, 12>(sliver), 1e-4);
    let (ge, he) = fd_errors(&t, &x, 1e-8);
    assert!(ge < 1e-4 && he < 1e-4, "sliver: {ge:e} {he:e}");
}

fn random_triangle(rng: &mut Lcg) -> [[f64; 3]; 3] {
    std::array::from_fn(|_| [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)])
}

/// A random membrane of `model` with random E and ν, rest area above 0.05 m² (volume above
/// 0.05e-3 m³ at 1 mm), and its rest corners.
fn random_membrane(rng: &mut Lcg, model: MembraneModel) -> ([[f64; 3]; 3], MembraneTriangle) {
    loop {
        let p = random_triangle(rng);
        let m = MembraneTriangle::new([0, 1, 2], p, rng.range(1e4, 1e7), rng.range(0.0, 0.49), 1e-3, model);
        if let Some(m) = m.filter(|m| m.rest_volume >= 0.05e-3) {
            return (p, m);
        }
    }
}

#[test]
fn membrane_derivatives_match_finite_differences() {
    let mut rng = Lcg(3);
    for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
        let mut done = 0;
        while done < 150 {
            let (p, m) = random_membrane(&mut rng, model);
            let x = perturb(&mut rng, &flat::<3, 9>(p), if done % 2 == 0 { 0.2 } else { 1.0 });
            let (ge, he) = fd_errors(&m, &x, 1e-6);
            assert!(ge < TOL && he < TOL, "{model:?} case {done}: {ge:e} {he:e}");
            done += 1;
        }
    }
}

/// The membrane's modified-Newton stand-in V Gᵀ(∂P/∂F)⁺G: PSD, never below the exact Hessian
/// (H⁺ − H is PSD, since clamping raises every eigenvalue of ∂P/∂F), and equal to it where
/// the stress-space Hessian is already definite (a uniform stretch).
#[test]
fn membrane_definite_hessian_is_psd_and_bounds_the_hessian() {
    let mut rng = Lcg(9);
    let lowest = |h: nalgebra::SMatrix<f64, 9, 9>| h.symmetric_eigen().eigenvalues.min();
    for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
        let mut done = 0;
        while done < 100 {
            let (p, m) = random_membrane(&mut rng, model);
            let x = perturb(&mut rng, &flat::<3, 9>(p), if done % 2 == 0 { 0.2 } else { 1.0 });
            let (exact, definite) = (m.hessian(&x), m.definite_hessian(&x));
            let scale = exact.norm();
            assert!(lowest(definite) > -1e-10 * scale, "{model:?} case {done}: not PSD");
            assert!(lowest(definite - exact) > -1e-10 * scale, "{model:?} case {done}: below the Hessian");
            // Stretched by 10 % about the centroid: the exact Hessian is PSD, and the stand-in is it.
            let centroid: [f64; 3] = std::array::from_fn(|r| (p[0][r] + p[1][r] + p[2][r]) / 3.0);
            let stretched: [f64; 9] =
                std::array::from_fn(|i| centroid[i % 3] + 1.1 * (p[i / 3][i % 3] - centroid[i % 3]));
            let (exact, definite) = (m.hessian(&stretched), m.definite_hessian(&stretched));
            let err = (definite - exact).norm() / exact.norm();
            assert!(err < 1e-9, "{model:?} case {done}: stretched, relative difference {err:e}");
            done += 1;
        }
    }
}

#[test]
fn membrane_collapsed_and_near_collinear_triangles_stay_finite() {
    let rest = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
        let m = MembraneTriangle::new([0, 1, 2], rest, 1e6, 0.3, 1e-3, model).unwrap();
        for (k, third) in [[0.5, 1e-3, 0.0], [0.5, 1e-6, 0.0], [0.5, 0.0, 0.0], [0.0, 0.0, 0.0]].iter().enumerate() {
            let x = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, third[0], third[1], third[2]];
            let g = m.gradient(&x);
            let h = m.hessian(&x);
            assert!(g.iter().all(|v| v.is_finite()) && h.iter().all(|v| v.is_finite()), "{model:?} {k}");
            if k < 2 {
                let (ge, he) = fd_errors(&m, &x, 1e-8);
                assert!(ge < 1e-4 && he < 1e-3, "{model:?} near-collinear {k}: {ge:e} {he:e}");
            }
        }
    }
    // A near-degenerate rest triangle (aspect 1e-4) is refused only below the area threshold.
    assert!(MembraneTriangle::new(
        [0, 1, 2],
        [[0.0; 3], [1.0, 0.0, 0.0], [2.0, 1e-14, 0.0]],
        1e6,
        0.3,
        1e-3,
        MembraneModel::NeoHookean
    )
    .is_none());
    assert!(MembraneTriangle::new(
        [0, 1, 2],
        [[0.0; 3], [1.0, 0.0, 0.0], [0.5, 1e-4, 0.0]],
        1e6,
        0.3,
        1e-3,
        MembraneModel::NeoHookean
    )
    .is_some());
}

fn hinge_rest(rng: &mut Lcg) -> [[f64; 3]; 4] {
    [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [rng.range(0.1, 0.9), rng.range(0.3, 1.0), rng.range(-0.5, 0.5)],
        [rng.range(0.1, 0.9), rng.range(-1.0, -0.3), rng.range(-0.5, 0.5)],
    ]
}

#[test]
fn bending_derivatives_match_finite_differences() {
    let mut rng = Lcg(4);
    for case in 0..200 {
        let rest = hinge_rest(&mut rng);
        let h = BendingHinge::new([0, 1, 2, 3], rest, rng.range(1e-6, 1e-2)).unwrap();
        let x = perturb(&mut rng, &flat::<4, 12>(rest), if case % 2 == 0 { 0.1 } else { 0.6 });
        let (ge, he) = fd_errors(&h, &x, 1e-7);
        assert!(ge < 1e-5 && he < 1e-5, "case {case}: {ge:e} {he:e}");
    }
}

/// The hinge's closed-form Hessian is the forward-mode AD Jacobian of its gradient (the
/// default of `Element::hessian`), to rounding, on random hinges bent by up to ±0.6 m and on
/// folds of up to 178°.
#[test]
fn bending_hessian_is_the_ad_jacobian_of_its_gradient() {
    let mut rng = Lcg(6);
    let ad = |h: &BendingHinge, x: &[f64; 12]| {
        let mut m = grip::math::autodiff::jacobian(|y| h.gradient(y), x);
        grip::math::autodiff::symmetrize(&mut m);
        m
    };
    let mut hinges: Vec<(BendingHinge, [f64; 12])> = (0..300)
        .map(|case| {
            let rest = hinge_rest(&mut rng);
            let h = BendingHinge::new([0, 1, 2, 3], rest, rng.range(1e-6, 1e-2)).unwrap();
            let x = perturb(&mut rng, &flat::<4, 12>(rest), [0.01, 0.1, 0.6][case % 3]);
            (h, x)
        })
        .collect();
    let flat_rest = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.5, -1.0, 0.0]];
    for angle in [1e-4f64, 0.5, 1.5, 2.5, 3.1, -3.1] {
        let h = BendingHinge::new([0, 1, 2, 3], flat_rest, 1e-3).unwrap();
        let x3 = [0.3, -angle.cos(), angle.sin()];
        hinges.push((h, flat::<4, 12>([flat_rest[0], flat_rest[1], flat_rest[2], x3])));
    }
    for (case, (h, x)) in hinges.iter().enumerate() {
        let (got, want) = (h.hessian(x), ad(h, x));
        let err = (got - want).norm() / want.norm().max(1e-300);
        assert!(err < 1e-10, "case {case}: relative error {err:e}");
    }
    // A collapsed hinge has no bending force and a zero Hessian, as the AD one.
    let h = BendingHinge::new([0, 1, 2, 3], flat_rest, 1e-3).unwrap();
    let x = flat::<4, 12>([flat_rest[0], flat_rest[1], [0.5, 0.0, 0.0], flat_rest[3]]);
    assert_eq!(h.hessian(&x), ad(&h, &x));
}

/// The modified-Newton stand-in of a hinge is its Gauss–Newton Hessian 2k′∇θ∇θᵀ: with
/// ∇W = 2k′(θ − θ̄)∇θ (the FD-checked gradient) it equals ∇W∇Wᵀ/(2k′(θ − θ̄)²), and it is PSD.
#[test]
fn bending_definite_hessian_is_the_gauss_newton_one() {
    let mut rng = Lcg(5);
    for case in 0..100 {
        let rest = hinge_rest(&mut rng);
        let h = BendingHinge::new([0, 1, 2, 3], rest, rng.range(1e-6, 1e-2)).unwrap();
        let x = perturb(&mut rng, &flat::<4, 12>(rest), 0.3);
        let dtheta = h.angle(&x) - h.rest_angle;
        if dtheta.abs() < 1e-3 {
            continue;
        }
        let g = nalgebra::SVector::<f64, 12>::from(h.gradient(&x));
        let want = g * g.transpose() / (2.0 * h.weight * dtheta * dtheta);
        let got = h.definite_hessian(&x);
        let err = (got - want).norm() / want.norm();
        assert!(err < 1e-9, "case {case}: relative error {err:e}");
        let lowest = got.symmetric_eigen().eigenvalues.min();
        assert!(lowest > -1e-12 * got.norm(), "case {case}: eigenvalue {lowest:e}");
    }
}

#[test]
fn bending_flat_rest_large_rotation_and_near_degenerate_hinges() {
    let flat_rest = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1.0, 0.0], [0.5, -1.0, 0.0]];
    let h = BendingHinge::new([0, 1, 2, 3], flat_rest, 1e-3).unwrap();
    assert_eq!(h.rest_angle, 0.0);
    // Folded by angles up to nearly 180° both ways: derivatives stay exact.
    for angle in [0.3f64, 1.5, 2.5, 3.1, -1.0, -3.1] {
        let x3 = [0.5, -angle.cos(), angle.sin()];
        let x = flat::<4, 12>([flat_rest[0], flat_rest[1], flat_rest[2], x3]);
        assert!((h.angle(&x).abs() - angle.abs()).abs() < 1e-12, "angle {angle}: {}", h.angle(&x));
        let (ge, he) = fd_errors(&h, &x, 1e-7);
        assert!(ge < 1e-5 && he < 1e-5, "angle {angle}: {ge:e} {he:e}");
    }
    // Near-degenerate: opposite vertex almost on the hinge edge, down to exactly on it.
    for d in [1e-2, 1e-4, 1e-6, 1e-9, 0.0] {
        let x = flat::<4, 12>([flat_rest[0], flat_rest[1], [0.5, d, 0.3 * d], flat_rest[3]]);
        let g = h.gradient(&x);
        let hh = h.hessian(&x);
        assert!(g.iter().all(|v| v.is_finite()) && hh.iter().all(|v| v.is_finite()), "d = {d}");
        assert!(h.energy(&x).is_finite());
    }
    // Coincident hinge vertices (edge of zero length): no NaN.
    let x = flat::<4, 12>([flat_rest[0], flat_rest[0], flat_rest[2], flat_rest[3]]);
    assert!(h.gradient(&x).iter().chain(h.hessian(&x).iter()).all(|v| v.is_finite()));
}

#[test]
fn zero_force_at_rest() {
    let mut rng = Lcg(5);
    for _ in 0..50 {
        let (p, tet) = random_tet(&mut rng);
        let g = tet.gradient(&flat::<4, 12>(p));
        let scale = tet.mu * tet.rest_volume;
        assert!(g.iter().all(|v| v.abs() < 1e-9 * scale), "tet {g:?}");
        assert!(tet.energy(&flat::<4, 12>(p)).abs() < 1e-9 * scale);
        let t = random_triangle(&mut rng);
        for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
            if let Some(m) = MembraneTriangle::new([0, 1, 2], t, 1e6, 0.3, 1e-3, model) {
                let g = m.gradient(&flat::<3, 9>(t));
                assert!(g.iter().all(|v| v.abs() < 1e-9 * m.mu * m.rest_volume), "{model:?} {g:?}");
            }
        }
        let r = hinge_rest(&mut rng);
        let h = BendingHinge::new([0, 1, 2, 3], r, 1e-3).unwrap();
        assert!(h.gradient(&flat::<4, 12>(r)).iter().all(|v| v.abs() < 1e-15));
    }
}

/// E(Rx + t) = E(x) and ∇E(Rx + t) = R ∇E(x) for every element type.
fn check_rigid<const D: usize, E: Element<D>>(e: &E, x: &[f64; D], rng: &mut Lcg) {
    let r = rotation(rng);
    let t = [rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)];
    let y = rigid(x, &r, t);
    let (ex, ey) = (e.energy(x), e.energy(&y));
    assert!((ex - ey).abs() <= 1e-9 * ex.abs().max(1e-12), "energy {ex} vs {ey}");
    let gx = e.gradient(x);
    let gy = e.gradient(&y);
    let g_rot = rigid(&gx, &r, [0.0; 3]);
    let scale = gx.iter().fold(1e-12f64, |m, v| m.max(v.abs()));
    assert!(common::rel_err(&gy, &g_rot, scale) < 1e-8);
}

#[test]
fn invariant_under_rigid_motion() {
    let mut rng = Lcg(6);
    for _ in 0..50 {
        let (p, tet) = random_tet(&mut rng);
        let x = perturb(&mut rng, &flat::<4, 12>(p), 0.3);
        check_rigid(&tet, &x, &mut rng);
        let t = random_triangle(&mut rng);
        if let Some(m) = MembraneTriangle::new([0, 1, 2], t, 1e6, 0.3, 1e-3, MembraneModel::NeoHookean) {
            let x = perturb(&mut rng, &flat::<3, 9>(t), 0.3);
            check_rigid(&m, &x, &mut rng);
        }
        let r = hinge_rest(&mut rng);
        let h = BendingHinge::new([0, 1, 2, 3], r, 1e-3).unwrap();
        let x = perturb(&mut rng, &flat::<4, 12>(r), 0.3);
        check_rigid(&h, &x, &mut rng);
    }
}
