//! Export of the demos as scene files: `grip run DIR/scene.toml` must reproduce `grip demo NAME`
//! exactly — the same solver inputs for every demo, the same positions after two frames for
//! the cheap ones — and the committed `examples/scenes/tube-cloth-bend/` must be the low-res
//! tube at μ = 0.2. Run in release: `cargo test --release --test cli_export`.

mod cli_support;

use cli_support::{assert_fails_with, assert_ok, grip, TempDir};
use grip::contact::surface::Kernel;
use grip::io::obj::read_obj;
use grip::model::ObjectSelfContact;
use grip::scene::file::{export::export, load};
use grip::scene::Scene;
use grip::ColliderMeshContact;
use grip_cli::demo::{scene_with, DemoOptions};
use grip_cli::demo_tube::{Resolution, SleeveFit};
use std::path::Path;

/// Every demo with its default options, the tube at each resolution and both μ, and the pinch
/// with the non-default contact choices.
fn demos() -> Vec<(String, Scene)> {
    let mut out = Vec::new();
    for name in ["hanging-cloth", "hanging-bar", "incline", "pinch", "tube-cloth-bend"] {
        out.push((name.to_string(), scene_with(name, &DemoOptions::default()).expect("demo")));
    }
    for (res, mu) in [(Resolution::Tiny, 0.8), (Resolution::High, 0.2)] {
        let o = DemoOptions { resolution: Some(res), mu: Some(mu), ..Default::default() };
        out.push((format!("tube {res:?} mu {mu}"), scene_with("tube-cloth-bend", &o).expect("tube")));
    }
    let tiny = DemoOptions { resolution: Some(Resolution::Tiny), ..Default::default() };
    let loose = DemoOptions { sleeve: Some(SleeveFit::Loose), ..tiny.clone() };
    out.push(("tube Tiny, loose sleeve".into(), scene_with("tube-cloth-bend", &loose).expect("loose")));
    out.push((
        "sleeve on a skinned limb mesh (point cache)".into(),
        scene_with("sleeve-on-limb-mesh", &tiny).expect("limb"),
    ));
    for name in ["elbow-sleeve", "spike-bed"] {
        out.push((name.to_string(), scene_with(name, &DemoOptions::default()).expect(name)));
    }
    let mut exact = scene_with("pinch", &DemoOptions::default()).expect("pinch");
    exact.params.collider_mesh_contact = ColliderMeshContact::Exact;
    exact.params.contact_kernel = Kernel::Cubic;
    out.push(("pinch, exact collider-mesh contact, cubic kernel".to_string(), exact));
    let mut fold = scene_with("cloth-fold", &DemoOptions::default()).expect("cloth-fold");
    fold.objects[0].self_contact = ObjectSelfContact { enabled: false, thickness: Some(3e-3) };
    out.push(("cloth-fold, its cloth without self-contact, 3 mm thick".to_string(), fold));
    out
}

/// The solver inputs of two scenes are the same: parameters, every object's positions, rest shape,
/// elements, material, pins, pin groups, motion and self-contact settings, the colliders,
/// friction and slip pairs — and the solvers built from them hold the same positions, friction
/// table and self-contact settings.
fn assert_same_inputs(what: &str, a: &Scene, b: &Scene) {
    assert_eq!(a.params, b.params, "{what}: parameters");
    assert_eq!((a.frames, a.fps, &a.name), (b.frames, b.fps, &b.name), "{what}: output");
    assert_eq!(a.objects.len(), b.objects.len(), "{what}: objects");
    for (x, y) in a.objects.iter().zip(&b.objects) {
        assert_eq!(x.positions, y.positions, "{what}: positions of {}", x.name);
        assert_eq!(x.rest_positions, y.rest_positions, "{what}: rest shape of {}", x.name);
        assert_eq!(x.elements, y.elements, "{what}: elements of {}", x.name);
        assert_eq!(
            (&x.name, x.material, &x.pinned, &x.pin_groups, x.velocity, &x.motion, &x.point_cache, x.preview),
            (&y.name, y.material, &y.pinned, &y.pin_groups, y.velocity, &y.motion, &y.point_cache, y.preview),
            "{what}: object {}",
            x.name
        );
        assert_eq!(x.self_contact, y.self_contact, "{what}: self-contact of {}", x.name);
    }
    assert_eq!((&a.colliders, &a.friction, &a.slip), (&b.colliders, &b.friction, &b.slip), "{what}: pairs");
    assert_eq!(a, b, "{what}");
    let (sa, sb) = (a.build_solver().expect("solver a"), b.build_solver().expect("solver b"));
    assert_eq!((&sa.objects, &sa.colliders), (&sb.objects, &sb.colliders), "{what}: ids");
    for &id in &sa.objects {
        assert_eq!(sa.solver.positions(id).unwrap(), sb.solver.positions(id).unwrap(), "{what}: object {id}");
        let settings = |s: &grip::scene::SceneSolver| s.solver.object(id).unwrap().self_contact;
        assert_eq!(settings(&sa), settings(&sb), "{what}: self-contact of object {id}");
    }
    assert_eq!(sa.solver.model().friction, sb.solver.model().friction, "{what}: friction table");
    assert_eq!(sa.solver.model().colliders.len(), sb.solver.model().colliders.len());
}

