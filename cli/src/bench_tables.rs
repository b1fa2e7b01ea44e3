//! The text of BENCHMARKS.md from the runs of `grip bench --report`: one table per section, the
//! tube cloth bend beside the paper's Table 1. The raw numbers go to `benches/results.csv`
//! (`bench_csv.rs`).

use super::bench::BenchRow;
use super::bench_report::{Machine, Run, AUTHORS_SCENE};
use std::fmt::Write as _;

/// The table a run belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// The tube cloth bend, both resolutions and μ.
    Tube,
    /// The three linear solvers on the same frames.
    Solvers,
    /// Time per Newton iteration against degrees of freedom.
    Scaling,
    /// The other built-in scenes.
    Scenes,
    /// The authors' tube-cloth meshes.
    Authors,
    /// Collider meshes beside their analytic twins.
    Colliders,
}

impl Section {
    /// The section's name in `benches/results.csv`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Section::Tube => "tube",
            Section::Solvers => "solvers",
            Section::Scaling => "scaling",
            Section::Scenes => "scenes",
            Section::Authors => "authors",
            Section::Colliders => "colliders",
        }
    }
}

/// A run and what it gave.
pub(crate) struct Entry {
    pub run: Run,
    pub result: Result<BenchRow, String>,
}

/// The paper's Table 1 (AMD Threadripper 1920X, 12 cores): resolution and μ, then seconds per
/// frame and memory growth of "Iterative" and of "Direct" ("—": not reported), and the limb's
/// volume loss.
const PAPER: [[&str; 4]; 4] = [
    ["low, μ = 0.2", "4.81 s, 1.84 GB", "22.1 s, 6.51 GB", "0.962 %"],
    ["low, μ = 0.8", "12.7 s, 1.91 GB", "25.6 s, 7.09 GB", "0.962 %"],
    ["high, μ = 0.2", "8.59 s, 830 MB", "—", "2.55 %"],
    ["high, μ = 0.8", "51.6 s, 625 MB", "—", "2.57 %"],
];

/// Least-squares slope of log y against log x.
pub fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|(x, y)| (x.ln(), y.ln())).collect();
    let n = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / n, logs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    sxy / sxx
}

/// "—" for NaN, else `x` with `digits` decimals and `unit`.
fn or_dash(x: f64, digits: usize, unit: &str) -> String {
    if x.is_nan() {
        "—".into()
    } else {
        format!("{x:.digits$}{unit}")
    }
}

/// A Markdown table: its header row, the separator, then `rows`, each padded with empty cells
/// to the header's width.
fn table(out: &mut String, header: &[&str], rows: Vec<Vec<String>>) {
    let line = |cells: &[String]| format!("| {} |", cells.join(" | "));
    let _ = writeln!(out, "{}", line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>()));
    let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
    for mut row in rows {
        row.resize(header.len(), String::new());
        let _ = writeln!(out, "{}", line(&row));
    }
}

/// The columns every timing table has after its label.
const TIMING: [&str; 8] =
    ["frames", "dofs", "s/frame", "Newton it/frame", "linear it/frame", "substeps", "ms/Newton it", "peak RSS"];

/// The cells of [`TIMING`] for a run that finished, or its failure in the first one.
fn timing_cells(result: &Result<BenchRow, String>) -> Vec<String> {
    let r = match result {
        Ok(r) => r,
        Err(m) => return vec![format!("failed: {}", m.replace('|', "/"))],
    };
    let per_frame = |n: u64| n as f64 / r.frames.max(1) as f64;
    vec![
        r.frames.to_string(),
        r.dofs.to_string(),
        format!("**{:.2}**", r.seconds_per_frame()),
        format!("{:.1}", per_frame(r.newton_iterations)),
        format!("{:.1}", per_frame(r.linear_iterations)),
        r.substeps.to_string(),
        format!("{:.0}", r.ms_per_iteration()),
        format!("{:.0} MiB", r.peak_mib),
    ]
}

