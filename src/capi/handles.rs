//! The opaque `GripSolver` handle and the registry of live handles, so that a destroyed or
//! foreign pointer is refused with a status instead of being dereferenced.

use crate::error::{Error, Result};
use crate::solver::Solver;
use once_cell::sync::Lazy;
use std::collections::HashSet;
use std::sync::Mutex;

/// A solver created by `grip_solver_create`. Opaque to C.
pub struct GripSolver {
    pub(crate) inner: Solver,
}

static LIVE: Lazy<Mutex<HashSet<usize>>> = Lazy::new(|| Mutex::new(HashSet::new()));

fn live() -> std::sync::MutexGuard<'static, HashSet<usize>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Boxes a solver and registers the handle.
pub fn register(solver: Solver) -> *mut GripSolver {
    let ptr = Box::into_raw(Box::new(GripSolver { inner: solver }));
    live().insert(ptr as usize);
    ptr
}

/// Unregisters and frees a handle; `false` if it was not live (NULL, destroyed, or foreign).
///
/// # Safety
/// A live handle must not be in use on another thread.
pub unsafe fn release(ptr: *mut GripSolver) -> bool {
    if ptr.is_null() || !live().remove(&(ptr as usize)) {
        return false;
    }
    drop(Box::from_raw(ptr));
    true
}

fn check(ptr: *const GripSolver) -> Result<()> {
    if ptr.is_null() {
        return Err(Error::NullPointer("solver is NULL".into()));
    }
    if !live().contains(&(ptr as usize)) {
        return Err(Error::invalid("solver is not a live handle (destroyed, or not from grip_solver_create)"));
    }
    Ok(())
}

/// The solver behind a live handle.
///
/// # Safety
/// The host must not use one solver from two threads at once.
pub unsafe fn solver<'a>(ptr: *const GripSolver) -> Result<&'a Solver> {
    check(ptr)?;
    Ok(&(*ptr).inner)
}

/// The solver behind a live handle, mutably.
///
/// # Safety
/// As [`solver`].
pub unsafe fn solver_mut<'a>(ptr: *mut GripSolver) -> Result<&'a mut Solver> {
    check(ptr)?;
    Ok(&mut (*ptr).inner)
}
