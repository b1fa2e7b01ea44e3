//! The tube cloth bend benchmarks of issue 5: `grip bench --tube-table` (both resolutions, μ 0.2
//! and 0.8, direct and iterative, beside the paper's Table 1) and `grip bench --scaling` (time
//! per Newton iteration against degrees of freedom over four resolutions, with the fitted
//! exponent). Each run is a child process of this executable, so that its peak memory is its own.

use super::bench::{format_row, BenchRow, BENCH_HEADER};
use std::process::{Command, Stdio};

/// The paper's Table 1 (12-core Threadripper) and grip's targets for one run: (resolution, μ,
/// paper s/frame, paper peak memory, target s/frame).
const TABLE: [(&str, f64, f64, &str, f64); 4] = [
    ("low", 0.2, 4.81, "1.84 GB", 1.0),
    ("low", 0.8, 12.7, "", 2.5),
    ("high", 0.2, 8.59, "830 MB", 3.0),
    ("high", 0.8, 51.6, "", 12.0),
];

/// Runs `grip bench tube-cloth-bend` with `args` in a child process and parses its row.
fn child_row(args: &[String]) -> Result<BenchRow, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let mut command = Command::new(exe);
    command.arg("bench").arg("tube-cloth-bend").arg("--row-only").args(args);
    let out = command.stderr(Stdio::inherit()).output().map_err(|e| format!("cannot run the benchmark: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("`grip bench tube-cloth-bend {}` failed ({})", args.join(" "), out.status));
    }
    text.lines().find_map(BenchRow::from_tsv).ok_or_else(|| format!("no result row in: {text}"))
}

fn args(res: &str, mu: f64, solver: &str, frames: usize, threads: Option<u32>) -> Vec<String> {
    let mut a = vec![
        "--res".into(),
        res.into(),
        "--mu".into(),
        mu.to_string(),
        "--linear-solver".into(),
        solver.into(),
        "--frames".into(),
        frames.to_string(),
    ];
    if let Some(t) = threads {
        a.extend(["--threads".into(), t.to_string()]);
    }
    a
}

/// `--tube-table`: the runs of issue 5's table for `solvers` (names) and `resolutions`, `frames`
/// frames each; prints every row as it finishes, then the Markdown table. Returns the exit code.
pub fn table(resolutions: &[String], solvers: &[String], frames: usize, threads: Option<u32>) -> i32 {
    println!("{BENCH_HEADER}");
    let mut lines = Vec::new();
    for &(res, mu, paper, paper_memory, target) in TABLE.iter().filter(|t| resolutions.iter().any(|r| r == t.0)) {
        for solver in solvers {
            match child_row(&args(res, mu, solver, frames, threads)) {
                Ok(r) => {
                    println!("{}  [{res}, mu {mu}]", format_row(&r));
                    lines.push(format!(
                        "| {res}, μ = {mu} | {solver} | {paper} s{} | ≤ {target} s | **{:.2} s** | {:.1} | {:.0} | {:.0} MiB | {:.0} / {:.0} / {:.0} / {:.0} % |",
                        if paper_memory.is_empty() { String::new() } else { format!(", {paper_memory}") },
                        r.seconds_per_frame(),
                        r.newton_iterations as f64 / r.frames as f64,
                        r.linear_iterations as f64 / r.frames as f64,
                        r.peak_mib,
                        100.0 * r.assembly / r.seconds,
                        100.0 * (r.factorization + r.solve) / r.seconds,
                        100.0 * r.contact_search / r.seconds,
                        100.0 * r.residual / r.seconds,
                    ));
                }
                Err(m) => {
                    eprintln!("grip: error: {m}");
                    lines.push(format!(
                        "| {res}, μ = {mu} | {solver} | {paper} s | ≤ {target} s | failed: {m} | | | | |"
                    ));
                }
            }
        }
    }
    println!("\n| tube cloth bend | linear solver | paper (12 cores) | target (2 cores) | grip s/frame | Newton it/frame | linear it/frame | peak RSS | assembly / linear / contact search / residual |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for l in &lines {
        println!("{l}");
    }
    0
}

/// Least-squares slope of log y against log x.
pub fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|(x, y)| (x.ln(), y.ln())).collect();
    let n = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / n, logs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    sxy / sxx
}

/// `--scaling`: the bend at four resolutions (tiny, low, medium, high), μ `mu`, `solver`,
/// `frames` frames each; prints time per Newton iteration against degrees of freedom and the
/// fitted exponent. Returns the exit code.
pub fn scaling(solver: &str, mu: f64, frames: usize, threads: Option<u32>) -> i32 {
    println!("{BENCH_HEADER}");
    let mut points = Vec::new();
    for res in ["tiny", "low", "medium", "high"] {
        match child_row(&args(res, mu, solver, frames, threads)) {
            Ok(r) => {
                println!("{}  [{res}]", format_row(&r));
                points.push((r.dofs as f64, r.ms_per_iteration()));
            }
            Err(m) => {
                eprintln!("grip: error: {m}");
                return 1;
            }
        }
    }
    println!(
        "time per Newton iteration ∝ dofs^{:.2} (least squares over {} resolutions, {solver})",
        log_log_slope(&points),
        points.len()
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_of_a_power_law() {
        let pts: Vec<(f64, f64)> = [1e3, 4e3, 2e4, 9e4].iter().map(|&x: &f64| (x, 3.0 * x.powf(1.15))).collect();
        assert!((log_log_slope(&pts) - 1.15).abs() < 1e-12);
    }
}
