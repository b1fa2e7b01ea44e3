//! Solver handles. A `GripSolver *` is an opaque token, never a real address: tokens are never
//! reused, so a destroyed or foreign handle is refused with a status instead of being
//! dereferenced, and a stale handle can never reach a newer solver. Each solver sits behind its
//! own mutex: a call on a solver that is busy (a step running on another thread, or a call made
//! from its own progress callback) fails with `GRIP_STATUS_INVALID_ARGUMENT` instead of racing,
//! and destroying a busy solver frees it when the running call returns. A handle from
//! `grip_scene_load` holds the scene it was built from with its solver (feature `scene`).

use crate::error::{Error, Result};
use crate::solver::Solver;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, TryLockError};

/// A solver created by `grip_solver_create`. Opaque to C: only ever handled by pointer.
pub struct GripSolver {
    _opaque: [u8; 0],
}

/// What a handle holds.
pub enum Held {
    /// A solver from `grip_solver_create`.
    Solver(Solver),
    /// A solver built from a scene file by `grip_scene_load`, with its scene.
    #[cfg(feature = "scene")]
    Scene(Box<super::scene_api::LoadedScene>),
}

impl Held {
    /// The solver, whichever way it was made.
    fn solver(&mut self) -> &mut Solver {
        match self {
            Held::Solver(s) => s,
            #[cfg(feature = "scene")]
            Held::Scene(loaded) => &mut loaded.built.solver,
        }
    }
}

type Shared = Arc<Mutex<Held>>;

static REGISTRY: Lazy<Mutex<HashMap<usize, Shared>>> = Lazy::new(|| Mutex::new(HashMap::new()));
/// Next token; steps of 16 keep tokens looking like aligned pointers to debuggers.
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(0x6772_0000);

fn registry() -> std::sync::MutexGuard<'static, HashMap<usize, Shared>> {
    REGISTRY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers a solver and returns its new handle.
pub fn register(solver: Solver) -> *mut GripSolver {
    register_held(Held::Solver(solver))
}

/// Registers what a handle holds and returns its new handle.
pub fn register_held(held: Held) -> *mut GripSolver {
    let token = NEXT_TOKEN.fetch_add(16, Ordering::Relaxed);
    registry().insert(token, Arc::new(Mutex::new(held)));
    token as *mut GripSolver
}

/// Forgets a handle; the solver is freed now, or when a call running on it returns.
/// `false` if the handle was not live (NULL, destroyed, or foreign).
pub fn release(handle: *const GripSolver) -> bool {
    !handle.is_null() && registry().remove(&(handle as usize)).is_some()
}

fn lookup(handle: *const GripSolver) -> Result<Shared> {
    if handle.is_null() {
        return Err(Error::NullPointer("solver is NULL".into()));
    }
    registry()
        .get(&(handle as usize))
        .cloned()
        .ok_or_else(|| Error::invalid("solver is not a live handle (destroyed, or not from grip_solver_create)"))
}

/// Runs `body` on the solver behind a live handle, refusing a busy solver.
pub fn with_solver<R>(handle: *const GripSolver, body: impl FnOnce(&mut Solver) -> Result<R>) -> Result<R> {
    with_held(handle, |held| body(held.solver()))
}

/// Runs `body` on what a live handle holds, refusing a busy solver.
pub fn with_held<R>(handle: *const GripSolver, body: impl FnOnce(&mut Held) -> Result<R>) -> Result<R> {
    let shared = lookup(handle)?;
    let mut held = match shared.try_lock() {
        Ok(guard) => guard,
        // A panic inside an earlier call was caught before any state was committed.
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => {
            return Err(Error::invalid(
                "solver is busy: a call on it is running (on another thread, or this is its own progress callback)",
            ))
        }
    };
    body(&mut held)
}
