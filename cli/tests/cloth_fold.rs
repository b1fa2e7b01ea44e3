//! `grip demo cloth-fold` at a test resolution: a square cloth dropped onto a thin
//! rod drapes and folds onto itself. With self-contact on, every frame ends with zero
//! intersecting triangle pairs (exact checker, as in `stats.csv`) and no failed step; with it
//! off, the same scene passes through itself. Run in release:
//! `cargo test --release --test cloth_fold -- --nocapture` prints the counts and timings.

mod shell_frames;

use grip_cli::demo_fold::cloth_fold;

/// Vertices per side and frames (1/24 s each) of the test runs.
const VERTICES: usize = 16;
const FRAMES: usize = 24;

/// Per frame: intersecting triangle pairs; the first failure, if any; seconds per frame.
fn run(self_contact: bool) -> (Vec<usize>, Option<String>, f64) {
    shell_frames::intersections_per_frame(&cloth_fold(VERTICES, self_contact, FRAMES))
}

#[test]
fn with_self_contact_no_frame_intersects() {
    let (counts, failure, per_frame) = run(true);
    println!("self-contact on: intersecting pairs per frame {counts:?}, {per_frame:.2} s/frame");
    assert_eq!(failure, None);
    assert!(counts.iter().all(|&c| c == 0), "intersecting pairs per frame: {counts:?}");
}

#[test]
fn without_self_contact_the_cloth_passes_through_itself() {
    let (counts, failure, per_frame) = run(false);
    println!("self-contact off: intersecting pairs per frame {counts:?}, {per_frame:.2} s/frame");
    assert_eq!(failure, None);
    assert!(counts.iter().any(|&c| c > 0), "the scene should make the cloth cross itself: {counts:?}");
}

/// Self-contact keeps results bit-identical for any worker count (pairs evaluated in parallel,
/// summed in pair order; candidates sorted): 8 frames of a 12 × 12 fold (the halves meet by
/// frame 6) with 1 and 2 workers give the same positions, which differ from those without
/// self-contact.
#[test]
fn self_contact_is_independent_of_the_worker_count() {
    let positions = |self_contact: bool, workers: u32| -> Vec<f64> {
        let mut scene = cloth_fold(12, self_contact, 8);
        scene.params.worker_count = workers;
        let mut built = scene.build_solver().expect("scene builds");
        for frame in 1..=8 {
            built.prepare_frame(frame).expect("frame");
            built.solver.advance(1.0 / scene.fps).expect("advance");
        }
        built.solver.positions(built.objects[0]).expect("positions").to_vec()
    };
    let one = positions(true, 1);
    assert!(one == positions(true, 2), "1 and 2 workers differ");
    assert!(one != positions(false, 2), "self-contact had no effect");
}
