//! A simulation stopped and taken up again in a new solver (or a new `grip` process) goes on
//! bit for bit as if it had never stopped (`Solver::checkpoint` / `Solver::restore`,
//! `grip run --checkpoint` / `--resume`); a checkpoint that does not fit is refused and leaves
//! the solver as it was.

#[path = "../../tests/common/mod.rs"]
mod common;
use common::scenes::cloth_thrown_on_slab;
use grip::model::params::Integrator;
use grip::solve::linear_solver::LinearSolverKind;
use grip::{Solver, SolverParams};
use std::path::Path;
use std::process::Command;

/// The cloth thrown onto a slab (`cloth_thrown_on_slab`), with self-contact on and
/// BDF2 (whose history the checkpoint must carry); `cloth_cells` sets the cloth's resolution,
/// `height` [m] how high above the slab it starts.
fn scene_at(linear_solver: LinearSolverKind, cloth_cells: usize, height: f64) -> (Solver, [u32; 2]) {
    let params = SolverParams {
        linear_solver,
        integrator: Integrator::Bdf2,
        self_contact: true,
        worker_count: 1,
        ..Default::default()
    };
    cloth_thrown_on_slab(&params, cloth_cells, height)
}

fn scene(linear_solver: LinearSolverKind, cloth_cells: usize) -> (Solver, [u32; 2]) {
    scene_at(linear_solver, cloth_cells, 0.12)
}

fn bits(s: &Solver, ids: &[u32]) -> Vec<u64> {
    ids.iter()
        .flat_map(|&id| s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).map(|x| x.to_bits()))
        .collect()
}

const FRAME: f64 = 1.0 / 30.0;

fn continues_bit_for_bit(linear_solver: LinearSolverKind) {
    let (mut whole, ids) = scene(linear_solver, 6);
    let mut contacts = 0;
    for _ in 0..6 {
        whole.advance(FRAME).unwrap();
        contacts = contacts.max(whole.report().active_contacts);
    }
    assert!(contacts > 0, "the scene must touch, or the contact state is not exercised");

    let (mut first, _) = scene(linear_solver, 6);
    for _ in 0..3 {
        first.advance(FRAME).unwrap();
    }
    let state = first.checkpoint();
    let (mut second, _) = scene(linear_solver, 6);
    second.restore(&state).unwrap();
    assert_eq!(bits(&second, &ids), bits(&first, &ids));
    assert_eq!(second.checkpoint(), state, "restore then checkpoint gives the same bytes");
    for _ in 0..3 {
        second.advance(FRAME).unwrap();
    }
    assert_eq!(bits(&second, &ids), bits(&whole, &ids), "the resumed run differs from the whole one");
}

#[test]
fn a_restored_solver_continues_bit_for_bit_direct() {
    continues_bit_for_bit(LinearSolverKind::DirectLu);
}

#[test]
fn a_restored_solver_continues_bit_for_bit_iterative() {
    continues_bit_for_bit(LinearSolverKind::Iterative);
}

#[test]
fn a_checkpoint_that_does_not_fit_is_refused_and_changes_nothing() {
    let (mut source, _) = scene(LinearSolverKind::Iterative, 6);
    source.advance(FRAME).unwrap();
    let state = source.checkpoint();
    let (mut target, ids) = scene(LinearSolverKind::Iterative, 6);
    let before = (bits(&target, &ids), target.checkpoint());

    let mut wrong_magic = state.clone();
    wrong_magic[0] ^= 1;
    let mut not_finite = state.clone();
    // The first position: after the magic and the three fingerprint words, and its length.
    not_finite[40..48].copy_from_slice(&f64::NAN.to_le_bytes());
    let mut longer = state.clone();
    longer.push(0);
    // κ: after the header (32 bytes), positions and velocities (each a length and 3n values),
    // n pin flags and n pin targets (a flag and 3 values); no colliders here.
    let n = ids.iter().map(|&id| source.positions(id).unwrap().len() / 3).sum::<usize>();
    let kappa_at = 32 + 2 * (8 + 24 * n) + 8 * n + 32 * n;
    let with_kappa = |kappa: f64| {
        let mut bytes = state.clone();
        bytes[kappa_at..kappa_at + 8].copy_from_slice(&1u64.to_le_bytes());
        bytes[kappa_at + 8..kappa_at + 16].copy_from_slice(&kappa.to_le_bytes());
        bytes
    };
    target.restore(&with_kappa(2.5e3)).expect("a positive κ is fine");
    target = scene(LinearSolverKind::Iterative, 6).0;
    let (other_model, _) = scene(LinearSolverKind::Iterative, 5);
    let mut refused = vec![
        ("wrong magic", wrong_magic),
        ("a NaN position", not_finite),
        ("a trailing byte", longer),
        ("a NaN contact stiffness", with_kappa(f64::NAN)),
        ("a negative contact stiffness", with_kappa(-1.0)),
        ("another model", other_model.checkpoint()),
        ("other rest positions", scene_at(LinearSolverKind::Iterative, 6, 0.13).0.checkpoint()),
    ];
    for cut in [0, 7, 8, 40, state.len() / 2, state.len() - 1] {
        refused.push(("truncated", state[..cut].to_vec()));
    }
    for (what, bytes) in refused {
        let e = target.restore(&bytes).expect_err(what);
        assert!(!e.to_string().is_empty(), "{what}");
        assert_eq!((bits(&target, &ids), target.checkpoint()), before, "{what} changed the solver");
    }
    target.restore(&state).unwrap();
    assert_eq!(bits(&target, &ids), bits(&source, &ids));
}

