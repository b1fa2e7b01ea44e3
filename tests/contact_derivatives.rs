//! Collider gap functions and the contact + friction force of a vertex against a collider:
//! exact distances at known points, and every derivative (∇d, ∇²d, dF/dv through the gap, the
//! normal, the collider's surface velocity and the friction law) against central differences.

mod common;

use common::{assert_jacobian_by_differences, Lcg};
use grip::contact::collider::shape::ShapeKind;
use grip::contact::collider::vertex::{force, force_and_jacobian, ColliderMotion, GapField};
use grip::contact::law::{FrictionCoupling, FrictionSmoothing};
use grip::contact::{ContactLaw, Pose, Shape};

fn shape(kind: ShapeKind, inside: u32, half_length: f64) -> Shape {
    (Shape {
        kind,
        inside: inside == 1,
        center: [0.1, -0.2, 0.3],
        axis: [0.3, 0.4, 1.2],
        radius: 0.5,
        half_length,
        ..Shape::default()
    })
    .validated()
    .expect("valid shape")
}

fn all_shapes() -> Vec<(String, Shape)> {
    let mut out = Vec::new();
    for (kind, name) in [
        (ShapeKind::Plane, "plane"),
        (ShapeKind::Sphere, "sphere"),
        (ShapeKind::Capsule, "capsule"),
        (ShapeKind::Cylinder, "cylinder"),
    ] {
        for inside in [0, 1] {
            for half in [0.0, 0.4] {
                out.push((format!("{name} inside={inside} half_length={half}"), shape(kind, inside, half)));
            }
        }
    }
    out
}

#[test]
fn gaps_are_exact_distances_at_known_points() {
    let unit_z = |kind, half| {
        Shape { kind, axis: [0.0, 0.0, 2.0], radius: 0.5, half_length: half, ..Shape::default() }.validated().unwrap()
    };
    let plane = unit_z(ShapeKind::Plane, 0.0);
    assert_eq!(plane.gap::<f64>([3.0, -1.0, 0.25]).0, 0.25);
    let sphere = unit_z(ShapeKind::Sphere, 0.0);
    assert!((sphere.gap::<f64>([0.0, 2.0, 0.0]).0 - 1.5).abs() < 1e-15);
    let capsule = unit_z(ShapeKind::Capsule, 1.0);
    assert!((capsule.gap::<f64>([0.0, 0.0, 3.0]).0 - 1.5).abs() < 1e-15, "beyond the cap: distance to the end point");
    assert!((capsule.gap::<f64>([2.0, 0.0, 0.5]).0 - 1.5).abs() < 1e-15, "beside the segment: radial distance");
    let cylinder = unit_z(ShapeKind::Cylinder, 1.0);
    assert!((cylinder.gap::<f64>([0.0, 0.2, 1.75]).0 - 0.75).abs() < 1e-15, "above the cap");
    assert!((cylinder.gap::<f64>([3.5, 0.0, 5.0]).0 - 5.0).abs() < 1e-15, "nearest the rim: 3-4-5");
    assert!((cylinder.gap::<f64>([0.0, 0.1, 0.2]).0 + 0.4).abs() < 1e-15, "inside: to the nearer side wall");
    let infinite = unit_z(ShapeKind::Cylinder, 0.0);
    assert!((infinite.gap::<f64>([0.0, 0.3, 100.0]).0 + 0.2).abs() < 1e-15);
    let pipe = Shape { kind: ShapeKind::Cylinder, inside: true, radius: 0.5, ..Shape::default() }.validated().unwrap();
    let (d, n) = pipe.gap::<f64>([0.0, 0.3, 7.0]);
    assert!((d - 0.2).abs() < 1e-15 && (n[1] + 1.0).abs() < 1e-15, "inside a pipe the normal points to its axis");
}

#[test]
fn gap_gradient_and_hessian_match_finite_differences() {
    let mut rng = Lcg(7);
    let step = 1e-6;
    for (name, s) in all_shapes() {
        for _ in 0..40 {
            let y = [rng.range(-1.5, 1.5), rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)];
            let (_, n, hess) = s.gap_derivatives(y);
            assert!((n.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-12, "{name}: |∇d| = 1");
            for i in 0..3 {
                let (mut yp, mut ym) = (y, y);
                yp[i] += step;
                ym[i] -= step;
                let (dp, np, _) = s.gap_derivatives(yp);
                let (dm, nm, _) = s.gap_derivatives(ym);
                // Skip samples straddling a crease of the exact distance (medial axis, rim cone).
                if (0..3).any(|k| (np[k] - nm[k]).abs() > 1e-3) {
                    continue;
                }
                let fd = (dp - dm) / (2.0 * step);
                assert!((fd - n[i]).abs() < 1e-7, "{name} at {y:?}: ∂d/∂y{i} {} vs FD {fd}", n[i]);
                for k in 0..3 {
                    let fd = (np[k] - nm[k]) / (2.0 * step);
                    assert!((fd - hess[(k, i)]).abs() < 1e-5 * (1.0 + fd.abs()), "{name}: ∇²d[{k}][{i}]");
                }
            }
        }
    }
}

fn law(smoothing: FrictionSmoothing, coupling: FrictionCoupling) -> ContactLaw {
    ContactLaw { kappa: 3e5, delta: 0.01, epsilon: 0.01, smoothing, coupling }
}

