//! Contact with open and dense collider meshes by exact distance, against answers that do not
//! come from the solver: a cloth over a table top's rim stays or slides as Coulomb and the
//! capstan factor say, a soft cube rests across a floor's rim, and cloths draped over Blender's
//! default UV sphere and floor, and dropped on a sphere of 101,760 triangles, never end a frame
//! deeper than the contact thickness inside (brute-force distance, the winding number, or the
//! sphere's own distance), nor cut by the mesh at the end (exact triangle–triangle tests).
//!
//! Run with `cargo test --release --test collider_mesh_sheets_and_spheres`.

use grip::mesh::boundary::boundary_triangles;
use grip::mesh::generate::box_tets;
use grip::mesh::intersection::intersecting_pairs_between;
use grip::mesh::shapes::uv_sphere;
use grip::{Material, Solver};

mod common;
use common::collider_meshes::{drop_params, flat_cloth, sheet, signed_distance};
use common::sleeve_cloth;

/// Drops a 0.6 m cloth (25 × 25 vertices) 1.5 cm above an open sheet (a 0.5 × 1 m table top
/// of two triangles at z = 0, its rim along x = 0), a quarter of it over the rim, with friction
/// `mu`, for 24 frames: no cloth triangle cut by the sheet and no cloth vertex through it
/// (below z = 0 over the sheet) in any frame. Returns how far the cloth's back edge moved
/// towards the rim (m) and the Newton iterations.
fn drape_over_a_rim(mu: f64) -> (f64, u32) {
    let params = drop_params();
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = sheet(-0.5, 0.0, -0.5, 0.5, 0.0);
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
    let (p, t) = sheet(-0.5, 0.5, -0.5, 0.5, 0.0);
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
    let (fp, ft) = sheet(-2.0, 2.0, -2.0, 2.0, -0.5);
    let floor = s.add_collider_mesh(&fp, &ft).unwrap();
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
