//! `grip bench --report`: runs every benchmark, each in a child process of this executable (so
//! that its peak memory is its own), and writes BENCHMARKS.md and `benches/results.csv`:
//! the tube cloth bend at both resolutions and μ beside the paper's Table 1, the three linear
//! solvers side by side, the time per Newton iteration against degrees of freedom with its
//! fitted exponent, the other built-in scenes, the authors' own tube-cloth meshes, and the
//! collider meshes beside their analytic twins.
//! The tables are formatted in `bench_tables`.

use super::bench::{format_row, BenchRow, BENCH_HEADER};
use super::bench_csv::csv;
use super::bench_tables::{markdown, Entry, Section};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The scene file of the authors' tube-cloth meshes, relative to the repository's root.
pub(crate) const AUTHORS_SCENE: &str = "examples/scenes/softy-tube-cloth/scene.toml";

/// The "tried and not adopted" list the report ends with, relative to the repository's root.
const NOT_ADOPTED: &str = "benches/not-adopted.md";

/// Frames of the tube cloth bend runs (the whole 1 s bend at 24 fps).
const TUBE_FRAMES: usize = 48;
/// Frames of the linear-solver comparison (the first half second of the bend).
const SOLVER_FRAMES: usize = 12;
/// Frames per resolution of the scaling fit.
const SCALING_FRAMES: usize = 4;

/// The other built-in scenes and their frames (`None`: the scene's own count). The twisted
/// cylinder takes about two minutes a frame on 2 cores, so only its first frames are timed.
const SCENES: [(&str, Option<usize>); 10] = [
    ("hanging-cloth", None),
    ("hanging-bar", None),
    ("incline", None),
    ("pinch", None),
    ("ball-squish", None),
    ("tennis-ball-drop", None),
    ("ball-in-box", None),
    ("soft-beam", None),
    ("cloth-fold", None),
    ("twisted-cylinder", Some(4)),
];

/// The collider-mesh demos and their analytic twins, each at its own frame count, and the
/// sleeves on skinned limb meshes.
const COLLIDER_SCENES: [&str; 7] = [
    "cloth-on-proxy",
    "cloth-on-cylinder",
    "sphere-and-floor",
    "sphere-and-floor-analytic",
    "dense-collider",
    "sleeve-on-limb-mesh",
    "elbow-sleeve",
];

/// One child run: the table it belongs to, its label there and its `grip bench` arguments.
pub(crate) struct Run {
    pub section: Section,
    pub label: String,
    args: Vec<String>,
}

impl Run {
    fn new(section: Section, label: String, scene: &str, options: &[(&str, String)], frames: Option<usize>) -> Self {
        let mut args = vec![scene.to_string()];
        for (flag, value) in options {
            args.push(format!("--{flag}"));
            args.push(value.clone());
        }
        if let Some(n) = frames {
            args.extend(["--frames".to_string(), n.to_string()]);
        }
        Self { section, label, args }
    }

    /// The command line a user types to repeat this run alone.
    pub fn command(&self) -> String {
        format!("grip bench {}", self.args.join(" "))
    }
}

/// Every run of the report; `cap` limits every run's frames (a quick check of the report).
pub(crate) fn plan(cap: Option<usize>) -> Vec<Run> {
    let frames = |n: usize| Some(cap.map_or(n, |c| c.min(n)));
    let mut runs = Vec::new();
    // Low resolution at the five μ of `grip slip-vs-mu`, high at the paper's two.
    for (res, mus) in [("low", &["0", "0.1", "0.2", "0.4", "0.8"][..]), ("high", &["0.2", "0.8"][..])] {
        for &mu in mus {
            let options = [("res", res.to_string()), ("mu", mu.to_string()), ("linear-solver", "iterative".into())];
            runs.push(Run::new(
                Section::Tube,
                format!("{res}, μ = {mu}"),
                "tube-cloth-bend",
                &options,
                frames(TUBE_FRAMES),
            ));
        }
    }
    for solver in ["direct", "iterative", "matrix-free"] {
        let options = [("res", "low".to_string()), ("mu", "0.2".to_string()), ("linear-solver", solver.to_string())];
        runs.push(Run::new(Section::Solvers, solver.to_string(), "tube-cloth-bend", &options, frames(SOLVER_FRAMES)));
    }
    for res in ["tiny", "low", "medium", "high"] {
        let options = [("res", res.to_string()), ("mu", "0.2".to_string()), ("linear-solver", "iterative".into())];
        runs.push(Run::new(Section::Scaling, res.to_string(), "tube-cloth-bend", &options, frames(SCALING_FRAMES)));
    }
    for (name, n) in SCENES {
        runs.push(Run::new(Section::Scenes, name.to_string(), name, &[], n.map_or(cap, frames)));
    }
    runs.push(Run::new(Section::Authors, "softy tube cloth".into(), AUTHORS_SCENE, &[], cap));
    for name in COLLIDER_SCENES {
        runs.push(Run::new(Section::Colliders, name.to_string(), name, &[], cap));
    }
    runs
}