#[test]
fn every_demo_round_trips_through_a_scene_file() {
    let dir = TempDir::new("export_all");
    for (i, (what, scene)) in demos().into_iter().enumerate() {
        let sub = dir.0.join(format!("{i}"));
        let path = export(&scene, &sub).expect("export");
        assert_eq!(path, sub.join("scene.toml"));
        let back = load(&path).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_same_inputs(&what, &scene, &back);
    }
}

/// Two frames of the demo and of its exported scene give bit-identical positions: the hanging
/// cloth (pins), the incline (an initial velocity, a plane), the pinch (plates moved by a
/// pose per frame) and the tube (a fitted sleeve, whose rest shape is a mesh of its own).
#[test]
fn exported_scenes_step_exactly_like_the_demos() {
    let dir = TempDir::new("export_step");
    for name in ["hanging-cloth", "incline", "pinch", "tube-cloth-bend"] {
        let tiny = DemoOptions { resolution: Some(Resolution::Tiny), ..Default::default() };
        let options = if name == "tube-cloth-bend" { tiny } else { DemoOptions::default() };
        let scene = scene_with(name, &options).expect("demo");
        let back = load(&export(&scene, &dir.0.join(name)).expect("export")).expect("load");
        let (mut a, mut b) = (scene.build_solver().expect("a"), back.build_solver().expect("b"));
        for frame in 1..=2 {
            a.advance_frame(frame).expect("demo frame");
            b.advance_frame(frame).expect("exported frame");
            for (&x, &y) in a.objects.iter().zip(&b.objects) {
                assert_eq!(a.solver.positions(x).unwrap(), b.solver.positions(y).unwrap(), "{name}, frame {frame}");
            }
        }
    }
}

/// Through the binary: `grip demo hanging-bar --export DIR --frames 2`, then `grip run`, gives
/// the same OBJs as `grip demo hanging-bar --frames 2`.
#[test]
fn export_flag_writes_a_scene_that_grip_run_reproduces() {
    let dir = TempDir::new("export_cli");
    let (scene_dir, demo_out, run_out) = (dir.0.join("scene"), dir.0.join("demo"), dir.0.join("run"));
    let o = grip(&["demo", "hanging-bar", "--frames", "2", "--export", scene_dir.to_str().unwrap()]);
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("scene.toml"));
    assert!(scene_dir.join("bar.vtk").exists() && !demo_out.exists());
    assert_ok(&grip(&["demo", "hanging-bar", "--frames", "2", "--out", demo_out.to_str().unwrap()]));
    let path = scene_dir.join("scene.toml");
    let o = grip(&["run", path.to_str().unwrap(), "--out", run_out.to_str().unwrap()]);
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 frames"), "frames = 2 was exported");
    for f in 0..=2 {
        let file = format!("bar_{f:04}.obj");
        assert_eq!(read_obj(&demo_out.join(&file)).unwrap(), read_obj(&run_out.join(&file)).unwrap(), "{file}");
    }
    let o = grip(&["demo", "hanging-bar", "--export", scene_dir.to_str().unwrap(), "--out", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert_fails_with(&o, &["--export", "--out"]);
}

/// The committed example is the low-res tube at μ = 0.2, as `grip demo` builds it now.
#[test]
fn committed_tube_example_is_the_demo() {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes/tube-cloth-bend/scene.toml");
    let committed = load(&path).expect("the example loads");
    let demo = scene_with("tube-cloth-bend", &DemoOptions { mu: Some(0.2), ..Default::default() }).expect("demo");
    assert_eq!(
        committed, demo,
        "examples/scenes/tube-cloth-bend differs from the demo: regenerate it with \
         `grip demo tube-cloth-bend --export examples/scenes/tube-cloth-bend`"
    );
}
