//! `grip.batch` (plugins/python/grip/batch): wedges and shot batches on Dask, in `.venv-batch`
//! (Dask distributed, created on first use from PyPI). `tests/python/test_batch.py`: wedge
//! expansion and job names, overrides, jobs.csv, the command line, and a job refused by grip
//! reported with grip's message while the others finish. `tests/python/test_batch_kill.py`, the
//! acceptance test: a 2-worker LocalCluster runs a 4-job wedge, one worker is SIGKILLed in the
//! middle of a frame, and every job still finishes bit for bit equal to the serial bake (`grip
//! diff --tolerance 0` against `grip run` and `grip.bake`).
//!
//! The serial bakes use the `grip` command beside this build's cdylib (`target/release/grip`):
//! `cargo test --release` builds it; run alone, `cargo build --release` first (the test refuses
//! a binary older than the sources). Run with `cargo test --release --test batch`.

mod cdylib;
mod pyenv;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::SystemTime;

/// The two scripts each start a cluster on a 2-core machine: one at a time.
static ONE_CLUSTER: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Newest modification time of the files under `dir` (recursively).
fn newest(dir: &Path) -> SystemTime {
    let mut latest = SystemTime::UNIX_EPOCH;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let time =
            if path.is_dir() { newest(&path) } else { entry.metadata().and_then(|m| m.modified()).unwrap_or(latest) };
        latest = latest.max(time);
    }
    latest
}

/// The `grip` binary of this build's profile directory, checked to be newer than every source
/// it is built from (a stale binary would bake other bits than the cdylib).
fn grip_bin() -> PathBuf {
    let lib = cdylib::cdylib_path();
    let profile =
        lib.parent().and_then(|d| if d.ends_with("deps") { d.parent() } else { Some(d) }).expect("profile dir");
    let bin = profile.join(if cfg!(windows) { "grip.exe" } else { "grip" });
    let built = std::fs::metadata(&bin).and_then(|m| m.modified()).unwrap_or_else(|_| {
        panic!("{} not found: run `cargo build --release` (or the whole `cargo test --release`)", bin.display())
    });
    let sources =
        [root().join("src"), root().join("cli").join("src")].iter().map(|d| newest(d)).max().expect("two dirs");
    assert!(
        built >= sources,
        "{} is older than the sources: run `cargo build --release` before `cargo test --release --test batch`",
        bin.display()
    );
    bin
}

fn run_script(script: &str) -> String {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|p| p.into_inner());
    let out = Command::new(pyenv::batch_venv())
        .arg(script)
        .env("GRIP_LIBRARY", cdylib::cdylib_path())
        .env("GRIP_BIN", grip_bin())
        .env("PYTHONPATH", root().join("plugins").join("python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(root())
        .output()
        .expect("cannot run the batch venv's python");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success(), "{script} failed ({})\n{text}", out.status);
    assert!(text.contains("\nOK"), "{text}");
    text
}

#[test]
fn batch_jobs_wedges_failures_and_command_line() {
    run_script("tests/python/test_batch.py");
}

#[test]
fn batch_jobs_survive_a_killed_worker_bit_for_bit() {
    let text = run_script("tests/python/test_batch_kill.py");
    assert!(text.contains("killed worker pid") && text.contains("measured: 4 jobs x 24 frames"), "{text}");
}
