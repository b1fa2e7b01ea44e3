//! `grip damping`: the damping curves of Ascher et al. 2022 (Fig. 6) as one command. Runs the
//! soft beam of [`crate::damping_beam`] with every integrator and step size, measures each
//! run's numerical damping ([`crate::damping_fit`]) and writes the samples and the measurements
//! as CSV, the potential energy over time as a PNG plot, and the Markdown report DAMPING.md
//! ([`crate::damping_report`]). A run the solver fails is reported, not fatal.

use crate::damping_beam::{run_beam, static_equilibrium};
use crate::damping_fit::measure;
use crate::damping_report::{markdown, samples_csv, summary_csv, Case, ReportContext};
use crate::plot::{Legend, LinePlot, Series};
use crate::png_file::write_png;
use grip::model::params::Integrator;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Every integrator with its short name (also the `--methods` names, case-insensitive).
///
/// cbindgen:ignore
pub const METHODS: [(Integrator, &str); 10] = [
    (Integrator::BackwardEuler, "BE"),
    (Integrator::Trapezoidal, "TR"),
    (Integrator::Bdf2, "BDF2"),
    (Integrator::TrBdf2, "TR-BDF2"),
    (Integrator::Sdirk2, "SDIRK2"),
    (Integrator::SemiImplicit, "SI"),
    (Integrator::Newmark, "Newmark"),
    (Integrator::GeneralizedAlpha, "gen-alpha"),
    (Integrator::ExponentialEuler, "ERE"),
    (Integrator::Siere, "SIERE"),
];
/// Step sizes of the full run (s).
///
/// cbindgen:ignore
pub const STEPS: [f64; 3] = [0.04, 0.02, 0.01];
/// Simulated seconds of the full run: seven first periods.
pub const DURATION: f64 = 4.0;
/// The one step size of `--quick` (s), also the plotted one.
pub const QUICK_STEP: f64 = 0.01;
/// Simulated seconds of `--quick`: nearly four first periods, 1 s inside.
pub const QUICK_DURATION: f64 = 2.0;
/// Line colours of the plot, one per method in [`METHODS`] order.
const COLORS: [[u8; 3]; 10] = [
    [200, 40, 40],
    [40, 90, 200],
    [230, 140, 30],
    [40, 160, 70],
    [140, 60, 180],
    [120, 120, 120],
    [0, 170, 170],
    [200, 80, 160],
    [120, 90, 40],
    [20, 20, 20],
];

/// What `grip damping` runs and where it writes.
#[derive(Clone, Debug)]
pub struct DampingOptions {
    /// Only [`QUICK_STEP`] for [`QUICK_DURATION`].
    pub quick: bool,
    /// The integrators (names of [`METHODS`]); empty: all.
    pub methods: Vec<String>,
    /// Directory of damping.csv, damping_summary.csv, and (without `report`) damping.png and
    /// DAMPING.md.
    pub out: PathBuf,
    /// Write DAMPING.md into the current directory (the repository's root) and the plot as
    /// docs/damping.png.
    pub report: bool,
}

/// The integrators named in `names` (case-insensitive; empty: all), in [`METHODS`] order.
pub fn select_methods(names: &[String]) -> Result<Vec<(Integrator, &'static str)>, String> {
    if let Some(bad) = names.iter().find(|n| !METHODS.iter().any(|m| m.1.eq_ignore_ascii_case(n))) {
        let known: Vec<&str> = METHODS.iter().map(|m| m.1).collect();
        return Err(format!("unknown method {bad:?}; the methods are {}", known.join(", ")));
    }
    Ok(METHODS.into_iter().filter(|m| names.is_empty() || names.iter().any(|n| m.1.eq_ignore_ascii_case(n))).collect())
}

