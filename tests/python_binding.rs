//! The Python binding (`plugins/python/grip`) outside Blender, in a venv holding only numpy
//! (`.venv-python`, created on first use from PyPI): `tests/python/test_binding.py` against this
//! build's cdylib, `tests/python/test_checkpoint.py` (checkpoints restored bit for bit), `tests/python/test_bake.py`
//! (`grip.bake`: scene files baked as `grip run` bakes them, resumed bit for bit, overrides),
//! `tests/python/test_bad_input.py` (the bad-input matrix of
//! `tests/bad_input/cases.txt`), `tests/python/test_argument_checks.py` (every public function's
//! arguments checked before ctypes sees them), `tests/python/test_integrators.py` (every integrator
//! code and the integrators' fields accepted, out-of-range values refused naming the field),
//! `tests/python/test_header_mirror.py` against
//! `include/grip.h`, and the one-liner `python -c "import grip; ..."` that builds a shell, advances
//! and reads it back.
//!
//! Run with `cargo test --release --test python_binding`.

mod cdylib;
mod pyenv;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Python of the numpy-only venv.
fn python() -> PathBuf {
    pyenv::ensure_venv("python", &["numpy>=1.24"], &["python3.11", "python3"])
}

fn run_python(py: &Path, args: &[&str]) -> String {
    let out = Command::new(py)
        .args(args)
        .env("GRIP_LIBRARY", cdylib::cdylib_path())
        .env("PYTHONPATH", root().join("plugins").join("python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .output()
        .expect("cannot run the venv's python");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success(), "python {args:?} failed ({})\n{text}", out.status);
    text
}

#[test]
fn binding_unit_tests() {
    let text = run_python(&python(), &["tests/python/test_binding.py"]);
    assert!(text.contains("\nOK"), "{text}");
}

#[test]
fn bakes_resume_bit_for_bit_and_report_failures() {
    let text = run_python(&python(), &["tests/python/test_bake.py"]);
    assert!(text.contains("\nOK"), "{text}");
}

#[test]
fn checkpoints_continue_bit_for_bit() {
    let text = run_python(&python(), &["tests/python/test_checkpoint.py"]);
    assert!(text.contains("\nOK"), "{text}");
}

#[test]
fn binding_refuses_every_bad_input() {
    let text = run_python(&python(), &["tests/python/test_bad_input.py"]);
    assert!(text.contains("\nOK") && text.contains("bad-input cases through the Python binding"), "{text}");
}

#[test]
fn binding_checks_every_argument() {
    let text = run_python(&python(), &["tests/python/test_argument_checks.py"]);
    assert!(text.contains("\nOK") && text.contains("argument-check cases"), "{text}");
}

#[test]
fn binding_takes_every_integrator_and_its_fields() {
    let text = run_python(&python(), &["tests/python/test_integrators.py"]);
    assert!(text.contains("\nOK"), "{text}");
}

#[test]
fn binding_mirrors_the_header() {
    let text = run_python(&python(), &["tests/python/test_header_mirror.py"]);
    assert!(text.contains("\nOK"), "{text}");
}

#[test]
fn import_grip_with_only_numpy() {
    let py = python();
    let freeze = run_python(&py, &["-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"]);
    for line in freeze.lines().filter(|l| l.contains("==")) {
        let name = line.split("==").next().unwrap_or("").to_lowercase();
        assert!(["numpy", "pip", "setuptools", "wheel"].contains(&name.as_str()), "unexpected package {line}");
    }
    let code = "import grip, numpy as np\n\
                s = grip.Solver(time_step=0.01)\n\
                c = s.add_shell(np.array([[0, 0, 1], [1, 0, 1], [0, 1, 1.0]]), [[0, 1, 2]])\n\
                s.advance(0.1)\n\
                print('z', round(float(s.positions(c)[0, 2]), 6), grip.load().version)\n\
                s.close()";
    let text = run_python(&py, &["-c", code]);
    // Backward Euler free fall, 10 substeps of 0.01 s: drop = h² g n (n + 1) / 2 = 0.053955 m.
    assert!(text.contains("z 0.946045"), "{text}");
}
