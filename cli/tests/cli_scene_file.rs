//! Scene files: every key of collider meshes, pin groups, motions, friction and slip pairs and
//! the contact keys of `[solver]`, and the error each mistake gives (naming the key); one run of
//! a scene with a moving collider mesh through `grip run`.
//! Run in release: `cargo test --release --test cli_scene_file`.

mod cli_support;

use cli_support::{assert_ok, check_png, grip, stats_with, TempDir, FIRST_METRIC};
use grip::contact::surface::Kernel;
use grip::io::obj::{read_obj, write_obj};
use grip::scene::file::parse;
use grip::scene::motion::{apply, Ease, Motion};
use grip::scene::{Elements, PinSelection, PreviewStyle, Scene};
use grip::ColliderMeshContact;
use std::path::Path;

/// A directory with `cloth.obj` (13 × 13 vertices in the XZ plane, x ∈ [−0.5, 0.5],
/// z ∈ [−1, 0], vertex 0 at (−0.5, 0, 0), 12 at (0.5, 0, 0)), `bar.vtk` (36 vertices, 48 tets,
/// z ∈ [−1, 0]) and `ball.obj` (an icosphere of radius 0.2 m).
fn meshes(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    let scenes = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes");
    for f in ["cloth.obj", "bar.vtk"] {
        std::fs::copy(scenes.join(f), dir.0.join(f)).expect("copy mesh");
    }
    let (p, t) = grip::mesh::shapes::icosphere(0.2, 1);
    let p: Vec<[f64; 3]> = p.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    let t: Vec<[u32; 3]> = t.chunks(3).map(|x| [x[0], x[1], x[2]]).collect();
    write_obj(&dir.0.join("ball.obj"), &p, &t).expect("ball");
    dir
}

/// Every new key at once.
const EVERYTHING: &str = r#"
[solver]
contact_radius_multiplier = 3.0
contact_kernel = "cubic"
collider_mesh_contact = "exact"
default_friction = 0.4
self_contact = true
self_contact_thickness = 0.0025
[output]
name = "everything"
frames = 3
fps = 30
view = [0, 0, 1]
[[object]]
name = "cloth"
kind = "shell"
mesh = "cloth.obj"
preview = "translucent"
self_contact = false
self_contact_thickness = 0.004
[[object.pin_group]]
vertices = [0, 12, 0]
motion = { steady = { velocity = [0.0, 0.1, 0.0] } }
[[object.pin_group]]
min = [-inf, -inf, -inf]
max = [-0.45, inf, -0.4]
motion = { frames = [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0.1, 1]] }
[[object]]
name = "bar"
kind = "solid"
mesh = "bar.vtk"
[[object.pin_group]]
min = [-inf, -inf, -0.01]
max = [inf, inf, inf]
motion = { hinge = { axis = [1, 0, 0], angle = -30.0, duration = 0.5, ease = "linear" } }
[[object]]
name = "ball"
kind = "collider"
mesh = "ball.obj"
translate = [0, 0, -2]
motion = { hinge = { axis = [0, 0, 1], pivot = [0, 0, -2], angle = 45.0, start = 0.1, duration = 1.0 } }
[[collider]]
name = "floor"
kind = "plane"
center = [0, 0, -3]
motion = { steady = { velocity = [0, 0, 0.1], pivot = [0, 0, -3] } }
[[friction]]
a = "cloth"
b = "ball"
mu = 0.7
[[friction]]
a = "bar"
b = "floor"
mu = 0.1
[[slip]]
object = "cloth"
on = "ball"
"#;

fn load(dir: &TempDir, text: &str) -> Result<Scene, String> {
    parse(text, &dir.0, "scene")
}

