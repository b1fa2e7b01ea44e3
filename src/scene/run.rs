//! The frame driver of `grip demo` and `grip run`: build the solver, move the kinematic parts
//! (colliders, collider meshes, pin groups) to their place for the frame and advance 1/fps s,
//! write the outputs after every frame, tell a [`RunObserver`] (the command line's progress
//! bar and PNG encoder) how it goes, and sum up.

use super::description::{file_stem, Elements, Scene};
use super::output::Output;
use super::resume::{read_checkpoint, remove_checkpoint, write_checkpoint};
use crate::io::preview::RgbImage;
use crate::FailurePolicy;
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
    /// Substeps completed by a fallback (`FailurePolicy::Continue`) over the frames simulated.
    pub fallbacks: u64,
}

impl Summary {
    /// Mean Newton iterations per substep (0 when no substep was taken).
    pub fn mean_iterations(&self) -> f64 {
        self.newton_iterations as f64 / self.substeps.max(1) as f64
    }
}

/// What a run writes besides the OBJ frames and `stats.csv`, and whether it takes up an earlier
/// run ([`resume`](super::resume)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Write `checkpoint.grip` after every frame.
    pub checkpoint: bool,
    /// Start from the output directory's `checkpoint.grip` instead of frame 0.
    pub resume: bool,
    /// After the last frame, write the whole animation as one USD file, `<stem>.usda` with the
    /// stem of the scene's name (`super::usd::write_usd`, docs/usd.md).
    pub usd: bool,
}

/// Why a run stopped before its last frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFailure {
    /// The scene or the checkpoint to resume from was refused before the frame loop.
    Input,
    /// The solver did not converge on a frame (the message names it).
    Solver,
    /// An output file could not be written or read back.
    Output,
    /// The observer asked to stop ([`RunObserver::stop`]).
    Cancelled,
}

/// A failure of the frame loop: the message, and the summary of what was done before it.
#[derive(Clone, Debug)]
pub struct RunError {
    /// What went wrong, naming the frame when the solver failed.
    pub message: String,
    /// Progress before the failure (outputs up to `frames` were written).
    pub summary: Summary,
    /// What kind of failure it was.
    pub kind: RunFailure,
}

/// What a caller of [`simulate`] sees of the run as it goes, and where the previews go. Every
/// method has a default that does nothing.
pub trait RunObserver {
    /// The frame loop starts after `done` of `frames` frames (`done` > 0 when resumed).
    fn start(&mut self, done: usize, frames: usize) {
        let _ = (done, frames);
    }

    /// Frame `summary.frames` is simulated and written; `summary` counts the run so far.
    fn frame(&mut self, summary: &Summary) {
        let _ = summary;
    }

    /// A frame was completed with fallbacks (`FailurePolicy::Continue`); `message` says which
    /// object failed to converge, near which point, at which frame, and how the substeps fell
    /// back (`StepReport::fallback_message`). By default it goes to the log as a warning.
    fn fallback(&mut self, message: &str) {
        log::warn!("{message}");
    }

    /// A frame met a pinch (`FailurePolicy::Continue`): two collider surfaces closed on an
    /// object to less than the contact thickness; `message` names the object, the colliders,
    /// the place, the frame and what to do (`StepReport::pinch_message`). By default it goes to
    /// the log as a warning.
    fn pinch(&mut self, message: &str) {
        log::warn!("{message}");
    }

    /// Asked after every frame: true ends the run there, as [`RunFailure::Cancelled`] (the
    /// frame and its checkpoint are written).
    fn stop(&mut self) -> bool {
        false
    }

    /// The frame loop ended (every frame done, or a failure), before the previews.
    fn end(&mut self) {}

    /// Whether to draw the previews at all (false spares the drawing when none is stored).
    fn wants_previews(&self) -> bool {
        true
    }

    /// Stores the preview `image` as the file `path` (`preview_first.png` or `preview_last.png`
    /// in the output directory); the library encodes no images, so by default none is written.
    fn write_preview(&mut self, path: &Path, image: &RgbImage) -> Result<(), String> {
        let _ = (path, image);
        Ok(())
    }
}

/// A [`RunObserver`] that shows nothing and writes no previews.
pub struct Quiet;