fn grip(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grip")).args(args).output().expect("grip runs")
}

fn file(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// The columns of `stats.csv` that do not measure wall-clock time.
fn stats_without_timings(dir: &Path) -> Vec<String> {
    let text = String::from_utf8(file(dir, "stats.csv")).unwrap();
    let timed = [4, 11];
    text.lines()
        .map(|l| {
            l.split(',').enumerate().filter(|(i, _)| !timed.contains(i)).map(|(_, c)| c).collect::<Vec<_>>().join(",")
        })
        .collect()
}

#[test]
fn grip_resume_continues_a_run_bit_for_bit_and_refuses_what_does_not_fit() {
    let root = std::env::temp_dir().join(format!("grip-resume-{}", std::process::id()));
    let (whole, parts) = (root.join("whole"), root.join("parts"));
    let (w, p) = (whole.to_str().unwrap(), parts.to_str().unwrap());
    let demo = ["demo", "cloth-fold", "--threads", "1", "--checkpoint"];
    assert!(grip(&[&demo[..], &["--frames", "4", "-o", w]].concat()).status.success());
    assert!(grip(&[&demo[..], &["--frames", "2", "-o", p]].concat()).status.success());
    // A resumed run without --checkpoint writes frame 3 but leaves the checkpoint at frame 2;
    // taking up from there again cuts stats.csv back to frame 2.
    let no_checkpoint: Vec<&str> = demo.iter().copied().filter(|a| *a != "--checkpoint").collect();
    assert!(grip(&[&no_checkpoint[..], &["--frames", "3", "--resume", "-o", p]].concat()).status.success());
    assert_eq!(stats_without_timings(&parts).len(), 5, "header and frames 0-3");
    let resumed = grip(&[&demo[..], &["--frames", "4", "--resume", "-o", p]].concat());
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    for frame in 0..=4 {
        let name = format!("cloth_{frame:04}.obj");
        assert_eq!(file(&parts, &name), file(&whole, &name), "{name}");
    }
    assert_eq!(stats_without_timings(&parts), stats_without_timings(&whole));
    assert_eq!(file(&parts, "checkpoint.grip"), file(&whole, "checkpoint.grip"));

    // A checkpoint that does not fit the scene (its vertex count changed) is refused, and the
    // run's stats.csv stays as it was.
    let stats_before = file(&parts, "stats.csv");
    let good = file(&parts, "checkpoint.grip");
    let mut bad = good.clone();
    bad[24 + 8] ^= 1;
    std::fs::write(parts.join("checkpoint.grip"), &bad).unwrap();
    let out = grip(&[&demo[..], &["--frames", "4", "--resume", "-o", p]].concat());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another model"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(file(&parts, "stats.csv"), stats_before);
    assert!(!parts.join("stats.csv.partial").exists());
    std::fs::write(parts.join("checkpoint.grip"), &good).unwrap();
    // A new run in the directory removes the checkpoint of the earlier one.
    assert!(grip(&["demo", "cloth-fold", "--frames", "1", "-o", w]).status.success());
    assert!(!whole.join("checkpoint.grip").exists());

    let none = root.join("none");
    let refused = [
        (vec!["--frames", "4", "--resume", "--fps", "30", "-o", p], "frames per second"),
        (vec!["--frames", "3", "--resume", "-o", p], "past the run's last frame"),
        (vec!["--frames", "4", "--resume", "-o", none.to_str().unwrap()], "cannot resume"),
    ];
    for (args, message) in refused {
        let out = grip(&[&demo[..], &args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
