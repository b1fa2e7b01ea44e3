//! Pinches: two collider-mesh plates close on a cloth to half the contact thickness δ, where no
//! position keeps the cloth δ from both. Under `FailurePolicy::Continue` every frame completes,
//! the report counts the pinched vertices and names the place in every frame the plates are
//! closer than δ, and the cloth stays between the plates; under `FailurePolicy::Strict` the
//! frame that first meets the pinch fails with a message naming it and the solver is left bit
//! for bit as before the call. Plates that stop 3δ apart report no pinch. One collider mesh
//! folded onto itself pinches the cloth between it and itself, and two analytic planes pinch it
//! as two collider meshes do.
//!
//! Run with `cargo test --release --test pinch`.

use grip::{FailurePolicy, Material, Solver, SolverParams, Warnings};

mod common;
use common::collider_meshes::{drop_params, flat_cloth, sheet};
use common::sleeve_cloth;

/// Contact thickness δ of the scene (m).
const DELTA: f64 = 2e-3;

/// Frames simulated, 1/24 s each.
const FRAMES: usize = 8;

/// The upper plate's height at the end of `frame` (m): 6δ at frame 0, 1.1δ lower every frame
/// until it stops at `closest` (1.6δ at frame 4, under δ from frame 5 on).
fn lid_height(frame: usize, closest: f64) -> f64 {
    (6.0 * DELTA - 1.1 * DELTA * frame as f64).max(closest)
}

/// A 0.3 m square plate at height `z` (two triangles): facing +z, or −z with `down`.
fn plate(z: f64, down: bool) -> (Vec<f64>, Vec<u32>) {
    let (p, t) = sheet(-0.15, 0.15, -0.15, 0.15, z);
    let t = if down { t.chunks(3).flat_map(|t| [t[0], t[2], t[1]]).collect() } else { t };
    (p, t)
}

/// The scene: a floor plate at z = 0 facing up, a lid plate at 6δ facing down, and a 0.1 m
/// cloth of 9 × 9 vertices δ/2 above the floor. Returns the solver and the ids of the floor,
/// the lid and the cloth.
fn scene(policy: FailurePolicy) -> (Solver, [u32; 3]) {
    let params = SolverParams { contact_thickness: DELTA, failure_policy: policy, ..drop_params() };
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = plate(0.0, false);
    let floor = s.add_collider_mesh(&p, &t).unwrap();
    let (p, t) = plate(lid_height(0, 0.0), true);
    let lid = s.add_collider_mesh(&p, &t).unwrap();
    let (p, t) = flat_cloth(0.1, 8, 0.5 * DELTA);
    let cloth = s.add_shell(&p, &t, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    (s, [floor, lid, cloth])
}

/// Moves the lid to its height at the end of `frame`, plates stopping `closest` (m) apart.
fn move_lid(s: &mut Solver, lid: u32, frame: usize, closest: f64) {
    let (p, _) = plate(lid_height(frame, closest), true);
    s.set_collider_positions(lid, &p).unwrap();
}

/// Continue: every frame completes; once the plates are closer than δ, every frame reports
/// pinched vertices, the warning and a site between the two plates on the cloth, under δ apart;
/// before, none. The cloth stays between the plates throughout.
#[test]
fn continue_keeps_going_and_reports_the_pinch_every_frame() {
    let (mut s, [floor, lid, cloth]) = scene(FailurePolicy::Continue);
    let mut pinched_frames = 0;
    for f in 1..=FRAMES {
        move_lid(&mut s, lid, f, 0.5 * DELTA);
        s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("frame {f}: {e}"));
        let r = *s.report();
        let closer = lid_height(f - 1, 0.5 * DELTA) < DELTA || lid_height(f, 0.5 * DELTA) < DELTA;
        if closer {
            pinched_frames += 1;
            assert!(r.pinched_vertices > 0, "frame {f}: no pinched vertex reported");
            let whole = lid_height(f - 1, 0.5 * DELTA) < DELTA;
            assert!(r.pinch_substeps > 0 && (!whole || r.pinch_substeps == r.substeps), "frame {f}: {r:?}");
            assert!(r.warnings.contains(Warnings::PINCH), "frame {f}: no pinch warning");
            let site = r.pinch_site.unwrap_or_else(|| panic!("frame {f}: no pinch site"));
            assert_eq!(site.object, cloth, "frame {f}");
            let mut between = site.colliders;
            between.sort_unstable();
            assert_eq!(between, [floor, lid], "frame {f}");
            assert!(site.separation < DELTA && site.separation > 0.0, "frame {f}: separation {}", site.separation);
            assert!(site.position[0].abs() < 0.06 && site.position[1].abs() < 0.06, "frame {f}: {:?}", site.position);
            let message = r.pinch_message("", DELTA, |id| format!("object {id}")).unwrap();
            assert!(message.contains("is pinched between"), "{message}");
            assert!(
                message.ends_with("the cloth is kept between them: open the gap or thin the contact layer to free it")
            );
        } else {
            assert_eq!((r.pinched_vertices, r.pinch_site), (0, None), "frame {f}: pinch reported too early");
            assert!(!r.warnings.contains(Warnings::PINCH), "frame {f}");
        }
        let top = lid_height(f, 0.5 * DELTA);
        let x = s.positions(cloth).unwrap();
        let (low, high) = x.chunks(3).fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p[2]), h.max(p[2])));
        assert!(
            low >= 0.0 && high <= top,
            "frame {f}: cloth between z = {low:e} and {high:e} m, plates at 0 and {top:e}"
        );
    }
    assert_eq!(pinched_frames, 4, "the plates are closer than δ in the last four frames");
}

