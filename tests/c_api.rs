//! The C API from C and C++: `include/grip.h` compiles stand-alone as C99, C11, C17 and C++17
//! with warnings as errors, and the C program in `tests/c/` (every `*.c` there, compiled as C99
//! and linked against the cdylib) passes. Build artefacts go to a fresh directory under the
//! system temp dir.
//!
//! Run with `cargo test --release --test c_api` (the solver is slow unoptimised).

mod cdylib;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn include_dir() -> PathBuf {
    manifest_dir().join("include")
}

/// A fresh, unique scratch directory (removed by the caller on success).
fn scratch_dir(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "grip-c-api-{tag}-{}-{nanos}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
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

fn run(cmd: &mut Command) -> Output {
    let what = format!("{cmd:?}");
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(out.status.success(), "{}", show(&what, &out));
    out
}

#[test]
fn header_compiles_standalone_as_c() {
    let header = include_dir().join("grip.h");
    for std in ["c99", "c11", "c17"] {
        run(Command::new("gcc")
            .args([&format!("-std={std}"), "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c"])
            .arg(&header));
    }
}

#[test]
fn header_compiles_as_cpp17() {
    let dir = scratch_dir("cpp");
    let src = dir.join("use_header.cpp");
    std::fs::write(
        &src,
        "#include \"grip.h\"\n\
         #include <cstdint>\n\
         static_assert(GRIP_STATUS_OK == 0 && GRIP_STATUS_PANIC == 7, \"status values\");\n\
         std::uint32_t abi() { return grip_abi_version(); }\n\
         GripStatus step(GripSolver *s) { return grip_solver_step(s, 0.01); }\n\
         int main() { return abi() == GRIP_ABI_VERSION ? 0 : 1; }\n",
    )
    .unwrap();
    run(Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"])
        .arg(include_dir())
        .arg(&src));
    // The header alone, as C++.
    run(Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c++"])
        .arg(include_dir().join("grip.h")));
    std::fs::remove_dir_all(&dir).ok();
}

/// The sources of the C test program: every `*.c` file in `tests/c/`, in sorted order.
fn c_program_sources() -> Vec<PathBuf> {
    let dir = manifest_dir().join("tests").join("c");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "no C sources in {}", dir.display());
    sources
}

#[test]
fn c_program_passes() {
    let lib = cdylib::cdylib_path().parent().expect("library dir").to_path_buf();
    let dir = scratch_dir("prog");
    let exe = dir.join("api_test");
    run(Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(include_dir())
        .args(c_program_sources())
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgrip")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lm"));
    // cargo's LD_LIBRARY_PATH lists target/release, whose libgrip.so may be stale: load via rpath only.
    let out = Command::new(&exe).env_remove("LD_LIBRARY_PATH").output().expect("run api_test");
    let text = show(&format!("{}", exe.display()), &out);
    println!("{text}");
    assert!(out.status.success(), "api_test failed\n{text}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout.lines().find(|l| l.starts_with("C API: ")).expect("summary line");
    assert!(summary.ends_with(" 0 failed"), "{summary}");
    std::fs::remove_dir_all(&dir).ok();
}