#[test]
fn every_new_key_parses() {
    let dir = meshes("every_key");
    let s = load(&dir, EVERYTHING).expect("parses");
    assert_eq!((s.name.as_str(), s.frames, s.fps, s.view), ("everything", 3, 30.0, Some([0.0, 0.0, 1.0])));
    assert_eq!((s.params.contact_radius_multiplier, s.params.contact_kernel), (3.0, Kernel::Cubic));
    assert_eq!(s.params.collider_mesh_contact, ColliderMeshContact::Exact);
    assert_eq!((s.params.self_contact, s.params.self_contact_thickness), (true, 0.0025));
    let [cloth, bar, ball] = &s.objects[..] else { panic!("three objects") };
    assert_eq!(cloth.preview, PreviewStyle::Translucent);
    assert_eq!((cloth.self_contact.enabled, cloth.self_contact.thickness), (false, Some(0.004)));
    assert_eq!(bar.self_contact, Default::default(), "solids keep the default");
    assert_eq!(cloth.pin_groups[0].selection, PinSelection::Vertices(vec![0, 12, 0]));
    let steady = Motion::Steady { velocity: [0.0, 0.1, 0.0], angular_velocity: [0.0; 3], pivot: [0.0; 3] };
    assert_eq!(cloth.pin_groups[0].motion, steady);
    let Motion::Frames(poses) = &cloth.pin_groups[1].motion else { panic!("frames") };
    assert_eq!((poses.len(), poses[1][14]), (2, 0.1));
    let groups = cloth.pin_group_vertices(s.frames, s.fps).expect("pins");
    assert_eq!(groups[0], vec![0, 12], "duplicates are dropped");
    assert_eq!(groups[1], (5..13).map(|k| 13 * k).collect::<Vec<_>>(), "x = -0.5, z <= -0.4");
    assert_eq!(bar.pin_group_vertices(s.frames, s.fps).expect("pins")[0].len(), 4, "the top face");
    let hinge = Motion::Hinge {
        axis: [1.0, 0.0, 0.0],
        pivot: [0.0; 3],
        angle_deg: -30.0,
        start: 0.0,
        duration: 0.5,
        ease: Ease::Linear,
    };
    assert_eq!(bar.pin_groups[0].motion, hinge);
    assert!(matches!(ball.elements, Elements::ColliderMesh(_)) && ball.is_collider_mesh());
    assert!(ball
        .positions
        .chunks(3)
        .all(|p| ((p[0].powi(2) + p[1].powi(2) + (p[2] + 2.0).powi(2)).sqrt() - 0.2).abs() < 1e-12));
    let Motion::Hinge { start, ease, pivot, .. } = ball.motion else { panic!("hinge") };
    assert_eq!((start, ease, pivot), (0.1, Ease::Smoothstep, [0.0, 0.0, -2.0]));
    assert_eq!(s.colliders[0].motion.transform(30, 30.0)[14], 0.1);
    assert_eq!(s.colliders[0].mu, 0.4, "colliders default to [solver] default_friction");
    assert_eq!((s.friction.len(), s.friction[0].mu, s.slip[0].on.as_str()), (2, 0.7, "ball"));
    // The pairs reach the solver by id.
    let built = s.build_solver().expect("solver");
    let (cloth_id, ball_id, floor_id) =
        (built.id("cloth").unwrap(), built.id("ball").unwrap(), built.id("floor").unwrap());
    let model = built.solver.model();
    assert_eq!(model.friction.pair(cloth_id, ball_id), 0.7);
    assert_eq!(model.friction.pair(built.id("bar").unwrap(), floor_id), 0.1);
    assert_eq!(model.friction.pair(cloth_id, floor_id), 0.4, "the floor's own mu");
    assert_eq!(built.solver.object(cloth_id).unwrap().self_contact, cloth.self_contact, "set on the solver");
}

