//! Creating and destroying solvers, adding objects, stepping, progress.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::types::{GripMaterial, GripSolverParams};
use super::{GripObjectId, GripStatus};
use crate::error::Error;
use crate::model::{Material, SolverParams};
use std::ffi::c_void;

/// Progress callback: called between Newton iterations and after each substep with the fraction
/// of the current step/advance done, in [0, 1] (the last call is 1). Return nonzero to cancel:
/// the call then returns `GRIP_STATUS_CANCELLED` and the solver is as it was before it. Runs on
/// the thread that called `grip_solver_step`/`grip_solver_advance`, never on one of the solver's
/// worker threads, so a host may use its own API from it. Calls on the same solver from inside
/// the callback fail (busy);
/// `grip_solver_destroy` from inside it frees the solver once the running call returns.
pub type GripProgressFn = Option<unsafe extern "C" fn(user_data: *mut c_void, fraction_done: f64) -> u32>;

/// Creates a solver with `params` (from `grip_solver_params_default()`, then edited).
/// On success `*out_solver` owns a new solver; free it with `grip_solver_destroy`.
/// On failure `*out_solver` is set to NULL (when `out_solver` is not NULL).
///
/// # Safety
/// `params` must point to a `GripSolverParams`; `out_solver` to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_create(
    params: *const GripSolverParams,
    out_solver: *mut *mut GripSolver,
) -> GripStatus {
    call(|| {
        if out_solver.is_null() {
            return Err(Error::NullPointer("out_solver is NULL".into()));
        }
        guard::write(out_solver, std::ptr::null_mut(), "out_solver")?;
        let params = SolverParams::try_from(guard::reference(params, "params")?)?;
        let solver = crate::solver::Solver::new(&params)?;
        guard::write(out_solver, handles::register(solver), "out_solver")
    })
}

/// Destroys a solver and frees everything it owns. NULL is fine; a handle that was already
/// destroyed, or never created, is ignored (handles are never reused). Destroying a solver whose
/// step is running (from its progress callback, or another thread) frees it when that call returns.
#[no_mangle]
pub extern "C" fn grip_solver_destroy(solver: *mut GripSolver) {
    let _ = call(|| {
        handles::release(solver);
        Ok(())
    });
}

