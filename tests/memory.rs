//! Memory: 10,000 steps of a small scene (a pinned cloth sliding over a
//! ground plane with friction, stepped through the C API and its report read back every step)
//! do not grow the resident set after warm-up. VmRSS is read from /proc/self/status (Linux);
//! allowed growth after the first 1,000 steps: [`TOLERANCE_KIB`], i.e. a leak of more than
//! about 200 bytes a step fails. (The C host example runs under valgrind in host_example.rs.)

use grip::capi::attribute_api::grip_solver_set_vertex_attribute;
use grip::capi::collider_api::{grip_shape_default, grip_solver_add_collider_shape};
use grip::capi::query_api::{grip_solver_get_positions, grip_solver_get_report};
use grip::capi::solver_api::*;
use grip::capi::GripStatus;
use grip::capi::{GripMaterial, GripSolverParams, GripStepReport};
use grip::mesh::generate::grid_cloth;

const STEPS: usize = 10_000;
const WARM_UP: usize = 1_000;
const TOLERANCE_KIB: u64 = 2048;

/// The tests read the whole process's RSS: they run one at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Resident set size [KiB] of this process.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS line");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("VmRSS value")
}

#[test]
fn ten_thousand_steps_do_not_grow_the_resident_set() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    if !std::path::Path::new("/proc/self/status").exists() {
        println!("no /proc/self/status: the RSS check needs Linux");
        return;
    }
    // SAFETY: every pointer below points to live locals of the stated sizes.
    unsafe {
        let params = GripSolverParams { worker_count: 2, ..Default::default() };
        let mut s = std::ptr::null_mut();
        assert_eq!(grip_solver_create(&params, &mut s), GripStatus::Ok);
        let mut plane = 0;
        assert_eq!(grip_solver_add_collider_shape(s, &grip_shape_default(), &mut plane), GripStatus::Ok);
        let (p, t) = grid_cloth(0.2, 0.2, 5, 5);
        let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2], 0.002]).collect();
        let n = p.len() / 3;
        let mut cloth = 0;
        let m = GripMaterial::default();
        assert_eq!(grip_solver_add_shell(s, p.as_ptr(), n, t.as_ptr(), t.len() / 3, &m, &mut cloth), GripStatus::Ok);
        let mut pins = vec![0.0; n];
        pins[0] = 1.0;
        assert_eq!(grip_solver_set_vertex_attribute(s, cloth, c"pinned".as_ptr(), pins.as_ptr(), n, 1), GripStatus::Ok);
        let mut x = vec![0.0; 3 * n];
        let mut report = GripStepReport::default();
        let mut target = p.clone();
        let (mut warm, mut peak) = (0, 0);
        for step in 0..STEPS {
            // The pin circles: the cloth keeps sliding, contacts come and go.
            let a = step as f64 * 0.01;
            target[0] = p[0] + 0.05 * a.cos();
            target[1] = p[1] + 0.05 * a.sin();
            let status = grip_solver_set_vertex_attribute(s, cloth, c"target".as_ptr(), target.as_ptr(), n, 3);
            assert_eq!(status, GripStatus::Ok);
            assert_eq!(grip_solver_step(s, 1.0 / 240.0), GripStatus::Ok, "step {step}");
            assert_eq!(grip_solver_get_report(s, &mut report), GripStatus::Ok);
            assert_eq!(grip_solver_get_positions(s, cloth, x.as_mut_ptr(), n), GripStatus::Ok);
            if step + 1 == WARM_UP {
                warm = rss_kib();
            } else if step + 1 > WARM_UP && (step + 1) % 500 == 0 {
                let now = rss_kib();
                peak = peak.max(now);
                println!("step {}: VmRSS {now} KiB ({:+} KiB since warm-up)", step + 1, now as i64 - warm as i64);
            }
        }
        assert!(x.iter().all(|v| v.is_finite()));
        assert!(report.active_contacts > 0, "the scene keeps contacts");
        grip_solver_destroy(s);
        println!("VmRSS after {WARM_UP} steps {warm} KiB, peak over the next {} steps {peak} KiB", STEPS - WARM_UP);
        assert!(peak <= warm + TOLERANCE_KIB, "RSS grew from {warm} KiB to {peak} KiB");
    }
}

#[test]
fn creating_and_destroying_solvers_does_not_grow_the_resident_set() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let (p, t) = grid_cloth(0.2, 0.2, 4, 4);
    let n = p.len() / 3;
    let cycle = || {
        // SAFETY: pointers to live locals of the stated sizes.
        unsafe {
            let params = GripSolverParams { worker_count: 2, ..Default::default() };
            let mut s = std::ptr::null_mut();
            assert_eq!(grip_solver_create(&params, &mut s), GripStatus::Ok);
            let mut id = 0;
            let m = GripMaterial::default();
            assert_eq!(grip_solver_add_shell(s, p.as_ptr(), n, t.as_ptr(), t.len() / 3, &m, &mut id), GripStatus::Ok);
            assert_eq!(grip_solver_advance(s, 0.02), GripStatus::Ok);
            // A failing call too: its message is kept per thread.
            assert_ne!(grip_solver_step(s, -1.0), GripStatus::Ok);
            grip_solver_destroy(s);
        }
    };
    (0..200).for_each(|_| cycle());
    // Worker threads of destroyed solvers exit asynchronously: let them finish.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let warm = rss_kib();
    (0..1000).for_each(|_| cycle());
    std::thread::sleep(std::time::Duration::from_millis(200));
    let after = rss_kib();
    println!("VmRSS after 200 create/destroy cycles {warm} KiB, after 1000 more {after} KiB");
    assert!(after <= warm + TOLERANCE_KIB, "RSS grew from {warm} KiB to {after} KiB");
}
