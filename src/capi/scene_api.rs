//! Scene files from C (feature `scene`). `grip_scene_load` reads a TOML scene file
//! (docs/scene-file.md) and builds its solver, returned as a `GripSolver *` that every
//! `grip_solver_*` function takes; the `grip_scene_*` functions run it the way `grip run` does:
//! frame k (1 ≤ k ≤ the frame count) moves the analytic colliders, collider meshes and pin groups
//! to their poses at the end of frame k, then advances the solver by 1/fps s
//! ([`SceneSolver::prepare_frame`] then `Solver::advance`, as [`crate::scene::run::simulate`] does).

use super::guard::{self, call};
use super::handles::{self, GripSolver, Held};
use super::scene_run_api::override_strings;
use super::{GripObjectId, GripStatus};
use crate::error::{Error, Result};
use crate::scene::SceneSolver;
use std::ffi::{c_char, CString};
use std::path::Path;

/// A scene built into a solver, with its object names as C strings.
pub struct LoadedScene {
    /// The scene and its solver.
    pub built: SceneSolver,
    /// Object names in scene order, NUL-terminated (interior NULs replaced).
    names: Vec<CString>,
}

/// Runs `body` on the scene behind a live handle; a solver not made by `grip_scene_load` is
/// refused.
fn with_scene<R>(handle: *const GripSolver, body: impl FnOnce(&mut LoadedScene) -> Result<R>) -> Result<R> {
    handles::with_held(handle, |held| match held {
        Held::Scene(loaded) => body(loaded),
        _ => Err(Error::invalid("solver was not loaded from a scene file (grip_scene_load)")),
    })
}

/// Loads the scene file at `path` (UTF-8; mesh paths in it are relative to it) and builds its
/// solver: objects, pins and pin groups, initial velocities, analytic colliders at their
/// frame-0 poses, friction pairs, with the file's `[solver]` parameters. On success
/// `*out_solver` owns the new solver (free it with `grip_solver_destroy`); on failure it is set
/// to NULL (when `out_solver` is not NULL) and the message names the file and the key, mesh or
/// object at fault (`GRIP_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `path` must be NUL-terminated; `out_solver` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_load(path: *const c_char, out_solver: *mut *mut GripSolver) -> GripStatus {
    call(|| load(path, &[], out_solver))
}

/// `grip_scene_load` with `override_count` strings `KEY=VALUE` at `overrides` (NULL when 0)
/// applied to the file first, as `grip run --set` does (docs/scene-file.md#overrides): e.g.
/// `solver.default_friction=0.4`, `object.cloth.density=200`. A malformed override, or one that
/// names no table, element or key of the file, fails with `GRIP_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `path` must be NUL-terminated; `overrides` must point to `override_count` NUL-terminated
/// strings; `out_solver` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_load_overrides(
    path: *const c_char,
    overrides: *const *const c_char,
    override_count: usize,
    out_solver: *mut *mut GripSolver,
) -> GripStatus {
    call(|| {
        if out_solver.is_null() {
            return Err(Error::NullPointer("out_solver is NULL".into()));
        }
        guard::write(out_solver, std::ptr::null_mut(), "out_solver")?;
        let overrides = override_strings(overrides, override_count)?;
        load(path, &overrides, out_solver)
    })
}

/// Loads and builds the scene into `*out_solver` (set to NULL first).
unsafe fn load(path: *const c_char, overrides: &[&str], out_solver: *mut *mut GripSolver) -> Result<()> {
    if out_solver.is_null() {
        return Err(Error::NullPointer("out_solver is NULL".into()));
    }
    guard::write(out_solver, std::ptr::null_mut(), "out_solver")?;
    let path = guard::string(path, "path")?;
    let scene = crate::scene::file::load_with_overrides(Path::new(path), overrides).map_err(Error::invalid)?;
    let built = scene.build_solver().map_err(|m| Error::invalid(format!("{path}: {m}")))?;
    let names = built.scene.objects.iter().map(|o| CString::new(o.name.replace('\0', " ")).unwrap_or_default());
    let loaded = LoadedScene { names: names.collect(), built };
    guard::write(out_solver, handles::register_held(Held::Scene(Box::new(loaded))), "out_solver")
}

