//! Bakes from C (feature `scene`): `grip_scene_run` runs a scene file into an output directory
//! exactly as `grip run` does ([`crate::scene::run::simulate`]: the same OBJ frames and
//! `stats.csv`, bit for bit, checkpoints, resume and the USD file), without the PNG previews,
//! which the library does not encode. Hosts and batch schedulers (`grip.batch` on Dask) bake
//! through it.

use super::guard::{self, call};
use super::GripStatus;
use crate::error::{Error, Result};
use crate::io::preview::RgbImage;
use crate::scene::run::{simulate, RunFailure, RunObserver, RunOptions, Summary};
use std::ffi::{c_char, c_void};
use std::path::Path;
use std::time::Instant;

/// `grip_scene_run` flag: write `<out>/checkpoint.grip` after every frame (`grip run --checkpoint`).
pub const GRIP_RUN_CHECKPOINT: u32 = 1;
/// `grip_scene_run` flag: go on from `<out>/checkpoint.grip` instead of frame 0, keeping the
/// frames written so far (`grip run --resume`).
pub const GRIP_RUN_RESUME: u32 = 2;
/// `grip_scene_run` flag: after the last frame, write the animation as `<out>/<scene name>.usda`
/// (`grip run --usd`, docs/usd.md).
pub const GRIP_RUN_USD: u32 = 4;

/// Every flag `grip_scene_run` knows.
const KNOWN_FLAGS: u32 = GRIP_RUN_CHECKPOINT | GRIP_RUN_RESUME | GRIP_RUN_USD;

/// What `grip_scene_run` did, written on success and on failure (then: up to the failure).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GripRunSummary {
    /// The last frame simulated and written (those of a resumed run included; 0: none).
    pub frames: usize,
    /// Wall-clock seconds of the run: building the solver, the frames and writing their outputs
    /// (reading the scene file before is not counted).
    pub seconds: f64,
    /// Substeps taken by this call.
    pub substeps: usize,
    /// Newton iterations of this call, over all substeps.
    pub newton_iterations: usize,
}

impl From<&Summary> for GripRunSummary {
    fn from(s: &Summary) -> Self {
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Self {
            frames: s.frames,
            seconds: s.seconds,
            substeps: count(s.substeps),
            newton_iterations: count(s.newton_iterations),
        }
    }
}

/// Frame callback of `grip_scene_run`: called after frame `frame` (of `last_frame`) is written,
/// with the wall-clock seconds that frame took. Return nonzero to stop the run there: the call
/// then returns `GRIP_STATUS_CANCELLED`, keeping that frame on disk (and its checkpoint, with
/// `GRIP_RUN_CHECKPOINT`). After the last frame there is nothing left to stop and the value is
/// ignored.
pub type GripFrameFn =
    Option<unsafe extern "C" fn(user_data: *mut c_void, frame: usize, last_frame: usize, seconds: f64) -> u32>;

/// The C callback as a [`RunObserver`] writing no previews.
struct CallbackObserver {
    callback: GripFrameFn,
    user_data: *mut c_void,
    last_frame: usize,
    frame_started: Instant,
    stop: bool,
}

impl RunObserver for CallbackObserver {
    fn start(&mut self, _done: usize, frames: usize) {
        self.last_frame = frames;
        self.frame_started = Instant::now();
    }

    fn frame(&mut self, summary: &Summary) {
        let seconds = self.frame_started.elapsed().as_secs_f64();
        if let Some(callback) = self.callback {
            // SAFETY: the host gave this function and its user data for the duration of the call.
            self.stop = unsafe { callback(self.user_data, summary.frames, self.last_frame, seconds) } != 0;
        }
        self.frame_started = Instant::now();
    }

    fn stop(&mut self) -> bool {
        self.stop
    }

    fn wants_previews(&self) -> bool {
        false
    }

