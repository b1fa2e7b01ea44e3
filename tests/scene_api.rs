//! Scene files from C and Python run exactly as `grip run` runs them: `tests/scenes/moving-parts.toml`
//! (a pin group and an analytic collider, both moving) simulated through the C API
//! (`tests/c_scene/scene_run.c`, compiled as C99 against this build's cdylib) and through the
//! Python binding (`tests/python/scene_run.py`) gives bit for bit the positions that the library's
//! frame driver (`grip::scene::run::simulate`, the code of `grip run`) writes, after every frame.
//! The C program also checks the error paths of the `grip_scene_*` functions.
//!
//! Run with `cargo test --release --test scene_api`.

mod cdylib;
mod pyenv;

use grip::io::obj::read_obj;
use grip::scene::run::{simulate, unique_names, Quiet};
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scene_path() -> PathBuf {
    root().join("tests/scenes/moving-parts.toml")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grip-scene-api-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn checked(what: &str, out: Output) -> String {
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Positions after frames 1..=frames per object (flat x y z …), and the objects' names.
type Frames = (Vec<String>, Vec<Vec<Vec<f64>>>);

/// The frames the Rust frame driver writes: `simulate` into a scratch directory named after
/// `tag` (tests run in parallel), OBJs read back (written with `{}`, which round-trips every f64).
fn driver_frames(tag: &str) -> Frames {
    let scene = grip::scene::file::load(&scene_path()).expect("scene loads");
    let out = scratch(&format!("driver-{tag}"));
    let summary = simulate(&scene, &out, grip::scene::run::RunOptions::default(), &mut Quiet).expect("the scene runs");
    assert_eq!(summary.frames, scene.frames);
    let names = unique_names(&scene);
    let frames = (1..=scene.frames)
        .map(|f| {
            names
                .iter()
                .map(|n| {
                    let mesh = read_obj(&out.join(grip::scene::output::frame_file_name(n, f))).expect("frame OBJ");
                    mesh.positions.iter().flatten().copied().collect()
                })
                .collect()
        })
        .collect();
    std::fs::remove_dir_all(&out).ok();
    (scene.objects.iter().map(|o| o.name.clone()).collect(), frames)
}

/// Parses the `object` and `p` lines of `scene_run.c` / `scene_run.py`.
fn parse_frames(text: &str) -> Frames {
    let mut names = Vec::new();
    let mut frames: Vec<Vec<Vec<f64>>> = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        match words[..] {
            ["object", index, name, _id] => {
                assert_eq!(index.parse::<usize>().expect("index"), names.len());
                names.push(name.to_string());
            }
            ["p", frame, index, ref xyz @ ..] => {
                let (frame, index): (usize, usize) = (frame.parse().expect("frame"), index.parse().expect("index"));
                if index == 0 {
                    frames.push(Vec::new());
                }
                assert_eq!((frame, index), (frames.len(), frames[frame - 1].len()), "frames and objects in order");
                frames[frame - 1].push(xyz.iter().map(|x| x.parse().expect("a double")).collect());
            }
            _ => {}
        }
    }
    (names, frames)
}

fn assert_same_bits(what: &str, got: &Frames, want: &Frames) {
    assert_eq!(got.0, want.0, "{what}: object names");
    assert_eq!(got.1.len(), want.1.len(), "{what}: frame count");
    for (f, (g, w)) in got.1.iter().zip(&want.1).enumerate() {
        for (o, (g, w)) in g.iter().zip(w).enumerate() {
            assert_eq!(g.len(), w.len(), "{what}: frame {}, object {o}: vertex count", f + 1);
            let differ = g.iter().zip(w).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
            assert_eq!(differ, 0, "{what}: frame {}, object {o}: {differ} coordinates differ", f + 1);
        }
    }
}

#[test]
fn c_api_runs_a_scene_file_as_the_frame_driver_does() {
    let lib = cdylib::cdylib_path().parent().expect("library dir").to_path_buf();
    let dir = scratch("c");
    let exe = dir.join("scene_run");
    checked(
        "gcc",
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(root().join("include"))
            .arg(root().join("tests/c_scene/scene_run.c"))
            .arg("-o")
            .arg(&exe)
            .arg(format!("-L{}", lib.display()))
            .arg("-lgrip")
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .output()
            .expect("run gcc"),
    );
    // cargo's LD_LIBRARY_PATH lists target/release, whose libgrip.so may be stale: rpath only.
    let out = Command::new(&exe).arg(scene_path()).env_remove("LD_LIBRARY_PATH").output().expect("run scene_run");
    let text = checked("scene_run", out);
    let summary = text.lines().find(|l| l.starts_with("C scene: ")).expect("summary line");
    assert!(summary.ends_with(" 0 failed"), "{summary}");
    assert_same_bits("C API", &parse_frames(&text), &driver_frames("c"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn python_binding_runs_a_scene_file_as_the_frame_driver_does() {
    let py = pyenv::ensure_venv("python", &["numpy>=1.24"], &["python3.11", "python3"]);
    let out = Command::new(py)
        .arg(root().join("tests/python/scene_run.py"))
        .arg(scene_path())
        .env("GRIP_LIBRARY", cdylib::cdylib_path())
        .env("PYTHONPATH", root().join("plugins").join("python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .output()
        .expect("run python");
    let text = checked("scene_run.py", out);
    assert!(text.contains("Python scene: OK"), "{text}");
    assert_same_bits("Python", &parse_frames(&text), &driver_frames("python"));
}
