//! A call that succeeds leaves the solver steppable. Every material the library accepts, at
//! all corners of its documented ranges together ([`grip::model::material::range`]), and every
//! element it accepts, down to the thinnest ([`MIN_ELEMENT_THICKNESS`]), steps: a cloth or a
//! rubber-like cube dropped onto a sphere runs two frames. Values just outside a range and
//! thinner elements are refused with a message naming the field or the element.
//!
//! Run with `cargo test --release --test accepted_input_steps`.

use grip::contact::{Shape, ShapeKind};
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::mesh::validate::{tet_thickness, triangle_thickness, MIN_ELEMENT_THICKNESS};
use grip::model::material::range;
use grip::{Error, Material, Solver, SolverParams};

const FRAME: f64 = 1.0 / 24.0;

/// A solver with a 0.2 m sphere at the origin (contact thickness 3 mm, 1/240 s substeps).
fn over_a_sphere() -> Solver {
    let params = SolverParams { time_step: 1.0 / 240.0, contact_thickness: 3e-3, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    let sphere = Shape { kind: ShapeKind::Sphere, radius: 0.2, ..Default::default() };
    s.add_collider_shape(&sphere).unwrap();
    s
}

/// A 0.3 m cloth of 6 × 6 quads, flat at height 0.23 m over the sphere.
fn cloth() -> (Vec<f64>, Vec<u32>) {
    let (p, t) = grid_cloth(0.3, 0.3, 6, 6);
    (p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.15, 0.23]).collect(), t)
}

/// A 0.2 m cube of six tets, 1 cm above the sphere.
fn cube() -> (Vec<f64>, Vec<u32>) {
    box_tets([0.2; 3], [1, 1, 1], [-0.1, -0.1, 0.21])
}

/// Two frames; the error of the first that fails.
fn two_frames(s: &mut Solver) -> Result<(), Error> {
    s.advance(FRAME)?;
    s.advance(FRAME)
}

/// The material at corner `bits` of the ranges: bit i picks the upper end of field i
/// (density, E, ν, α, β, thickness, bending). E is capped by the largest specific modulus.
fn corner(bits: u32) -> Material {
    let pick = |i: u32, r: (f64, f64)| if bits & (1 << i) != 0 { r.1 } else { r.0 };
    let density = pick(0, range::DENSITY);
    Material {
        density,
        youngs_modulus: pick(1, range::YOUNGS_MODULUS).min(range::SPECIFIC_MODULUS_MAX * density),
        poisson_ratio: pick(2, range::POISSON_RATIO),
        damping_alpha: pick(3, range::DAMPING_ALPHA),
        damping_beta: pick(4, range::DAMPING_BETA),
        thickness: pick(5, range::THICKNESS),
        bending_stiffness: pick(6, range::BENDING_STIFFNESS),
        ..Default::default()
    }
}

#[test]
fn every_corner_of_the_material_ranges_steps() {
    let mut failed = Vec::new();
    for (kind, fields) in [("shell", 7), ("solid", 5)] {
        for bits in 0..1u32 << fields {
            let m = corner(bits);
            let mut s = over_a_sphere();
            if kind == "shell" {
                let (p, t) = cloth();
                s.add_shell(&p, &t, &m).unwrap_or_else(|e| panic!("{m:?} refused: {e}"));
            } else {
                let (p, t) = cube();
                s.add_solid(&p, &t, &m).unwrap_or_else(|e| panic!("{m:?} refused: {e}"));
            }
            if let Err(e) = two_frames(&mut s) {
                failed.push(format!("{kind} {m:?}: {e}"));
            }
        }
    }
    println!("{} corners failed", failed.len());
    assert!(failed.is_empty(), "accepted materials that do not step:\n{}", failed.join("\n"));
}

#[test]
fn values_outside_the_material_ranges_are_refused_naming_the_field() {
    let outside = |r: (f64, f64)| [r.0 - r.0.abs().max(1e-9) * 1e-3, r.1 * (1.0 + 1e-3) + 1e-12];
    let mut cases: Vec<(&str, Material)> = Vec::new();
    let d = Material::default();
    for v in outside(range::DENSITY) {
        cases.push(("density", Material { density: v, youngs_modulus: 1.0, ..d }));
    }
    for v in outside(range::YOUNGS_MODULUS) {
        cases.push(("youngs_modulus", Material { youngs_modulus: v, density: 1e5, ..d }));
    }
    for v in outside(range::POISSON_RATIO) {
        cases.push(("poisson_ratio", Material { poisson_ratio: v, ..d }));
    }
    for v in outside(range::THICKNESS) {
        cases.push(("thickness", Material { thickness: v, ..d }));
    }
    for v in outside(range::BENDING_STIFFNESS) {
        cases.push(("bending_stiffness", Material { bending_stiffness: v, ..d }));
    }
    for v in outside(range::DAMPING_ALPHA) {
        cases.push(("damping_alpha", Material { damping_alpha: v, ..d }));
    }
    for v in outside(range::DAMPING_BETA) {
        cases.push(("damping_beta", Material { damping_beta: v, ..d }));
    }
    // E/ρ of 1.011e9 m²/s², each within its own range.
    cases.push(("youngs_modulus / material.density", Material { density: 900.0, youngs_modulus: 9.1e11, ..d }));
    cases.push(("density", Material { density: f64::NAN, ..d }));
    let (p, t) = cloth();
    for (field, m) in cases {
        let mut s = over_a_sphere();
        let e = s.add_shell(&p, &t, &m).expect_err(&format!("{field} {m:?} accepted"));
        let text = e.to_string();
        assert!(matches!(e, Error::InvalidArgument(_)) && text.contains(&format!("material.{field}")), "{text}");
        assert!(text.contains(" must be "), "the message states the range: {text}");
        two_frames(&mut s).expect("the refused call left the solver steppable");
    }
}

