//! `grip bench`: times the built-in scenes without writing output and prints one row per scene
//! (wall-clock time per phase, Newton work, peak memory). The numbers go into BENCHMARKS.md;
//! tests never assert them.

use super::demo;
use super::scene::Scene;
use crate::GripStepReport;
use std::time::Instant;

/// Totals of one benchmarked scene.
#[derive(Clone, Debug, Default)]
pub struct BenchRow {
    /// Scene name.
    pub name: String,
    /// Degrees of freedom (3 per vertex).
    pub dofs: usize,
    /// Frames simulated.
    pub frames: usize,
    /// Substeps taken.
    pub substeps: u64,
    /// Newton iterations over all substeps.
    pub newton_iterations: u64,
    /// Wall-clock seconds of the frame loop (solver setup excluded).
    pub seconds: f64,
    /// Seconds assembling Jacobians.
    pub assembly: f64,
    /// Seconds in LU factorizations (symbolic analysis included).
    pub factorization: f64,
    /// Seconds in triangular solves.
    pub solve: f64,
    /// Seconds evaluating residuals.
    pub residual: f64,
}

impl BenchRow {
    fn add(&mut self, r: &GripStepReport) {
        self.substeps += r.substeps as u64;
        self.newton_iterations += r.newton_iterations as u64;
        self.assembly += r.seconds_assembly;
        self.factorization += r.seconds_factorization;
        self.solve += r.seconds_solve;
        self.residual += r.seconds_residual;
    }

    /// Milliseconds per Newton iteration (0 when there was none).
    pub fn ms_per_iteration(&self) -> f64 {
        1e3 * self.seconds / self.newton_iterations.max(1) as f64
    }
}

/// Simulates `scene` for `frames` frames and returns its timings.
pub fn bench_scene(scene: &Scene, frames: usize) -> Result<BenchRow, String> {
    scene.validate()?;
    let mut built = scene.build_solver()?;
    let dofs = 3 * built.solver.model().vertex_count();
    let mut row = BenchRow { name: scene.name.clone(), dofs, frames, ..Default::default() };
    let started = Instant::now();
    for frame in 1..=frames {
        built.advance_frame(frame).map_err(|m| format!("{}: {m}", scene.name))?;
        row.add(built.solver.report());
    }
    row.seconds = started.elapsed().as_secs_f64();
    Ok(row)
}

/// Peak resident memory of this process [MiB] (`VmHWM`), where the OS reports it.
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Column header of the table `run` prints.
pub(crate) const BENCH_HEADER: &str =
    "scene            dofs frames substeps newton  it/sub   total_s  ms/it  assembly_s  lu_s  solve_s  residual_s";

fn format_row(r: &BenchRow) -> String {
    format!(
        "{:<14} {:>6} {:>6} {:>8} {:>6} {:>7.2} {:>9.3} {:>6.2} {:>11.3} {:>5.3} {:>8.3} {:>11.3}",
        r.name,
        r.dofs,
        r.frames,
        r.substeps,
        r.newton_iterations,
        r.newton_iterations as f64 / r.substeps.max(1) as f64,
        r.seconds,
        r.ms_per_iteration(),
        r.assembly,
        r.factorization,
        r.solve,
        r.residual
    )
}

/// Benchmarks the named demos (all when `names` is empty) for `frames` frames each (the demo's
/// own count when `None`), printing the table to stdout. Returns the exit code.
pub fn run(names: &[String], frames: Option<usize>) -> i32 {
    let all: Vec<String> = demo::DEMOS.iter().map(|d| d.0.to_string()).collect();
    let names = if names.is_empty() { &all } else { names };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("grip {} bench ({cores} cores available, worker_count as in each scene)", env!("CARGO_PKG_VERSION"));
    println!("{BENCH_HEADER}");
    for name in names {
        let row = demo::scene(name).and_then(|s| bench_scene(&s, frames.unwrap_or(s.frames)));
        match row {
            Ok(r) => println!("{}", format_row(&r)),
            Err(m) => {
                eprintln!("grip: error: {m}");
                return 1;
            }
        }
    }
    if let Some(mib) = peak_memory_mib() {
        println!("peak resident memory: {mib:.1} MiB");
    }
    0
}
