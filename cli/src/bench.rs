//! `grip bench`: times built-in scenes and scene files without writing output and prints one
//! row per scene (wall-clock time per phase, Newton and linear work, peak memory, and the
//! scene's physical outcome at its last frame). `grip bench --report` (in `bench_report`) runs
//! the whole set and writes BENCHMARKS.md; tests never assert timings.

use super::demo::{self, DemoOptions};
use grip::scene::description::Scene;
use grip::scene::metrics::Metrics;
use grip::scene::run::unique_names;
use grip::solve::linear_solver::LinearSolverKind;
use grip::StepReport;
use std::path::Path;
use std::time::Instant;

/// Totals of one benchmarked scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchRow {
    /// Scene name.
    pub name: String,
    /// Linear solver: "direct", "iterative" or "matrix-free".
    pub solver: String,
    /// Degrees of freedom (3 per vertex).
    pub dofs: usize,
    /// Frames simulated.
    pub frames: usize,
    /// Substeps taken.
    pub substeps: u64,
    /// Newton iterations over all substeps.
    pub newton_iterations: u64,
    /// Linear iterations (BiCGSTAB iterations, or one per LU solve).
    pub linear_iterations: u64,
    /// Wall-clock seconds of the frame loop (solver setup excluded).
    pub seconds: f64,
    /// Seconds assembling Jacobians.
    pub assembly: f64,
    /// Seconds factorizing (LU, or building the preconditioner).
    pub factorization: f64,
    /// Seconds in triangular solves or Krylov iterations.
    pub solve: f64,
    /// Seconds evaluating residuals (line search included).
    pub residual: f64,
    /// Seconds finding contact candidates.
    pub contact_search: f64,
    /// Peak resident memory of the run (MiB) (0 where the OS does not say).
    pub peak_mib: f64,
    /// Volume change of the scene's first solid at the last frame, in % of its rest volume
    /// (NaN without a solid).
    pub volume_change_pct: f64,
    /// Slip (m) of the scene's first `[[slip]]` pair at the last frame (NaN without one).
    pub slip: f64,
    /// Intersecting triangle pairs of shells (with themselves, each other, solids and collider
    /// meshes) at the last frame (NaN in scenes without a shell).
    pub intersecting_pairs: f64,
}

/// Number of tab-separated fields of [`BenchRow::to_tsv`].
const TSV_FIELDS: usize = 17;

impl BenchRow {
    fn add(&mut self, r: &StepReport) {
        self.substeps += r.substeps as u64;
        self.newton_iterations += r.newton_iterations as u64;
        self.linear_iterations += r.linear_iterations as u64;
        self.assembly += r.seconds_assembly;
        self.factorization += r.seconds_factorization;
        self.solve += r.seconds_solve;
        self.residual += r.seconds_residual;
        self.contact_search += r.seconds_contact_search;
    }

    /// Milliseconds per Newton iteration (0 when there was none).
    pub fn ms_per_iteration(&self) -> f64 {
        1e3 * self.seconds / self.newton_iterations.max(1) as f64
    }

    /// Seconds per frame.
    pub fn seconds_per_frame(&self) -> f64 {
        self.seconds / self.frames.max(1) as f64
    }

    /// `per`-frame average of a total.
    fn per_frame(&self, total: u64) -> f64 {
        total as f64 / self.frames.max(1) as f64
    }

    /// One tab-separated line (the child processes of `--report` hand rows back this way).
    pub fn to_tsv(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}\t{:e}",
            self.name,
            self.solver,
            self.dofs,
            self.frames,
            self.substeps,
            self.newton_iterations,
            self.linear_iterations,
            self.seconds,
            self.assembly,
            self.factorization,
            self.solve,
            self.residual,
            self.contact_search,
            self.peak_mib,
            self.volume_change_pct,
            self.slip,
            self.intersecting_pairs
        )
    }

    /// Parses [`BenchRow::to_tsv`].
    pub fn from_tsv(line: &str) -> Option<Self> {
        let f: Vec<&str> = line.trim_end().split('\t').collect();
        if f.len() != TSV_FIELDS {
            return None;
        }
        let x = |i: usize| f[i].parse::<f64>().ok();
        let n = |i: usize| f[i].parse::<u64>().ok();
        Some(Self {
            name: f[0].to_string(),
            solver: f[1].to_string(),
            dofs: n(2)? as usize,
            frames: n(3)? as usize,
            substeps: n(4)?,
            newton_iterations: n(5)?,
            linear_iterations: n(6)?,
            seconds: x(7)?,
            assembly: x(8)?,
            factorization: x(9)?,
            solve: x(10)?,
            residual: x(11)?,
            contact_search: x(12)?,
            peak_mib: x(13)?,
            volume_change_pct: x(14)?,
            slip: x(15)?,
            intersecting_pairs: x(16)?,
        })
    }
}

/// The name of linear solver `kind` in the tables and on the command line.
pub fn solver_name(kind: LinearSolverKind) -> &'static str {
    match kind {
        LinearSolverKind::DirectLu => "direct",
        LinearSolverKind::Iterative => "iterative",
        LinearSolverKind::IterativeMatrixFree => "matrix-free",
    }
}