/// Each mistake fails with a message naming the key (or the name) at fault.
#[test]
fn mistakes_name_the_key() {
    let dir = meshes("mistakes");
    let cloth = "[[object]]\nname = \"cloth\"\nkind = \"shell\"\nmesh = \"cloth.obj\"\n";
    let ball = "[[object]]\nname = \"ball\"\nkind = \"collider\"\nmesh = \"ball.obj\"\n";
    let group = "[[object.pin_group]]\n";
    let cases: Vec<(String, &[&str])> = vec![
        (format!("[solver]\ncontact_kernel = \"gaussian\"\n{cloth}"), &["contact_kernel", "gaussian", "cubic"]),
        (
            format!("[solver]\ncollider_mesh_contact = \"sdf\"\n{cloth}"),
            &["collider_mesh_contact", "sdf", "exact", "implicit"],
        ),
        (format!("[solver]\ncontact_radius_multiplier = 0.5\n{cloth}"), &["contact_radius_multiplier"]),
        (format!("[output]\nnom = \"x\"\n{cloth}"), &["nom", "name"]),
        (format!("[output]\nview = [0, 0, 0]\n{cloth}"), &["[output]", "view"]),
        (format!("{cloth}{group}vertices = [0]\ncolour = 1"), &["colour"]),
        (format!("{cloth}{group}vertices = [0]\nmin = [0, 0, 0]\nmax = [1, 1, 1]"), &["vertices", "min/max"]),
        (format!("{cloth}{group}min = [0, 0, 0]"), &["min needs max"]),
        (format!("{cloth}{group}motion = \"fixed\""), &["vertices", "min = [...]"]),
        (format!("{cloth}{group}vertices = [1000]"), &["pin group #1", "vertex 1000"]),
        (format!("{cloth}{group}min = [5, 5, 5]\nmax = [6, 6, 6]"), &["pin group #1", "selects no vertex"]),
        (format!("{cloth}{group}vertices = [0, 1]\n{group}vertices = [1]"), &["pin group #2", "vertex 1", "#1"]),
        (format!("{cloth}{group}vertices = [0]\nmotion = \"wobble\""), &["wobble", "hinge"]),
        (format!("{cloth}{group}vertices = [0]\nmotion = {{ hinge = {{ axis = [0, 0, 1], angle = 9.0 }} }}"), &["duration"]),
        (
            format!("{cloth}{group}vertices = [0]\nmotion = {{ hinge = {{ axis = [0, 0, 1], angle = 9.0, duration = 1.0, speed = 2 }} }}"),
            &["speed"],
        ),
        (
            format!("{cloth}{group}vertices = [0]\nmotion = {{ hinge = {{ axis = [0, 0, 1], angle = 9.0, duration = -1.0 }} }}"),
            &["pin group #1", "duration"],
        ),
        (
            format!("{cloth}{group}vertices = [0]\nmotion = {{ hinge = {{ axis = [0, 0, 1], angle = 9.0, duration = 1.0, ease = \"bouncy\" }} }}"),
            &["bouncy", "smoothstep"],
        ),
        (
            format!("{cloth}{group}vertices = [0]\nmotion = {{ hinge = {{ axis = [0, 0, 1], angle = 90.0, start = -1.0, duration = 2.0 }} }}"),
            &["frame 0", "identity"],
        ),
        (format!("{cloth}{group}vertices = [0]\nmotion = {{ steady = {{ spin = [0, 0, 1] }} }}"), &["spin"]),
        (format!("{cloth}motion = \"fixed\""), &["motion", "collider"]),
        (format!("{cloth}{ball}density = 5.0"), &["density", "collider"]),
        (format!("{cloth}{ball}self_contact = false"), &["self_contact", "shell"]),
        (format!("{cloth}self_contact_thickness = -0.001"), &["self_contact_thickness", "-0.001"]),
        (format!("{cloth}self_contact_thickness = 0.0"), &["self_contact_thickness"]),
        (format!("{cloth}self_contact = 1"), &["self_contact"]),
        (format!("{cloth}{ball}rest_mesh = \"ball.obj\""), &["rest_mesh", "collider"]),
        (format!("{cloth}rest_mesh = \"ball.obj\""), &["rest_mesh", "ball.obj", "cloth.obj", "vertices"]),
        (format!("{cloth}rest_mesh = \"nope.obj\""), &["rest_mesh", "nope.obj"]),
        (format!("{cloth}{ball}{group}vertices = [0]"), &["pin_group", "collider"]),
        (format!("{cloth}[[object]]\nkind = \"collider\"\nmesh = \"bar.vtk\""), &["no triangles"]),
        (ball.to_string(), &["no solid or shell"]),
        (format!("{cloth}[[friction]]\na = \"cloth\"\nb = \"sleeve\"\nmu = 0.2"), &["[[friction]]", "sleeve", "cloth"]),
        (format!("{cloth}{ball}[[friction]]\na = \"cloth\"\nb = \"ball\""), &["mu"]),
        (format!("{cloth}{ball}[[friction]]\na = \"cloth\"\nb = \"ball\"\nmu = -1.0"), &["[[friction]]", "mu"]),
        (format!("{cloth}[[slip]]\nobject = \"cloth\"\non = \"arm\""), &["[[slip]]", "arm"]),
        (format!("{cloth}[[slip]]\nobject = \"cloth\"\nunder = \"ball\""), &["under"]),
        (
            format!("{cloth}[[collider]]\nname = \"ball\"\nkind = \"sphere\"\nradius = 0.1\n[[slip]]\nobject = \"cloth\"\non = \"ball\""),
            &["[[slip]]", "analytic collider"],
        ),
        (
            format!("{cloth}[[collider]]\nkind = \"sphere\"\nradius = 0.1\nvelocity = [0, 0, 1]\nmotion = \"fixed\""),
            &["motion", "velocity"],
        ),
        (format!("{cloth}{cloth}[[friction]]\na = \"cloth\"\nb = \"cloth\"\nmu = 0.2"), &["\"cloth\"", "unique"]),
    ];
    for (text, needles) in cases {
        let e = load(&dir, &text).expect_err(&text);
        for n in needles {
            assert!(e.contains(n), "the error for\n{text}\nshould mention {n:?}: {e}");
        }
    }
}

