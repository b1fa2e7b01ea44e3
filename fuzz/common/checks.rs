//! The invariants every fuzzed C API call must keep: no panic reaches the boundary, a failed
//! call leaves a message, a successful step leaves finite positions and velocities.

use grip::capi::handles::GripSolver;
use grip::capi::query_api::{grip_solver_get_positions, grip_solver_get_velocities, grip_solver_vertex_count};
use grip::capi::status::grip_last_error;
use grip::capi::GripStatus;
use std::ffi::CStr;

/// The last error message of this thread.
pub fn last_error() -> String {
    // SAFETY: grip_last_error never returns NULL and the string lives until the next call.
    unsafe { CStr::from_ptr(grip_last_error()) }.to_string_lossy().into_owned()
}

/// Panics (a fuzz finding) if `status` is `GRIP_STATUS_PANIC`, or if a failure left no message.
pub fn checked(what: &str, status: GripStatus) -> GripStatus {
    let message = last_error();
    assert_ne!(status, GripStatus::Panic, "{what}: internal error reached the boundary: {message}");
    if status != GripStatus::Ok {
        assert!(!message.is_empty(), "{what} failed with {status:?} but left no message");
    } else {
        assert!(message.is_empty(), "{what} succeeded but left the message {message:?}");
    }
    status
}

/// Panics if any position or velocity of object `id` is not finite.
pub fn assert_finite(solver: *mut GripSolver, id: u32) {
    let mut n = 0usize;
    // SAFETY: valid out pointers; the handle is checked by grip.
    if unsafe { grip_solver_vertex_count(solver, id, &mut n) } != GripStatus::Ok {
        return;
    }
    let mut x = vec![0.0; 3 * n];
    for get in [grip_solver_get_positions, grip_solver_get_velocities] {
        // SAFETY: `x` holds 3 n doubles.
        let status = unsafe { get(solver, id, x.as_mut_ptr(), n) };
        assert_eq!(status, GripStatus::Ok, "reading object {id}: {}", last_error());
        assert!(x.iter().all(|v| v.is_finite()), "object {id} has non-finite state after a successful call");
    }
}