/// Strict: the frames before the pinch complete; the one that first meets it fails with the
/// pinch's message, and positions and velocities afterwards equal those before the call bit for
/// bit.
#[test]
fn strict_fails_the_call_and_changes_nothing() {
    let (mut s, [floor, lid, cloth]) = scene(FailurePolicy::Strict);
    for f in 1..=FRAMES {
        move_lid(&mut s, lid, f, 0.5 * DELTA);
        let before: Vec<Vec<f64>> = [floor, lid, cloth]
            .iter()
            .flat_map(|&id| [s.positions(id).unwrap().to_vec(), s.velocities(id).unwrap().to_vec()])
            .collect();
        match s.advance(1.0 / 24.0) {
            Ok(()) => assert!(lid_height(f, 0.5 * DELTA) >= DELTA, "frame {f}: the pinch did not fail the call"),
            Err(e) => {
                assert_eq!(f, 5, "frame {f} failed: {e}");
                let m = e.to_string();
                let named = format!("object {cloth} is pinched between collider ");
                assert!(m.contains(&named), "{m}");
                assert!(m.contains("under the contact thickness 2.0 mm"), "{m}");
                assert!(m.contains("set the failure policy to continue"), "{m}");
                let after: Vec<Vec<f64>> = [floor, lid, cloth]
                    .iter()
                    .flat_map(|&id| [s.positions(id).unwrap().to_vec(), s.velocities(id).unwrap().to_vec()])
                    .collect();
                let bits = |v: &[Vec<f64>]| -> Vec<u64> { v.iter().flatten().map(|x| x.to_bits()).collect() };
                assert_eq!(bits(&after), bits(&before), "the failed call changed the state");
                let r = s.report();
                assert!(r.pinch_site.is_some() && r.pinch_substeps == 1 && !r.converged, "{r:?}");
                return;
            }
        }
    }
    panic!("no frame failed on the pinch");
}

/// Negative control: plates that stop 3δ apart never pinch the cloth, under either policy.
#[test]
fn plates_three_thicknesses_apart_do_not_pinch() {
    for policy in [FailurePolicy::Continue, FailurePolicy::Strict] {
        let (mut s, [_, lid, _]) = scene(policy);
        for f in 1..=FRAMES {
            move_lid(&mut s, lid, f, 3.0 * DELTA);
            s.advance(1.0 / 24.0).unwrap_or_else(|e| panic!("{policy:?}, frame {f}: {e}"));
            let r = s.report();
            assert_eq!((r.pinched_vertices, r.pinch_site), (0, None), "{policy:?}, frame {f}");
            assert!(!r.warnings.contains(Warnings::PINCH), "{policy:?}, frame {f}");
        }
    }
}

