//! Determinism and threads:
//! - the same input gives bit-identical positions and velocities across runs and across 1, 2
//!   and 4 worker threads, for a scene with deforming-mesh contact and friction (a cloth falling
//!   onto a soft solid whose base is pinned), with the direct and the iterative linear solver;
//! - four solvers advanced concurrently from four host threads give the results of advancing
//!   them one after the other;
//! - a solver used from two host threads at once refuses the second call with
//!   `GRIP_STATUS_INVALID_ARGUMENT` ("busy") instead of racing, and is fine afterwards.
//!
//! (tests/solver_behaviour.rs covers a cloth and a free solid without contact.)

use grip::capi::handles::GripSolver;
use grip::capi::query_api::grip_solver_get_positions;
use grip::capi::solver_api::*;
use grip::capi::status::grip_last_error;
use grip::capi::GripStatus;
use grip::capi::{GripMaterial, GripSolverParams};
use grip::mesh::generate::grid_cloth;
use grip::solve::linear_solver::LinearSolverKind;
use grip::{Solver, SolverParams};
mod common;
use common::scenes::cloth_thrown_on_slab;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Barrier};

/// A 0.3 m cloth 2 cm above a soft 0.4 m slab (base pinned), μ = 0.5 between them.
fn contact_scene(params: &SolverParams) -> (Solver, [u32; 2]) {
    cloth_thrown_on_slab(params, 6, 0.12)
}

fn bits(s: &Solver, ids: &[u32]) -> Vec<u64> {
    ids.iter()
        .flat_map(|&id| s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).map(|x| x.to_bits()))
        .collect()
}

fn run_contact(linear_solver: LinearSolverKind, workers: u32) -> (Vec<u64>, u32) {
    let params = SolverParams { linear_solver, worker_count: workers, ..Default::default() };
    let (mut s, ids) = contact_scene(&params);
    let mut contacts = 0;
    for _ in 0..3 {
        s.advance(1.0 / 30.0).unwrap();
        contacts = contacts.max(s.report().active_contacts);
    }
    (bits(&s, &ids), contacts)
}

fn identical_across_runs_and_threads(linear_solver: LinearSolverKind) {
    let (reference, contacts) = run_contact(linear_solver, 1);
    assert!(contacts > 0, "the scene must exercise deforming-mesh contact");
    assert_eq!(run_contact(linear_solver, 1).0, reference, "a second run with 1 thread differs");
    for workers in [2, 4] {
        assert_eq!(run_contact(linear_solver, workers).0, reference, "{workers} threads differ from 1");
    }
}

#[test]
fn deforming_mesh_contact_with_friction_is_bit_identical_for_1_2_and_4_threads_direct() {
    identical_across_runs_and_threads(LinearSolverKind::DirectLu);
}

#[test]
fn deforming_mesh_contact_with_friction_is_bit_identical_for_1_2_and_4_threads_iterative() {
    identical_across_runs_and_threads(LinearSolverKind::Iterative);
}

/// A C API solver for the concurrency tests: the contact scene built through the Rust API is
/// not reachable from C, so this is a pinned cloth (as in the C test) of `n`² vertices.
unsafe fn c_cloth(n: usize, workers: u32, speed: f64) -> (*mut GripSolver, u32, usize) {
    let params = GripSolverParams { worker_count: workers, ..Default::default() };
    let mut s = std::ptr::null_mut();
    assert_eq!(grip_solver_create(&params, &mut s), GripStatus::Ok);
    let (p, t) = grid_cloth(0.5, 0.5, n - 1, n - 1);
    let m = GripMaterial::default();
    let mut id = 0;
    assert_eq!(grip_solver_add_shell(s, p.as_ptr(), n * n, t.as_ptr(), t.len() / 3, &m, &mut id), GripStatus::Ok);
    let mut pins = vec![0.0; n * n];
    pins[0] = 1.0;
    pins[n - 1] = 1.0;
    let name = c"pinned";
    let set = grip::capi::attribute_api::grip_solver_set_vertex_attribute;
    assert_eq!(set(s, id, name.as_ptr(), pins.as_ptr(), n * n, 1), GripStatus::Ok);
    let v: Vec<f64> = (0..3 * n * n).map(|i| if i % 3 == 1 { speed } else { 0.0 }).collect();
    assert_eq!(set(s, id, c"velocity".as_ptr(), v.as_ptr(), n * n, 3), GripStatus::Ok);
    (s, id, n * n)
}

