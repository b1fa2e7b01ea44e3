//! Python virtual environments for the tests that run Python: created on first use in a
//! gitignored folder at the repository root (`.venv-<name>`) from PyPI, and reused while their
//! stamp (the requirement list) matches. Creation happens in a temporary folder renamed into
//! place at the end, so an interrupted or concurrent run never leaves a half-made venv in use.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Serialises venv creation between the tests of one binary.
static CREATING: Mutex<()> = Mutex::new(());

const STAMP: &str = "grip-requirements.txt";

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The interpreter inside a venv.
pub fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

/// A base interpreter to create venvs with: `$GRIP_PYTHON`, else the first of `preferred` (e.g.
/// `python3.11`) that runs, else `python3`.
fn base_python(preferred: &[&str]) -> String {
    if let Ok(p) = std::env::var("GRIP_PYTHON") {
        return p;
    }
    for candidate in preferred.iter().chain(["python3"].iter()) {
        let ok = Command::new(candidate).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
        if ok {
            return candidate.to_string();
        }
    }
    panic!("no Python 3 interpreter found (tried {preferred:?} and python3; set GRIP_PYTHON)");
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({})\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Python of the venv `.venv-<name>` holding `requirements` (pip requirement strings),
/// created with an interpreter from `preferred_pythons` when missing or stale.
pub fn ensure_venv(name: &str, requirements: &[&str], preferred_pythons: &[&str]) -> PathBuf {
    let _guard = CREATING.lock().unwrap_or_else(|p| p.into_inner());
    let venv = repo_root().join(format!(".venv-{name}"));
    let stamp = requirements.join("\n");
    let current = std::fs::read_to_string(venv.join(STAMP)).ok();
    if current.as_deref() == Some(stamp.as_str()) && venv_python(&venv).is_file() {
        return venv_python(&venv);
    }
    let tmp = repo_root().join(format!(".venv-{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let base = base_python(preferred_pythons);
    eprintln!("creating {} with {base} and {requirements:?} (first run only)", venv.display());
    run(Command::new(&base).args(["-m", "venv"]).arg(&tmp), "python -m venv");
    let py = venv_python(&tmp);
    run(
        Command::new(&py)
            .args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet"])
            .args(requirements),
        &format!("pip install {requirements:?}"),
    );
    std::fs::write(tmp.join(STAMP), &stamp).expect("write venv stamp");
    if venv.exists() {
        std::fs::remove_dir_all(&venv).expect("remove stale venv");
    }
    if std::fs::rename(&tmp, &venv).is_err() {
        // Another process finished first: use its venv if it is complete.
        let _ = std::fs::remove_dir_all(&tmp);
        assert_eq!(std::fs::read_to_string(venv.join(STAMP)).ok().as_deref(), Some(stamp.as_str()));
    }
    venv_python(&venv)
}

/// Requirement strings of a pip requirements file: its lines without comments and blanks.
pub fn requirements_file(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim().to_string()).filter(|l| !l.is_empty()).collect()
}

/// The Python of `.venv-batch`: `plugins/python/requirements-batch.txt` (Dask and its
/// dashboard) plus `usd-core`, which the tests use to open the USD files grip writes.
pub fn batch_venv() -> PathBuf {
    let mut requirements = requirements_file(&repo_root().join("plugins/python/requirements-batch.txt"));
    requirements.push("usd-core==26.11".into());
    let refs: Vec<&str> = requirements.iter().map(String::as_str).collect();
    ensure_venv("batch", &refs, &["python3.11", "python3"])
}