impl RunObserver for Quiet {}

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
/// that succeeded). With `options` the run writes a checkpoint after every frame and/or starts
/// after the frame of the checkpoint in `out` (`resume.rs`), and writes the USD file at the end;
/// `Summary::frames` counts the frames reached, those of the earlier run included. `observer`
/// follows the frames, may stop the run, and stores the previews.
pub fn simulate(
    scene: &Scene,
    out: &Path,
    options: RunOptions,
    observer: &mut dyn RunObserver,
) -> Result<Summary, RunError> {
    let started = Instant::now();
    let mut summary = Summary::default();
    let fail =
        |message: String, summary: &Summary| RunError { message, summary: summary.clone(), kind: RunFailure::Input };
    scene.validate().map_err(|m| fail(m, &summary))?;
    let mut built = scene.build_solver().map_err(|m| fail(m, &summary))?;
    let names = unique_names(scene);
    let (first, mut output) = if options.resume {
        let (frame, state) = read_checkpoint(out, scene.fps, scene.frames).map_err(|m| fail(m, &summary))?;
        // The output first, from the solver still at frame 0 (the first preview's state); its
        // stats.csv replaces the old one only once the state is restored.
        let mut output = Output::resume(out, &built, &names, frame).map_err(|m| fail(m, &summary))?;
        let restored = built.solver.restore(&state).map_err(|e| format!("cannot resume: {e}"));
        if let Err(m) = restored.and_then(|_| output.track_current(&built.solver)) {
            output.abandon();
            return Err(fail(m, &summary));
        }
        output.commit().map_err(|m| RunError { kind: RunFailure::Output, ..fail(m, &summary) })?;
        summary.frames = frame;
        (frame + 1, output)
    } else {
        // A checkpoint of an earlier run in this directory no longer matches its frames.
        remove_checkpoint(out).map_err(|m| fail(m, &summary))?;
        let output_failed = |m: String, summary: &Summary| RunError { kind: RunFailure::Output, ..fail(m, summary) };
        let mut output = Output::create(out, &built, &names).map_err(|m| output_failed(m, &summary))?;
        output.write_frame(0, &built.solver, None).map_err(|m| output_failed(m, &summary))?;
        (1, output)
    };
    let g = scene.params.gravity;
    let up = if g.iter().any(|x| *x != 0.0) { g.map(|x| -x) } else { [0.0, 0.0, 1.0] };

    observer.start(first - 1, scene.frames);
    let mut error = None;
    for frame in first..=scene.frames {
        if let Err(m) = built.prepare_frame(frame) {
            error = Some((m, RunFailure::Input));
            break;
        }
        if let Err(e) = built.solver.advance(1.0 / scene.fps) {
            let r = built.solver.report();
            summary.substeps += r.substeps as u64;
            summary.newton_iterations += r.newton_iterations as u64;
            let hint = match (&e, scene.params.failure_policy) {
                (crate::Error::NotConverged(_), FailurePolicy::Strict) => {
                    " (with failure_policy = \"continue\" the run goes on past such a substep)"
                }
                _ => "",
            };
            error = Some((format!("solver failed at frame {frame}: {e}{hint}"), RunFailure::Solver));
            break;
        }
        let (solver, report) = (&built.solver, *built.solver.report());
        summary.frames = frame;
        summary.substeps += report.substeps as u64;
        summary.newton_iterations += report.newton_iterations as u64;
        summary.fallbacks += report.fallbacks() as u64;
        let object_name = |id: u32| match built.objects.iter().position(|&o| o == id) {
            Some(i) => names[i].clone(),
            None => format!("object {id}"),
        };
        if let Some(message) = report.fallback_message(&format!("at frame {frame}"), object_name) {
            observer.fallback(&message);
        }
        // Objects by their file-name stem, analytic colliders by their scene name.
        let any_name = |id: u32| match built.colliders.iter().position(|&c| c == id) {
            Some(i) => scene.colliders[i].name.clone(),
            None => object_name(id),
        };
        let thickness = scene.params.contact_thickness;
        if let Some(message) = report.pinch_message(&format!("at frame {frame}"), thickness, any_name) {
            observer.pinch(&message);
        }
        let written = output.write_frame(frame, solver, Some(&report));
        let written = written.and_then(|_| match options.checkpoint {
            true => write_checkpoint(out, frame, scene.fps, solver),
            false => Ok(()),
        });
        if let Err(m) = written {
            error = Some((format!("frame {frame}: {m}"), RunFailure::Output));
            break;
        }
        observer.frame(&summary);
        if frame < scene.frames && observer.stop() {
            error = Some((format!("cancelled after frame {frame}"), RunFailure::Cancelled));
            break;
        }
    }
    observer.end();
    let mut finished = match error {
        Some(e) => Err(e),
        None => Ok(()),
    };
    if finished.is_ok() && options.usd {
        let usd = super::usd::write_usd(out, scene, &names, summary.frames);
        finished = usd.map(|_| ()).map_err(|m| (m, RunFailure::Output));
    }
    if observer.wants_previews() {
        let previews = output.write_previews(up, &mut |path, image| observer.write_preview(path, image));
        if let (Ok(()), Err(m)) = (&finished, previews) {
            finished = Err((m, RunFailure::Output));
        }
    }
    summary.seconds = started.elapsed().as_secs_f64();
    finished.map(|_| summary.clone()).map_err(|(message, kind)| RunError { message, summary, kind })
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
