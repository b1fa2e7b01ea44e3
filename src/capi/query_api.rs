//! Reading results back: counts, positions, velocities, the step report, the friction of a pair.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::types::GripStepReport;
use super::{GripObjectId, GripStatus};
use crate::error::Error;

/// Writes the vertex count of object `id` to `*out_count`.
///
/// # Safety
/// `out_count` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_vertex_count(
    solver: *const GripSolver,
    id: GripObjectId,
    out_count: *mut usize,
) -> GripStatus {
    call(|| {
        guard::check_out(out_count, "out_count")?;
        let n = handles::with_solver(solver, |s| Ok(s.object(id)?.vertex_count))?;
        guard::write(out_count, n, "out_count")
    })
}

fn copy_out(src: &[f64], out: &mut [f64], vertex_count: usize) -> crate::error::Result<()> {
    if src.len() != out.len() {
        return Err(Error::invalid(format!(
            "vertex_count is {vertex_count}, but the object has {} vertices",
            src.len() / 3
        )));
    }
    out.copy_from_slice(src);
    Ok(())
}

unsafe fn out_array<'a>(out_xyz: *mut f64, vertex_count: usize) -> crate::error::Result<&'a mut [f64]> {
    if vertex_count == 0 {
        return Err(Error::invalid("vertex_count is 0"));
    }
    let n = vertex_count.checked_mul(3).ok_or_else(|| Error::invalid("vertex_count is too large"))?;
    guard::slice_mut(out_xyz, n, "out_xyz")
}

/// Copies the current positions (m) of object `id` into `out_xyz` (`3 × vertex_count` doubles;
/// `vertex_count` must equal the object's vertex count).
///
/// # Safety
/// `out_xyz` must hold `3 × vertex_count` doubles.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_get_positions(
    solver: *const GripSolver,
    id: GripObjectId,
    out_xyz: *mut f64,
    vertex_count: usize,
) -> GripStatus {
    call(|| {
        let out = out_array(out_xyz, vertex_count)?;
        handles::with_solver(solver, |s| copy_out(s.positions(id)?, out, vertex_count))
    })
}

/// Copies the current velocities (m/s) of object `id` into `out_xyz`.
///
/// # Safety
/// As `grip_solver_get_positions`.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_get_velocities(
    solver: *const GripSolver,
    id: GripObjectId,
    out_xyz: *mut f64,
    vertex_count: usize,
) -> GripStatus {
    call(|| {
        let out = out_array(out_xyz, vertex_count)?;
        handles::with_solver(solver, |s| copy_out(s.velocities(id)?, out, vertex_count))
    })
}

/// Copies the report of the last step/advance (failed ones included) into `*out`.
///
/// # Safety
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_get_report(solver: *const GripSolver, out: *mut GripStepReport) -> GripStatus {
    call(|| {
        guard::check_out(out, "out")?;
        let report = handles::with_solver(solver, |s| Ok(GripStepReport::from(s.report())))?;
        guard::write(out, report, "out")
    })
}

/// Writes to `*out_mu` the friction coefficient μ (dimensionless) that contact between objects
/// or colliders `a` and `b` uses (either order; `a == b`: an object with itself), as resolved
/// from their own μ, the overrides and the defaults (`grip_solver_set_object_friction`).
///
/// # Safety
/// `out_mu` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_get_friction(
    solver: *const GripSolver,
    a: GripObjectId,
    b: GripObjectId,
    out_mu: *mut f64,
) -> GripStatus {
    call(|| {
        guard::check_out(out_mu, "out_mu")?;
        let mu = handles::with_solver(solver, |s| s.friction(a, b))?;
        guard::write(out_mu, mu, "out_mu")
    })
}
