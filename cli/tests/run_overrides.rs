//! `grip run --set KEY=VALUE`: the scene file with those keys changed, as the library's loader
//! reads it (`load_with_overrides`), bakes to the same bytes; bad overrides fail naming the
//! override. `--usd` adds the USD file. Run in release: `cargo test --release --test run_overrides`.

mod cli_support;

use cli_support::{assert_fails_with, assert_ok, grip, TempDir};
use grip::scene::file::load_with_overrides;
use grip::scene::run::{simulate, Quiet, RunOptions};
use std::path::{Path, PathBuf};

fn scene_path() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests/scenes/moving-parts.toml")
}

fn frame(dir: &Path, k: usize) -> Vec<u8> {
    std::fs::read(dir.join(format!("cloth_{k:04}.obj"))).unwrap_or_default()
}

#[test]
fn set_changes_the_keys_it_names() {
    let dir = TempDir::new("run-overrides");
    let out = dir.0.join("cli");
    let scene = scene_path();
    let args = ["output.frames=2", "solver.gravity=[0, 0, -5]", "object.cloth.density=250"];
    let mut command = vec!["run", scene.to_str().unwrap(), "--out", out.to_str().unwrap(), "--usd"];
    for a in &args {
        command.extend(["--set", a]);
    }
    assert_ok(&grip(&command));
    assert!(!frame(&out, 2).is_empty() && frame(&out, 3).is_empty(), "output.frames=2 runs frames 1 and 2");
    // --usd: the USD file of frames 0 to 2 (its content: tests/usd_output.rs).
    let usd = std::fs::read_to_string(out.join("moving-parts.usda")).expect("--usd writes the USD file");
    assert!(usd.starts_with("#usda 1.0") && usd.contains("endTimeCode = 2\n"), "{}", &usd[..200.min(usd.len())]);

    let library = dir.0.join("library");
    let changed = load_with_overrides(&scene, &args).expect("overrides apply");
    simulate(&changed, &library, RunOptions::default(), &mut Quiet).expect("the driver runs");
    for k in 0..=2 {
        assert!(frame(&out, k) == frame(&library, k), "frame {k} differs from the library's");
    }
    let plain = dir.0.join("plain");
    assert_ok(&grip(&["run", scene.to_str().unwrap(), "--out", plain.to_str().unwrap(), "--frames", "2"]));
    assert!(frame(&plain, 2) != frame(&out, 2), "the overrides changed the bake");
}

#[test]
fn bad_overrides_name_the_override() {
    let scene = scene_path();
    let scene = scene.to_str().unwrap();
    let dir = TempDir::new("run-overrides-bad");
    let out = dir.0.to_str().unwrap();
    assert_fails_with(
        &grip(&["run", scene, "--out", out, "--set", "object.shirt.density=1"]),
        &["no [[object]] is named \"shirt\""],
    );
    assert_fails_with(&grip(&["run", scene, "--out", out, "--set", "solver.time_step"]), &["KEY=VALUE"]);
    assert_fails_with(&grip(&["run", scene, "--out", out, "--set", "solver.no_such_key=2"]), &["no_such_key"]);
}
