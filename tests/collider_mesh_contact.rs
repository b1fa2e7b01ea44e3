//! Contact with collider meshes by exact distance, against answers that do not come from the
//! solver: a floor mesh of any tessellation behaves as the analytic plane (to round-off), a block
//! sliding on a two-triangle incline stops where Coulomb says and as on the analytic plane, and
//! cloths dropped on coarse proxies (an octagonal prism with fanned caps, the authors' tube)
//! never end a frame deeper than the contact thickness inside the mesh, measured by brute-force
//! distance and the generalized winding number, nor with a cloth triangle cut by the proxy's
//! sharp edges (exact triangle–triangle tests).
//!
//! Run with `cargo test --release --test collider_mesh_contact`.

use grip::analytic::incline::{stop, Incline, InclineSurface};
use grip::contact::{FrictionCoupling, Shape, ShapeKind};
use grip::mesh::boundary::boundary_triangles;
use grip::mesh::closest_point::{closest_on_triangle, point_at};
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::mesh::intersection::intersecting_pairs_between;
use grip::mesh::shapes::{open_cylinder, prism, uv_sphere};
use grip::{ColliderMeshContact, Material, Solver, SolverParams};

mod common;
use common::sleeve_cloth;

/// A horizontal `n` × `n` grid cloth of side `size` (m) centred over the origin at height `z`.
fn flat_cloth(size: f64, n: usize, z: f64) -> (Vec<f64>, Vec<u32>) {
    let (p, t) = grid_cloth(size, size, n, n);
    (p.chunks(3).flat_map(|x| [x[0], x[2] + 0.5 * size, z]).collect(), t)
}

