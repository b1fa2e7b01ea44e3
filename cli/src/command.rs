//! The arguments of the `grip` command (clap) and the dispatch to the subcommands.

use crate::{accuracy, bench, bench_report, damping, demo, demo_tube, diff, logger, report, slip_sweep};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand};
use grip::scene::{file as scene_file, run, Scene};
use std::path::PathBuf;

/// Cloth and soft-body simulation with fully implicit frictional contact.
#[derive(Parser, Debug)]
#[command(name = "grip", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The scene-file reference, docs/scene-file.md (the one place the keys are documented), shown
/// by `grip run --help`.
const SCENE_HELP: &str = include_str!("../../docs/scene-file.md");

/// Options shared by `demo` and `run`.
#[derive(Args, Debug)]
struct FrameOptions {
    /// Output directory [default: out/<scene name>]
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Number of frames to simulate after the initial frame 0 [default: the scene's, 48]
    #[arg(long, short, value_name = "N")]
    frames: Option<usize>,
    /// Output frames per second; each frame advances 1/F s [default: the scene's, 24]
    #[arg(long, value_name = "F")]
    fps: Option<f64>,
    /// Write the solver's state to <out>/checkpoint.grip after every frame
    #[arg(long)]
    checkpoint: bool,
    /// Go on from <out>/checkpoint.grip (same scene, frame rate and options) instead of frame
    /// 0, keeping the frames written so far; with --frames, the run's last frame
    #[arg(long)]
    resume: bool,
    /// Also write the animation as one USD file, <out>/<scene name>.usda (docs/usd.md)
    #[arg(long)]
    usd: bool,
    /// A substep that still fails after its last halving: fall back (lagged friction, no
    /// friction, Newton's best iterate), warn and go on (continue), or stop the run there
    /// (strict) [default: the scene's; continue for demos and scene files without the key]
    #[arg(long, value_name = "POLICY", value_parser = ["continue", "strict"])]
    failure_policy: Option<String>,
}

impl FrameOptions {
    /// The policy of `--failure-policy`.
    fn failure_policy(&self) -> Option<grip::FailurePolicy> {
        self.failure_policy.as_deref().map(|p| match p {
            "strict" => grip::FailurePolicy::Strict,
            _ => grip::FailurePolicy::Continue,
        })
    }
}

/// Options of the demos that take parameters; other demos refuse them.
#[derive(Args, Debug)]
struct ContactOptions {
    /// tube-cloth-bend, sleeve-on-limb-mesh: mesh resolution (low: ~5K tets, 2976 triangles;
    /// high: ~30K, 8000) [default: low]
    #[arg(long, value_name = "RES", value_parser = PossibleValuesParser::new([
        PossibleValue::new("low"),
        PossibleValue::new("high"),
        PossibleValue::new("tiny").hide(true),
        PossibleValue::new("medium").hide(true),
    ]))]
    res: Option<String>,
    /// incline: slope angle; elbow-sleeve: the elbow's bend (degrees) [default: 10 (incline), 90
    /// (elbow-sleeve)]
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    angle: Option<f64>,
    /// elbow-sleeve: half the width over which the arm's skinning weights blend about the elbow
    /// (m); ±5 cm folds the skin in the crook from 90°, the default from 135° [default: 0.12]
    #[arg(long, value_name = "M")]
    blend: Option<f64>,
    /// incline, pinch, tube-cloth-bend, sleeve-on-limb-mesh, elbow-sleeve: friction coefficient
    /// [default: 0.177 (incline), 0.5 (pinch), 0.2 (tube-cloth-bend, sleeve-on-limb-mesh), 0.4
    /// (elbow-sleeve)]
    #[arg(long, value_name = "MU")]
    mu: Option<f64>,
    /// incline: initial speed down the slope (m/s) [default: 0.1]
    #[arg(long, value_name = "M/S", allow_negative_numbers = true)]
    v0: Option<f64>,
    /// incline, pinch: solver time step (s) [default: 0.01]
    #[arg(long = "h", value_name = "S")]
    h: Option<f64>,
    /// incline, pinch, sleeve-on-limb-mesh, elbow-sleeve: friction coupling [default: implicit]
    #[arg(long, value_name = "MODE", value_parser = ["implicit", "lagged"])]
    coupling: Option<String>,
    /// tube-cloth-bend: the sleeve, cut 17 % under the limb's girth and stretched on (fitted), or
    /// 1 mm oversize (loose) [default: fitted]
    #[arg(long, value_name = "FIT", value_parser = ["fitted", "loose"])]
    sleeve: Option<String>,
}

