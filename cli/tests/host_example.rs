//! The C/C++ host example (`examples/host`), the C++ wrapper `include/grip.hpp` and the unit tests
//! of the Houdini SOP's HDK-independent layer (`plugins/houdini/src/core`, tests in
//! `tests/cpp`), all built against this build's cdylib in a scratch directory:
//! - `grip.hpp` and `grip_support.hpp` compile stand-alone with `-std=c++17 -Wall -Wextra -Werror -pedantic`;
//! - the plain path (`make check`) builds everything and runs the grip.hpp tour, the C example
//!   and the SOP core tests; the CMake path builds the same and runs them with ctest (skipped,
//!   saying so, when cmake is not installed; `.ci/run` installs it);
//! - the host (both builds) simulates a cloth falling onto a collider mesh, static and moving,
//!   and writes the same positions as `grip run` on the same scene, to 1e-12 m;
//! - under valgrind (when installed) the host, the grip.hpp tour and the SOP core tests have no invalid
//!   reads or writes and no definite or indirect leaks.
//!
//! Run with `cargo test --release --test host_example`.

#[path = "../../tests/cdylib/mod.rs"]
mod cdylib;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A fresh scratch directory (left in place when a test fails, for inspection).
fn scratch(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "grip-host-{tag}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn show(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `cmd` without cargo's LD_LIBRARY_PATH (whose target/release copy of libgrip may be stale:
/// the programs load this build's cdylib through their rpath); panics with its output on failure.
fn run(cmd: &mut Command) -> Output {
    let what = format!("{cmd:?}");
    let out = cmd.env_remove("LD_LIBRARY_PATH").output().unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(out.status.success(), "{}", show(&what, &out));
    out
}

fn lib_dir() -> PathBuf {
    cdylib::cdylib_path().parent().expect("library dir").to_path_buf()
}

fn available(program: &str) -> bool {
    Command::new(program).arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
}

/// The programs built once by the plain path (`make`), shared by the tests of this binary.
fn make_build() -> &'static Path {
    static BUILD: OnceLock<PathBuf> = OnceLock::new();
    BUILD.get_or_init(|| {
        let build = scratch("make");
        run(Command::new("make")
            .arg("-C")
            .arg(root().join("examples").join("host"))
            .arg(format!("BUILD={}", build.display()))
            .arg(format!("GRIP_LIB_DIR={}", lib_dir().display()))
            .arg("-j2")
            .arg("all"));
        build
    })
}

/// The programs built once by CMake, or None (with a message) when cmake is missing.
fn cmake_build() -> Option<&'static Path> {
    static BUILD: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILD
        .get_or_init(|| {
            if !available("cmake") {
                eprintln!("SKIPPED: cmake is not installed (apt-get install cmake; .ci/run installs it in CI)");
                return None;
            }
            let build = scratch("cmake");
            run(Command::new("cmake")
                .arg("-S")
                .arg(root().join("examples").join("host"))
                .arg("-B")
                .arg(&build)
                .arg(format!("-DGRIP_LIBRARY={}", cdylib::cdylib_path().display())));
            run(Command::new("cmake").arg("--build").arg(&build).arg("-j2"));
            Some(build)
        })
        .as_deref()
}

/// The line of `text` starting with `prefix`, which must end with " 0 failed".
fn assert_summary(text: &str, prefix: &str) {
    let line = text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix:?} line in\n{text}"));
    assert!(line.ends_with(" 0 failed"), "{line}");
}

#[test]
fn grip_hpp_compiles_standalone_with_warnings_as_errors() {
    for header in ["grip.hpp", "grip_support.hpp"] {
        run(Command::new("g++")
            .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c++", "-I"])
            .arg(root().join("include"))
            .arg(root().join("include").join(header)));
    }
}

#[test]
fn plain_make_path_builds_and_its_checks_pass() {
    let build = make_build();
    let tour = run(&mut Command::new(build.join("hpp_tour")));
    assert_summary(&String::from_utf8_lossy(&tour.stdout), "grip.hpp: ");
    let hello = run(&mut Command::new(build.join("hello_grip")));
    assert!(String::from_utf8_lossy(&hello.stdout).contains("after 2 s the free corner is at"));
    let core = run(&mut Command::new(build.join("sop_core_tests")));
    let text = String::from_utf8_lossy(&core.stdout);
    println!("{text}");
    assert_summary(&text, "SOP core: ");
}