/// A floor at z = 0 covering [−2, 2]² m, split into `strips` × 1 cells of two triangles each
/// (1 strip: two triangles; 64: slivers of aspect ratio 64 : 1 against the floor's depth).
fn floor_mesh(strips: usize) -> (Vec<f64>, Vec<u32>) {
    let mut p = Vec::new();
    for i in 0..=strips {
        let x = -2.0 + 4.0 * i as f64 / strips as f64;
        p.extend_from_slice(&[x, -2.0, 0.0, x, 2.0, 0.0]);
    }
    let mut t = Vec::new();
    for i in 0..strips as u32 {
        let (a, b, c, d) = (2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
        t.extend_from_slice(&[a, b, c, a, c, d]);
    }
    (p, t)
}

/// A cloth of 21 × 21 vertices thrown sideways at 1 m/s onto a floor 3 mm below it, with
/// μ = 0.3: it lands, slides across the floor's triangles and comes to rest. Returns the
/// positions after `steps` steps of 0.01 s, and the Newton iterations they took.
fn throw_cloth(floor: Option<usize>, steps: usize) -> (Vec<f64>, u32) {
    let params =
        SolverParams { time_step: 0.01, collider_mesh_contact: ColliderMeshContact::Exact, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    let collider = match floor {
        Some(strips) => {
            let (p, t) = floor_mesh(strips);
            s.add_collider_mesh(&p, &t).unwrap()
        }
        None => s.add_collider_shape(&Shape { kind: ShapeKind::Plane, ..Shape::default() }).unwrap(),
    };
    let (p, t) = flat_cloth(0.5, 20, 0.003);
    let cloth = s.add_shell(&p, &t, &sleeve_cloth()).unwrap();
    s.set_friction(cloth, collider, 0.3).unwrap();
    let v: Vec<f64> = p.chunks(3).flat_map(|_| [1.0, 0.3, 0.0]).collect();
    s.set_vertex_attribute(cloth, grip::solver::VertexAttribute::Velocity, &v).unwrap();
    let mut newton = 0;
    for k in 0..steps {
        s.step(0.01).unwrap_or_else(|e| panic!("step {k}: {e}"));
        newton += s.report().newton_iterations;
    }
    (s.positions(cloth).unwrap().to_vec(), newton)
}

/// The exact distance to a flat mesh is the plane's distance, its pseudonormal the plane's
/// normal, its interpolated friction normal the same: a cloth sliding across two triangles or
/// across 128 slivers follows the analytic plane's trajectory to round-off, in as many Newton
/// iterations.
#[test]
fn a_floor_mesh_of_any_tessellation_is_the_analytic_plane() {
    let steps = 40;
    let (plane, plane_newton) = throw_cloth(None, steps);
    for strips in [1, 64] {
        let (mesh, newton) = throw_cloth(Some(strips), steps);
        let diff = plane.iter().zip(&mesh).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        let slid = plane.iter().step_by(3).sum::<f64>() / (plane.len() / 3) as f64;
        println!(
            "{strips} strip(s): largest position difference {diff:.2e} m; Newton {newton} vs {plane_newton}; the cloth slid to x = {slid:.3} m"
        );
        assert!(slid > 0.1, "the cloth must slide over the floor (mean x {slid})");
        assert!(diff < 1e-9, "{strips} strip(s): trajectories differ by {diff} m");
        // Round-off near Newton's tolerance may cost an iteration here and there.
        assert!(newton.abs_diff(plane_newton) * 20 <= plane_newton, "{strips} strip(s): {newton} vs {plane_newton}");
    }
}

/// The block slide of ACCURACY.md on a two-triangle mesh whose diagonal crosses the block's
/// path stops where it does on the analytic plane (to 1e-6 m), for implicit and lagged friction;
/// with implicit friction that is within 0.5 % of Coulomb's x_T = v₀²/(2g(μ cos θ − sin θ)).
#[test]
fn a_block_slides_on_a_two_triangle_incline_as_on_the_plane() {
    for coupling in [FrictionCoupling::Implicit, FrictionCoupling::Lagged] {
        for h in [0.01, 0.025] {
            let case = |surface| Incline { h, coupling, surface, ..Incline::default() };
            let (x_t, _) = case(InclineSurface::Plane).analytic_stop();
            let plane = case(InclineSurface::Plane).run().expect("plane run");
            let mesh = case(InclineSurface::TwoTriangles).run().expect("mesh run");
            let (sp, sm) = (stop(&plane, 1e-4).expect("stops"), stop(&mesh, 1e-4).expect("stops"));
            println!(
                "{coupling:?}, h = {h}: plane stops at {:.5} m, mesh at {:.5} m (analytic {x_t:.5}); difference {:.2e} m",
                sp.distance,
                sm.distance,
                (sp.distance - sm.distance).abs()
            );
            assert!((sp.distance - sm.distance).abs() < 1e-6, "{coupling:?}, h = {h}");
            // Lagged friction overshoots on the plane too (ACCURACY.md: +15 % at h = 0.01).
            if coupling == FrictionCoupling::Implicit {
                let error = (sm.distance - x_t) / x_t;
                assert!(error.abs() < 0.005, "h = {h}: stops at {} vs {x_t}", sm.distance);
            }
            assert!(sm.distance > 0.3, "the block must cross the diagonal at 0.3 m");
        }
    }
}

/// Signed depth oracle of a closed, outward triangle mesh: the brute-force distance to its
/// triangles, negative where the generalized winding number (Σ solid angles / 4π) is above ½.
fn signed_distance(points: &[[f64; 3]], tris: &[[u32; 3]], x: [f64; 3]) -> f64 {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let norm = |a: [f64; 3]| dot(a, a).sqrt();
    let mut d2 = f64::INFINITY;
    let mut winding = 0.0;
    for t in tris {
        let c = t.map(|v| points[v as usize]);
        let q = point_at(c, closest_on_triangle(x, c).0);
        d2 = d2.min(dot(sub(x, q), sub(x, q)));
        // Van Oosterom–Strackee solid angle of the triangle seen from x.
        let [a, b, cc] = c.map(|p| sub(p, x));
        let (la, lb, lc) = (norm(a), norm(b), norm(cc));
        let det = a[0] * (b[1] * cc[2] - b[2] * cc[1]) - a[1] * (b[0] * cc[2] - b[2] * cc[0])
            + a[2] * (b[0] * cc[1] - b[1] * cc[0]);
        let den = la * lb * lc + dot(a, b) * lc + dot(b, cc) * la + dot(cc, a) * lb;
        winding += 2.0 * det.atan2(den);
    }
    let inside = winding / (4.0 * std::f64::consts::PI) > 0.5;
    if inside {
        -d2.sqrt()
    } else {
        d2.sqrt()
    }
}

/// The smallest signed distance (m) of `cloth` (flat positions) to the mesh.
fn deepest(points: &[[f64; 3]], tris: &[[u32; 3]], cloth: &[f64]) -> f64 {
    cloth.chunks(3).map(|x| signed_distance(points, tris, [x[0], x[1], x[2]])).fold(f64::INFINITY, f64::min)
}

/// Runs `frames` frames of 1/24 s, checking after each that no cloth vertex is deeper than the
/// contact thickness inside the collider (by the oracle) and that no cloth triangle (of
/// `cloth_triangles`) intersects a collider triangle: a sharp edge of the collider must not
/// cut the cloth between its vertices. Returns the deepest signed distance and the Newton
/// iterations.
fn drop_on(
    s: &mut Solver,
    collider: (&[f64], &[u32]),
    (cloth, cloth_triangles): (u32, &[u32]),
    frames: usize,
    delta: f64,
) -> (f64, u32) {
    let points: Vec<[f64; 3]> = collider.0.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let tris: Vec<[u32; 3]> = collider.1.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let cloth_tris: Vec<[u32; 3]> = cloth_triangles.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let (mut worst, mut newton) = (f64::INFINITY, 0);
    for f in 1..=frames {
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        newton += s.report().newton_iterations;
        let x = s.positions(cloth).unwrap();
        let d = deepest(&points, &tris, x);
        worst = worst.min(d);
        assert!(d > -delta, "frame {f}: a cloth vertex is {:.3e} m inside the mesh (δ = {delta})", -d);
        let cloth_points: Vec<[f64; 3]> = x.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let cut = intersecting_pairs_between(&cloth_points, &cloth_tris, &points, &tris);
        assert!(cut.is_empty(), "frame {f}: {} cloth triangles cut by the collider, e.g. {:?}", cut.len(), cut[0]);
    }
    (worst, newton)
}

/// The solver of the cloth drops onto proxies: 1/240 s steps, δ = 2 mm, exact distance.
fn drop_params() -> SolverParams {
    SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: 2e-3,
        collider_mesh_contact: ColliderMeshContact::Exact,
        ..Default::default()
    }
}

/// The low-poly proxy: a 33 × 33 cloth (1089 vertices) dropped across an octagonal
/// prism with fanned caps (long thin side triangles, larger than the cloth's edges) drapes over
/// it without a vertex ending a frame deeper than δ inside.
#[test]
fn cloth_drapes_over_a_low_poly_prism() {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = prism(0.15, -0.5, 0.5, 8);
    let proxy = s.add_collider_mesh(&p, &t).unwrap();
    let (cp, ct) = flat_cloth(0.8, 32, 0.17);
    let cloth = s.add_shell(&cp, &ct, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.set_friction(cloth, proxy, 0.3).unwrap();
    let (worst, newton) = drop_on(&mut s, (&p, &t), (cloth, &ct), 12, params.contact_thickness);
    let low = s.positions(cloth).unwrap().chunks(3).map(|x| x[2]).fold(f64::INFINITY, f64::min);
    println!("prism: deepest signed distance {worst:.3e} m, {newton} Newton iterations, lowest cloth z {low:.3}");
    assert!(low < 0.0, "the cloth's sides must hang down past the prism's axis (lowest z {low})");
}

/// An axis-aligned box of half-size `h` (m) about the origin, 12 outward triangles.
fn box_mesh(h: f64) -> (Vec<f64>, Vec<u32>) {
    let p: Vec<f64> = (0..8).flat_map(|i| [0, 1, 2].map(|k| if i >> k & 1 == 1 { h } else { -h })).collect();
    // Each face as a quad (a, b, c, d) counter-clockwise seen from outside.
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let t = quads.iter().flat_map(|&[a, b, c, d]| [a, b, c, a, c, d]).collect();
    (p, t)
}

/// Drops a 0.6 m cloth (25 × 25 vertices, μ = 0.3) from 1.5 cm above a 0.4 m box mesh (12
/// triangles, each larger than the top of the cloth's drape), centred `shift` (m) off the box's
/// axis, through `drop_on`'s checks for 12 frames; returns the deepest signed distance, the
/// Newton iterations and the lowest cloth height (m).
fn drop_cloth_on_a_box(shift: [f64; 2]) -> (f64, u32, f64) {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = box_mesh(0.2);
    let solid = s.add_collider_mesh(&p, &t).unwrap();
    let (cp, ct) = flat_cloth(0.6, 24, 0.215);
    let shifted: Vec<f64> = cp.chunks(3).flat_map(|x| [x[0] + shift[0], x[1] + shift[1], x[2]]).collect();
    let cloth = s.add_shell(&shifted, &ct, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.set_friction(cloth, solid, 0.3).unwrap();
    let (worst, newton) = drop_on(&mut s, (&p, &t), (cloth, &ct), 12, params.contact_thickness);
    let low = s.positions(cloth).unwrap().chunks(3).map(|x| x[2]).fold(f64::INFINITY, f64::min);
    (worst, newton, low)
}

/// A cloth dropped centred onto a box folds over its four 90° top edges: no vertex deeper than
/// δ and no cloth triangle cut by an edge, in any frame. The far top edges of the box's big
/// triangles put the cloth hanging down the near side inside their wedges; gathered by signed
/// gap alone, they failed the step at frame 2 with gaps of −0.41 m.
#[test]
fn cloth_folds_over_the_edges_of_a_box() {
    let (worst, newton, low) = drop_cloth_on_a_box([0.0, 0.0]);
    println!("box: deepest signed distance {worst:.3e} m, {newton} Newton iterations, lowest cloth z {low:.3}");
    assert!(low < 0.15, "the cloth's sides must fold down over the box's edges (lowest z {low})");
}

/// The same cloth dropped onto the box's corner, off the grid (no cloth vertex above the
/// corner): the corner meets the cloth triangle over it, which vertex and ridge contact alone
/// let it poke through (6 cut triangle pairs from frame 2).
#[test]
fn cloth_drops_onto_the_corner_of_a_box() {
    let (worst, newton, _) = drop_cloth_on_a_box([0.2123, 0.2071]);
    println!("box corner: deepest signed distance {worst:.3e} m, {newton} Newton iterations");
}

/// Drops a 0.6 m cloth (25 × 25 vertices) 1.5 cm above an open sheet (a 0.5 × 1 m table top
/// of two triangles at z = 0, its rim along x = 0), a quarter of it over the rim, with friction
/// `mu`, for 24 frames: no cloth triangle cut by the sheet and no cloth vertex through it
/// (below z = 0 over the sheet) in any frame. Returns how far the cloth's back edge moved
/// towards the rim (m) and the Newton iterations.
fn drape_over_a_rim(mu: f64) -> (f64, u32) {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let p = vec![-0.5, -0.5, 0.0, 0.0, -0.5, 0.0, 0.0, 0.5, 0.0, -0.5, 0.5, 0.0];
    let t = vec![0, 1, 2, 0, 2, 3];
    let sheet = s.add_collider_mesh(&p, &t).unwrap();
    let (cp, ct) = flat_cloth(0.6, 24, 0.015);
    let shifted: Vec<f64> = cp.chunks(3).flat_map(|x| [x[0] - 0.1377, x[1] + 0.0071, x[2]]).collect();
    let back = |x: &[f64]| x.chunks(3).map(|x| x[0]).fold(f64::INFINITY, f64::min);
    let cloth = s.add_shell(&shifted, &ct, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.set_friction(cloth, sheet, mu).unwrap();
    let points: Vec<[f64; 3]> = p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let tris = [[0, 1, 2], [0, 2, 3]];
    let cloth_tris: Vec<[u32; 3]> = ct.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let mut newton = 0;
    for f in 1..=24 {
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("μ = {mu}, frame {f}: {e}"));
        newton += s.report().newton_iterations;
        let x = s.positions(cloth).unwrap();
        let through = x.chunks(3).filter(|x| x[0] < -1e-3 && x[0] > -0.5 && x[1].abs() < 0.5 && x[2] < 0.0).count();
        assert_eq!(through, 0, "μ = {mu}, frame {f}: cloth vertices through the sheet");
        let cloth_points: Vec<[f64; 3]> = x.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let cut = intersecting_pairs_between(&cloth_points, &cloth_tris, &points, &tris);
        assert!(
            cut.is_empty(),
            "μ = {mu}, frame {f}: {} cloth triangles cut by the sheet, e.g. {:?}",
            cut.len(),
            cut[0]
        );
    }
    (back(s.positions(cloth).unwrap()) - back(&shifted), newton)
}

/// A cloth a quarter over a table top's rim (an open sheet's boundary) stays or slides off as
/// Coulomb says: the hanging quarter's weight W/4 against the friction of the three quarters on
/// the top, μ · 3W/4, raised by the capstan factor e^{μπ/2} of the 90° turn over the rim at
/// most. μ = 0.5 holds (0.375 W > W/4); μ = 0.1 cannot (0.075 W · e^{0.05π} = 0.088 W < W/4).
/// Without the rim as a ridge, it cut 48 cloth triangles the frame the cloth landed.
#[test]
fn a_cloth_over_a_table_tops_rim_stays_or_slides_as_coulomb_says() {
    let (held, newton_held) = drape_over_a_rim(0.5);
    let (slid, newton_slid) = drape_over_a_rim(0.1);
    println!("rim: the back edge moved {held:.4} m at μ 0.5 ({newton_held} Newton iterations), {slid:.4} m at μ 0.1 ({newton_slid})");
    assert!(held.abs() < 0.01, "μ = 0.5 holds the cloth on the top: moved {held} m");
    assert!(slid > 0.05, "μ = 0.1 lets the hanging quarter pull the cloth over the rim: moved {slid} m");
}

/// A rubber cube (0.2 m, 2 × 2 × 2 cells of tets, E = 1 MPa) dropped 5 mm onto an open sheet
/// (a 1 m floor of two triangles) a quarter over its rim, as Blender's soft-body cube on a grid
/// floor: the rim runs under the middle of the cube's bottom triangles, and neither cuts them
/// nor lets a vertex through; the centre of mass is over the top, so the cube rests there.
#[test]
fn a_soft_cube_rests_across_the_rim_of_a_floor() {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let p = vec![-0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.5, 0.5, 0.0, -0.5, 0.5, 0.0];
    let t = vec![0, 1, 2, 0, 2, 3];
    let floor = s.add_collider_mesh(&p, &t).unwrap();
    let (cp, tets) = box_tets([0.2, 0.2, 0.2], [2, 2, 2], [0.35, -0.1, 0.005]);
    let rubber = Material {
        density: 1100.0,
        youngs_modulus: 1e6,
        poisson_ratio: 0.45,
        damping_beta: 1e-3,
        ..Default::default()
    };
    let cube = s.add_solid(&cp, &tets, &rubber).unwrap();
    s.set_friction(cube, floor, 0.5).unwrap();
    let tet_list: Vec<[u32; 4]> = tets.chunks(4).map(|t| [t[0], t[1], t[2], t[3]]).collect();
    let faces = boundary_triangles(&tet_list);
    let points: Vec<[f64; 3]> = p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let tris = [[0, 1, 2], [0, 2, 3]];
    let centre = |x: &[f64]| [0, 1, 2].map(|k| x.chunks(3).map(|x| x[k]).sum::<f64>() / (x.len() / 3) as f64);
    let mut newton = 0;
    for f in 1..=12 {
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        newton += s.report().newton_iterations;
        let x = s.positions(cube).unwrap();
        let through = x.chunks(3).filter(|x| x[0] < 0.499 && x[2] < 0.0).count();
        assert_eq!(through, 0, "frame {f}: cube vertices through the floor");
        let cube_points: Vec<[f64; 3]> = x.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let cut = intersecting_pairs_between(&cube_points, &faces, &points, &tris);
        assert!(cut.is_empty(), "frame {f}: {} cube triangles cut by the floor, e.g. {:?}", cut.len(), cut[0]);
    }
    let c = centre(s.positions(cube).unwrap());
    println!("soft cube on the rim: centre {c:.4?} m after 12 frames, {newton} Newton iterations");
    assert!((c[0] - 0.45).abs() < 0.01 && c[2] > 0.095, "the cube rests where it landed: centre {c:?}");
}

/// The depth check of one frame against one collider mesh: `depth` (the oracle's signed
/// distance of a point) is above −δ at every cloth vertex. Returns the smallest depth and the
/// number of cloth triangles that intersect a mesh triangle.
fn check_frame(
    frame: usize,
    cloth: (&[f64], &[[u32; 3]]),
    mesh: (&[[f64; 3]], &[[u32; 3]]),
    delta: f64,
    depth: impl Fn([f64; 3]) -> f64,
) -> (f64, usize) {
    let points: Vec<[f64; 3]> = cloth.0.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let d = points.iter().map(|&x| depth(x)).fold(f64::INFINITY, f64::min);
    assert!(d > -delta, "frame {frame}: a cloth vertex is {:.3e} m inside the mesh (δ = {delta})", -d);
    (d, intersecting_pairs_between(&points, cloth.1, mesh.0, mesh.1).len())
}

/// Blender's default scene for a cloth test, as `sphere-and-floor`: a 1.6 m cloth of 21 × 21
/// vertices dropped from 0.1 m over a UV sphere of 32 segments and 16 rings (r = 0.5 m, edges
/// turning by 11.25°, the sphere's faceting 4.8 mm deep against δ = 2 mm) resting on a floor of
/// two 4 m triangles, μ 0.4 and 0.6: it drapes down the sphere's sides with no vertex deeper
/// than δ in either (by the brute-force oracle for the sphere, the plane for the floor) in any
/// of 24 frames, and no triangle cut at the end. (For one frame, as the draping cloth's 8 cm
/// triangles wrap the sphere's shoulder, 48 cloth–sphere triangle pairs intersect between the
/// cloth's vertices, which stay outside.)
#[test]
fn cloth_drapes_over_a_uv_sphere_onto_a_floor_mesh() {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let (sp, st) = uv_sphere(0.5, 32, 16);
    let sphere = s.add_collider_mesh(&sp, &st).unwrap();
    let fp = vec![-2.0, -2.0, -0.5, 2.0, -2.0, -0.5, 2.0, 2.0, -0.5, -2.0, 2.0, -0.5];
    let floor = s.add_collider_mesh(&fp, &[0, 1, 2, 0, 2, 3]).unwrap();
    let (cp, ct) = flat_cloth(1.6, 20, 0.6);
    let cloth = s.add_shell(&cp, &ct, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.set_friction(cloth, sphere, 0.4).unwrap();
    s.set_friction(cloth, floor, 0.6).unwrap();
    let cloth_tris: Vec<[u32; 3]> = ct.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let sphere_points: Vec<[f64; 3]> = sp.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let sphere_tris: Vec<[u32; 3]> = st.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let floor_points: Vec<[f64; 3]> = fp.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let (mut on_sphere, mut on_floor, mut newton, mut cuts) = (f64::INFINITY, f64::INFINITY, 0, Vec::new());
    for f in 1..=24 {
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        newton += s.report().newton_iterations;
        let x = s.positions(cloth).unwrap();
        let sphere_depth = |p| signed_distance(&sphere_points, &sphere_tris, p);
        let (d, cut) =
            check_frame(f, (x, &cloth_tris), (&sphere_points, &sphere_tris), params.contact_thickness, sphere_depth);
        on_sphere = on_sphere.min(d);
        let floor_tris = [[0, 1, 2], [0, 2, 3]];
        let (d, floor_cut) =
            check_frame(f, (x, &cloth_tris), (&floor_points, &floor_tris), params.contact_thickness, |p| p[2] + 0.5);
        on_floor = on_floor.min(d);
        cuts.push(cut + floor_cut);
    }
    println!(
        "sphere and floor: deepest {on_sphere:.3e} m in the sphere, {on_floor:.3e} m in the floor, {newton} Newton \
         iterations, cloth triangles cut per frame {cuts:?}"
    );
    let low = s.positions(cloth).unwrap().chunks(3).map(|x| x[2]).fold(f64::INFINITY, f64::min);
    assert!(low < -0.2, "the cloth must drape down the sphere's sides (lowest z {low})");
    assert_eq!(cuts.last(), Some(&0), "the draped cloth is cut by the sphere or the floor");
}

/// A dense collider: the 0.8 m cloth of 33 × 33 vertices dropped from 2 cm onto a UV sphere of
/// 320 segments and 160 rings (101,760 triangles, each far smaller than the cloth's 2.5 cm
/// edges), μ 0.3, for 8 frames: no cloth vertex deeper than δ, by the sphere's own distance
/// |x| − r (its faceting is 0.014 mm deep), and no cloth triangle cut by the mesh at the end.
/// (Landing at 0.6 m/s, the cloth's vertices come as close as 0.5 mm to the sphere, about the
/// sphere's sag under a 2.5 cm cloth triangle: 552 triangle pairs intersect for one frame.)
#[test]
fn cloth_drops_onto_a_dense_sphere_mesh() {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let (sp, st) = uv_sphere(0.3, 320, 160);
    assert_eq!(st.len() / 3, 101_760);
    let sphere = s.add_collider_mesh(&sp, &st).unwrap();
    let (cp, ct) = flat_cloth(0.8, 32, 0.32);
    let cloth = s.add_shell(&cp, &ct, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.set_friction(cloth, sphere, 0.3).unwrap();
    let cloth_tris: Vec<[u32; 3]> = ct.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let sphere_points: Vec<[f64; 3]> = sp.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let sphere_tris: Vec<[u32; 3]> = st.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let sag = 0.3 * (1.0 - (std::f64::consts::PI / 160.0).cos());
    let depth = |p: [f64; 3]| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - 0.3 + sag;
    let (mut worst, mut newton, mut cuts) = (f64::INFINITY, 0, Vec::new());
    for f in 1..=8 {
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        newton += s.report().newton_iterations;
        let x = s.positions(cloth).unwrap();
        let (d, cut) =
            check_frame(f, (x, &cloth_tris), (&sphere_points, &sphere_tris), params.contact_thickness, depth);
        worst = worst.min(d);
        cuts.push(cut);
    }
    println!("dense sphere: deepest {worst:.3e} m, {newton} Newton iterations, cloth triangles cut per frame {cuts:?}");
    assert_eq!(cuts.last(), Some(&0), "the cloth on the sphere is cut by it");
    assert!(worst < params.contact_thickness, "the cloth must land on the sphere (closest {worst} m)");
}

/// The authors' tube-cloth meshes (`data/softy-tube`: a coarse cylinder with 11-gon caps
/// fanned into thin triangles, wound inwards, and a 900-vertex cloth over it) run their 48
/// frames, and no cloth vertex ends a frame deeper than δ inside the tube.
#[test]
fn the_authors_tube_cloth_runs_48_frames() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/softy-tube");
    let read = |name: &str| {
        let m = grip::io::vtk::read_vtk(&root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        (m.positions.concat(), m.triangles.concat())
    };
    let (tube, cloth) = (read("tube.vtk"), read("tube_cloth.vtk"));
    let params = SolverParams {
        time_step: 1.0 / 24.0,
        gravity: [0.0, -9.81, 0.0],
        collider_mesh_contact: ColliderMeshContact::Exact,
        ..Default::default()
    };
    let mut s = Solver::new(&params).unwrap();
    let tube_id = s.add_collider_mesh(&tube.0, &tube.1).unwrap();
    let material = Material { bending_stiffness: 4.578754578754579e-5, ..sleeve_cloth() };
    let cloth_id = s.add_shell(&cloth.0, &cloth.1, &material).unwrap();
    s.set_friction(cloth_id, tube_id, 0.15).unwrap();
    let (worst, newton) = drop_on(&mut s, (&tube.0, &tube.1), (cloth_id, &cloth.1), 48, params.contact_thickness);
    println!("softy tube: deepest signed distance {worst:.3e} m, {newton} Newton iterations in 48 frames");
}

/// A closed limb: an open cylinder of radius `r` about the x axis over [−`half`, `half`]
/// (`around` × `along` quads) with fan caps about a centre vertex at each end, outward.
fn closed_cylinder(r: f64, half: f64, around: usize, along: usize) -> (Vec<f64>, Vec<u32>) {
    let (mut p, mut t) = open_cylinder(r, -half, half, around, along);
    for (end, x) in [(0, -half), (along, half)] {
        let c = (p.len() / 3) as u32;
        p.extend_from_slice(&[x, 0.0, 0.0]);
        for i in 0..around {
            let (a, b) = ((end * around + i) as u32, (end * around + (i + 1) % around) as u32);
            t.extend_from_slice(&if end == 0 { [c, b, a] } else { [c, a, b] });
        }
    }
    (p, t)
}

/// Two-bone linear blend skinning of the limb at time `t` (s), as a host's skinned arm: the
/// forearm turns about z through (0, 0.075, 0) by 90°·S(t / 1 s), blended over x ∈ [−0.13, 0.13].
fn skinned_limb(rest: &[f64], t: f64) -> Vec<f64> {
    let s = |u: f64| {
        let u = u.clamp(0.0, 1.0);
        u * u * (3.0 - 2.0 * u)
    };
    let (sin, cos) = (std::f64::consts::FRAC_PI_2 * s(t)).sin_cos();
    rest.chunks(3)
        .flat_map(|p| {
            let w = s((p[0] + 0.13) / 0.26);
            let (dx, dy) = (p[0], p[1] - 0.075);
            let turned = [cos * dx - sin * dy, 0.075 + sin * dx + cos * dy, p[2]];
            [0, 1, 2].map(|k| (1.0 - w) * p[k] + w * turned[k])
        })
        .collect()
}

/// A sleeve on a limb that is a deforming collider mesh (moved vertex by vertex every frame, as
/// a host's skinned mesh is): through half the bend no sleeve vertex ends a frame deeper than δ
/// inside the limb at that frame (by the oracle), no sleeve triangle intersects a limb
/// triangle, and the sleeve's forearm end rides along.
#[test]
fn a_sleeve_rides_on_a_bending_skinned_limb_mesh() {
    let params = SolverParams {
        time_step: 1.0 / 24.0,
        gravity: [0.0, -9.81, 0.0],
        contact_thickness: 1e-3,
        friction_epsilon: 1e-3,
        max_substep_halvings: 8,
        collider_mesh_contact: ColliderMeshContact::Exact,
        ..Default::default()
    };
    let mut s = Solver::new(&params).unwrap();
    let (rest, tris) = closed_cylinder(0.05, 0.2, 24, 16);
    let limb = s.add_collider_mesh(&rest, &tris).unwrap();
    let (sp, st) = open_cylinder(0.051, -0.12, 0.12, 20, 12);
    let sleeve = s.add_shell(&sp, &st, &Material { bending_stiffness: 4.6e-5, ..sleeve_cloth() }).unwrap();
    s.set_friction(sleeve, limb, 0.2).unwrap();
    let tri3: Vec<[u32; 3]> = tris.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let sleeve_tris: Vec<[u32; 3]> = st.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let mut worst = f64::INFINITY;
    for f in 1..=12 {
        let now = skinned_limb(&rest, f as f64 / 24.0);
        s.set_collider_positions(limb, &now).unwrap();
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        let points: Vec<[f64; 3]> = now.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let d = deepest(&points, &tri3, s.positions(sleeve).unwrap());
        worst = worst.min(d);
        assert!(d > -params.contact_thickness, "frame {f}: a sleeve vertex is {:.3e} m inside the limb", -d);
        let sleeve_points: Vec<[f64; 3]> = s.positions(sleeve).unwrap().chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
        let cut = intersecting_pairs_between(&sleeve_points, &sleeve_tris, &points, &tri3);
        assert!(cut.is_empty(), "frame {f}: {} sleeve triangles cut by the limb, e.g. {:?}", cut.len(), cut[0]);
    }
    // At 12 frames the forearm has turned 45°: the sleeve's end ring (x = 0.12 at rest) must have
    // risen with it by more than half of what a ring turned rigidly about the pivot would,
    // 0.075 (1 − cos 45°) + 0.12 sin 45° ≈ 107 mm (the skin's weight there is 0.99).
    let end_rise = s
        .positions(sleeve)
        .unwrap()
        .chunks(3)
        .zip(sp.chunks(3))
        .filter(|(_, r)| r[0] > 0.119)
        .map(|(x, r)| x[1] - r[1])
        .sum::<f64>()
        / 20.0;
    println!("skinned limb: deepest signed distance {worst:.3e} m, sleeve end risen {end_rise:.4} m");
    assert!(end_rise > 0.054, "the sleeve's end rose {end_rise} m only");
}
