//! The isosurface-stuffing mesher (`grip::mesh::tetrahedralize`) on signed-distance shapes, against
//! analytic answers: volumes of spheres, capsules and cubes (converging as the cell halves),
//! boundary vertices on the true surface, dihedral angles within the paper's bounds, conformity, a
//! closed manifold boundary, a solid that free-falls exactly as backward Euler predicts,
//! determinism across thread counts, and every refused implicit input with a message naming the
//! problem. Triangle-surface input: `tetrahedralize_surface.rs`.
//!
//! Run with `cargo test --release --test tetrahedralize`.

mod tet_checks;

use grip::mesh::tetrahedralize::{cell_size_for_tet_count, tetrahedralize_sdf, tetrahedralize_surface};
use grip::{Material, Solver, SolverParams};
use std::f64::consts::PI;
use tet_checks::*;

#[test]
fn sphere_volume_converges_and_boundary_lies_on_it() {
    let (c, r) = ([0.003, -0.002, 0.001], 0.1);
    let exact = 4.0 / 3.0 * PI * r * r * r;
    let f = sphere(c, r);
    let errors: Vec<f64> = [0.02, 0.01, 0.005]
        .iter()
        .map(|&cell| mesh_sdf("sphere", &f, [-0.12; 3], [0.12; 3], cell, exact).1.abs())
        .collect();
    assert!(errors[1] < 0.02 && errors[2] < 0.005, "volume errors {errors:?}");
    assert!(errors[1] < 0.6 * errors[0] && errors[2] < 0.6 * errors[1], "no convergence: {errors:?}");
}

#[test]
fn capsule_at_5k_and_30k_tets() {
    let (a, b, r) = ([-0.15, 0.0, 0.0], [0.15, 0.0, 0.0], 0.05);
    let exact = PI * r * r * 0.3 + 4.0 / 3.0 * PI * r * r * r;
    let f = capsule(a, b, r);
    for target in [5_000, 30_000] {
        let cell = cell_size_for_tet_count(exact, target);
        let (s, err) =
            mesh_sdf(&format!("capsule ≈{target}"), &f, [-0.21, -0.06, -0.06], [0.21, 0.06, 0.06], cell, exact);
        assert!(err.abs() < 0.02, "capsule volume error {err}");
        let ratio = s.tets as f64 / target as f64;
        assert!((0.8..1.6).contains(&ratio), "asked ≈{target} tets, got {}", s.tets);
    }
}

#[test]
fn cube_by_sdf_keeps_its_faces() {
    let (c, h) = ([0.0013, 0.0007, -0.0011], [0.1, 0.1, 0.1]);
    let f = cube(c, h);
    let mut errors = Vec::new();
    for cell in [0.02, 0.01] {
        let (_, err) = mesh_sdf("cube", &f, [-0.12; 3], [0.12; 3], cell, 0.008);
        errors.push(err.abs());
    }
    // Edges and corners are chamfered at the cell scale, so the error shrinks with the cell.
    assert!(errors[1] < 0.03 && errors[1] < 0.6 * errors[0], "volume errors {errors:?}");
}

#[test]
fn the_box_clips_the_solid() {
    // A sphere clipped by a box that cuts it in half: a hemisphere.
    let (r, cell) = (0.1, 0.008);
    let m = tetrahedralize_sdf(sphere([0.0; 3], r), [-0.2, -0.2, 0.0], [0.2, 0.2, 0.2], cell).unwrap();
    let s = check(&m);
    let hemisphere = |p: P| (norm(p) - r).max(-p[2]);
    let worst = s.boundary_vertices.iter().map(|&v| hemisphere(m.positions[v]).abs()).fold(0.0, f64::max);
    assert!(worst < 1e-6 * cell, "boundary vertex {worst:e} m off the hemisphere");
    let err = s.volume / (2.0 / 3.0 * PI * r.powi(3)) - 1.0;
    assert!(err.abs() < 0.02, "hemisphere volume error {err}");
    println!(
        "hemisphere: {} tets, dihedral [{:.2}°, {:.2}°], volume error {:+.3} %",
        s.tets,
        s.angles.0,
        s.angles.1,
        100.0 * err
    );
}

// ---------------------------------------------------------------------------------------------
// Use in the solver, determinism, the stress test

#[test]
fn a_meshed_capsule_falls_as_backward_euler_predicts() {
    let f = capsule([-0.15, 0.0, 0.0], [0.15, 0.0, 0.0], 0.05);
    let m = tetrahedralize_sdf(f, [-0.21, -0.06, -0.06], [0.21, 0.06, 0.06], 0.025).unwrap();
    let h = 0.01;
    let mut s = Solver::new(&SolverParams { time_step: h, ..Default::default() }).unwrap();
    let material = Material { density: 1000.0, youngs_modulus: 1e5, poisson_ratio: 0.3, ..Default::default() };
    let id = s.add_solid(&m.flat_positions(), &m.flat_tets(), &material).unwrap();
    let mean_z = |x: &[f64]| x.chunks_exact(3).map(|v| v[2]).sum::<f64>() / (x.len() / 3) as f64;
    let z0 = mean_z(s.positions(id).unwrap());
    let t = 0.1;
    s.advance(t).unwrap();
    let x = s.positions(id).unwrap();
    assert!(x.iter().all(|v| v.is_finite()));
    // Unstressed and under uniform gravity every vertex falls alike: backward Euler gives
    // Δz = −½ g (t² + h t) exactly.
    let want = -0.5 * 9.81 * (t * t + h * t);
    let got = mean_z(x) - z0;
    assert!((got - want).abs() < 1e-6 * want.abs(), "fell {got} m, backward Euler predicts {want} m");
    println!("capsule ({} tets) fell {got:.6} m in {t} s (backward Euler: {want:.6} m)", m.tets.len());
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (p, t) = icosphere(0.1, 3);
            let a = tetrahedralize_surface(&p, &t, 0.01).unwrap();
            let b = tetrahedralize_sdf(capsule([-0.15, 0.0, 0.0], [0.15, 0.0, 0.0], 0.05), [-0.3; 3], [0.3; 3], 0.01)
                .unwrap();
            (a, b)
        })
    };
    assert_eq!(run(1), run(2));
    assert_eq!(run(2), run(3));
}