/// A pose rotated by `angle` about a tilted axis and shifted.
fn pose(angle: f64, shift: [f64; 3]) -> Pose {
    let r = nalgebra::UnitQuaternion::from_axis_angle(
        &nalgebra::Unit::new_normalize(nalgebra::Vector3::new(0.2, 1.0, 0.4)),
        angle,
    );
    Pose { rotation: r, translation: nalgebra::Vector3::from(shift) }
}

#[test]
fn contact_and_friction_jacobian_matches_finite_differences() {
    let mut rng = Lcg(11);
    let h = 0.01;
    let mut checked = 0;
    for (name, s) in all_shapes() {
        let motion = ColliderMotion::new(s, pose(0.0, [0.0; 3]), pose(0.05, [0.004, -0.002, 0.001]), h);
        for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
            for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
                let law = law(smoothing, coupling);
                for trial in 0..30 {
                    // A point near the surface: project a random point and offset it by a gap in (−δ, δ).
                    let y = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
                    let (d0, n0) = motion.gap(y);
                    let target = rng.range(-0.8, 0.9) * law.delta;
                    let x_end: [f64; 3] = std::array::from_fn(|k| y[k] + (target - d0) * n0[k]);
                    // Tangential speeds from well below ε (sticking) to well above (sliding).
                    let speed = [0.1, 0.5, 3.0, 30.0][trial % 4] * law.epsilon;
                    let v: [f64; 3] = std::array::from_fn(|_| rng.range(-1.0, 1.0) * speed);
                    let x_start: [f64; 3] = std::array::from_fn(|k| x_end[k] - h * v[k]);
                    let mu = 0.6;
                    // Lagged friction is its own frozen stencil beside the penalty's.
                    let lagged = (coupling == FrictionCoupling::Lagged).then(|| motion.lagged(&law, mu, 0, x_start));
                    if motion.gap(x_end).0 >= law.delta {
                        continue;
                    }
                    let mu_implicit = if lagged.is_some() { 0.0 } else { mu };
                    let (mut f, mut jac) = force_and_jacobian(&law, &motion, mu_implicit, x_start, v);
                    if let Some(l) = &lagged {
                        let fl: [f64; 3] = l.forces(&law, &v);
                        f = std::array::from_fn(|k| f[k] + fl[k]);
                        jac += l.jacobian(&law, &v, nalgebra::U3);
                    }
                    let eval = |v: [f64; 3]| {
                        let x: [f64; 3] = std::array::from_fn(|k| x_start[k] + h * v[k]);
                        let f = force(&law, &motion, mu_implicit, x, v);
                        let fl: [f64; 3] = lagged.as_ref().map_or([0.0; 3], |l| l.forces(&law, &v));
                        std::array::from_fn(|k| f[k] + fl[k])
                    };
                    let f_plain = eval(v);
                    assert!((0..3).all(|k| (f[k] - f_plain[k]).abs() <= 1e-12 * (1.0 + f[k].abs())));
                    let context = || format!("{name}, smoothing {smoothing:?}, coupling {coupling:?}");
                    assert_jacobian_by_differences(eval, v, |k, i| jac[(k, i)], 1e-5 * law.epsilon, 1e-5, context);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} active samples");
}

#[test]
fn friction_obeys_the_coulomb_limit() {
    let s = shape(ShapeKind::Plane, 0, 0.0);
    let still = ColliderMotion::new(s, Pose::default(), Pose::default(), 0.01);
    for smoothing in [FrictionSmoothing::Quadratic, FrictionSmoothing::Rational] {
        let law = law(smoothing, FrictionCoupling::Implicit);
        let n = s.axis;
        let x = [0.1 + 0.004 * n[0], -0.2 + 0.004 * n[1], 0.3 + 0.004 * n[2]];
        let lambda = law.force(0.004);
        let t = [n[1], -n[0], 0.0];
        let tl = (t[0] * t[0] + t[1] * t[1]).sqrt();
        for speed in [0.0, 0.2, 0.9, 1.0, 2.0, 100.0] {
            let v: [f64; 3] = std::array::from_fn(|k| speed * law.epsilon * t[k] / tl);
            let f = force(&law, &still, 0.5, x, v);
            let fn_ = f[0] * n[0] + f[1] * n[1] + f[2] * n[2];
            let ft: Vec<f64> = (0..3).map(|k| f[k] - fn_ * n[k]).collect();
            let ft_norm = ft.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((fn_ - lambda).abs() < 1e-9 * lambda, "normal force is λ");
            assert!(ft_norm <= 0.5 * lambda * (1.0 + 1e-12), "|f_t| ≤ μλ");
            let expected = match (smoothing, speed) {
                (FrictionSmoothing::Quadratic, s) if s >= 1.0 => 0.5 * lambda,
                (FrictionSmoothing::Quadratic, s) => 0.5 * lambda * (2.0 * s - s * s),
                (_, s) => 0.5 * lambda * s / (s + 1.0),
            };
            assert!(
                (ft_norm - expected).abs() < 1e-9 * lambda,
                "speed {speed} ε: |f_t| = {ft_norm}, expected {expected}"
            );
            // Friction opposes the sliding direction.
            assert!((0..3).map(|k| ft[k] * v[k]).sum::<f64>() <= 0.0);
        }
    }
}
