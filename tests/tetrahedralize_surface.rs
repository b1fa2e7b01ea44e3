//! The isosurface-stuffing mesher on closed triangle surfaces (`tetrahedralize_surface`): icospheres,
//! boxes, the authors' tube mesh, a 20K-triangle surface and a hollow sphere, checked for structure,
//! enclosed volume and boundary vertices on the input surface; and every refused surface with a
//! message naming the problem.
//!
//! Run with `cargo test --release --test tetrahedralize_surface`.

mod tet_checks;

use grip::mesh::tetrahedralize::tetrahedralize_surface;
use std::time::Instant;
use tet_checks::*;

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
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/softy-tube/tube.vtk");
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
