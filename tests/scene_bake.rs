//! Bakes through the C API: `grip_scene_run` (`tests/c_scene/scene_bake.c`, C99 against this
//! build's cdylib) writes the same output directory, bit for bit, as the library's frame driver
//! (`grip::scene::run::simulate`, the code of `grip run`), in one call, resumed from a checkpoint
//! after frame 2, and after a frame callback stopped it; with overrides it bakes what the driver
//! bakes from the file with those keys changed. The C program also checks the error paths.
//! Also: overrides applied by the scene-file loader (`load_with_overrides`) change exactly the
//! keys they name.
//!
//! Run with `cargo test --release --test scene_bake`.

mod cdylib;

use grip::scene::file::{load, load_with_overrides};
use grip::scene::run::{simulate, Quiet, RunOptions};
use grip::scene::Elements;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scene_path() -> PathBuf {
    root().join("tests/scenes/moving-parts.toml")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grip-scene-bake-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The OBJ frames and `stats.csv` of an output directory, by file name, with their bytes.
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "obj") || p.file_name().is_some_and(|n| n == "stats.csv"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).expect("read")))
        .collect();
    files.sort();
    files
}

/// The OBJ frames of two directories are byte-identical, and so are their `stats.csv` but for
/// the wall-clock column.
fn assert_same_outputs(what: &str, got: &Path, want: &Path) {
    let (got, want) = (outputs(got), outputs(want));
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want), "{what}: the same files");
    for ((name, g), (_, w)) in got.iter().zip(&want) {
        if name == "stats.csv" {
            assert_eq!(without_seconds(g), without_seconds(w), "{what}: stats.csv");
        } else {
            assert!(g == w, "{what}: {name} differs");
        }
    }
}

/// `stats.csv` with its columns measuring wall-clock time removed.
fn without_seconds(bytes: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let keep: Vec<usize> = (0..header.len()).filter(|&i| !header[i].contains("seconds")).collect();
    std::iter::once(header.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        .map(|h| keep.iter().map(|&i| h[i].clone()).collect())
        .chain(lines.map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| cells.get(i).unwrap_or(&"").to_string()).collect()
        }))
        .collect()
}

#[test]
fn c_api_bakes_as_the_frame_driver_does() {
    let lib = cdylib::cdylib_path().parent().expect("library dir").to_path_buf();
    let dir = scratch("c");
    let exe = dir.join("scene_bake");
    let gcc = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(root().join("include"))
        .arg(root().join("tests/c_scene/scene_bake.c"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgrip")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .expect("run gcc");
    assert!(gcc.status.success(), "gcc: {}", String::from_utf8_lossy(&gcc.stderr));
    // cargo's LD_LIBRARY_PATH lists target/release, whose libgrip.so may be stale: rpath only.
    let out = Command::new(&exe).arg(scene_path()).arg(&dir).env_remove("LD_LIBRARY_PATH").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{text}");
    let summary = text.lines().find(|l| l.starts_with("C bake: ")).expect("summary line");
    assert!(out.status.success() && summary.ends_with(" 0 failed"), "{text}");

    let scene = load(&scene_path()).expect("scene loads");
    let driver = dir.join("driver");
    simulate(&scene, &driver, RunOptions::default(), &mut Quiet).expect("the driver runs");
    for run in ["full", "resumed", "cancelled"] {
        assert_same_outputs(run, &dir.join(run), &driver);
    }
    let overrides = ["output.frames=2", "solver.gravity=[0, 0, -5]"];
    let changed = load_with_overrides(&scene_path(), &overrides).expect("overrides apply");
    let driver_changed = dir.join("driver-overridden");
    simulate(&changed, &driver_changed, RunOptions::default(), &mut Quiet).expect("the driver runs");
    assert_same_outputs("overridden", &dir.join("overridden"), &driver_changed);
    // The gravity changed the result (else the comparison above would not show the override).
    let last = |d: &Path| std::fs::read(d.join("cloth_0002.obj")).expect("frame 2");
    assert!(last(&driver_changed) != last(&driver), "a weaker gravity moves the cloth differently");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn overrides_change_exactly_the_keys_they_name() {
    let base = load(&scene_path()).expect("scene loads");
    let changed = load_with_overrides(
        &scene_path(),
        &[
            "solver.default_friction=0.05",
            "solver.integrator=2",
            "solver.friction_coupling=lagged",
            "output.frames=5",
            "object.cloth.density=200",
            "collider.1.radius=0.25",
        ],
    )
    .expect("overrides apply");
    assert_eq!(changed.params.default_friction, 0.05);
    assert_eq!(changed.params.integrator, grip::Integrator::Bdf2);
    assert_ne!(changed.params.friction_coupling, base.params.friction_coupling);
    assert_eq!(changed.frames, 5);
    assert_eq!(changed.objects[0].material.density, 200.0);
    assert_eq!(changed.colliders[0].shape.radius, 0.25);
    // Everything else as in the file.
    assert_eq!(changed.params.time_step, base.params.time_step);
    assert_eq!(changed.objects[0].material.youngs_modulus, base.objects[0].material.youngs_modulus);
    assert_eq!(changed.objects[0].positions, base.objects[0].positions);
    assert!(matches!(changed.objects[0].elements, Elements::Triangles(_)));

    let refused = |o: &str| load_with_overrides(&scene_path(), &[o]).unwrap_err();
    assert!(refused("solver.no_such_key=1").contains("no_such_key"), "{}", refused("solver.no_such_key=1"));
    assert!(refused("solver.default_friction=-1").contains("default_friction"));
    assert!(refused("object.2.density=1").contains("#2 does not exist"));
    assert!(refused("output.frames=\"many\"").contains("frames"));
    assert!(refused("solver.integrator=42").contains("integrator"));
}
