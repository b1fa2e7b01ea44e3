//! Helpers shared by the mesher tests (`tetrahedralize.rs`, `tetrahedralize_surface.rs`): small
//! vector operations, the structural mesh check (positive tets, conformity, dihedral-angle bounds,
//! closed manifold boundary), signed-distance shapes and closed triangle surfaces.
#![allow(dead_code)]

use grip::mesh::tetrahedralize::{tetrahedralize_sdf, TetMesh, MAX_DIHEDRAL_DEGREES, MIN_DIHEDRAL_DEGREES};
use std::collections::HashMap;
use std::time::Instant;

pub type P = [f64; 3];

pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
pub fn norm(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// Smallest and largest dihedral angle [°] over all tets: the angle at edge (i, j) is 180° minus
/// the angle between the outward normals of the two faces that contain the edge.
pub fn dihedral_range(m: &TetMesh) -> (f64, f64) {
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
pub fn det(m: &TetMesh, t: &[u32; 4]) -> f64 {
    let p = t.map(|v| m.positions[v as usize]);
    dot(sub(p[1], p[0]), cross(sub(p[2], p[0]), sub(p[3], p[0])))
}

/// Statistics of a checked mesh.
pub struct Stats {
    pub tets: usize,
    pub volume: f64,
    pub angles: (f64, f64),
    pub boundary_vertices: Vec<usize>,
}

/// Every structural property the mesher promises: positive tets, no unused vertex, conforming
/// (a face is in one tet, or in two with opposite orientations), dihedral angles within the
/// paper's bounds (0.1° tolerance); and, when `manifold`, a closed manifold boundary (which a
/// solid resolved by the lattice has, but a feature thinner than a cell need not).
pub fn check_mesh(m: &TetMesh, manifold: bool) -> Stats {
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
pub fn check(m: &TetMesh) -> Stats {
    check_mesh(m, true)
}

pub fn sphere(c: P, r: f64) -> impl Fn(P) -> f64 + Sync {
    move |p| norm(sub(p, c)) - r
}

/// Capsule around segment a–b.
pub fn capsule(a: P, b: P, r: f64) -> impl Fn(P) -> f64 + Sync {
    move |p| {
        let (ab, ap) = (sub(b, a), sub(p, a));
        let t = (dot(ap, ab) / dot(ab, ab)).clamp(0.0, 1.0);
        norm(sub(ap, ab.map(|x| x * t))) - r
    }
}

/// Exact signed distance to the box with centre c and half-sizes h.
pub fn cube(c: P, h: P) -> impl Fn(P) -> f64 + Sync {
    move |p| {
        let q: P = std::array::from_fn(|k| (p[k] - c[k]).abs() - h[k]);
        norm(q.map(|x| x.max(0.0))) + q[0].max(q[1]).max(q[2]).min(0.0)
    }
}

/// Meshes an SDF shape and checks structure, boundary-vertex placement and volume.
pub fn mesh_sdf(name: &str, f: &(dyn Fn(P) -> f64 + Sync), lo: P, hi: P, cell: f64, volume: f64) -> (Stats, f64) {
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

/// An icosphere of radius r (`grip::mesh::shapes::icosphere`, 20·4^levels outward triangles)
/// as points and triangles.
pub fn icosphere(r: f64, levels: usize) -> (Vec<P>, Vec<[u32; 3]>) {
    let (p, t) = grip::mesh::shapes::icosphere(r, levels as u32);
    (p.chunks_exact(3).map(|x| [x[0], x[1], x[2]]).collect(), t.chunks_exact(3).map(|x| [x[0], x[1], x[2]]).collect())
}

/// A box [lo, hi] as 12 outward triangles; corner v = x + 2y + 4z.
pub fn box_surface(lo: P, hi: P) -> (Vec<P>, Vec<[u32; 3]>) {
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

pub fn message<T: std::fmt::Debug>(r: grip::Result<T>) -> String {
    r.expect_err("must fail").message().to_string()
}