/// The split of the frame loop's time: assembly / linear solve / contact search / residuals.
fn split(r: &BenchRow) -> String {
    let pct = |x: f64| 100.0 * x / r.seconds.max(f64::MIN_POSITIVE);
    format!(
        "{:.0} / {:.0} / {:.0} / {:.0} %",
        pct(r.assembly),
        pct(r.factorization + r.solve),
        pct(r.contact_search),
        pct(r.residual)
    )
}

/// The outcome of a scene at its last frame: volume change, slip and intersecting pairs, where
/// it has them.
fn outcome(r: &BenchRow) -> String {
    let mut parts = Vec::new();
    if !r.volume_change_pct.is_nan() {
        parts.push(format!("volume {:+.2} %", r.volume_change_pct));
    }
    if !r.slip.is_nan() {
        parts.push(format!("slip {:.1} mm", 1e3 * r.slip));
    }
    if !r.intersecting_pairs.is_nan() {
        parts.push(format!("{} intersecting pairs", r.intersecting_pairs));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

/// The tube cloth bend beside the paper's Table 1.
fn tube_table(out: &mut String, entries: &[&Entry]) {
    let mut header = vec!["run"];
    header.extend(TIMING);
    header.extend(["limb volume change", "sleeve slip", "paper: Iterative", "paper: Direct", "paper: volume loss"]);
    let rows = entries
        .iter()
        .map(|e| {
            let mut row = vec![e.run.label.clone()];
            row.extend(timing_cells(&e.result));
            if let Ok(r) = &e.result {
                row.extend([or_dash(r.volume_change_pct, 2, " %"), or_dash(1e3 * r.slip, 1, " mm")]);
            }
            // A failed run's cells stay empty up to the paper's columns.
            row.resize(3 + TIMING.len(), String::new());
            let paper = PAPER.iter().find(|p| p[0] == e.run.label).map_or(["—"; 3], |p| [p[1], p[2], p[3]]);
            row.extend(paper.map(str::to_string));
            row
        })
        .collect();
    table(out, &header, rows);
}

/// Rows of `entries`: label, timings, the split of the time, and the outcome when `with_outcome`.
fn timing_table(out: &mut String, first: &str, entries: &[&Entry], with_outcome: bool) {
    let mut header = vec![first];
    header.extend(TIMING);
    header.push("assembly / linear / contact / residual");
    if with_outcome {
        header.push("outcome");
    }
    let rows = entries
        .iter()
        .map(|e| {
            let mut row = vec![e.run.label.clone()];
            row.extend(timing_cells(&e.result));
            if let Ok(r) = &e.result {
                row.push(split(r));
                if with_outcome {
                    row.push(outcome(r));
                }
            }
            row
        })
        .collect();
    table(out, &header, rows);
}

/// BENCHMARKS.md for `entries`, run on `machine` in `minutes` (frames capped at `cap`), the load
/// average being `load_end` at the end; `not_adopted` (Markdown) ends the report.
pub(crate) fn markdown(
    machine: &Machine,
    entries: &[Entry],
    cap: Option<usize>,
    minutes: f64,
    load_end: &str,
    not_adopted: &str,
) -> String {
    let of = |s: Section| entries.iter().filter(|e| e.run.section == s).collect::<Vec<_>>();
    let mut o = String::new();
    let command = match cap {
        Some(n) => format!("cargo run --release -- bench --report --frames {n}"),
        None => "cargo run --release -- bench --report".into(),
    };
    let _ = writeln!(o, "# Benchmarks\n");
    let _ = writeln!(
        o,
        "Written by `{command}` in {minutes:.0} min on the machine below; the raw numbers are in \
         `benches/results.csv`. Each row is one child process (`grip bench …`, given in the CSV), \
         so its peak memory is its own. Times are wall clock of the frame loop (setup excluded); \
         `worker_count = 0` (every core). Tests never assert timings.\n"
    );
    if let Some(n) = cap {
        let _ = writeln!(
            o,
            "**Every run was capped at {n} frame{}**: a check of the report, not a benchmark.\n",
            if n == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(o, "## Machine\n");
    let _ = writeln!(o, "| | |\n|---|---|");
    let _ = writeln!(o, "| CPU | {} ({} cores available) |", machine.cpu, machine.cores);
    let _ = writeln!(o, "| memory | {:.1} GiB |", machine.memory_gib);
    let _ = writeln!(o, "| OS | {} |", machine.os);
    let _ = writeln!(o, "| build | {} |", machine.build);
    let _ = writeln!(o, "| date | {} (UTC) |", machine.date);
    let _ =
        writeln!(o, "| load average (1, 5, 15 min) | {} at the start, {load_end} at the end |\n", machine.load_start);

    let _ = writeln!(o, "## Tube cloth bend\n");
    let _ = writeln!(
        o,
        "`grip demo tube-cloth-bend`: a fitted cloth sleeve (worn at 20 % hoop strain) on a soft limb \
         bent 90° in 1 s, 1/24 s steps, \
         inexact Newton (BiCGSTAB). Low: 5K tets and 3K triangles; high: 30K tets and 8K triangles, \
         as in the paper; low at the five μ of `grip slip-vs-mu`. Beside it the paper's Table 1 (AMD \
         Threadripper 1920X, 12 cores; its memory is Houdini's memory growth, ours the peak resident \
         set). The limb's volume change and the sleeve's mean slip on it are at the last frame.\n"
    );
    tube_table(&mut o, &of(Section::Tube));

    let _ = writeln!(o, "\n## Linear solvers\n");
    let _ = writeln!(
        o,
        "The low-resolution bend at μ = 0.2 with each Newton linear solver: sparse LU (`direct`), \
         BiCGSTAB on the assembled Jacobian (`iterative`), BiCGSTAB with Jacobian products by \
         forward-mode AD (`matrix-free`).\n"
    );
    timing_table(&mut o, "linear solver", &of(Section::Solvers), false);

    let _ = writeln!(o, "\n## Scaling\n");
    let scaling = of(Section::Scaling);
    let points: Vec<(f64, f64)> =
        scaling.iter().filter_map(|e| e.result.as_ref().ok()).map(|r| (r.dofs as f64, r.ms_per_iteration())).collect();
    let _ = writeln!(
        o,
        "The bend at four resolutions (μ = 0.2, iterative). Time per Newton iteration ∝ dofs^**{}** \
         (least squares over {} resolutions).\n",
        if points.len() >= 2 { format!("{:.2}", log_log_slope(&points)) } else { "—".into() },
        points.len()
    );
    timing_table(&mut o, "resolution", &scaling, false);

    let _ = writeln!(o, "\n## Other scenes\n");
    let _ = writeln!(
        o,
        "The other built-in scenes (`grip demo --list` describes them), with their outcome at the \
         last frame: the volume change of the first solid, the slip of the first slip pair, and \
         intersecting triangle pairs of shells. The twisted cylinder (200 frames, about two minutes \
         a frame) is timed over its first frames only.\n"
    );
    timing_table(&mut o, "scene", &of(Section::Scenes), true);

    let _ = writeln!(o, "\n## The authors' tube-cloth meshes\n");
    let _ = writeln!(
        o,
        "`grip run {AUTHORS_SCENE}`: the meshes of the paper's own code (`data/softy-tube/`), the \
         tube a fixed collider mesh of 392 triangles, the cloth a shell, μ = 0.15, 1/24 s steps.\n"
    );
    timing_table(&mut o, "scene", &of(Section::Authors), true);

    let _ = writeln!(o, "\n## Collider meshes\n");
    let _ = writeln!(
        o,
        "Cloths dropped on collider meshes met by exact distance (`collider_mesh_contact = \"exact\"`), \
         each beside the analytic collider of the same shape (`grip demo --list` describes them): a \
         low-poly octagonal proxy with fanned caps against a cylinder of its circumradius, a UV-sphere \
         mesh and a two-triangle floor against an analytic sphere and plane (10 substeps a frame), \
         a UV sphere of 101,760 triangles, where the contact search is the third share of the \
         split, the tube cloth bend's loose sleeve on its limb as a skinned collider mesh (low \
         resolution, μ = 0.2, fully implicit friction), and the Blender elbow test's jersey sleeve \
         across a skinned arm mesh bent 90° (μ = 0.4, fully implicit friction, 10 substeps a \
         frame).\n"
    );
    timing_table(&mut o, "scene", &of(Section::Colliders), false);
    if !not_adopted.is_empty() {
        let _ = write!(o, "\n{not_adopted}");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::super::bench_csv::csv;
    use super::super::bench_report::plan;
    use super::*;

    fn row(name: &str, dofs: usize) -> BenchRow {
        BenchRow {
            name: name.into(),
            solver: "iterative".into(),
            dofs,
            frames: 4,
            substeps: 5,
            newton_iterations: 40,
            linear_iterations: 100,
            seconds: 2.0 * dofs as f64 / 1000.0,
            assembly: 0.5,
            factorization: 0.25,
            solve: 0.25,
            residual: 0.1,
            contact_search: 0.05,
            peak_mib: 120.0,
            volume_change_pct: -0.5,
            slip: 0.0157,
            intersecting_pairs: 0.0,
        }
    }

    fn machine() -> Machine {
        Machine {
            cpu: "test CPU".into(),
            cores: 2,
            memory_gib: 23.4,
            os: "Linux".into(),
            build: "grip".into(),
            date: "2026-11-26".into(),
            load_start: "0.00 0.01 0.05".into(),
        }
    }

    #[test]
    fn slope_of_a_power_law() {
        let pts: Vec<(f64, f64)> = [1e3, 4e3, 2e4, 9e4].iter().map(|&x: &f64| (x, 3.0 * x.powf(1.15))).collect();
        assert!((log_log_slope(&pts) - 1.15).abs() < 1e-12);
    }

    #[test]
    fn every_table_row_has_its_header_width_and_failures_are_reported() {
        let entries: Vec<Entry> = plan(None)
            .into_iter()
            .enumerate()
            .map(|(i, run)| {
                let result = if run.label == "pinch" {
                    Err("pinch: solver failed at frame 8: Newton did not converge | 100 iterations".into())
                } else {
                    Ok(row(&run.label, 1000 * (i + 1)))
                };
                Entry { run, result }
            })
            .collect();
        let report = markdown(&machine(), &entries, None, 75.0, "1.50 1.20 1.00", "");
        let csv = csv(&entries);
        let mut width = None;
        for line in report.lines() {
            if line.starts_with('|') {
                let cells = line.matches('|').count();
                if line.starts_with("|---") || width.is_none() {
                    width = Some(cells);
                }
                assert_eq!(Some(cells), width, "{line}");
            } else {
                width = None;
            }
        }
        assert!(report.contains("| low, μ = 0.2 | 4 |"), "{report}");
        assert!(report.contains("4.81 s, 1.84 GB"));
        assert!(report.contains("failed: pinch: solver failed at frame 8: Newton did not converge / 100 iterations"));
        assert!(report.contains("slip 15.7 mm"));
        assert!(report.contains("test CPU (2 cores available)"));
        // Every run has one CSV line with as many fields as the header (quoted commas aside).
        let fields = |l: &str| l.split('"').step_by(2).map(|part| part.matches(',').count()).sum::<usize>() + 1;
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 1 + entries.len());
        assert!(lines.iter().all(|l| fields(l) == fields(lines[0])), "{csv}");
    }

    #[test]
    fn the_scaling_exponent_is_fitted_over_the_runs_that_finished() {
        let entries: Vec<Entry> = plan(None)
            .into_iter()
            .filter(|r| r.section == Section::Scaling)
            .map(|run| {
                let dofs = match run.label.as_str() {
                    "tiny" => 1000,
                    "low" => 4000,
                    "medium" => 16000,
                    _ => 64000,
                };
                let mut r = row(&run.label, dofs);
                // ms per Newton iteration ∝ dofs^1.25
                r.seconds = 1e-3 * r.newton_iterations as f64 * (dofs as f64).powf(1.25) / 1e3;
                Entry { run, result: Ok(r) }
            })
            .collect();
        let report = markdown(&machine(), &entries, Some(4), 1.0, "0 0 0", "");
        assert!(report.contains("dofs^**1.25** (least squares over 4 resolutions)"), "{report}");
        assert!(report.contains("capped at 4 frames"));
    }
}