/// Runs `grip bench ARGS --row-only` in a child process; the error is the child's last
/// `grip: error:` line.
fn child_row(args: &[String]) -> Result<BenchRow, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let out = Command::new(exe)
        .arg("bench")
        .args(args)
        .arg("--row-only")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the benchmark: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() {
        return stdout.lines().find_map(BenchRow::from_tsv).ok_or_else(|| format!("no result row in: {stdout}"));
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("grip: error: "))
        .map_or_else(|| format!("exited with {}", out.status), str::to_string))
}

/// What the report says of the machine and the run, read at the start of the run.
pub(crate) struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub memory_gib: f64,
    pub os: String,
    pub build: String,
    pub date: String,
    pub load_start: String,
}

impl Machine {
    pub(crate) fn read() -> Self {
        let file = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let field = |text: &str, key: &str| {
            text.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string())
        };
        let cpuinfo = file("/proc/cpuinfo");
        let memory_kib: f64 = field(&file("/proc/meminfo"), "MemTotal")
            .and_then(|v| v.split_whitespace().next().and_then(|n| n.parse().ok()))
            .unwrap_or(0.0);
        let os = format!("{} {}", file("/proc/sys/kernel/ostype").trim(), file("/proc/sys/kernel/osrelease").trim());
        let git = |args: &[&str]| {
            Command::new("git")
                .args(args)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
        Self {
            cpu: field(&cpuinfo, "model name").unwrap_or_else(|| std::env::consts::ARCH.to_string()),
            cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            memory_gib: memory_kib / (1024.0 * 1024.0),
            os: if os.trim().is_empty() { std::env::consts::OS.to_string() } else { os },
            build: format!(
                "grip {} at commit {commit}{}, {}, release profile",
                env!("CARGO_PKG_VERSION"),
                if dirty { " with uncommitted changes" } else { "" },
                env!("GRIP_RUSTC_VERSION")
            ),
            date: utc_date(std::time::SystemTime::now()),
            load_start: load_average(),
        }
    }
}

/// The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them ("unknown" elsewhere).
pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// `YYYY-MM-DD` (UTC) of `t` (the civil-from-days algorithm of the proleptic Gregorian calendar).
pub(crate) fn utc_date(t: std::time::SystemTime) -> String {
    let days = t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `grip bench --report`: runs `plan` (every run's frames capped at `cap`), printing each
/// row as it finishes, then writes `dir/BENCHMARKS.md` and `dir/benches/results.csv`.
/// Must run from the repository's root (it reads `AUTHORS_SCENE`). Returns the exit code.
pub fn run(dir: &Path, cap: Option<usize>) -> i32 {
    if !Path::new(AUTHORS_SCENE).is_file() {
        eprintln!("grip: error: {AUTHORS_SCENE} not found: run `grip bench --report` from the repository's root");
        return 1;
    }
    let machine = Machine::read();
    let started = Instant::now();
    println!("{BENCH_HEADER}");
    let mut entries = Vec::new();
    for run in plan(cap) {
        eprintln!("grip bench: {} ...", run.command());
        let result = child_row(&run.args);
        match &result {
            Ok(row) => println!("{}  [{}]", format_row(row), run.label),
            Err(m) => println!("{:<16} failed: {m}", run.label),
        }
        entries.push(Entry { run, result });
    }
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let not_adopted = std::fs::read_to_string(NOT_ADOPTED).unwrap_or_default();
    let report = markdown(&machine, &entries, cap, minutes, &load_average(), &not_adopted);
    let csv = csv(&entries);
    let csv_path = dir.join("benches").join("results.csv");
    let written = std::fs::create_dir_all(dir.join("benches"))
        .and_then(|_| std::fs::write(dir.join("BENCHMARKS.md"), report))
        .and_then(|_| std::fs::write(&csv_path, csv));
    match written {
        Ok(()) => {
            eprintln!("grip bench: wrote {} and {}", dir.join("BENCHMARKS.md").display(), csv_path.display());
            0
        }
        Err(e) => {
            eprintln!("grip: error: cannot write the report into {}: {e}", dir.display());
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_known_days() {
        let at = |s: u64| utc_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_795_651_200), "2026-11-26");
    }

    #[test]
    fn the_plan_covers_every_section_and_caps_frames() {
        let runs = plan(Some(2));
        for section in [Section::Tube, Section::Solvers, Section::Scaling, Section::Scenes, Section::Authors] {
            assert!(runs.iter().any(|r| r.section == section));
        }
        assert!(runs.iter().all(|r| r.command().ends_with("--frames 2")), "every run is capped");
        let full = plan(None);
        let tube = full.iter().find(|r| r.label == "low, μ = 0.2").unwrap();
        assert_eq!(
            tube.command(),
            "grip bench tube-cloth-bend --res low --mu 0.2 --linear-solver iterative --frames 48"
        );
        let hanging = full.iter().find(|r| r.label == "hanging-cloth").unwrap();
        assert_eq!(hanging.command(), "grip bench hanging-cloth", "the scene's own frame count");
        let tube: Vec<&str> = full.iter().filter(|r| r.section == Section::Tube).map(|r| r.label.as_str()).collect();
        assert_eq!(
            tube,
            [
                "low, μ = 0",
                "low, μ = 0.1",
                "low, μ = 0.2",
                "low, μ = 0.4",
                "low, μ = 0.8",
                "high, μ = 0.2",
                "high, μ = 0.8"
            ]
        );
    }
}