    fn write_preview(&mut self, _path: &Path, _image: &RgbImage) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// The `count` override strings at `overrides` (`KEY=VALUE`, UTF-8).
///
/// # Safety
/// `overrides` must point to `count` NUL-terminated strings (or be NULL with `count` 0).
pub(crate) unsafe fn override_strings<'a>(overrides: *const *const c_char, count: usize) -> Result<Vec<&'a str>> {
    let pointers = guard::slice(overrides, count, "overrides")?;
    let strings = pointers.iter().enumerate().map(|(i, p)| guard::string(*p, &format!("overrides[{i}]")));
    strings.collect()
}

/// Simulates the scene file at `path` with `overrides` (`override_count` strings `KEY=VALUE`,
/// docs/scene-file.md#overrides; NULL when 0) into the directory `out_dir` (created if needed), as
/// `grip run path --set … --out out_dir` does: frame 0 then frames 1 to `last_frame` (0: the
/// scene's `[output] frames`), an OBJ per object per frame and `stats.csv`; `flags` is a sum of
/// `GRIP_RUN_*` (checkpoint after every frame, resume from the directory's checkpoint, write
/// the USD file). No PNG previews are written. `on_frame` (may be NULL) is told of every frame
/// and may stop the run. `*out_summary` (may be NULL) receives what was done, also on failure.
///
/// Frames written before a failure stay on disk; with `GRIP_RUN_CHECKPOINT` the same call with
/// `GRIP_RUN_RESUME` added goes on from the last one, bit for bit. Status: INVALID_ARGUMENT for a
/// bad file, override, flag or checkpoint; NOT_CONVERGED when the solver fails on a frame (the
/// message names it); CANCELLED when `on_frame` stopped the run; INVALID_ARGUMENT when an output
/// cannot be written.
///
/// # Safety
/// `path` and `out_dir` must be NUL-terminated; `overrides` must point to `override_count`
/// NUL-terminated strings; `out_summary` must be NULL or point to writable storage.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn grip_scene_run(
    path: *const c_char,
    overrides: *const *const c_char,
    override_count: usize,
    out_dir: *const c_char,
    flags: u32,
    last_frame: usize,
    on_frame: GripFrameFn,
    user_data: *mut c_void,
    out_summary: *mut GripRunSummary,
) -> GripStatus {
    call(|| {
        if !out_summary.is_null() {
            guard::write(out_summary, GripRunSummary::default(), "out_summary")?;
        }
        let path = guard::string(path, "path")?;
        let out = guard::string(out_dir, "out_dir")?;
        let overrides = override_strings(overrides, override_count)?;
        if flags & !KNOWN_FLAGS != 0 {
            return Err(Error::invalid(format!("flags {flags:#x} has bits no GRIP_RUN_* flag uses")));
        }
        if out.is_empty() {
            return Err(Error::invalid("out_dir is empty"));
        }
        let mut scene = crate::scene::file::load_with_overrides(Path::new(path), &overrides).map_err(Error::invalid)?;
        if last_frame > 0 {
            scene.frames = last_frame;
        }
        let options = RunOptions {
            checkpoint: flags & GRIP_RUN_CHECKPOINT != 0,
            resume: flags & GRIP_RUN_RESUME != 0,
            usd: flags & GRIP_RUN_USD != 0,
        };
        let mut observer = CallbackObserver {
            callback: on_frame,
            user_data,
            last_frame: scene.frames,
            frame_started: Instant::now(),
            stop: false,
        };
        let outcome = simulate(&scene, Path::new(out), options, &mut observer);
        let summary = match &outcome {
            Ok(s) => s,
            Err(e) => &e.summary,
        };
        if !out_summary.is_null() {
            guard::write(out_summary, GripRunSummary::from(summary), "out_summary")?;
        }
        outcome.map(|_| ()).map_err(|e| match e.kind {
            RunFailure::Solver => Error::NotConverged(e.message),
            RunFailure::Cancelled => Error::Cancelled(e.message),
            RunFailure::Input | RunFailure::Output => Error::invalid(e.message),
        })
    })
}