/// The plot of potential energy (J) over time (s) of the cases at step `h`, one line each.
pub fn plot(cases: &[Case], h: f64) -> grip::io::preview::RgbImage {
    let series = cases
        .iter()
        .filter(|c| c.h == h)
        .map(|c| {
            let i = METHODS.iter().position(|m| m.1 == c.method).unwrap_or(0);
            Series {
                label: c.method,
                points: c.run.t.iter().copied().zip(c.run.pe.iter().copied()).collect(),
                color: COLORS[i % COLORS.len()],
                markers: false,
            }
        })
        .collect();
    let title = format!("Soft beam: potential energy, h = {h} s");
    LinePlot { title: &title, x_label: "t (s)", y_label: "potential energy (J)", series, legend: Legend::Right }
        .draw(960, 540)
}

/// Writes `text` to `path`, creating its directory; the error names the file.
fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs every (method, h) case, prints the table's rows as they finish (stderr), then writes
/// the outputs. Returns an error only when nothing can be measured or written.
fn damping(options: &DampingOptions) -> Result<String, String> {
    let started = Instant::now();
    let machine = crate::bench_report::Machine::read();
    let methods = select_methods(&options.methods)?;
    let (steps, duration): (&[f64], f64) =
        if options.quick { (&[QUICK_STEP], QUICK_DURATION) } else { (&STEPS, DURATION) };
    eprintln!("grip damping: static equilibrium");
    let equilibrium = static_equilibrium().map_err(|m| format!("static equilibrium: {m}"))?;
    let mut cases = Vec::new();
    for &(integrator, method) in &methods {
        for &h in steps {
            let run = run_beam(integrator, h, duration, 0);
            let decay = measure(&run.t, &run.pe, &run.mid_z, equilibrium.0, equilibrium.1);
            let case = Case { method, h, run, decay };
            let shown = match (&case.run.failure, &case.decay) {
                (None, Ok(d)) => format!("λ = {:.4} 1/s, period {:.4} s", d.lambda, d.period),
                _ => case.note(),
            };
            eprintln!(
                "grip damping: {method}, h = {h} s: {shown}, {:.2} Newton it/step",
                case.run.iterations_per_step()
            );
            cases.push(case);
        }
    }
    let samples = options.out.join("damping.csv");
    write(&samples, &samples_csv(&cases))?;
    write(&options.out.join("damping_summary.csv"), &summary_csv(&cases))?;
    let (report, image, link) = if options.report {
        (PathBuf::from("DAMPING.md"), PathBuf::from("docs/damping.png"), "docs/damping.png")
    } else {
        (options.out.join("DAMPING.md"), options.out.join("damping.png"), "damping.png")
    };
    let plot_step = if steps.contains(&QUICK_STEP) { QUICK_STEP } else { steps[0] };
    if let Some(dir) = image.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_png(&image, &plot(&cases, plot_step))?;
    let command = format!(
        "cargo run --release -- damping{}{}{}",
        if options.report { " --report" } else { "" },
        if options.quick { " --quick" } else { "" },
        if options.methods.is_empty() { String::new() } else { format!(" --methods {}", options.methods.join(",")) }
    );
    let ctx = ReportContext {
        command: &command,
        duration,
        equilibrium,
        plot_step,
        plot: link,
        samples: &samples.display().to_string(),
        seconds: started.elapsed().as_secs_f64(),
        machine: &format!("{} ({} cores), {}", machine.cpu, machine.cores, machine.build),
    };
    let text = markdown(&cases, &ctx);
    write(&report, &text)?;
    eprintln!("grip damping: wrote {}, {}, {}", samples.display(), image.display(), report.display());
    Ok(text)
}

/// `grip damping`: prints the report and writes the outputs; returns the exit code (1 when the
/// equilibrium cannot be found or a file cannot be written, 2 for an unknown method).
pub fn run(options: &DampingOptions) -> i32 {
    if let Err(m) = select_methods(&options.methods) {
        eprintln!("grip: error: {m}");
        return 2;
    }
    match damping(options) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(m) => {
            eprintln!("grip: error: {m}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_picked_by_name_in_table_order() {
        let names = |v: &[&str]| select_methods(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&[]).unwrap().len(), 10);
        let picked = names(&["tr", "BE"]).unwrap();
        assert_eq!(picked, vec![(Integrator::BackwardEuler, "BE"), (Integrator::Trapezoidal, "TR")]);
        assert!(names(&["RK4"]).unwrap_err().contains("unknown method \"RK4\""));
    }
}
