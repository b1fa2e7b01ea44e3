//! `grip demo twisted-cylinder` at a test resolution: a cloth cylinder whose end
//! rings turn in opposite directions at 72°/s and close in at 5 mm/s wrings into folds. With
//! self-contact on, every frame ends with zero intersecting triangle pairs (exact checker, as in
//! `stats.csv`) and no failed step; with it off, the folds pass through each other. Run in
//! release: `cargo test --release --test twisted_cylinder -- --nocapture` prints the counts.

mod shell_frames;

use grip::solve::linear_solver::LinearSolverKind;
use grip_cli::demo_twist::twisted_cylinder;

/// Quads around and along, and frames (1/24 s each) of the test runs. The folds form from
/// frame 14 (without self-contact 64 intersecting pairs there, 848 by frame 40). Measured at
/// this coarse resolution (13 mm edges around) with the demo's inexact Newton: with
/// self-contact 0 pairs in all 48 frames, one substep and 4–38 Newton iterations per frame
/// (before Newton's line search refused iterates that add intersections, frames 47–48 had 4
/// pairs around one vertex and the iterative solver failed a step at frame 24).
const AROUND: usize = 24;
const ALONG: usize = 16;
const FRAMES: usize = 48;

/// Per frame: intersecting triangle pairs; the first failure, if any; seconds per frame.
fn run(self_contact: bool) -> (Vec<usize>, Option<String>, f64) {
    shell_frames::intersections_per_frame(&twisted_cylinder(AROUND, ALONG, self_contact, FRAMES))
}

#[test]
fn with_self_contact_no_frame_intersects() {
    let (counts, failure, per_frame) = run(true);
    println!("self-contact on: intersecting pairs per frame {counts:?}, {per_frame:.2} s/frame");
    assert_eq!(failure, None);
    assert!(counts.iter().all(|&c| c == 0), "intersecting pairs per frame: {counts:?}");
}

/// The same with the sparse direct LU, whose Newton path crumples folds tighter than the
/// 1-ring: it needs pairs one edge apart to be tested (with the whole 1-ring excluded, frames
/// 33–39 end with 8–20 intersecting pairs).
#[test]
fn with_self_contact_and_the_sparse_lu_no_frame_intersects() {
    let mut scene = twisted_cylinder(AROUND, ALONG, true, FRAMES);
    scene.params.linear_solver = LinearSolverKind::DirectLu;
    let (counts, failure, per_frame) = shell_frames::intersections_per_frame(&scene);
    println!("self-contact on, sparse LU: intersecting pairs per frame {counts:?}, {per_frame:.2} s/frame");
    assert_eq!(failure, None);
    assert!(counts.iter().all(|&c| c == 0), "intersecting pairs per frame: {counts:?}");
}

#[test]
fn without_self_contact_the_folds_pass_through_each_other() {
    let (counts, failure, per_frame) = run(false);
    println!("self-contact off: intersecting pairs per frame {counts:?}, {per_frame:.2} s/frame");
    assert!(counts.iter().any(|&c| c > 0), "the twist should make the cloth cross itself: {counts:?} ({failure:?})");
}
