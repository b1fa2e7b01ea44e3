//! The USD file of a bake (`grip::scene::usd::write_usd`) as USD itself reads it:
//! `tests/scenes/usd-output.toml` (a shell, a solid and a moving collider mesh) simulated for a
//! few frames by the frame driver, written as `.usda`, then opened with usd-core (`pxr`) in the
//! batch venv (`.venv-batch`, created on first use) by `tests/python/test_usd.py`, which checks
//! the stage metadata, every mesh's topology and time samples against the OBJ frames, and runs
//! usd-core's validators.
//!
//! Run with `cargo test --release --test usd_output`.

mod pyenv;

use grip::scene::run::{simulate, unique_names, Quiet, RunOptions};
use grip::scene::usd::write_usd;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory under cargo's temporary folder for tests (`target/tmp`).
fn scratch(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("usd-output-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Runs `tests/python/test_usd.py` with `args` in the batch venv; its output and whether it
/// passed.
fn run_test_usd(args: &[String]) -> (String, bool) {
    let out = Command::new(pyenv::batch_venv())
        .arg(root().join("tests/python/test_usd.py"))
        .args(args)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .output()
        .expect("cannot run the batch venv's python");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (text, out.status.success())
}

#[test]
fn usd_of_a_bake_opens_in_usd_with_the_obj_frames() {
    let scene = grip::scene::file::load(&root().join("tests/scenes/usd-output.toml")).expect("scene loads");
    let out = scratch("bake");
    let summary = simulate(&scene, &out, RunOptions::default(), &mut Quiet).expect("the scene runs");
    assert_eq!(summary.frames, scene.frames);
    let names = unique_names(&scene);
    let path = write_usd(&out, &scene, &names, scene.frames).expect("USD written");
    assert_eq!(path, out.join("usd_output.usda"));
    assert!(!out.join("usd_output.usda.partial").exists());

    let prims = grip::io::usda::unique_prim_names(&names);
    assert_eq!(prims, ["_2nd_cloth", "bar", "floor"]);
    let mut args: Vec<String> = vec![
        "--usd".into(),
        path.display().to_string(),
        "--objs".into(),
        out.display().to_string(),
        "--root".into(),
        "usd_output".into(),
        "--fps".into(),
        scene.fps.to_string(),
        "--up".into(),
        "Z".into(),
        "--last".into(),
        scene.frames.to_string(),
    ];
    let kinds = ["shell", "solid", "collider"];
    for ((name, prim), kind) in names.iter().zip(&prims).zip(kinds) {
        args.extend(["--object".to_string(), format!("{name}:{prim}:{kind}")]);
    }
    let (text, passed) = run_test_usd(&args);
    println!("{text}");
    assert!(passed && text.contains("\nOK"), "test_usd.py failed:\n{text}");
    assert!(text.contains("Ran 4 tests"), "{text}");

    // The same checks fail on a file that is wrong: the first coordinate of the last frame moved
    // by one float32 step.
    let good = std::fs::read_to_string(&path).expect("read the USD file");
    let broken = one_step_off(&good, scene.frames);
    std::fs::write(&path, broken).expect("write the broken file");
    let (text, passed) = run_test_usd(&args);
    assert!(!passed && text.contains("FAILED"), "a broken file passed:\n{text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// `text` with the first coordinate of the first time sample of `frame` (the first mesh's first
/// point) replaced by the next larger float32.
fn one_step_off(text: &str, frame: usize) -> String {
    let key = format!("            {frame}: [(");
    let start = text.find(&key).expect("a sample of the frame") + key.len();
    let end = start + text[start..].find(',').expect("a coordinate");
    let x: f32 = text[start..end].parse().expect("a float32");
    format!("{}{}{}", &text[..start], x.next_up(), &text[end..])
}

/// Times `write_usd` on a bake made beforehand: the scene file `$GRIP_USD_SCENE` run into
/// `$GRIP_USD_OUT`, e.g. `grip demo --export DIR` then `grip run DIR/scene.toml -o OUT`; prints
/// the USD file's size and the time taken. Ignored (it needs the bake):
/// `cargo test --release --test usd_output -- --ignored --nocapture`.
#[test]
#[ignore]
fn time_write_usd_of_a_bake() {
    let scene_file = std::env::var("GRIP_USD_SCENE").expect("set GRIP_USD_SCENE to a scene file");
    let out = PathBuf::from(std::env::var("GRIP_USD_OUT").expect("set GRIP_USD_OUT to its run's output directory"));
    let scene = grip::scene::file::load(Path::new(&scene_file)).expect("scene loads");
    let names = unique_names(&scene);
    let started = std::time::Instant::now();
    let path = write_usd(&out, &scene, &names, scene.frames).expect("USD written");
    let seconds = started.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&path).expect("USD file").len();
    let obj_bytes: u64 = (0..=scene.frames)
        .flat_map(|f| names.iter().map(move |n| grip::scene::output::frame_file_name(n, f)))
        .map(|f| std::fs::metadata(out.join(f)).map(|m| m.len()).unwrap_or(0))
        .sum();
    println!(
        "{}: {} frames, {bytes} bytes ({:.1} MB; the OBJ frames {:.1} MB), written in {seconds:.3} s",
        path.display(),
        scene.frames,
        bytes as f64 / 1e6,
        obj_bytes as f64 / 1e6
    );
}

/// `grip run --usd` (the frame driver with `RunOptions::usd`) writes the USD file after the last
/// frame; a bake stopped after frame 2 and resumed writes the same bytes as one that never
/// stopped, every frame included.
#[test]
fn usd_of_a_resumed_bake_equals_the_uninterrupted_one() {
    let mut scene = grip::scene::file::load(&root().join("tests/scenes/usd-output.toml")).expect("scene loads");
    let last = scene.frames;
    assert!(last > 2);
    let options = RunOptions { checkpoint: true, resume: false, usd: true };
    let whole = scratch("whole");
    simulate(&scene, &whole, options, &mut Quiet).expect("the scene runs");
    let resumed = scratch("resumed");
    scene.frames = 2;
    simulate(&scene, &resumed, options, &mut Quiet).expect("frames 1 and 2");
    let early = std::fs::read_to_string(resumed.join("usd_output.usda")).expect("the USD of frames 0 to 2");
    assert!(early.contains("endTimeCode = 2\n"), "{}", &early[..400.min(early.len())]);
    scene.frames = last;
    simulate(&scene, &resumed, RunOptions { resume: true, ..options }, &mut Quiet).expect("the rest");
    let (a, b) = (std::fs::read(whole.join("usd_output.usda")), std::fs::read(resumed.join("usd_output.usda")));
    let (a, b) = (a.expect("whole USD"), b.expect("resumed USD"));
    assert!(String::from_utf8_lossy(&a).contains(&format!("endTimeCode = {last}\n")));
    assert!(a == b, "the resumed bake's USD file differs");
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&resumed);
}