/// Adds a tet solid: `vertex_count` rest positions (`3 × vertex_count` doubles (m)) and
/// `tet_count` tets (`4 × tet_count` indices, positively oriented: det[x1−x0, x2−x0, x3−x0] > 0).
/// Writes the new object's id to `*out_id`. A sliver tet, whose smallest height is below 1e-6 of
/// its longest edge, is refused by index (`GRIP_STATUS_INVALID_MESH`): its stiffness, growing as
/// the inverse of that ratio, would make every later step fail.
///
/// # Safety
/// Arrays must hold the stated number of elements; `material` and `out_id` must be valid.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_add_solid(
    solver: *mut GripSolver,
    positions: *const f64,
    vertex_count: usize,
    tets: *const u32,
    tet_count: usize,
    material: *const GripMaterial,
    out_id: *mut GripObjectId,
) -> GripStatus {
    call(|| {
        guard::check_out(out_id, "out_id")?;
        let (positions, tets) = checked_arrays(positions, vertex_count, tets, tet_count, 4, "tet")?;
        let material = Material::try_from(guard::reference(material, "material")?)?;
        let id = handles::with_solver(solver, |s| s.add_solid(positions, tets, &material))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Adds a triangle shell (cloth): `vertex_count` rest positions (m) and `triangle_count`
/// triangles (`3 × triangle_count` indices). Writes the new object's id to `*out_id`. A sliver
/// triangle, whose smallest height is below 1e-6 of its longest edge, is refused by index
/// (`GRIP_STATUS_INVALID_MESH`), as `grip_solver_add_solid` refuses sliver tets.
///
/// # Safety
/// As `grip_solver_add_solid`.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_add_shell(
    solver: *mut GripSolver,
    positions: *const f64,
    vertex_count: usize,
    triangles: *const u32,
    triangle_count: usize,
    material: *const GripMaterial,
    out_id: *mut GripObjectId,
) -> GripStatus {
    call(|| {
        guard::check_out(out_id, "out_id")?;
        let (positions, tris) = checked_arrays(positions, vertex_count, triangles, triangle_count, 3, "triangle")?;
        let material = Material::try_from(guard::reference(material, "material")?)?;
        let id = handles::with_solver(solver, |s| s.add_shell(positions, tris, &material))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Most vertices one object may have (2²⁸: 6 GiB of positions).
const MAX_OBJECT_VERTICES: usize = 1 << 28;
/// Most elements one object may have (2²⁹).
const MAX_OBJECT_ELEMENTS: usize = 1 << 29;

pub(super) unsafe fn checked_arrays<'a>(
    positions: *const f64,
    vertex_count: usize,
    indices: *const u32,
    element_count: usize,
    per_element: usize,
    kind: &str,
) -> crate::error::Result<(&'a [f64], &'a [u32])> {
    if vertex_count == 0 {
        return Err(Error::invalid("vertex_count is 0"));
    }
    if vertex_count > MAX_OBJECT_VERTICES {
        return Err(Error::invalid(format!(
            "vertex_count {vertex_count} is too large (an object may have at most {MAX_OBJECT_VERTICES})"
        )));
    }
    if element_count == 0 {
        return Err(Error::invalid(format!("{kind}_count is 0")));
    }
    if element_count > MAX_OBJECT_ELEMENTS {
        return Err(Error::invalid(format!(
            "{kind}_count {element_count} is too large (an object may have at most {MAX_OBJECT_ELEMENTS})"
        )));
    }
    let nv = vertex_count.checked_mul(3).ok_or_else(|| Error::invalid("vertex_count is too large"))?;
    let ni =
        element_count.checked_mul(per_element).ok_or_else(|| Error::invalid(format!("{kind}_count is too large")))?;
    let positions = guard::slice(positions, nv, "positions")?;
    let indices = guard::slice(indices, ni, &format!("{kind}s"))?;
    Ok((positions, indices))
}

/// Takes one implicit step of `dt` seconds (> 0). On any failure the solver is unchanged.
///
/// # Safety
/// `solver` must be a live handle used by one thread at a time.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_step(solver: *mut GripSolver, dt: f64) -> GripStatus {
    call(|| handles::with_solver(solver, |s| s.step(dt)))
}

/// Advances by `duration` seconds (> 0) in equal substeps of at most `params.time_step`;
/// pin targets are reached at the end, interpolated linearly over the substeps.
/// On any failure the solver is unchanged.
///
/// # Safety
/// As `grip_solver_step`.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_advance(solver: *mut GripSolver, duration: f64) -> GripStatus {
    call(|| handles::with_solver(solver, |s| s.advance(duration)))
}

struct HostCallback {
    f: unsafe extern "C" fn(*mut c_void, f64) -> u32,
    user_data: *mut c_void,
}

// SAFETY: the solver (and with it this callback) may move between host threads between calls,
// which is why it must be `Send`. During a call the callback is invoked only on the thread that
// made the call (`crate::solver` forwards every report from the pool's worker to it), one
// invocation at a time. A host that calls a solver from several threads in turn must make
// `user_data` usable from each of them, as `grip_solver_set_progress_callback` documents.
unsafe impl Send for HostCallback {}

impl HostCallback {
    fn call(&self, fraction: f64) -> bool {
        // SAFETY: the host promised the callback is callable with its user data.
        unsafe { (self.f)(self.user_data, fraction) != 0 }
    }
}

/// Installs a progress callback (`fn` NULL removes it). `user_data` is passed back untouched.
/// The callback runs on whichever thread calls step/advance (see `GripProgressFn`).
///
/// # Safety
/// `fn` must be safe to call with `user_data` during every later step/advance of this solver,
/// on the thread that makes that call.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_progress_callback(
    solver: *mut GripSolver,
    r#fn: GripProgressFn,
    user_data: *mut c_void,
) -> GripStatus {
    call(|| {
        let progress = r#fn.map(|f| {
            let cb = HostCallback { f, user_data };
            Box::new(move |fraction: f64| cb.call(fraction)) as crate::solver::ProgressFn
        });
        handles::with_solver(solver, |s| {
            s.set_progress(progress);
            Ok(())
        })
    })
}