unsafe fn positions(s: *mut GripSolver, id: u32, n: usize) -> Vec<u64> {
    let mut x = vec![0.0; 3 * n];
    assert_eq!(grip_solver_get_positions(s, id, x.as_mut_ptr(), n), GripStatus::Ok);
    x.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn four_solvers_on_four_host_threads_equal_sequential_results() {
    let speeds = [0.0, 0.5, 1.0, 2.0];
    // SAFETY: each handle is used by one thread at a time.
    let sequential: Vec<Vec<u64>> = speeds
        .iter()
        .map(|&v| unsafe {
            let (s, id, n) = c_cloth(8, 2, v);
            assert_eq!(grip_solver_advance(s, 0.1), GripStatus::Ok);
            let x = positions(s, id, n);
            grip_solver_destroy(s);
            x
        })
        .collect();
    let start = Arc::new(Barrier::new(4));
    let handles: Vec<_> = speeds
        .iter()
        .map(|&v| {
            let start = start.clone();
            std::thread::spawn(move || unsafe {
                let (s, id, n) = c_cloth(8, 2, v);
                start.wait();
                assert_eq!(grip_solver_advance(s, 0.1), GripStatus::Ok);
                let x = positions(s, id, n);
                grip_solver_destroy(s);
                x
            })
        })
        .collect();
    let concurrent: Vec<Vec<u64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(concurrent, sequential);
    assert_ne!(sequential[0], sequential[3], "the four scenes differ");
}

/// Shared between the stepping thread's progress callback and the test.
struct Rendezvous {
    /// The callback waits here until the other thread has made its call.
    inside: Barrier,
    done: Barrier,
    calls: AtomicU32,
}

unsafe extern "C" fn meet(user_data: *mut c_void, _fraction: f64) -> u32 {
    let r = &*(user_data as *const Rendezvous);
    if r.calls.fetch_add(1, Ordering::SeqCst) == 0 {
        r.inside.wait(); // the step is running and holds the solver
        r.done.wait(); // the other thread has tried to use it
    }
    0
}

#[test]
fn a_solver_used_from_two_threads_at_once_refuses_the_second_call() {
    // SAFETY: the handle is shared deliberately: grip must refuse the overlapping call.
    unsafe {
        let (s, id, n) = c_cloth(6, 1, 0.0);
        let r = Box::leak(Box::new(Rendezvous { inside: Barrier::new(2), done: Barrier::new(2), calls: 0.into() }));
        let user = r as *mut Rendezvous as *mut c_void;
        assert_eq!(grip_solver_set_progress_callback(s, Some(meet), user), GripStatus::Ok);
        let token = s as usize;
        let stepping = std::thread::spawn(move || grip_solver_advance(token as *mut GripSolver, 0.05));
        r.inside.wait();
        // Every kind of call on the busy solver is refused, with a message naming the reason.
        let mut out = vec![0.0; 3 * n];
        let tries = [
            grip_solver_step(s, 0.01),
            grip_solver_advance(s, 0.01),
            grip_solver_get_positions(s, id, out.as_mut_ptr(), n),
            grip_solver_set_progress_callback(s, None, std::ptr::null_mut()),
        ];
        for status in tries {
            assert_eq!(status, GripStatus::InvalidArgument);
            let message = CStr::from_ptr(grip_last_error()).to_string_lossy().into_owned();
            assert!(message.contains("busy"), "{message}");
        }
        r.done.wait();
        assert_eq!(stepping.join().unwrap(), GripStatus::Ok, "the running advance was not disturbed");
        // Free again: the same calls succeed now.
        assert_eq!(grip_solver_set_progress_callback(s, None, std::ptr::null_mut()), GripStatus::Ok);
        assert_eq!(grip_solver_step(s, 0.01), GripStatus::Ok);
        assert_eq!(grip_solver_get_positions(s, id, out.as_mut_ptr(), n), GripStatus::Ok);
        assert!(out.iter().all(|x| x.is_finite()));
        grip_solver_destroy(s);
    }
}

/// The threads a progress callback ran on.
type ThreadsSeen = std::sync::Mutex<Vec<(std::thread::ThreadId, Option<String>)>>;

unsafe extern "C" fn record_thread(user_data: *mut c_void, _fraction: f64) -> u32 {
    let seen = &*(user_data as *const ThreadsSeen);
    let me = std::thread::current();
    seen.lock().unwrap().push((me.id(), me.name().map(str::to_string)));
    0
}

/// Advances a C solver with 2 workers and a callback that records its thread; returns the
/// calling thread and what the callback saw.
fn callback_threads() -> (std::thread::ThreadId, Vec<(std::thread::ThreadId, Option<String>)>) {
    let seen = ThreadsSeen::default();
    // SAFETY: `seen` outlives the advance; the solver is used from this thread only.
    unsafe {
        let (s, _, _) = c_cloth(6, 2, 0.0);
        let user = &seen as *const ThreadsSeen as *mut c_void;
        assert_eq!(grip_solver_set_progress_callback(s, Some(record_thread), user), GripStatus::Ok);
        assert_eq!(grip_solver_advance(s, 0.05), GripStatus::Ok);
        grip_solver_destroy(s);
    }
    (std::thread::current().id(), seen.into_inner().unwrap())
}

#[test]
fn the_progress_callback_runs_on_the_thread_that_called_advance() {
    // include/grip.h: "Runs on the calling thread" (hosts may touch their own API from it).
    let from_test = callback_threads();
    let from_host_thread =
        std::thread::Builder::new().name("host-main".into()).spawn(callback_threads).unwrap().join().unwrap();
    for (caller, seen) in [from_test, from_host_thread] {
        assert!(seen.len() > 1, "the callback was called between iterations and substeps");
        for (thread, name) in &seen {
            assert_eq!(*thread, caller, "the callback ran on {name:?}, not on the calling thread");
        }
    }
}