/// The demo options of `contact` and `fps`.
fn demo_options(contact: &ContactOptions, fps: Option<f64>) -> demo::DemoOptions {
    demo::DemoOptions {
        angle_deg: contact.angle,
        blend: contact.blend,
        mu: contact.mu,
        v0: contact.v0,
        h: contact.h,
        coupling: contact.coupling.as_deref().map(|c| {
            if c == "lagged" {
                grip::contact::law::FrictionCoupling::Lagged
            } else {
                grip::contact::law::FrictionCoupling::Implicit
            }
        }),
        fps,
        resolution: contact.res.as_deref().and_then(demo_tube::Resolution::parse),
        sleeve: contact.sleeve.as_deref().and_then(demo_tube::SleeveFit::parse),
    }
}

/// Solver overrides shared by `demo`, `run` and `bench`.
#[derive(Args, Debug)]
struct SolverOptions {
    /// Linear solver of each Newton iteration: sparse LU, BiCGSTAB on the assembled Jacobian,
    /// or BiCGSTAB with matrix-free products by forward-mode AD [default: the scene's]
    #[arg(long, value_name = "SOLVER", value_parser = ["direct", "iterative", "matrix-free"])]
    linear_solver: Option<String>,
    /// Worker threads of the solver (0 = all cores) [default: the scene's]
    #[arg(long, value_name = "N")]
    threads: Option<u32>,
}

impl SolverOptions {
    /// The linear solver of `--linear-solver`.
    fn linear_solver_kind(&self) -> Option<grip::solve::linear_solver::LinearSolverKind> {
        self.linear_solver.as_deref().map(|s| match s {
            "direct" => grip::solve::linear_solver::LinearSolverKind::DirectLu,
            "iterative" => grip::solve::linear_solver::LinearSolverKind::Iterative,
            _ => grip::solve::linear_solver::LinearSolverKind::IterativeMatrixFree,
        })
    }

