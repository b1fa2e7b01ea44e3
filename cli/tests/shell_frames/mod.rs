//! Shared by the self-contact scene tests (`cloth_fold.rs`, `twisted_cylinder.rs`): runs a
//! scene whose first object is a shell frame by frame and counts, after each frame, the shell's
//! intersecting triangle pairs with the exact checker (as `stats.csv` does).
#![allow(dead_code)]

use grip::mesh::intersecting_pairs;
use grip::scene::{Elements, Scene};
use std::time::Instant;

/// Per frame (1 ..= `scene.frames`): the intersecting triangle pairs of object 0; then the first
/// failed frame's error, if any (the run stops there), and the seconds per frame.
pub fn intersections_per_frame(scene: &Scene) -> (Vec<usize>, Option<String>, f64) {
    let mut built = scene.build_solver().expect("scene builds");
    let id = built.objects[0];
    let triangles: Vec<[u32; 3]> = match &scene.objects[0].elements {
        Elements::Triangles(t) => t.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        _ => panic!("object 0 is a shell"),
    };
    let self_contact = scene.params.self_contact;
    let started = Instant::now();
    let mut counts = Vec::new();
    for frame in 1..=scene.frames {
        built.prepare_frame(frame).expect("frame");
        if let Err(e) = built.solver.advance(1.0 / scene.fps) {
            return (counts, Some(format!("frame {frame}: {e}")), started.elapsed().as_secs_f64() / frame as f64);
        }
        let q = built.solver.positions(id).expect("positions");
        let p: Vec<[f64; 3]> = q.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
        counts.push(intersecting_pairs(&p, &triangles).len());
        let r = built.solver.report();
        println!(
            "{} self-contact {self_contact}: frame {frame}: {} intersecting pairs, {} substeps, {} Newton its, {} retries",
            scene.name,
            counts[frame - 1],
            r.substeps,
            r.newton_iterations,
            r.contact_retries
        );
    }
    (counts, None, started.elapsed().as_secs_f64() / scene.frames as f64)
}