/// One collider mesh folded onto itself (the two plates as one mesh, a crook closing): the
/// pinch is reported between that mesh and itself, and under Strict the call fails unchanged.
#[test]
fn one_mesh_folded_on_itself_pinches() {
    for policy in [FailurePolicy::Continue, FailurePolicy::Strict] {
        let params = SolverParams { contact_thickness: DELTA, failure_policy: policy, ..drop_params() };
        let mut s = Solver::new(&params).unwrap();
        let both = |lid: f64| -> (Vec<f64>, Vec<u32>) {
            let (mut p, mut t) = plate(0.0, false);
            let (q, u) = plate(lid, true);
            p.extend(q);
            t.extend(u.iter().map(|v| v + 4));
            (p, t)
        };
        let (p, t) = both(3.0 * DELTA);
        let fold = s.add_collider_mesh(&p, &t).unwrap();
        let (p, t) = flat_cloth(0.1, 8, 0.5 * DELTA);
        let cloth = s.add_shell(&p, &t, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
        s.set_collider_positions(fold, &both(0.5 * DELTA).0).unwrap();
        let before = (s.positions(cloth).unwrap().to_vec(), s.velocities(cloth).unwrap().to_vec());
        let outcome = s.advance(1.0 / 24.0);
        let r = *s.report();
        let site = r.pinch_site.unwrap_or_else(|| panic!("{policy:?}: no pinch: {r:?}"));
        assert_eq!((site.object, site.colliders), (cloth, [fold, fold]), "{policy:?}");
        match policy {
            FailurePolicy::Continue => {
                outcome.unwrap();
                assert!(r.pinched_vertices > 0 && r.warnings.contains(Warnings::PINCH));
            }
            FailurePolicy::Strict => {
                let m = outcome.unwrap_err().to_string();
                assert!(m.contains(&format!("between collider {fold} and itself near")), "{m}");
                assert_eq!(s.positions(cloth).unwrap(), &before.0[..]);
                assert_eq!(s.velocities(cloth).unwrap(), &before.1[..]);
            }
        }
    }
}

/// Two analytic planes closing on the cloth from 3δ to δ/2 (the host moving the upper one by
/// its transform): a pinch between the two colliders, reported under Continue.
#[test]
fn two_analytic_planes_pinch() {
    use grip::contact::{Shape, ShapeKind};
    let params = SolverParams { contact_thickness: DELTA, failure_policy: FailurePolicy::Continue, ..drop_params() };
    let mut s = Solver::new(&params).unwrap();
    let plane =
        |z: f64, axis: [f64; 3]| Shape { kind: ShapeKind::Plane, center: [0.0, 0.0, z], axis, ..Shape::default() };
    let floor = s.add_collider_shape(&plane(0.0, [0.0, 0.0, 1.0])).unwrap();
    let lid = s.add_collider_shape(&plane(3.0 * DELTA, [0.0, 0.0, -1.0])).unwrap();
    let lift = |z: f64| [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, z, 1.0];
    let (p, t) = flat_cloth(0.1, 8, 0.5 * DELTA);
    let cloth = s.add_shell(&p, &t, &Material { damping_alpha: 0.5, ..sleeve_cloth() }).unwrap();
    s.advance(1.0 / 24.0).unwrap();
    assert_eq!(s.report().pinched_vertices, 0, "{:?}", s.report());
    s.set_collider_transform(lid, &lift(-2.5 * DELTA)).unwrap();
    s.advance(1.0 / 24.0).unwrap();
    let r = s.report();
    let site = r.pinch_site.unwrap_or_else(|| panic!("no pinch: {r:?}"));
    let mut between = site.colliders;
    between.sort_unstable();
    assert_eq!((site.object, between), (cloth, [floor, lid]));
    assert!(r.pinched_vertices > 0 && (site.separation - 0.5 * DELTA).abs() < 1e-9, "{r:?}");
}
