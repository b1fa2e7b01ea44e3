//! The `grip` command line: `grip demo` (built-in scenes) and `grip run` (TOML scene files).
//!
//! Both simulate frame by frame and write, into the output directory,
//! `<object>_<frame:04>.obj` per object per frame (frame 0 is the initial state), `stats.csv`
//! (one row per frame, frame 0 included) and `preview_first.png` / `preview_last.png`.
//! `grip bench` times the demos without writing output.
//! Exit codes: 0 success, 1 simulation or input error, 2 usage error.

pub mod bench;
pub mod demo;
pub mod output;
pub mod run;
pub mod scene;
pub mod scene_file;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Cloth and soft-body simulation with fully implicit frictional contact.
#[derive(Parser, Debug)]
#[command(name = "grip", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Summary of the scene-file keys, shown by `grip run --help`.
const SCENE_HELP: &str = "\
Scene file keys (SI units; unknown keys are errors):
  [solver]    time_step, gravity, max_newton_iterations, max_line_search_steps,
              residual_tolerance, velocity_tolerance, linear_solver, integrator, worker_count
  [output]    frames, fps
  [[object]]  kind = \"shell\" | \"solid\", mesh = \"file.obj\" | \"file.vtk\", name,
              translate = [x, y, z], scale = s | [sx, sy, sz],
              density, youngs_modulus, poisson_ratio, thickness, bending_stiffness,
              damping_alpha, damping_beta, membrane_model = \"neo-hookean\" | \"stvk\",
              pin = \"top\", pin_tolerance, pin_vertices = [i, ...], velocity = [x, y, z]
See examples/scenes/*.toml.";

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
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate a built-in scene (default: hanging-cloth)
    Demo {
        /// Demo name; see --list
        name: Option<String>,
        /// List the demos and exit
        #[arg(long)]
        list: bool,
        #[command(flatten)]
        options: FrameOptions,
    },
    /// Simulate a TOML scene file
    #[command(after_help = SCENE_HELP)]
    Run {
        /// The scene file; mesh paths in it are relative to it
        scene: PathBuf,
        #[command(flatten)]
        options: FrameOptions,
    },
    /// Time the built-in scenes (no output written) and print a table of phase timings
    Bench {
        /// Demo names [default: all]
        names: Vec<String>,
        /// Frames per scene [default: the scene's, 48]
        #[arg(long, short, value_name = "N")]
        frames: Option<usize>,
    },
}

/// Runs the command line of this process; returns the exit code.
pub fn main() -> i32 {
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
        Command::Demo { name, options, .. } => (demo::scene(name.as_deref().unwrap_or(demo::DEFAULT_DEMO)), options),
        Command::Run { scene, options } => (scene_file::load(&scene), options),
        Command::Bench { names, frames } => return bench::run(&names, frames),
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
    let out = options.out.unwrap_or_else(|| PathBuf::from("out").join(scene::file_stem(&scene.name)));
    run::run_and_report(&scene, &out)
}