#[test]
fn host_refuses_bad_input_with_a_message() {
    let build = make_build();
    let dir = scratch("bad");
    write_grid(&dir.join("cloth.obj"), 3, 0.5, [0.0, 0.0, 0.1]);
    write_grid(&dir.join("ground.obj"), 3, 1.0, [0.0, 0.0, 0.0]);
    write_grid(&dir.join("other_0001.obj"), 4, 1.0, [0.0, 0.0, 0.0]); // another topology
    let (cloth, ground) = (dir.join("cloth.obj").display().to_string(), dir.join("ground.obj").display().to_string());
    let sequence = dir.join("other_%04d.obj").display().to_string();
    let out = dir.join("out").display().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![cloth.clone(), dir.join("missing.obj").display().to_string()], "missing.obj: cannot open"),
        (vec!["--pin".into(), "99".into(), cloth.clone(), ground.clone()], "cloth vertex 99 does not exist"),
        (vec!["--frames".into(), "-2".into(), cloth.clone(), ground.clone()], "--frames: expected a non-negative"),
        (vec!["--collider-sequence".into(), "x%s".into(), cloth.clone(), ground.clone()], "only %d, %Nd and %0Nd"),
        (vec!["--collider-sequence".into(), sequence, "--out".into(), out, cloth.clone(), ground.clone()], "frame 1"),
        (vec!["--time-step".into(), "-1".into(), cloth, ground], "grip_solver_create"),
    ];
    for (args, needle) in cases {
        let result = Command::new(build.join("grip_host")).args(&args).env_remove("LD_LIBRARY_PATH").output().unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("grip_host: error: ") && stderr.contains(needle), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cmake_path_builds_and_ctest_passes() {
    let Some(build) = cmake_build() else { return };
    let out = run(Command::new("ctest").arg("--output-on-failure").current_dir(build));
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(text.contains("100% tests passed"), "{text}");
}

/// Writes an n × n grid of quads, `size` m on a side, at height z, from (x0, y0), to `path`;
/// the quads are counter-clockwise seen from +Z (a collider's outside is up).
fn write_grid(path: &Path, n: usize, size: f64, origin: [f64; 3]) {
    let mut text = String::from("# grid written by cli/tests/host_example.rs\n");
    for j in 0..n {
        for i in 0..n {
            let (x, y) = (origin[0] + size * i as f64 / (n - 1) as f64, origin[1] + size * j as f64 / (n - 1) as f64);
            text.push_str(&format!("v {x} {y} {}\n", origin[2]));
        }
    }
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let a = j * n + i + 1;
            text.push_str(&format!("f {a} {} {} {}\n", a + 1, a + 1 + n, a + n));
        }
    }
    std::fs::write(path, text).expect("write grid OBJ");
}

/// The cloth-on-ground scene: a 0.5 m cloth (8 × 8 vertices, corner 0 pinned) 3 mm above a 1 m
/// ground collider mesh that is fixed or slides at 0.2 m/s along x, 6 frames at 24 fps.
struct Scene {
    dir: PathBuf,
    frames: usize,
}

impl Scene {
    fn new(tag: &str, moving: bool) -> Scene {
        let dir = scratch(tag);
        write_grid(&dir.join("cloth.obj"), 8, 0.5, [0.25, 0.25, 0.003]);
        write_grid(&dir.join("ground.obj"), 6, 1.0, [0.0, 0.0, 0.0]);
        let motion = if moving { "{ steady = { velocity = [0.2, 0.0, 0.0] } }" } else { "\"fixed\"" };
        let toml = format!(
            "[solver]\ntime_step = 0.005\ncontact_thickness = 0.002\ndefault_friction = 0.4\n\
             [output]\nframes = 6\nfps = 24\n\
             [[object]]\nname = \"cloth\"\nkind = \"shell\"\nmesh = \"cloth.obj\"\npin_vertices = [0]\n\
             [[object]]\nname = \"ground\"\nkind = \"collider\"\nmesh = \"ground.obj\"\nmotion = {motion}\n"
        );
        std::fs::write(dir.join("scene.toml"), toml).expect("write scene.toml");
        Scene { dir, frames: 6 }
    }

    /// `grip run scene.toml --out cli`: the reference, including the collider's OBJ per frame.
    fn run_cli(&self) -> PathBuf {
        let out = self.dir.join("cli");
        run(Command::new(env!("CARGO_BIN_EXE_grip"))
            .arg("run")
            .arg(self.dir.join("scene.toml"))
            .arg("--out")
            .arg(&out));
        out
    }

    /// The host's arguments for the same scene; the collider follows the CLI's collider OBJs.
    fn host_args(&self, cli: &Path, out: &Path) -> Vec<String> {
        let flags = "--frames 6 --fps 24 --time-step 0.005 --contact-thickness 0.002 --default-friction 0.4 \
                     --pin 0 --cloth-name cloth";
        let mut args: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
        args.push("--collider-sequence".into());
        args.push(cli.join("ground_%04d.obj").display().to_string());
        args.push("--out".into());
        args.push(out.display().to_string());
        args.push(self.dir.join("cloth.obj").display().to_string());
        args.push(cli.join("ground_0000.obj").display().to_string());
        args
    }
}

/// Vertex positions of an OBJ file, parsed by grip's own reader.
fn obj_positions(path: &Path) -> Vec<[f64; 3]> {
    grip::io::obj::read_obj(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).positions
}

