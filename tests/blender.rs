//! The Blender add-on in a real, headless Blender: `bpy` (Blender 5.0 as a Python module) in the
//! venv `.venv-blender` (created from PyPI on first use, then reused), the extension zip built by
//! `plugins/blender/build_extension.py` from this build's cdylib with a Python that has no `bpy`
//! (as the README's install steps do; a test checks Blender's own extension tool validates the
//! same bytes), and one Python script per scenario in `tests/blender/`, each in a fresh Blender
//! process that installs the zip with `bpy.ops.extensions.package_install_files` into its own
//! user-resources folder. Artifacts (caches, .blend files, the render, each script's log) are
//! kept in `target/<profile>/blender-tests/<scenario>/`.
//!
//! Run with `cargo test --release --test blender`.

mod cdylib;
mod pyenv;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The Blender the add-on is tested in (bpy 5.0 needs Python 3.11).
const BPY_REQUIREMENT: &str = "bpy>=5.0,<5.1";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn blender_python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| pyenv::ensure_venv("blender", &[BPY_REQUIREMENT], &["python3.11"])).clone()
}

/// `target/<profile>/blender-tests`, beside the cdylib's `deps/`.
fn artifacts_root() -> PathBuf {
    let lib = cdylib::cdylib_path();
    let deps = lib.parent().expect("cdylib dir");
    let profile = if deps.ends_with("deps") { deps.parent().expect("profile dir") } else { deps };
    profile.join("blender-tests")
}

