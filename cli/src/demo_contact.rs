//! The contact demos of `grip demo`, built from the analytic experiments of `grip::analytic` so
//! that what the demos show is what `grip accuracy` measures:
//!
//! - `incline`: [`Incline`] — a stiff 0.1 m tet block on a plane tilted by θ, started down the
//!   slope at v₀; Coulomb friction stops it after v₀²/(2g(μ cos θ − sin θ)).
//! - `pinch`: [`Pinch`] — a soft 0.1 m block on a floor, squeezed by two plates that then lift it
//!   by friction alone; the plates move by one transform per frame.

use super::demo::DemoOptions;
use grip::analytic::{Incline, Pinch};
use grip::contact::Shape;
use grip::mesh::generate::box_tets;
use grip::scene::collider::{Motion, SceneCollider};
use grip::scene::description::{Elements, Scene, SceneObject, DEFAULT_FPS};

/// Checks the values of the contact options that both demos use; errors name the flag.
fn check(o: &DemoOptions) -> Result<f64, String> {
    if let Some(mu) = o.mu {
        if !(0.0..=100.0).contains(&mu) {
            return Err(format!("--mu must be in [0, 100], got {mu}"));
        }
    }
    if let Some(h) = o.h {
        if !(h > 0.0 && h <= 1.0) {
            return Err(format!("--h must be > 0 and <= 1 s, got {h}"));
        }
    }
    let fps = o.fps.unwrap_or(DEFAULT_FPS);
    if !(fps.is_finite() && fps > 0.0) {
        return Err(format!("fps must be finite and > 0, got {fps}"));
    }
    Ok(fps)
}

/// Frames covering `duration` seconds at `fps`, rounded up.
fn frames_for(duration: f64, fps: f64) -> usize {
    (duration * fps * (1.0 - 1e-12)).ceil().max(1.0) as usize
}

/// The block-on-incline experiment with the options applied.
pub fn incline_case(o: &DemoOptions) -> Incline {
    let d = Incline::default();
    Incline {
        angle_deg: o.angle_deg.unwrap_or(d.angle_deg),
        mu: o.mu.unwrap_or(d.mu),
        v0: o.v0.unwrap_or(d.v0),
        h: o.h.unwrap_or(d.h),
        coupling: o.coupling.unwrap_or(d.coupling),
        ..d
    }
}

/// `incline`: the scene of [`Incline::build`] (solver parameters, block, plane, μ, initial
/// velocity), for the experiment's duration.
pub fn incline(o: &DemoOptions) -> Result<Scene, String> {
    let fps = check(o)?;
    let case = incline_case(o);
    if !(case.angle_deg.abs() < 90.0) {
        return Err(format!("--angle must be between -90 and 90 degrees, got {}", case.angle_deg));
    }
    let fail = |e: grip::Error| format!("incline: {e}");
    let (solver, block, plane) = case.build().map_err(fail)?;
    let positions = solver.positions(block).map_err(fail)?.to_vec();
    let v = solver.velocities(block).map_err(fail)?;
    let material = solver.object(block).map_err(fail)?.material;
    // Incline's block is a 2×2×2-cube box_tets mesh; only its connectivity is needed here.
    let (grid, tets) = box_tets([0.1; 3], [2, 2, 2], [0.0; 3]);
    if grid.len() != positions.len() || tets.len() != 4 * solver.model().tets.elements.len() {
        return Err("incline: the block of grip::analytic::Incline is no longer a 2x2x2-cube mesh".into());
    }
    let index = solver.model().collider_index(plane).map_err(fail)?;
    let shape = solver.model().colliders[index].shape;
    let mut block = SceneObject::new("block", positions, Elements::Tets(tets), material);
    block.velocity = [v[0], v[1], v[2]];
    let mut scene = Scene::new("incline", *solver.params(), vec![block]);
    (scene.frames, scene.fps) = (frames_for(case.duration, fps), fps);
    scene.colliders = vec![SceneCollider { name: "slope".into(), shape, mu: case.mu, motion: Motion::Fixed }];
    Ok(scene)
}

/// The pinch experiment with the options applied.
pub fn pinch_case(o: &DemoOptions) -> Pinch {
    let d = Pinch::default();
    Pinch { mu: o.mu.unwrap_or(d.mu), h: o.h.unwrap_or(d.h), coupling: o.coupling.unwrap_or(d.coupling), ..d }
}

/// `pinch`: [`Pinch`]'s block, plates and floor, the plates moved by one transform per frame
/// (`Pinch::plate_transform` at the end of the frame), for the experiment's duration.
pub fn pinch(o: &DemoOptions) -> Result<Scene, String> {
    let fps = check(o)?;
    let case = pinch_case(o);
    let (solver, _, _) = case.build().map_err(|e| format!("pinch: {e}"))?;
    let params = *solver.params();
    let (positions, tets, material) = case.block(params.contact_thickness);
    let [left, right, floor] = case.colliders(params.contact_thickness);
    let frames = frames_for(case.duration(), fps);
    let plate = |name: &str, side: usize, shape: Shape| SceneCollider {
        name: name.into(),
        shape,
        mu: case.mu,
        motion: Motion::Frames(
            (0..=frames).map(|k| case.plate_transform(side, (k as f64 / fps).min(case.duration()))).collect(),
        ),
    };
    let block = SceneObject::new("block", positions, Elements::Tets(tets), material);
    let mut scene = Scene::new("pinch", params, vec![block]);
    (scene.frames, scene.fps) = (frames, fps);
    scene.colliders = vec![
        plate("plate-left", 0, left),
        plate("plate-right", 1, right),
        SceneCollider { name: "floor".into(), shape: floor, mu: case.mu, motion: Motion::Fixed },
    ];
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grip::contact::FrictionCoupling;

    #[test]
    fn contact_demos_follow_their_experiments() {
        let o = DemoOptions {
            mu: Some(0.4),
            h: Some(0.02),
            coupling: Some(FrictionCoupling::Lagged),
            ..Default::default()
        };
        let s = incline(&o).expect("incline");
        assert_eq!(
            (s.params.time_step, s.params.friction_coupling, s.colliders[0].mu),
            (0.02, FrictionCoupling::Lagged, 0.4)
        );
        assert_eq!(s.frames, 480, "20 s at 24 frames/s");
        let p = pinch(&DemoOptions { fps: Some(10.0), ..o }).expect("pinch");
        assert_eq!(p.frames, 18, "1.8 s at 10 frames/s");
        assert_eq!(p.colliders.len(), 3);
        assert_eq!(p.colliders[0].motion.transform(18, 10.0)[14], Pinch::default().lift);
        assert!(incline(&DemoOptions { mu: Some(-1.0), ..Default::default() }).unwrap_err().contains("--mu"));
    }
}