    /// Applies the overrides to `params`.
    fn apply(&self, params: &mut grip::SolverParams) {
        if let Some(l) = self.linear_solver_kind() {
            params.linear_solver = l;
        }
        if let Some(t) = self.threads {
            params.worker_count = t;
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate a built-in scene (default: tube-cloth-bend)
    Demo {
        /// Demo name; see --list
        name: Option<String>,
        /// List the demos and exit
        #[arg(long)]
        list: bool,
        /// Write the demo as DIR/scene.toml plus its meshes (for `grip run`) instead of
        /// simulating it
        #[arg(long, value_name = "DIR")]
        export: Option<PathBuf>,
        #[command(flatten)]
        options: FrameOptions,
        #[command(flatten)]
        contact: ContactOptions,
        #[command(flatten)]
        solver: SolverOptions,
    },
    /// Simulate a TOML scene file
    #[command(after_help = SCENE_HELP)]
    Run {
        /// The scene file; mesh paths in it are relative to it
        scene: PathBuf,
        /// Change a key of the scene file, e.g. --set solver.default_friction=0.4 or
        /// --set object.cloth.density=200 (an [[object]] by name or 1-based number); VALUE is
        /// TOML, or else a string; repeat for more keys
        #[arg(long = "set", value_name = "KEY=VALUE")]
        overrides: Vec<String>,
        #[command(flatten)]
        options: FrameOptions,
        #[command(flatten)]
        solver: SolverOptions,
    },
    /// Time built-in scenes or scene files (no output written) and print a table of phase
    /// timings; with --report, run every benchmark and write BENCHMARKS.md
    Bench {
        /// Demo names or scene files (.toml) [default: every demo]
        names: Vec<String>,
        /// Frames per scene [default: the scene's]; with --report, the most frames of any run
        #[arg(long, short, value_name = "N")]
        frames: Option<usize>,
        #[command(flatten)]
        contact: ContactOptions,
        #[command(flatten)]
        solver: SolverOptions,
        /// Run every benchmark (the tube cloth bend at both resolutions and μ 0.2 and 0.8, the
        /// linear solvers, the scaling fit, the other scenes, the authors' tube-cloth meshes),
        /// each in its own process, and write BENCHMARKS.md and benches/results.csv into --out;
        /// run it from the repository's root
        #[arg(long, conflicts_with = "names")]
        report: bool,
        /// Where --report writes BENCHMARKS.md and benches/results.csv
        #[arg(long, short, value_name = "DIR", default_value = ".", requires = "report")]
        out: PathBuf,
        /// Print only a tab-separated result row (used by --report)
        #[arg(long, hide = true)]
        row_only: bool,
    },
    /// Compare two runs' frames: per frame, the largest distance between a vertex's positions
    /// in the OBJ files both output directories hold
    Diff {
        /// Output directory of the first run
        a: PathBuf,
        /// Output directory of the second run
        b: PathBuf,
        /// Exit with status 1 when a common frame differs by more than this (m), or a frame
        /// file is in one run only (2 when the runs cannot be compared)
        #[arg(long, value_name = "M")]
        tolerance: Option<f64>,
    },
    /// Run the tube cloth bend at mu = 0, 0.1, 0.2, 0.4, 0.8 and write the sleeve's slip
    /// against mu: a table (CSV, Markdown), its plot and the last frames at mu 0.2 and 0.8
    /// side by side (PNG)
    SlipVsMu {
        /// Mesh resolution (low: ~5K tets, 2976 triangles; high: ~30K, 8000) [default: low]
        #[arg(long, value_name = "RES", value_parser = PossibleValuesParser::new([
            PossibleValue::new("low"),
            PossibleValue::new("high"),
            PossibleValue::new("tiny").hide(true),
        ]))]
        res: Option<String>,
        /// The sleeve: fitted (cut 17 % under the limb's girth) or loose (1 mm oversize)
        /// [default: fitted]
        #[arg(long, value_name = "FIT", value_parser = ["fitted", "loose"])]
        sleeve: Option<String>,
        /// Frames of each run [default: 48]
        #[arg(long, short, value_name = "N")]
        frames: Option<usize>,
        /// Output directory: a directory per run (mu-0, mu-0.1, ...) and the table and figures
        #[arg(long, short, value_name = "DIR", default_value = "out/slip-vs-mu")]
        out: PathBuf,
        /// Write the table and figures from the runs already in --out, without simulating
        #[arg(long)]
        figures_only: bool,
    },
    /// Compare friction experiments (block slide, sliding, sticking, conveyor, pinch) with their
    /// closed-form answers for both couplings and h = 0.01, 0.025, 0.05 s; write a Markdown report
    Accuracy {
        /// Where to write the report
        #[arg(long, short, value_name = "FILE", default_value = "ACCURACY.md")]
        out: PathBuf,
        /// Only h = 0.05 s (a quick check)
        #[arg(long)]
        quick: bool,
    },
    /// Run the soft beam of Ascher et al. 2022 (Fig. 6, clamped at both ends, sagging under
    /// gravity, no physical damping) with every integrator at h = 0.04, 0.02, 0.01 s for 4 s;
    /// write every sample (CSV), the potential energy over time (PNG) and each run's measured
    /// numerical damping (CSV and a Markdown report)
    Damping {
        /// Directory of damping.csv (every sample), damping_summary.csv and, without --report,
        /// damping.png and DAMPING.md
        #[arg(long, short, value_name = "DIR", default_value = "out/damping")]
        out: PathBuf,
        /// Write DAMPING.md into the current directory and its plot as docs/damping.png (run
        /// it from the repository's root)
        #[arg(long)]
        report: bool,
        /// Only h = 0.01 s for 2 s (a quick check)
        #[arg(long)]
        quick: bool,
        /// Integrators, comma-separated: BE, TR, BDF2, TR-BDF2, SDIRK2, SI, Newmark, gen-alpha,
        /// ERE, SIERE [default: all]
        #[arg(long, value_name = "NAMES", value_delimiter = ',')]
        methods: Vec<String>,
    },
}