fn output_text(out: &std::process::Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A Python without `bpy` (the binding tests' venv: numpy only), as a newcomer builds the zip with.
fn plain_python() -> PathBuf {
    pyenv::ensure_venv("python", &["numpy>=1.24"], &["python3.11", "python3"])
}

/// Runs `build_extension.py` with `python` into `zip`; returns its output.
fn build_extension(python: &Path, zip: &Path) -> String {
    let out = Command::new(python)
        .arg(root().join("plugins").join("blender").join("build_extension.py"))
        .arg("--library")
        .arg(cdylib::cdylib_path())
        .arg("--output")
        .arg(zip)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run build_extension.py");
    let text = output_text(&out);
    assert!(out.status.success() && zip.is_file(), "building the extension failed\n{text}");
    text
}

/// The extension zip every scenario installs, built once per test run from this build's cdylib
/// by a Python without `bpy`, as the README's install steps do.
fn extension_zip() -> PathBuf {
    static ZIP: OnceLock<PathBuf> = OnceLock::new();
    ZIP.get_or_init(|| {
        let zip = artifacts_root().join("grip_physics.zip");
        let python = plain_python();
        let probe = Command::new(&python).args(["-c", "import bpy"]).output().expect("run the plain Python");
        assert!(!probe.status.success(), "{} must not have bpy", python.display());
        let text = build_extension(&python, &zip);
        assert!(!text.contains("validated with"), "no Blender tool was expected:\n{text}");
        zip
    })
    .clone()
}

/// Runs `tests/blender/<script>.py` in a fresh headless Blender; returns its output. Fails the
/// test unless the script's summary line reports no failed check.
fn run_scenario(script: &str, out_dir: &Path, extra: &[&str]) -> String {
    let zip = extension_zip();
    let user = out_dir.join("blender-user");
    let _ = std::fs::remove_dir_all(&user);
    std::fs::create_dir_all(&user).expect("create user resources dir");
    let out = Command::new(blender_python())
        .arg(root().join("tests").join("blender").join(format!("{script}.py")))
        .arg("--zip")
        .arg(&zip)
        .arg("--out")
        .arg(out_dir)
        .args(extra)
        .env("BLENDER_USER_RESOURCES", &user)
        .env("PYTHONPATH", root().join("tests").join("blender"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .output()
        .expect("run the Blender test script");
    let text = output_text(&out);
    println!("{text}");
    std::fs::write(out_dir.join(format!("{script}.log")), &text).expect("write the scenario's log");
    let summary = format!("blender {script}: ");
    let line = text.lines().find(|l| l.starts_with(&summary)).unwrap_or("");
    assert!(out.status.success() && line.ends_with(" 0 failed"), "{script}.py failed ({}): {line}\n{text}", out.status);
    text
}

fn scenario_dir(name: &str) -> PathBuf {
    let dir = artifacts_root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scenario dir");
    dir
}

#[test]
fn extension_zip_without_bpy_equals_the_one_blender_validates() {
    let plain = extension_zip();
    let dir = scenario_dir("extension_zip");
    let validated = dir.join("grip_physics.zip");
    let text = build_extension(&blender_python(), &validated);
    assert!(text.contains("validated with"), "Blender's extension tool did not run:\n{text}");
    let (a, b) = (std::fs::read(&plain).expect("read zip"), std::fs::read(&validated).expect("read zip"));
    assert!(a == b, "the zip built without bpy differs from the one Blender's tool validated");
}

/// The shell commands of the README files' code blocks that run `build_extension.py`, with
/// backslash continuations joined.
fn readme_build_commands() -> Vec<(String, String)> {
    let mut commands = Vec::new();
    for readme in ["README.md", "plugins/blender/README.md"] {
        let text = std::fs::read_to_string(root().join(readme)).expect("read the README");
        let joined = text.replace("\\\n", " ");
        for line in joined.lines().map(str::trim).filter(|l| l.contains("build_extension.py")) {
            if line.starts_with("python") {
                commands.push((readme.to_string(), line.split_whitespace().collect::<Vec<_>>().join(" ")));
            }
        }
    }
    commands
}

#[test]
fn readme_build_commands_work_verbatim_from_a_clone() {
    let commands = readme_build_commands();
    assert!(commands.len() >= 2, "no build_extension.py command found in the READMEs: {commands:?}");
    for (readme, command) in &commands {
        // A folder laid out as a fresh clone after `cargo build --release`.
        let clone = scenario_dir(&format!("readme_build_{}", readme.replace(['/', '.'], "_")));
        for part in ["plugins/blender", "plugins/python/grip"] {
            copy_tree(&root().join(part), &clone.join(part));
        }
        let release = clone.join("target").join("release");
        std::fs::create_dir_all(&release).expect("create target/release");
        std::fs::copy(cdylib::cdylib_path(), release.join(cdylib::lib_name())).expect("copy the library");
        let out = Command::new("sh").arg("-c").arg(command).current_dir(&clone).output().expect("run sh");
        let text = output_text(&out);
        assert!(out.status.success(), "{readme}: `{command}` failed\n{text}");
        let zip = command.split_whitespace().skip_while(|a| *a != "--output").nth(1).expect("--output argument");
        assert!(clone.join(zip).is_file(), "{readme}: `{command}` wrote no {zip}\n{text}");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("read folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != "__pycache__" {
                copy_tree(&path, &to.join(entry.file_name()));
            }
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("copy file");
        }
    }
}

#[test]
fn bpy_free_modules() {
    run_scenario("addon_units", &scenario_dir("addon_units"), &[]);
}

#[test]
fn settings_panels_and_input_errors() {
    run_scenario("addon_ui", &scenario_dir("addon_ui"), &[]);
}

#[test]
fn pinned_cloth_bakes_plays_frees_and_reopens_without_the_addon() {
    let dir = scenario_dir("pinned_cloth");
    run_scenario("pinned_cloth", &dir, &[]);
    let blend = dir.join("pinned_cloth.blend");
    let reopen = dir.join("reopen");
    std::fs::create_dir_all(&reopen).expect("create reopen dir");
    run_scenario("reopen", &reopen, &["--blend", blend.to_str().expect("utf-8 path")]);
}

#[test]
fn cache_bakes_unsaved_resumes_bit_for_bit_and_goes_outdated() {
    run_scenario("cache_lifecycle", &scenario_dir("cache_lifecycle"), &[]);
}

#[test]
fn cancel_keeps_the_frames_done() {
    run_scenario("cancel", &scenario_dir("cancel"), &[]);
}

#[test]
fn cloth_drapes_on_a_sphere_collider() {
    let dir = scenario_dir("cloth_on_sphere");
    run_scenario("cloth_on_sphere", &dir, &[]);
    assert!(dir.join("cloth_on_sphere.png").is_file(), "the render artifact is missing");
}

#[test]
fn sleeve_follows_an_armature_bent_collider() {
    run_scenario("sleeve", &scenario_dir("sleeve"), &[]);
}

#[test]
fn cloths_meet_at_their_own_self_collision_thickness() {
    run_scenario("self_collision", &scenario_dir("self_collision"), &[]);
}

#[test]
fn soft_body_cube_rests_on_a_floor_keeping_its_volume() {
    run_scenario("soft_body", &scenario_dir("soft_body"), &[]);
}

#[test]
fn a_hard_frame_continues_with_a_fallback_or_stops_the_bake() {
    run_scenario("hard_frame", &scenario_dir("hard_frame"), &[]);
}

#[test]
fn bad_meshes_give_readable_errors() {
    run_scenario("bad_input", &scenario_dir("bad_input"), &[]);
}

#[test]
fn volume_preservation_keeps_a_closed_cloth_ball_full() {
    run_scenario("volume", &scenario_dir("volume"), &[]);
}

#[test]
fn garment_sleeve_on_a_skinned_arm_bakes_reopens_and_stays_outside() {
    run_scenario("garment", &scenario_dir("garment"), &[]);
}

/// A sleeve across an elbow bent to 90° with weights blended wide: every frame in strict mode,
/// no fallback, outside the arm, following the bend.
#[test]
fn sleeve_across_an_elbow_bent_90_degrees_bakes_in_strict_mode() {
    run_scenario("elbow_sleeve", &scenario_dir("elbow_sleeve"), &[]);
}

/// The same sleeve across an elbow bent to 110° (the skin still unfolded): every frame in the
/// add-on's default policy (continue), outside the arm except where a pinch is reported,
/// following the bend.
#[test]
fn sleeve_across_an_elbow_bent_110_degrees_bakes_in_continue_mode() {
    run_scenario("elbow_sleeve", &scenario_dir("elbow_sleeve_110"), &["--bend", "110"]);
}