/// A cloth dropped on a collider-mesh ball that turns and rises (a steady motion): after two
/// frames the ball's OBJ is at its prescribed pose exactly, the cloth's pinned corner has
/// followed its own motion, and the preview shows the ball.
#[test]
fn collider_mesh_and_pin_group_move_as_prescribed() {
    let dir = meshes("collider_mesh_run");
    let text = r#"
[solver]
time_step = 0.0208333333333333333
[output]
frames = 2
[[object]]
name = "cloth"
kind = "shell"
mesh = "cloth.obj"
rotate = [90, 0, 0]
translate = [0, -0.5, 0.25]
[[object.pin_group]]
vertices = [0]
motion = { steady = { velocity = [0.0, 0.0, 0.24] } }
[[object]]
name = "ball"
kind = "collider"
mesh = "ball.obj"
motion = { steady = { velocity = [0, 0, 0.12], angular_velocity = [0, 0, 2.0] } }
[[slip]]
object = "cloth"
on = "ball"
"#;
    std::fs::write(dir.0.join("scene.toml"), text).expect("scene");
    let out = dir.0.join("out");
    let o = grip(&["run", dir.0.join("scene.toml").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_ok(&o);
    let ball0 = read_obj(&out.join("ball_0000.obj")).expect("ball at frame 0");
    let ball2 = read_obj(&out.join("ball_0002.obj")).expect("ball at frame 2");
    let m = grip::scene::motion::steady([0.0, 0.0, 0.12], [0.0, 0.0, 2.0], [0.0; 3], 2.0 / 24.0);
    for (p0, p) in ball0.positions.iter().zip(&ball2.positions) {
        let want = apply(&m, *p0);
        assert!((0..3).all(|k| (p[k] - want[k]).abs() < 1e-12), "{p:?} vs {want:?}");
    }
    let (c0, c2) = (read_obj(&out.join("cloth_0000.obj")).unwrap(), read_obj(&out.join("cloth_0002.obj")).unwrap());
    assert!((c2.positions[0][2] - c0.positions[0][2] - 0.02).abs() < 1e-12, "pinned corner rose 0.24 m/s x 1/12 s");
    let rows = stats_with(
        &out,
        &["cloth_slip_on_ball", "cloth_max_slip_on_ball", "intersecting_pairs", "intersecting_pairs_with_solids"],
    );
    assert_eq!(rows.len(), 3);
    let m = FIRST_METRIC;
    assert!(rows.iter().all(|r| r[m].is_nan() && r[m + 1].is_nan()), "the cloth starts 5 cm above the ball");
    assert!(rows.iter().all(|r| (r[m + 2], r[m + 3]) == (0.0, 0.0)), "no intersecting triangles");
    check_png(&out.join("preview_last.png"));
}

/// A collider mesh moved vertex by vertex by a PC2 point cache (what Blender's Mesh Cache and
/// Houdini write): the cache's frames are placed by the object's translate like its mesh, the
/// OBJ at frame 2 is the cache's frame 2, the scene exports and loads back (in single
/// precision, as PC2 holds it), and the
/// cache's mistakes name the key.
#[test]
fn a_point_cache_moves_a_collider_mesh_vertex_by_vertex() {
    use grip::scene::PointCache;
    let dir = meshes("point_cache_run");
    let ball = read_obj(&dir.0.join("ball.obj")).expect("ball");
    // Frame k: the ball squashed to (1 − 0.1 k) of its height (a deformation, not a motion).
    let frames = (0..3)
        .map(|k| ball.positions.iter().flat_map(|p| [p[0], p[1], p[2] * (1.0 - 0.1 * k as f64)]).collect())
        .collect();
    PointCache::new(frames).write_pc2(&dir.0.join("ball.pc2")).expect("pc2");
    let cloth = "[[object]]\nname = \"cloth\"\nkind = \"shell\"\nmesh = \"cloth.obj\"\nrotate = [90, 0, 0]\ntranslate = [0, -0.5, 0.5]\n";
    let ball_toml = "[[object]]\nname = \"ball\"\nkind = \"collider\"\nmesh = \"ball.obj\"\ntranslate = [0, 0, 0.1]\n";
    let text = format!("[output]\nframes = 2\n{cloth}{ball_toml}point_cache = \"ball.pc2\"\n");
    let s = load(&dir, &text).expect("loads");
    let cache = s.objects[1].point_cache.as_ref().expect("cache");
    let single = |x: f64| f64::from(x as f32);
    let z = |frame: usize, v: usize| cache.positions(frame)[3 * v + 2];
    let top = (0..ball.positions.len()).max_by(|&a, &b| ball.positions[a][2].total_cmp(&ball.positions[b][2])).unwrap();
    assert_eq!(z(2, top), single(single(ball.positions[top][2] * 0.8)) + 0.1, "placed by translate");
    std::fs::write(dir.0.join("scene.toml"), &text).expect("scene");
    let out = dir.0.join("out");
    assert_ok(&grip(&["run", dir.0.join("scene.toml").to_str().unwrap(), "--out", out.to_str().unwrap()]));
    let ball2 = read_obj(&out.join("ball_0002.obj")).expect("ball at frame 2");
    for (v, p) in ball2.positions.iter().enumerate() {
        assert!((0..3).all(|k| (p[k] - cache.positions(2)[3 * v + k]).abs() < 1e-12), "vertex {v}: {p:?}");
    }
    let back =
        grip::scene::file::load(&grip::scene::file::export::export(&s, &dir.0.join("exported")).expect("export"))
            .expect("load the export");
    // The export holds the placed positions in single precision.
    let (a, b) = (back.objects[1].point_cache.as_ref().expect("exported cache"), cache);
    assert_eq!(a.frames.len(), b.frames.len());
    let worst =
        a.frames.iter().flatten().zip(b.frames.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    assert!(worst < 1e-7, "exported cache off by {worst} m");
    let cases: Vec<(String, &[&str])> = vec![
        (format!("{cloth}point_cache = \"ball.pc2\""), &["point_cache", "collider"]),
        (format!("{cloth}{ball_toml}point_cache = \"none.pc2\""), &["point_cache", "none.pc2"]),
        (format!("{cloth}{ball_toml}point_cache = \"cloth.obj\""), &["point_cache", "PC2"]),
        (format!("{cloth}{ball_toml}point_cache = \"ball.pc2\"\nmotion = \"fixed\""), &["motion", "point_cache"]),
    ];
    for (text, needles) in cases {
        let e = load(&dir, &text).expect_err(&text);
        for n in needles {
            assert!(e.contains(n), "the error for\n{text}\nshould mention {n:?}: {e}");
        }
    }
    // A cache of another mesh's vertex count.
    PointCache::new(vec![vec![0.0; 9]]).write_pc2(&dir.0.join("small.pc2")).expect("pc2");
    let e = load(&dir, &format!("{cloth}{ball_toml}point_cache = \"small.pc2\"")).expect_err("count");
    assert!(e.contains("3 points") && e.contains("vertices"), "{e}");
}