/// Deterministic pseudo-random numbers in [−1, 1).
fn hash(i: u64, j: u64) -> f64 {
    let mut h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ j.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    (h >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// Random smooth and faceted solids at random lattice offsets: convex polyhedra (sharp edges
/// and corners), near-flat large spheres, tori unioned with boxes, thin slabs. Every mesh must
/// pass [`check`], including the dihedral-angle bounds.
#[test]
fn random_shapes_keep_the_angle_bounds() {
    let (mut tets, mut meshed, mut worst) = (0, 0, (180.0f64, 0.0f64));
    for i in 0..160u64 {
        let r = |k: u64| hash(i, k);
        let unit = |k: u64| {
            let n = [r(k), r(k + 1), r(k + 2)];
            n.map(|x| x / norm(n))
        };
        let f: Box<dyn Fn(P) -> f64 + Sync> = match i % 4 {
            0 => {
                let planes: Vec<(P, f64)> = (0..7).map(|k| (unit(10 + 3 * k), 0.3 + 0.15 * r(40 + k))).collect();
                Box::new(move |p| planes.iter().map(|(n, d)| dot(*n, p) - d).fold(f64::NEG_INFINITY, f64::max))
            }
            1 => {
                let rad = 3.0 + 2.0 * r(1);
                let c = [0.2 * r(2), 0.2 * r(3), rad + 0.2 * r(4)];
                Box::new(move |p| norm(sub(p, c)) - rad)
            }
            2 => {
                let (c, big) = ([0.1 * r(1), 0.1 * r(2), 0.1 * r(3)], 0.35 + 0.1 * r(4));
                Box::new(move |p| {
                    let q = sub(p, c);
                    let torus = ((q[0] * q[0] + q[1] * q[1]).sqrt() - big).hypot(q[2]) - 0.15;
                    torus.min(q[0].abs().max(q[1].abs()).max(q[2].abs()) - 0.2)
                })
            }
            _ => {
                let (n, d, w) = (unit(1), 0.3 * r(4), 0.06 + 0.03 * r(5));
                Box::new(move |p| (dot(n, p) - d).abs() - w)
            }
        };
        let cell = 0.07 + 0.01 * (i % 5) as f64;
        // A few shapes miss the box or are thinner than the lattice: those are refused.
        let m = match tetrahedralize_sdf(&f, [-0.7, -0.75, -0.72], [0.71, 0.69, 0.73], cell) {
            Ok(m) => m,
            Err(e) => {
                assert!(e.message().contains("no tets"), "{e}");
                continue;
            }
        };
        meshed += 1;
        let s = check_mesh(&m, false);
        tets += s.tets;
        worst = (worst.0.min(s.angles.0), worst.1.max(s.angles.1));
    }
    assert!(meshed >= 140, "only {meshed} of 160 shapes meshed");
    println!("{meshed} random shapes, {tets} tets: dihedral angles in [{:.2}°, {:.2}°]", worst.0, worst.1);
}

#[test]
fn refused_implicit_input_names_the_problem() {
    let f = sphere([0.0; 3], 0.1);
    let (lo, hi) = ([-0.2; 3], [0.2; 3]);
    for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
        assert!(message(tetrahedralize_sdf(&f, lo, hi, bad)).contains("cell_size"));
    }
    let m = message(tetrahedralize_sdf(&f, lo, hi, 1e-4));
    assert!(m.contains("too many lattice cells") && m.contains("4194304"), "{m}");
    assert!(message(tetrahedralize_sdf(&f, [0.2; 3], [-0.2; 3], 0.01)).contains("box is empty along axis 0"));
    assert!(message(tetrahedralize_sdf(&f, [f64::NAN; 3], hi, 0.01)).contains("lo"));
    let nan_inside = |p: P| if norm(p) < 0.05 { f64::NAN } else { norm(p) - 0.1 };
    assert!(message(tetrahedralize_sdf(nan_inside, lo, hi, 0.01)).contains("NaN"));
    assert!(message(tetrahedralize_sdf(|p: P| norm(p) + 1.0, lo, hi, 0.01)).contains("no tets"));
    assert!(cell_size_for_tet_count(0.0, 100).is_nan() && cell_size_for_tet_count(1.0, 0).is_nan());
    assert!((cell_size_for_tet_count(1.0, 12_000) - 0.1).abs() < 1e-12);
}