/// A 0.1 m triangle whose apex is `thickness` × 0.1 m above its base (its smallest height
/// over its longest edge is `thickness`), 1 cm above the sphere's top, beside a cloth.
fn sliver_triangle(thickness: f64) -> Vec<f64> {
    vec![-0.05, 0.0, 0.21, 0.05, 0.0, 0.21, 0.01, 0.1 * thickness, 0.21]
}

/// The 0.2 m cube of six tets with a flat tet on its top face: corner (0.1, 0.1) of the top
/// lifted so that the tet on the top's four corners has the given thickness.
fn cube_with_a_sliver(thickness: f64) -> (Vec<f64>, Vec<u32>) {
    let (mut p, mut t) = cube();
    // Top corners: 4 (−,−), 5 (+,−), 6 (−,+), 7 (+,+); the Kuhn split's top diagonal is 4–7.
    let top = [4u32, 5, 6, 7].map(|v| [p[3 * v as usize], p[3 * v as usize + 1], p[3 * v as usize + 2]]);
    let lift = |h: f64| {
        let mut x = top;
        x[1][2] += h;
        x[2][2] += h;
        tet_thickness(x)
    };
    // Lift corners 5 and 6 (the other diagonal) by h, found by bisection for the thickness.
    let (mut lo, mut hi) = (0.0, 0.2);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if lift(mid) < thickness {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    p[3 * 5 + 2] += hi;
    p[3 * 6 + 2] += hi;
    let x = [4usize, 5, 6, 7].map(|v| [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
    let positive = {
        let d = |i: usize| [0, 1, 2].map(|c| x[i][c] - x[0][c]);
        let (a, b, c) = (d(1), d(2), d(3));
        a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])
            > 0.0
    };
    t.extend(if positive { [4, 5, 6, 7] } else { [4, 6, 5, 7] });
    (p, t)
}

#[test]
fn the_thinnest_accepted_elements_step_and_thinner_ones_are_refused() {
    let (cp, ct) = cloth();
    let at = 1.05 * MIN_ELEMENT_THICKNESS;
    let below = 0.95 * MIN_ELEMENT_THICKNESS;

    let tri = sliver_triangle(at);
    let x = [0, 1, 2].map(|i| [tri[3 * i], tri[3 * i + 1], tri[3 * i + 2]]);
    assert!((triangle_thickness(x) / at - 1.0).abs() < 1e-6);
    let mut s = over_a_sphere();
    s.add_shell(&cp, &ct, &Material::default()).unwrap();
    s.add_shell(&tri, &[0, 1, 2], &Material::default()).expect("a triangle just thicker than the limit");
    two_frames(&mut s).expect("a cloth beside the thinnest accepted triangle steps");

    let (p, t) = cube_with_a_sliver(at);
    let sliver = t.len() / 4 - 1;
    let mut s = over_a_sphere();
    s.add_solid(&p, &t, &Material { youngs_modulus: 1e6, poisson_ratio: 0.45, density: 1100.0, ..Default::default() })
        .expect("a tet just thicker than the limit");
    two_frames(&mut s).expect("a cube holding the thinnest accepted tet steps");
    println!("tet {sliver} of thickness {at:e} stepped");

    let mut s = over_a_sphere();
    let cloth_id = s.add_shell(&cp, &ct, &Material::default()).unwrap();
    let e = s.add_shell(&sliver_triangle(below), &[0, 1, 2], &Material::default()).unwrap_err().to_string();
    assert!(e.contains("triangle 0 [0, 1, 2] is a sliver") && e.contains("1e-6"), "{e}");
    let (p, t) = cube_with_a_sliver(below);
    let e = s.add_solid(&p, &t, &Material::default()).unwrap_err().to_string();
    assert!(e.contains(&format!("tet {sliver} ")) && e.contains("sliver") && e.contains("1e-6"), "{e}");
    println!("{e}");
    two_frames(&mut s).expect("the refused calls left the solver steppable");
    assert!(s.positions(cloth_id).unwrap().iter().all(|x| x.is_finite()));
}
