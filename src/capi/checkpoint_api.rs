//! The solver's state as bytes, for hosts that continue a simulation later or elsewhere: a bake
//! resumed after a cancel, a crash or in another session (`Solver::checkpoint`). Restoring
//! into a solver built the same way (same objects added in the same order from the same rest
//! positions, same parameters) continues bit for bit as if the solver had never stopped.
//! Materials and parameters may differ; the checkpoint then resumes with the new ones.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::GripStatus;
use crate::error::Error;

/// Writes the size in bytes of the solver's checkpoint (`grip_solver_checkpoint`) into
/// `*out_size`. The size changes as the solver runs (contacts enter it): ask before each
/// checkpoint.
///
/// # Safety
/// `solver` must be a handle from `grip_solver_create` (or NULL); `out_size` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_checkpoint_size(solver: *const GripSolver, out_size: *mut usize) -> GripStatus {
    call(|| {
        guard::check_out(out_size, "out_size")?;
        let size = handles::with_solver(solver, |s| Ok(s.checkpoint().len()))?;
        guard::write(out_size, size, "out_size")
    })
}

/// Copies the solver's state into `out_bytes`, which holds `capacity` bytes, and writes the
/// number of bytes copied into `*out_size`. Fails, writing nothing, when `capacity` is smaller
/// than `grip_solver_checkpoint_size`. The bytes are grip's own format (little-endian, versioned
/// by magic bytes): keep them as an opaque blob.
///
/// # Safety
/// `out_bytes` must hold `capacity` writable bytes; `out_size` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_checkpoint(
    solver: *const GripSolver,
    out_bytes: *mut u8,
    capacity: usize,
    out_size: *mut usize,
) -> GripStatus {
    call(|| {
        guard::check_out(out_size, "out_size")?;
        let bytes = handles::with_solver(solver, |s| Ok(s.checkpoint()))?;
        if bytes.len() > capacity {
            return Err(Error::invalid(format!(
                "capacity is {capacity} bytes, the checkpoint needs {} (grip_solver_checkpoint_size)",
                bytes.len()
            )));
        }
        let out = guard::slice_mut(out_bytes, bytes.len(), "out_bytes")?;
        out.copy_from_slice(&bytes);
        guard::write(out_size, bytes.len(), "out_size")
    })
}

/// Puts back a state written by `grip_solver_checkpoint` (`size` bytes at `bytes`). Fails,
/// changing nothing, when the bytes are not a grip checkpoint, are damaged, or come from a
/// solver with other objects (vertex and collider counts, rest positions and elements are
/// compared).
///
/// # Safety
/// `bytes` must hold `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_restore(solver: *mut GripSolver, bytes: *const u8, size: usize) -> GripStatus {
    call(|| {
        let bytes = guard::slice(bytes, size, "bytes")?;
        handles::with_solver(solver, |s| s.restore(bytes))
    })
}