/// Simulates `scene` for `frames` frames and returns its timings and its outcome at the last
/// frame; the peak memory is that of this run alone where the OS lets the peak be reset.
/// The error names the frame that failed.
pub fn bench_scene(scene: &Scene, frames: usize) -> Result<BenchRow, String> {
    scene.validate()?;
    reset_peak_memory();
    let mut built = scene.build_solver()?;
    let metrics = Metrics::new(&built, &unique_names(scene))?;
    let dofs = 3 * built.solver.model().vertex_count();
    let solver = solver_name(scene.params.linear_solver).to_string();
    let mut row = BenchRow { name: scene.name.clone(), solver, dofs, frames, ..Default::default() };
    let started = Instant::now();
    for frame in 1..=frames {
        built.advance_frame(frame).map_err(|m| format!("{}: {m}", scene.name))?;
        row.add(built.solver.report());
        log::info!("{}: frame {frame}/{frames}, {:.1} s", scene.name, started.elapsed().as_secs_f64());
    }
    row.seconds = started.elapsed().as_secs_f64();
    row.peak_mib = peak_memory_mib().unwrap_or(0.0);
    let values = metrics.values(&built.solver)?;
    let column = |matches: &dyn Fn(&str) -> bool| {
        metrics.header().iter().zip(&values).find(|(h, _)| matches(h)).map_or(f64::NAN, |(_, v)| *v)
    };
    row.volume_change_pct = column(&|h| h.ends_with("_volume_change_pct"));
    row.slip = column(&|h| h.contains("_slip_on_"));
    let [shells, others] = [column(&|h| h == "intersecting_pairs"), column(&|h| h == "intersecting_pairs_with_solids")];
    row.intersecting_pairs = if others.is_nan() { shells } else { shells + others };
    Ok(row)
}

/// Peak resident memory of this process (MiB) (`VmHWM`), where the OS reports it.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Resets the peak resident memory to the current one (Linux: `5` to `/proc/self/clear_refs`).
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Column header of the table `run` prints.
pub(crate) const BENCH_HEADER: &str =
    "scene            solver        dofs frames substeps newton/fr linear/fr   s/frame  \
     ms/it  assembly_s  linear_s  contact_s  residual_s  peak_MiB";

/// The scene `name`: a built-in demo with `options`, or a scene file when `name` ends in `.toml`.
pub fn scene_named(name: &str, options: &DemoOptions) -> Result<Scene, String> {
    if name.ends_with(".toml") {
        grip::scene::file::load(Path::new(name))
    } else {
        demo::scene_with(name, options)
    }
}

/// One row under [`BENCH_HEADER`].
pub(crate) fn format_row(r: &BenchRow) -> String {
    format!(
        "{:<16} {:<11} {:>6} {:>6} {:>8} {:>9.1} {:>9.1} {:>9.3} {:>6.1} {:>11.2} {:>9.2} {:>10.2} {:>11.2} {:>9.1}",
        r.name,
        r.solver,
        r.dofs,
        r.frames,
        r.substeps,
        r.per_frame(r.newton_iterations),
        r.per_frame(r.linear_iterations),
        r.seconds_per_frame(),
        r.ms_per_iteration(),
        r.assembly,
        r.factorization + r.solve,
        r.contact_search,
        r.residual,
        r.peak_mib
    )
}

/// What `grip bench` was asked for.
#[derive(Clone, Debug, Default)]
pub struct BenchOptions {
    /// Frames per scene (the scene's own count when `None`).
    pub frames: Option<usize>,
    /// Demo options (`--res`, `--mu`).
    pub demo: DemoOptions,
    /// Linear solver overriding the scene's.
    pub linear_solver: Option<LinearSolverKind>,
    /// Worker threads overriding the scene's (0 = all cores).
    pub threads: Option<u32>,
    /// Print only the tab-separated row (for the child processes of `--report`).
    pub row_only: bool,
}

/// Benchmarks the named demos or scene files (every demo when `names` is empty), printing the
/// table to stdout. Returns the exit code.
pub fn run(names: &[String], options: &BenchOptions) -> i32 {
    let all: Vec<String> = demo::DEMOS.iter().map(|d| d.0.to_string()).collect();
    let names = if names.is_empty() { &all } else { names };
    if !options.row_only {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        println!("grip {} bench ({cores} cores available)", env!("CARGO_PKG_VERSION"));
        println!("{BENCH_HEADER}");
    }
    for name in names {
        let row = scene_named(name, &options.demo).and_then(|mut s| {
            if let Some(l) = options.linear_solver {
                s.params.linear_solver = l;
            }
            if let Some(t) = options.threads {
                s.params.worker_count = t;
            }
            bench_scene(&s, options.frames.unwrap_or(s.frames))
        });
        match row {
            Ok(r) if options.row_only => println!("{}", r.to_tsv()),
            Ok(r) => println!("{}", format_row(&r)),
            Err(m) => {
                eprintln!("grip: error: {m}");
                return 1;
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_tsv() {
        let r = BenchRow {
            name: "tube-cloth-bend".into(),
            solver: "iterative".into(),
            dofs: 12345,
            frames: 48,
            substeps: 50,
            newton_iterations: 900,
            linear_iterations: 12000,
            seconds: 123.456,
            assembly: 40.5,
            factorization: 10.25,
            solve: 30.125,
            residual: 20.0625,
            contact_search: 3.5,
            peak_mib: 210.75,
            volume_change_pct: -0.5,
            slip: 0.0156,
            intersecting_pairs: f64::NAN,
        };
        let back = BenchRow::from_tsv(&r.to_tsv()).expect("a row");
        assert!(back.intersecting_pairs.is_nan());
        assert_eq!(BenchRow { intersecting_pairs: 0.0, ..back }, BenchRow { intersecting_pairs: 0.0, ..r.clone() });
        assert!(BenchRow::from_tsv("too\tfew").is_none());
        assert!((r.seconds_per_frame() - 123.456 / 48.0).abs() < 1e-12);
        assert!(format_row(&r).contains("iterative"));
    }
}