/// Writes the scene's number of frames after frame 0 (its `[output] frames`) to `*out_frames`.
///
/// # Safety
/// `solver` must be a live handle; `out_frames` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_frame_count(solver: *mut GripSolver, out_frames: *mut usize) -> GripStatus {
    call(|| {
        guard::check_out(out_frames, "out_frames")?;
        let frames = with_scene(solver, |s| Ok(s.built.scene.frames))?;
        guard::write(out_frames, frames, "out_frames")
    })
}

/// Writes the scene's output frame rate (frames/s; each frame advances 1/fps s) to `*out_fps`.
///
/// # Safety
/// `solver` must be a live handle; `out_fps` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_fps(solver: *mut GripSolver, out_fps: *mut f64) -> GripStatus {
    call(|| {
        guard::check_out(out_fps, "out_fps")?;
        let fps = with_scene(solver, |s| Ok(s.built.scene.fps))?;
        guard::write(out_fps, fps, "out_fps")
    })
}

/// Writes the number of the scene's objects (solids, shells and collider meshes, in file order)
/// to `*out_count`.
///
/// # Safety
/// `solver` must be a live handle; `out_count` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_object_count(solver: *mut GripSolver, out_count: *mut usize) -> GripStatus {
    call(|| {
        guard::check_out(out_count, "out_count")?;
        let count = with_scene(solver, |s| Ok(s.built.objects.len()))?;
        guard::write(out_count, count, "out_count")
    })
}

/// The object at `index` (0-based, file order) of a scene.
fn object_index(scene: &LoadedScene, index: usize) -> Result<usize> {
    let n = scene.built.objects.len();
    if index >= n {
        return Err(Error::invalid(format!("object index {index} is out of range (the scene has {n} objects)")));
    }
    Ok(index)
}

/// Writes the solver id of the scene's object `index` (0-based, file order) to `*out_id`.
///
/// # Safety
/// `solver` must be a live handle; `out_id` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_object_id(
    solver: *mut GripSolver,
    index: usize,
    out_id: *mut GripObjectId,
) -> GripStatus {
    call(|| {
        guard::check_out(out_id, "out_id")?;
        let id = with_scene(solver, |s| Ok(s.built.objects[object_index(s, index)?]))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Writes the name of the scene's object `index` (0-based, file order; `name` in the file) to
/// `*out_name`: a NUL-terminated UTF-8 string owned by the solver, valid until it is destroyed.
///
/// # Safety
/// `solver` must be a live handle; `out_name` must point to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_object_name(
    solver: *mut GripSolver,
    index: usize,
    out_name: *mut *const c_char,
) -> GripStatus {
    call(|| {
        guard::check_out(out_name, "out_name")?;
        let name = with_scene(solver, |s| Ok(s.names[object_index(s, index)?].as_ptr()))?;
        guard::write(out_name, name, "out_name")
    })
}

/// Simulates frame `frame` (1 ≤ `frame` ≤ the frame count) as `grip run` does: moves the
/// scene's analytic colliders, collider meshes and pin-group targets to their poses at the end of
/// the frame, then advances the solver by 1/fps s (progress callback and report as
/// `grip_solver_advance`). Frames are usually taken in order from 1. On any failure the solver is
/// as it was before the call, poses and targets included.
///
/// # Safety
/// `solver` must be a live handle used by one thread at a time.
#[no_mangle]
pub unsafe extern "C" fn grip_scene_advance_frame(solver: *mut GripSolver, frame: usize) -> GripStatus {
    call(|| {
        with_scene(solver, |s| {
            let built = &mut s.built;
            let frames = built.scene.frames;
            if frame == 0 || frame > frames {
                return Err(Error::invalid(format!(
                    "frame {frame} is out of range: the scene has frames 1 to {frames}"
                )));
            }
            let before = built.solver.checkpoint();
            let advanced = built
                .prepare_frame(frame)
                .map_err(Error::invalid)
                .and_then(|_| built.solver.advance(1.0 / built.scene.fps));
            if advanced.is_err() {
                // Puts back the poses and targets prepare_frame set (the advance itself
                // changes nothing when it fails).
                built.solver.restore(&before)?;
            }
            advanced
        })
    })
}
