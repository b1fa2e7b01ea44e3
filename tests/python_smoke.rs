//! Runs `tests/python/smoke_ctypes.py` (Python 3 standard library, ctypes) against the cdylib.
//!
//! Run with `cargo test --release --test python_smoke`.

mod cdylib;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn python_ctypes_smoke() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests").join("python").join("smoke_ctypes.py");
    let out = Command::new("python3")
        .arg(&script)
        .env("GRIP_LIBRARY", cdylib::cdylib_path())
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
