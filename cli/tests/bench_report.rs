//! `grip bench --report` end to end, every run capped at one frame: it writes BENCHMARKS.md
//! with every section and one CSV line per run, reports a failing scene by its frame instead of
//! stopping, and refuses to run outside the repository's root. Timings are not checked.

mod cli_support;

use cli_support::{assert_fails_with, assert_ok, TempDir};
use std::process::Command;

#[test]
fn the_report_has_every_section_and_one_csv_line_per_run() {
    let dir = TempDir::new("bench_report");
    let o = Command::new(env!("CARGO_BIN_EXE_grip"))
        .args(["bench", "--report", "--frames", "1", "--out", dir.0.to_str().expect("utf-8 path")])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run grip");
    assert_ok(&o);
    let report = std::fs::read_to_string(dir.0.join("BENCHMARKS.md")).expect("BENCHMARKS.md");
    for heading in [
        "## Machine",
        "## Tube cloth bend",
        "## Linear solvers",
        "## Scaling",
        "## Other scenes",
        "## The authors' tube-cloth meshes",
        "## Collider meshes",
        "## Tried and not adopted",
    ] {
        assert!(report.contains(heading), "no {heading}: {report}");
    }
    assert!(report.contains("capped at 1 frame"), "a capped report says so: {report}");
    assert!(report.contains("| low, μ = 0 | 1 | 8442 |"), "{report}");
    assert!(report.contains("| low, μ = 0.8 | 1 | 8442 |"), "{report}");
    assert!(report.contains("| high, μ = 0.2 | 1 | 31758 |"), "{report}");
    assert!(report.contains("4.81 s, 1.84 GB"), "the paper's Table 1 beside: {report}");
    assert!(report.contains("Time per Newton iteration ∝ dofs^**"), "{report}");
    let csv = std::fs::read_to_string(dir.0.join("benches/results.csv")).expect("results.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("section,label,command,"), "{csv}");
    // 7 tube runs (5 μ at low resolution, 2 at high), 3 linear solvers, 4 resolutions, 10 other
    // scenes, the authors' meshes, and 7 collider-mesh scenes.
    assert_eq!(lines.len(), 1 + 7 + 3 + 4 + 10 + 1 + 7, "{csv}");
    // The authors' meshes run (the tube met by exact distance).
    let authors = lines.iter().find(|l| l.starts_with("authors,")).expect("authors row");
    assert!(authors.contains("softy-tube-cloth/scene.toml --frames 1"), "{authors}");
    assert!(authors.contains(",1,") && !authors.contains("failed"), "{authors}");
    let colliders: Vec<&&str> = lines.iter().filter(|l| l.starts_with("colliders,")).collect();
    assert_eq!(colliders.len(), 7, "{csv}");
    assert!(colliders.iter().all(|l| !l.contains("failed")), "{csv}");
}

#[test]
fn the_report_runs_from_the_repository_root_only() {
    let dir = TempDir::new("bench_report_elsewhere");
    let o = Command::new(env!("CARGO_BIN_EXE_grip"))
        .args(["bench", "--report", "--frames", "1"])
        .current_dir(&dir.0)
        .output()
        .expect("run grip");
    assert_fails_with(&o, &["softy-tube-cloth/scene.toml", "repository's root"]);
    assert!(!dir.0.join("BENCHMARKS.md").exists(), "nothing is written");
}

#[test]
fn a_scene_file_is_benchmarked_by_its_path() {
    // 13 × 13 vertices.
    let scene = concat!(concat!(env!("CARGO_MANIFEST_DIR"), "/.."), "/examples/scenes/hanging-cloth.toml");
    let o = cli_support::grip(&["bench", scene, "--frames", "1", "--threads", "1"]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.lines().any(|l| l.starts_with("hanging-cloth ") && l.contains(" 507 ")), "{out}");
}