/// `grip demo NAME --export DIR`: writes the scene (with `--frames`/`--fps`/`--failure-policy`
/// applied) as
/// `DIR/scene.toml` and its meshes; returns the exit code.
fn export_demo(scene: Result<Scene, String>, options: &FrameOptions, dir: &std::path::Path) -> i32 {
    if options.out.is_some() || options.checkpoint || options.resume || options.usd {
        eprintln!("grip: error: --export writes a scene file and simulates nothing: --out, --checkpoint, --resume and --usd do not apply");
        return 2;
    }
    let written = scene.and_then(|mut s| {
        s.frames = options.frames.unwrap_or(s.frames);
        s.fps = options.fps.unwrap_or(s.fps);
        s.params.failure_policy = options.failure_policy().unwrap_or(s.params.failure_policy);
        scene_file::export::export(&s, dir).map(|path| (path, run::describe(&s)))
    });
    match written {
        Ok((path, description)) => {
            println!("grip: {description}");
            println!("grip: wrote {} (run it with: grip run {})", path.display(), path.display());
            0
        }
        Err(m) => {
            eprintln!("grip: error: {m}");
            1
        }
    }
}

/// Runs the command line of this process; returns the exit code.
pub fn main() -> i32 {
    logger::install_from_env();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let (scene, options) = match cli.command {
        Command::Demo { list: true, .. } => {
            print!("{}", demo::list());
            return 0;
        }
        Command::Demo { name, options, contact, export, solver, .. } => {
            let demo_options = demo_options(&contact, options.fps);
            let scene = demo::scene_with(name.as_deref().unwrap_or(demo::DEFAULT_DEMO), &demo_options).map(|mut s| {
                solver.apply(&mut s.params);
                s
            });
            if let Some(dir) = export {
                return export_demo(scene, &options, &dir);
            }
            (scene, options)
        }
        Command::Run { scene, overrides, options, solver } => (
            scene_file::load_with_overrides(&scene, &overrides).map(|mut s| {
                solver.apply(&mut s.params);
                s
            }),
            options,
        ),
        Command::Bench { names, frames, contact, solver, report, out, row_only } => {
            if report {
                return bench_report::run(&out, frames);
            }
            let options = bench::BenchOptions {
                frames,
                demo: demo_options(&contact, None),
                linear_solver: solver.linear_solver_kind(),
                threads: solver.threads,
                row_only,
            };
            return bench::run(&names, &options);
        }
        Command::Accuracy { out, quick } => return accuracy::run(&out, quick),
        Command::Damping { out, report, quick, methods } => {
            return damping::run(&damping::DampingOptions { quick, methods, out, report })
        }
        Command::SlipVsMu { res, sleeve, frames, out, figures_only } => {
            return slip_sweep::run(&slip_sweep::SweepOptions {
                resolution: res.as_deref().and_then(demo_tube::Resolution::parse),
                sleeve: sleeve.as_deref().and_then(demo_tube::SleeveFit::parse),
                frames,
                out: Some(out),
                figures_only,
            })
        }
        Command::Diff { a, b, tolerance } => return diff::run(&a, &b, tolerance),
    };
    let mut scene = match scene {
        Ok(s) => s,
        Err(m) => {
            eprintln!("grip: error: {m}");
            return 1;
        }
    };
    scene.frames = options.frames.unwrap_or(scene.frames);
    scene.fps = options.fps.unwrap_or(scene.fps);
    scene.params.failure_policy = options.failure_policy().unwrap_or(scene.params.failure_policy);
    let out = options.out.unwrap_or_else(|| PathBuf::from("out").join(grip::scene::file_stem(&scene.name)));
    let run_options = run::RunOptions { checkpoint: options.checkpoint, resume: options.resume, usd: options.usd };
    report::run_and_report(&scene, &out, run_options)
}
