//! The isosurface-stuffing mesher (`grip::mesh::tetrahedralize`) against analytic answers:
//! volumes of spheres, capsules and cubes (converging as the cell halves), boundary vertices on
//! the true surface, dihedral angles within the paper's bounds, conformity, a closed manifold
//! boundary, a solid that free-falls exactly as backward Euler predicts, determinism across
//! thread counts, and every refusal with a message naming the problem.
//!
//! Run with `cargo test --release --test tetrahedralize`.

use grip::mesh::tetrahedralize::{
    cell_size_for_tet_count, tetrahedralize_sdf, tetrahedralize_surface, TetMesh, MAX_DIHEDRAL_DEGREES,
    MIN_DIHEDRAL_DEGREES,
};
use grip::{GripMaterial, GripSolverParams, Solver};
use std::collections::HashMap;
use std::f64::consts::PI;
use std::time::Instant;

type P = [f64; 3];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn norm(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// Smallest and largest dihedral angle [°] over all tets: the angle at edge (i, j) is 180° minus
/// the angle between the outward normals of the two faces that contain the edge.
fn dihedral_range(m: &TetMesh) -> (f64, f64) {
    let (mut lo, mut hi) = (180.0f64, 0.0f64);
    for t in &m.tets {
        let p = t.map(|v| m.positions[v as usize]);
        let normals: Vec<P> = (0..4)
            .map(|i| {
                let f: Vec<usize> = (0..4).filter(|&j| j != i).collect();
                let mut n = cross(sub(p[f[1]], p[f[0]]), sub(p[f[2]], p[f[0]]));
                if dot(n, sub(p[i], p[f[0]])) > 0.0 {
                    n = n.map(|x| -x);
                }
                n.map(|x| x / norm(n))
            })
            .collect();
        for k in 0..4 {
            for l in k + 1..4 {
                let angle = 180.0 - dot(normals[k], normals[l]).clamp(-1.0, 1.0).acos().to_degrees();
                lo = lo.min(angle);
                hi = hi.max(angle);
            }
        }
    }
    (lo, hi)
}

/// Six times the signed volume of tet t.
fn det(m: &TetMesh, t: &[u32; 4]) -> f64 {
    let p = t.map(|v| m.positions[v as usize]);
    dot(sub(p[1], p[0]), cross(sub(p[2], p[0]), sub(p[3], p[0])))
}

/// Statistics of a checked mesh.
struct Stats {
    tets: usize,
    volume: f64,
    angles: (f64, f64),
    boundary_vertices: Vec<usize>,
}

/// Every structural property the mesher promises: positive tets, no unused vertex, conforming
/// (a face is in one tet, or in two with opposite orientations), dihedral angles within the
/// paper's bounds (0.1° tolerance); and, when `manifold`, a closed manifold boundary (which a
/// solid resolved by the lattice has, but a feature thinner than a cell need not).
fn check_mesh(m: &TetMesh, manifold: bool) -> Stats {
    assert!(!m.tets.is_empty());
    let scale = m.positions.iter().fold(0.0f64, |s, p| s.max(norm(*p))).max(1e-3);
    for (i, t) in m.tets.iter().enumerate() {
        assert!(det(m, t) > 1e-12 * scale.powi(3), "tet {i} {t:?} has det {}", det(m, t));
    }
    let mut used = vec![false; m.positions.len()];
    m.tets.iter().flatten().for_each(|&v| used[v as usize] = true);
    assert!(used.iter().all(|&u| u), "unused vertices");
    let mut faces: HashMap<[u32; 3], Vec<[u32; 3]>> = HashMap::new();
    for t in &m.tets {
        for f in [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] {
            let tri = f.map(|k| t[k]);
            let mut key = tri;
            key.sort_unstable();
            faces.entry(key).or_default().push(tri);
        }
    }
    for (key, uses) in &faces {
        assert!(uses.len() <= 2, "face {key:?} in {} tets", uses.len());
        if let [a, b] = uses.as_slice() {
            let rotations = [*b, [b[1], b[2], b[0]], [b[2], b[0], b[1]]];
            assert!(rotations.contains(&[a[0], a[2], a[1]]), "face {key:?} has the same orientation in both tets");
        }
    }
    let boundary = grip::mesh::boundary_triangles(&m.tets);
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for tri in &boundary {
        for k in 0..3 {
            *edges.entry((tri[k], tri[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        // Conforming tets always give a closed boundary: each directed edge as often as its reverse.
        assert_eq!(edges.get(&(b, a)), Some(&n), "boundary edge {a}->{b} is not matched (boundary not closed)");
        assert!(!manifold || n == 1, "boundary edge {a}->{b} used {n} times (not manifold)");
    }
    let angles = dihedral_range(m);
    assert!(angles.0 >= MIN_DIHEDRAL_DEGREES - 0.1, "smallest dihedral angle {:.3}°", angles.0);
    assert!(angles.1 <= MAX_DIHEDRAL_DEGREES + 0.1, "largest dihedral angle {:.3}°", angles.1);
    let mut boundary_vertices: Vec<usize> = boundary.iter().flatten().map(|&v| v as usize).collect();
    boundary_vertices.sort_unstable();
    boundary_vertices.dedup();
    Stats { tets: m.tets.len(), volume: m.volume(), angles, boundary_vertices }
}

/// [`check_mesh`] with a manifold boundary required.
fn check(m: &TetMesh) -> Stats {
    check_mesh(m, true)
}

fn sphere(c: P, r: f64) -> impl Fn(P) -> f64 + Sync {
    move |p| norm(sub(p, c)) - r
}

/// Capsule around segment a–b.
fn capsule(a: P, b: P, r: f64) -> impl Fn(P) -> f64 + Sync {
    move |p| {
        let (ab, ap) = (sub(b, a), sub(p, a));
        let t = (dot(ap, ab) / dot(ab, ab)).clamp(0.0, 1.0);
        norm(sub(ap, ab.map(|x| x * t))) - r
    }
}

/// Exact signed distance to the box with centre c and half-sizes h.
fn cube(c: P, h: P) -> impl Fn(P) -> f64 + Sync {
    move |p| {
        let q: P = std::array::from_fn(|k| (p[k] - c[k]).abs() - h[k]);
        norm(q.map(|x| x.max(0.0))) + q[0].max(q[1]).max(q[2]).min(0.0)
    }
}

/// Meshes an SDF shape and checks structure, boundary-vertex placement and volume.
fn mesh_sdf(name: &str, f: &(dyn Fn(P) -> f64 + Sync), lo: P, hi: P, cell: f64, volume: f64) -> (Stats, f64) {
    let start = Instant::now();
    let m = tetrahedralize_sdf(f, lo, hi, cell).unwrap_or_else(|e| panic!("{name}: {e}"));
    let seconds = start.elapsed().as_secs_f64();
    let s = check(&m);
    let worst = s.boundary_vertices.iter().map(|&v| f(m.positions[v]).abs()).fold(0.0, f64::max);
    assert!(worst < 1e-6 * cell, "{name}: boundary vertex {worst:e} m off the surface");
    let err = (s.volume - volume) / volume;
    println!(
        "{name}: cell {cell:.4} m, {} tets, {} vertices, dihedral [{:.2}°, {:.2}°], volume error {:+.3} %, \
         boundary off surface ≤ {worst:.1e} m, {:.0} ms",
        s.tets,
        m.positions.len(),
        s.angles.0,
        s.angles.1,
        100.0 * err,
        1e3 * seconds
    );
    (s, err)
}

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
// Triangle surfaces

/// An icosphere of radius r: the icosahedron subdivided `levels` times (20·4^levels triangles),
/// outward.
fn icosphere(r: f64, levels: usize) -> (Vec<P>, Vec<[u32; 3]>) {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut p: Vec<P> = [
        [-1.0, g, 0.0],
        [1.0, g, 0.0],
        [-1.0, -g, 0.0],
        [1.0, -g, 0.0],
        [0.0, -1.0, g],
        [0.0, 1.0, g],
        [0.0, -1.0, -g],
        [0.0, 1.0, -g],
        [g, 0.0, -1.0],
        [g, 0.0, 1.0],
        [-g, 0.0, -1.0],
        [-g, 0.0, 1.0],
    ]
    .to_vec();
    let mut t: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
        let mut next = Vec::with_capacity(4 * t.len());
        for tri in &t {
            let m = [0, 1, 2].map(|k| {
                let (a, b) = (tri[k].min(tri[(k + 1) % 3]), tri[k].max(tri[(k + 1) % 3]));
                *mid.entry((a, b)).or_insert_with(|| {
                    p.push(std::array::from_fn(|i| 0.5 * (p[a as usize][i] + p[b as usize][i])));
                    (p.len() - 1) as u32
                })
            });
            next.extend([[tri[0], m[0], m[2]], [tri[1], m[1], m[0]], [tri[2], m[2], m[1]], m]);
        }
        t = next;
    }
    for q in &mut p {
        let n = norm(*q);
        *q = q.map(|x| r * x / n);
    }
    (p, t)
}

/// A box [lo, hi] as 12 outward triangles; corner v = x + 2y + 4z.
fn box_surface(lo: P, hi: P) -> (Vec<P>, Vec<[u32; 3]>) {
    let p = (0..8).map(|v| [0, 1, 2].map(|k| if (v >> k) & 1 == 1 { hi[k] } else { lo[k] })).collect();
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    (p, t)
}

/// Volume enclosed by a closed outward surface (divergence theorem).
fn enclosed_volume(p: &[P], t: &[[u32; 3]]) -> f64 {
    t.iter().map(|x| dot(p[x[0] as usize], cross(p[x[1] as usize], p[x[2] as usize])) / 6.0).sum()
}

/// Distance from q to triangle (a, b, c), by projection onto the plane or else onto the edges.
fn distance_to_triangle(q: P, a: P, b: P, c: P) -> f64 {
    let n = cross(sub(b, a), sub(c, a));
    let d = dot(sub(q, a), n) / dot(n, n);
    let proj = sub(q, n.map(|x| x * d));
    let inside = [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| dot(cross(sub(v, u), sub(proj, u)), n) >= 0.0);
    if inside {
        return norm(sub(q, proj));
    }
    [(a, b), (b, c), (c, a)]
        .iter()
        .map(|&(u, v)| {
            let t = (dot(sub(q, u), sub(v, u)) / dot(sub(v, u), sub(v, u))).clamp(0.0, 1.0);
            norm(sub(q, [0, 1, 2].map(|k| u[k] + t * (v[k] - u[k]))))
        })
        .fold(f64::INFINITY, f64::min)
}

/// Meshes a triangle surface; checks structure, volume against the polyhedron's and the
/// distance of (every `stride`-th) boundary vertex to the input surface.
fn mesh_surface(name: &str, p: &[P], t: &[[u32; 3]], cell: f64, stride: usize) -> (Stats, f64) {
    let start = Instant::now();
    let m = tetrahedralize_surface(p, t, cell).unwrap_or_else(|e| panic!("{name}: {e}"));
    let seconds = start.elapsed().as_secs_f64();
    let s = check(&m);
    let worst = s
        .boundary_vertices
        .iter()
        .step_by(stride)
        .map(|&v| {
            let q = m.positions[v];
            t.iter()
                .map(|x| distance_to_triangle(q, p[x[0] as usize], p[x[1] as usize], p[x[2] as usize]))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max);
    assert!(worst < 1e-6 * cell, "{name}: boundary vertex {worst:e} m off the surface");
    let exact = enclosed_volume(p, t).abs();
    let err = (s.volume - exact) / exact;
    println!(
        "{name}: {} triangles, cell {cell} m, {} tets, dihedral [{:.2}°, {:.2}°], volume error {:+.3} %, \
         boundary off surface ≤ {worst:.1e} m, {:.0} ms",
        t.len(),
        s.tets,
        s.angles.0,
        s.angles.1,
        100.0 * err,
        1e3 * seconds
    );
    (s, err)
}

#[test]
fn icosphere_and_box_surfaces() {
    let (p, t) = icosphere(0.1, 3);
    let (_, e1) = mesh_surface("icosphere", &p, &t, 0.01, 1);
    let (_, e2) = mesh_surface("icosphere", &p, &t, 0.005, 1);
    assert!(e1.abs() < 0.03 && e2.abs() < 0.01 && e2.abs() < 0.6 * e1.abs(), "volume errors {e1} {e2}");
    let (p, t) = box_surface([-0.1, -0.07, -0.05], [0.1, 0.13, 0.15]);
    let (_, e) = mesh_surface("box surface", &p, &t, 0.01, 1);
    assert!(e.abs() < 0.03, "box volume error {e}");
    // The same box facing inward is flipped and gives the same mesh volume.
    let inward: Vec<[u32; 3]> = t.iter().map(|x| [x[0], x[2], x[1]]).collect();
    let (_, e_in) = mesh_surface("box surface, inward", &p, &inward, 0.01, 1);
    assert!((e_in - e).abs() < 1e-12);
}

#[test]
fn softy_tube_surface() {
    // shared/ sits beside the repository (as in CI).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/softy-tube/tube.vtk");
    let tube = grip::io::vtk::read_vtk(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for cell in [0.1, 0.05] {
        let (s, err) = mesh_surface("softy tube", &tube.positions, &tube.triangles, cell, 1);
        assert!(err.abs() < 0.03, "tube volume error {err} at cell {cell}");
        assert!(s.tets > 1000);
    }
}

#[test]
fn twenty_thousand_triangle_surface() {
    let (p, t) = icosphere(0.1, 5);
    assert_eq!(t.len(), 20_480);
    let (_, err) = mesh_surface("icosphere 20K", &p, &t, 0.005, 25);
    assert!(err.abs() < 0.01, "volume error {err}");
}

#[test]
fn hollow_sphere_with_an_inward_cavity() {
    let (mut p, mut t) = icosphere(0.1, 2);
    let (q, u) = icosphere(0.05, 2);
    let n = p.len() as u32;
    p.extend(q);
    t.extend(u.iter().map(|x| [x[0] + n, x[2] + n, x[1] + n])); // cavity faces inward
    let (_, err) = mesh_surface("hollow sphere", &p, &t, 0.008, 1);
    assert!(err.abs() < 0.05, "volume error {err}");
}

// ---------------------------------------------------------------------------------------------
// Use in the solver, determinism, the stress test

#[test]
fn a_meshed_capsule_falls_as_backward_euler_predicts() {
    let f = capsule([-0.15, 0.0, 0.0], [0.15, 0.0, 0.0], 0.05);
    let m = tetrahedralize_sdf(f, [-0.21, -0.06, -0.06], [0.21, 0.06, 0.06], 0.025).unwrap();
    let h = 0.01;
    let mut s = Solver::new(&GripSolverParams { time_step: h, ..Default::default() }).unwrap();
    let material = GripMaterial { density: 1000.0, youngs_modulus: 1e5, poisson_ratio: 0.3, ..Default::default() };
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

// ---------------------------------------------------------------------------------------------
// Refusals

fn message<T: std::fmt::Debug>(r: grip::Result<T>) -> String {
    r.expect_err("must fail").message().to_string()
}

#[test]
fn refused_surfaces_name_the_problem() {
    let (p, t) = box_surface([0.0; 3], [0.2; 3]);
    let cell = 0.02;
    let m = message(tetrahedralize_surface(&p, &t[..11], cell));
    assert!(m.contains("not closed") && m.contains("edge (5, 7) of triangle 3"), "{m}");
    // A second box sharing the edge from corner 3 to corner 7: that edge has four triangles.
    let (mut p2, mut t2) = (p.clone(), t.clone());
    let (q, u) = box_surface([0.2, 0.2, 0.0], [0.4, 0.4, 0.2]);
    let n = p2.len() as u32;
    p2.extend(q);
    t2.extend(u.iter().map(|x| {
        x.map(|v| {
            if v == 0 {
                3
            } else if v == 4 {
                7
            } else {
                v + n
            }
        })
    }));
    let m = message(tetrahedralize_surface(&p2, &t2, cell));
    assert!(m.contains("not manifold") && m.contains("edge (7, 3)") && m.contains("4 triangles"), "{m}");
    // Two boxes that overlap.
    let (q, u) = box_surface([0.1; 3], [0.3; 3]);
    let (mut p3, mut t3) = (p.clone(), t.clone());
    p3.extend(q);
    t3.extend(u.iter().map(|x| x.map(|v| v + 8)));
    let m = message(tetrahedralize_surface(&p3, &t3, cell));
    assert!(m.contains("intersects itself") && m.contains("triangles"), "{m}");
    // One triangle flipped.
    let mut t4 = t.clone();
    t4[5] = [t4[5][0], t4[5][2], t4[5][1]];
    let m = message(tetrahedralize_surface(&p, &t4, cell));
    assert!(m.contains("not consistently oriented"), "{m}");
    // Bad positions, indices and cell sizes.
    let mut p5 = p.clone();
    p5[6][1] = f64::NAN;
    assert!(message(tetrahedralize_surface(&p5, &t, cell)).contains("vertex 6 is not finite"));
    let mut t6 = t.clone();
    t6[2][1] = 8;
    assert!(message(tetrahedralize_surface(&p, &t6, cell)).contains("triangle 2 refers to vertex 8"));
    assert!(message(tetrahedralize_surface(&p, &[], cell)).contains("no triangles"));
    for bad in [0.0, -0.01, f64::NAN, f64::INFINITY] {
        assert!(message(tetrahedralize_surface(&p, &t, bad)).contains("cell_size"), "cell {bad}");
    }
    let m = message(tetrahedralize_surface(&p, &t, 1e-4));
    assert!(m.contains("too many lattice cells"), "{m}");
    // A solid thinner than the lattice.
    assert!(message(tetrahedralize_surface(&p, &t, 10.0)).contains("no tets"));
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
