//! The frame loop shared by `grip demo` and `grip run`: build the solver, move the kinematic
//! parts (colliders, collider meshes, pin groups) to their place for the frame and advance
//! 1/fps s, write the outputs after every frame, show progress, print a summary.

use super::output::Output;
use super::resume::{read_checkpoint, remove_checkpoint, write_checkpoint, Resumable};
use super::scene::{file_stem, Elements, Scene};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;
use std::time::Instant;

/// What a finished (or failed) simulation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Frames simulated successfully (frame 0 excluded).
    pub frames: usize,
    /// Wall-clock seconds, setup and output included.
    pub seconds: f64,
    /// Substeps taken.
    pub substeps: u64,
    /// Newton iterations over all substeps.
    pub newton_iterations: u64,
}

impl Summary {
    /// Mean Newton iterations per substep (0 when no substep was taken).
    pub fn mean_iterations(&self) -> f64 {
        self.newton_iterations as f64 / self.substeps.max(1) as f64
    }
}

/// A failure of the frame loop: the message, and the summary of what was done before it.
#[derive(Clone, Debug)]
pub struct RunError {
    /// What went wrong, naming the frame when the solver failed.
    pub message: String,
    /// Progress before the failure (outputs up to `frames` were written).
    pub summary: Summary,
}

fn progress_bar(frames: usize) -> ProgressBar {
    // Drawn on stderr only when it is a terminal.
    let bar = ProgressBar::with_draw_target(Some(frames as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{pos:>4}/{len} frames {elapsed}<{eta} {msg} {wide_bar:.cyan/blue}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("=> "));
    bar
}

/// Object names as unique file-name stems: a repeated name gets `_2`, `_3`, … appended.
pub fn unique_names(scene: &Scene) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(scene.objects.len());
    for o in &scene.objects {
        let base = file_stem(&o.name);
        let mut name = base.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        names.push(name);
    }
    names
}

/// Simulates `scene` into `out`: frame 0 is the initial state, then `scene.frames` frames of
/// 1/fps s each. Outputs written before a failure are kept (the previews show the last frame
/// that succeeded). With `resumable` the run writes a checkpoint after every frame and/or starts
/// after the frame of the checkpoint in `out` (`resume.rs`); `Summary::frames` counts the frames
/// reached, those of the earlier run included.
pub fn simulate(scene: &Scene, out: &Path, resumable: Resumable) -> Result<Summary, RunError> {
    let started = Instant::now();
    let mut summary = Summary::default();
    let fail = |message: String, summary: &Summary| RunError { message, summary: summary.clone() };
    scene.validate().map_err(|m| fail(m, &summary))?;
    let mut built = scene.build_solver().map_err(|m| fail(m, &summary))?;
    let names = unique_names(scene);
    let (first, mut output) = if resumable.resume {
        let (frame, state) = read_checkpoint(out, scene.fps, scene.frames).map_err(|m| fail(m, &summary))?;
        // The output first, from the solver still at frame 0 (the first preview's state); its
        // stats.csv replaces the old one only once the state is restored.
        let mut output = Output::resume(out, &built, &names, frame).map_err(|m| fail(m, &summary))?;
        let restored = built.solver.restore(&state).map_err(|e| format!("cannot resume: {e}"));
        if let Err(m) = restored.and_then(|_| output.track_current(&built.solver)) {
            output.abandon();
            return Err(fail(m, &summary));
        }
        output.commit().map_err(|m| fail(m, &summary))?;
        summary.frames = frame;
        (frame + 1, output)
    } else {
        // A checkpoint of an earlier run in this directory no longer matches its frames.
        remove_checkpoint(out).map_err(|m| fail(m, &summary))?;
        let mut output = Output::create(out, &built, &names).map_err(|m| fail(m, &summary))?;
        output.write_frame(0, &built.solver, None).map_err(|m| fail(m, &summary))?;
        (1, output)
    };
    let g = scene.params.gravity;
    let up = if g.iter().any(|x| *x != 0.0) { g.map(|x| -x) } else { [0.0, 0.0, 1.0] };

    let bar = progress_bar(scene.frames);
    bar.set_position(first as u64 - 1);
    let mut error = None;
    for frame in first..=scene.frames {
        if let Err(m) = built.prepare_frame(frame) {
            error = Some(m);
            break;
        }
        if let Err(e) = built.solver.advance(1.0 / scene.fps) {
            let r = built.solver.report();
            summary.substeps += r.substeps as u64;
            summary.newton_iterations += r.newton_iterations as u64;
            error = Some(format!("solver failed at frame {frame}: {e}"));
            break;
        }
        let (solver, report) = (&built.solver, *built.solver.report());
        summary.frames = frame;
        summary.substeps += report.substeps as u64;
        summary.newton_iterations += report.newton_iterations as u64;
        let written = output.write_frame(frame, solver, Some(&report));
        let written = written.and_then(|_| match resumable.checkpoint {
            true => write_checkpoint(out, frame, scene.fps, solver),
            false => Ok(()),
        });
        if let Err(m) = written {
            error = Some(format!("frame {frame}: {m}"));
            break;
        }
        bar.set_message(format!("{:.1} Newton it/step", summary.mean_iterations()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let previews = output.write_previews(up);
    summary.seconds = started.elapsed().as_secs_f64();
    match (error, previews) {
        (Some(m), _) => Err(fail(m, &summary)),
        (None, Err(m)) => Err(fail(m, &summary)),
        (None, Ok(())) => Ok(summary),
    }
}

/// One line describing the scene's objects: name, kind, vertices and elements.
pub fn describe(scene: &Scene) -> String {
    let objects: Vec<String> = scene
        .objects
        .iter()
        .map(|o| {
            let (kind, count, unit) = match &o.elements {
                Elements::Tets(t) => ("solid", t.len() / 4, "tets"),
                Elements::Triangles(t) => ("shell", t.len() / 3, "triangles"),
                Elements::ColliderMesh(t) => ("collider mesh", t.len() / 3, "triangles"),
            };
            format!("{} ({kind}, {} vertices, {count} {unit})", o.name, o.positions.len() / 3)
        })
        .collect();
    let colliders = match scene.colliders.len() {
        0 => String::new(),
        n => format!(", {n} analytic collider{}", if n == 1 { "" } else { "s" }),
    };
    format!("scene {}: {}{colliders}", scene.name, objects.join(", "))
}

/// Runs `scene` into `out` and prints a line describing the scene, then the one-line summary
/// (stdout) or the error (stderr). Returns the process exit code: 0 on success, 1 on failure.
pub fn run_and_report(scene: &Scene, out: &Path, resumable: Resumable) -> i32 {
    println!("grip: {}", describe(scene));
    let line = |s: &Summary| {
        format!(
            "{} frames in {:.2} s, {:.2} Newton iterations per substep ({} substeps), output in {}",
            s.frames,
            s.seconds,
            s.mean_iterations(),
            s.substeps,
            out.display()
        )
    };
    match simulate(scene, out, resumable) {
        Ok(s) => {
            println!("grip: {}", line(&s));
            0
        }
        Err(e) => {
            eprintln!("grip: error: {}", e.message);
            if e.summary.frames > 0 {
                eprintln!("grip: kept {}", line(&e.summary));
            }
            1
        }
    }
}
