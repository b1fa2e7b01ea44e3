//! Runs `tests/python/smoke_ctypes.py` (Python 3 standard library, ctypes) against the cdylib.
//!
//! Run with `cargo test --release --test python_smoke`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn lib_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libgrip.dylib"
    } else {
        "libgrip.so"
    }
}

/// `libgrip.so` in the profile dir (`target/release`, the parent of the test binary's `deps/`),
/// or in `deps/` itself.
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test binary has a parent dir").to_path_buf();
    let candidates = [deps.parent().map(Path::to_path_buf), Some(deps.clone())];
    for dir in candidates.iter().flatten() {
        let lib = dir.join(lib_name());
        if lib.is_file() {
            return lib;
        }
    }
    panic!("{} not found next to {} or in its parent; build the cdylib first", lib_name(), deps.display());
}

#[test]
fn python_ctypes_smoke() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests").join("python").join("smoke_ctypes.py");
    let out = Command::new("python3")
        .arg(&script)
        .env("GRIP_LIBRARY", library())
        .current_dir(&root)
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "smoke_ctypes.py failed ({})\n{stdout}\n{stderr}", out.status);
    assert!(stdout.lines().any(|l| l.starts_with("python smoke: ") && l.ends_with(" 0 failed")), "{stdout}");
}