/// Largest coordinate difference [m] between the host's and the CLI's cloth over every frame.
fn largest_difference(scene: &Scene, cli: &Path, host: &Path) -> f64 {
    let mut worst = 0.0f64;
    for frame in 0..=scene.frames {
        let name = format!("cloth_{frame:04}.obj");
        let (a, b) = (obj_positions(&cli.join(&name)), obj_positions(&host.join(&name)));
        assert_eq!(a.len(), b.len(), "{name}: vertex counts differ");
        for (p, q) in a.iter().zip(&b) {
            for k in 0..3 {
                worst = worst.max((p[k] - q[k]).abs());
            }
        }
    }
    worst
}

fn compare_host_with_cli(moving: bool) {
    let scene = Scene::new(if moving { "moving" } else { "static" }, moving);
    let cli = scene.run_cli();
    let mut builds = vec![("make", make_build().to_path_buf())];
    if let Some(build) = cmake_build() {
        builds.push(("cmake", build.to_path_buf()));
    }
    for (how, build) in builds {
        let out = scene.dir.join(format!("host-{how}"));
        let ran = run(Command::new(build.join("grip_host")).args(scene.host_args(&cli, &out)));
        let text = String::from_utf8_lossy(&ran.stdout);
        assert!(text.contains("grip_host: grip ") && text.contains("s per frame"), "no timing report:\n{text}");
        let worst = largest_difference(&scene, &cli, &out);
        println!("{how} host vs CLI ({}): largest difference {worst:e} m", if moving { "moving" } else { "static" });
        assert!(worst <= 1e-12, "{how}-built host differs from the CLI by {worst:e} m");
    }
    // The cloth really fell onto the ground and stayed above it, and the pinned corner held.
    let last = obj_positions(&cli.join(format!("cloth_{:04}.obj", scene.frames)));
    let first = obj_positions(&cli.join("cloth_0000.obj"));
    assert_eq!(last[0], first[0], "the pinned corner moved");
    assert!(last.iter().all(|p| p[2] > 0.0), "the cloth went through the ground");
    assert!(last.iter().skip(1).any(|p| p[2] < 0.003 - 1e-4), "the cloth did not fall");
    // On the sliding ground, friction drags the cloth along +x (its pinned corner stays).
    let drag = last.iter().zip(&first).map(|(p, q)| p[0] - q[0]).fold(f64::NEG_INFINITY, f64::max);
    println!("largest drag along x: {drag:e} m");
    assert_eq!(drag > 1e-3, moving, "drag along x {drag} m");
    std::fs::remove_dir_all(&scene.dir).ok();
}

#[test]
fn host_matches_the_cli_on_a_static_collider() {
    compare_host_with_cli(false);
}

#[test]
fn host_matches_the_cli_on_a_moving_collider() {
    compare_host_with_cli(true);
}

/// Runs `program args` under valgrind's memcheck; asserts no invalid accesses (or any other
/// memcheck error) and no definitely or indirectly lost blocks. "Possibly lost" blocks are
/// reported but allowed: they are the solver pool's threads still exiting at process end and
/// the library's process-wide handle table (both reachable through interior pointers).
fn assert_valgrind_clean(program: &Path, args: &[String]) {
    let out = Command::new("valgrind")
        .args(["--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=99"])
        .arg(program)
        .args(args)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("run valgrind");
    let text = show(&format!("valgrind {}", program.display()), &out);
    let report = String::from_utf8_lossy(&out.stderr);
    let summary: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("ERROR SUMMARY") || l.contains(" lost:") || l.contains("in use at exit"))
        .collect();
    println!("valgrind {}:\n{}", program.display(), summary.join("\n"));
    assert!(out.status.success(), "{text}");
    assert!(report.contains("ERROR SUMMARY: 0 errors"), "{text}");
    let lost_is_zero =
        |kind: &str| report.lines().filter(|l| l.contains(kind)).all(|l| l.contains(" 0 bytes in 0 blocks"));
    assert!(lost_is_zero("definitely lost:") && lost_is_zero("indirectly lost:"), "{text}");
}

#[test]
fn host_and_examples_are_valgrind_clean() {
    if !available("valgrind") {
        eprintln!("SKIPPED: valgrind is not installed");
        return;
    }
    let build = make_build();
    let dir = scratch("valgrind");
    write_grid(&dir.join("cloth.obj"), 5, 0.5, [0.25, 0.25, 0.003]);
    write_grid(&dir.join("ground.obj"), 4, 1.0, [0.0, 0.0, 0.0]);
    let args: Vec<String> = ["--frames", "2", "--contact-thickness", "0.002", "--pin", "0", "--out"]
        .iter()
        .map(|s| s.to_string())
        .chain([
            dir.join("out").display().to_string(),
            dir.join("cloth.obj").display().to_string(),
            dir.join("ground.obj").display().to_string(),
        ])
        .collect();
    assert_valgrind_clean(&build.join("grip_host"), &args);
    assert!(dir.join("out").join("cloth_0002.obj").is_file());
    assert_valgrind_clean(&build.join("hpp_tour"), &[]);
    // hello_grip (2 s of cloth, ~2 minutes under valgrind) makes the same calls as the host.
    assert_valgrind_clean(&build.join("sop_core_tests"), &[]);
    std::fs::remove_dir_all(&dir).ok();
}
