//! Per-object self-contact (`grip::model::self_contact`) in whole solves, against what the
//! penalty law b(d) = κ(δ − d)³ (paper §3.2) says:
//! - a free sheet resting on a pinned one settles at a gap within
//!   [δ_AB − √(W / 3κ), δ_AB] of δ_AB = (δ_A + δ_B)/2, whichever sheet is the thicker;
//! - a shell with its self-contact off passes through itself, but not through another shell;
//! - a thickness changed between steps acts at the next step;
//! - refused settings (Rust and C API) leave the solver as it was;
//! - results are bit-identical for 1 and 2 worker threads, and a checkpoint restored into a
//!   solver configured the same way continues bit for bit.

mod common;
use common::scenes::placed_grid;
use grip::capi::handles::GripSolver;
use grip::capi::query_api::grip_solver_get_positions;
use grip::capi::self_contact_api::grip_solver_set_object_self_contact;
use grip::capi::solver_api::*;
use grip::capi::version_api::{grip_material_default, grip_solver_params_default};
use grip::capi::GripStatus;
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

/// Side (m) and cells per side of the pinned lower sheet; the free upper sheet is half as wide
/// with half as many cells (both of 25 mm cells).
const LOWER: (f64, usize) = (0.2, 8);
const UPPER: (f64, usize) = (0.1, 4);

/// Offset (m) of the upper sheet's centre in x and y, so that its vertices lie over the
/// interiors of the lower sheet's triangles.
const OFFSET: [f64; 2] = [0.0083, 0.0042];

/// Largest penetration δ − d (m) of any single pair at rest that κ is chosen for.
const PENETRATION: f64 = 3e-4;

/// g (m/s²).
const G: f64 = 9.81;

fn cloth() -> Material {
    Material { damping_alpha: 5.0, ..Material::default() }
}

/// Weight (N) of the upper sheet.
fn upper_weight() -> f64 {
    let m = cloth();
    m.density * m.thickness * UPPER.0 * UPPER.0 * G
}

/// κ (N/m²) such that one pair carrying the upper sheet's whole weight W penetrates
/// `PENETRATION`: 3κ p² = W. Every pair carries at most W (all pairs push the upper sheet up;
/// the sheets are flat and level, so their normals are vertical), so no pair is deeper.
fn kappa() -> f64 {
    upper_weight() / (3.0 * PENETRATION * PENETRATION)
}

fn params(workers: u32) -> SolverParams {
    SolverParams {
        self_contact: true,
        contact_stiffness: kappa(),
        gravity: [0.0, 0.0, -G],
        worker_count: workers,
        ..SolverParams::default()
    }
}

/// A pinned lower sheet at z = 0 and a free upper one `height` (m) above it, as two objects
/// (ids lower, upper), or as one object of two pieces when `one_object` (both ids the same).
fn stacked(params: &SolverParams, height: f64, one_object: bool) -> (Solver, [u32; 2]) {
    let mut s = Solver::new(params).unwrap();
    let (pl, tl) = placed_grid(LOWER.0, LOWER.1, |u, w| [u, w, 0.0]);
    let (pu, tu) = placed_grid(UPPER.0, UPPER.1, |u, w| [u + OFFSET[0], w + OFFSET[1], height]);
    let (nl, nu) = (pl.len() / 3, pu.len() / 3);
    let pinned: Vec<f64> = (0..nl + nu).map(|i| if i < nl { 1.0 } else { 0.0 }).collect();
    if one_object {
        let p: Vec<f64> = pl.iter().chain(&pu).copied().collect();
        let t: Vec<u32> = tl.iter().copied().chain(tu.iter().map(|&v| v + nl as u32)).collect();
        let id = s.add_shell(&p, &t, &cloth()).unwrap();
        s.set_vertex_attribute(id, VertexAttribute::Pinned, &pinned).unwrap();
        return (s, [id, id]);
    }
    let lower = s.add_shell(&pl, &tl, &cloth()).unwrap();
    s.set_vertex_attribute(lower, VertexAttribute::Pinned, &pinned[..nl]).unwrap();
    let upper = s.add_shell(&pu, &tu, &cloth()).unwrap();
    (s, [lower, upper])
}

/// z (m) of the upper sheet's vertices (the last `(UPPER.1 + 1)²` of object `id`).
fn upper_heights(s: &Solver, id: u32) -> Vec<f64> {
    let p = s.positions(id).unwrap();
    let n = (UPPER.1 + 1) * (UPPER.1 + 1);
    p[p.len() - 3 * n..].chunks_exact(3).map(|v| v[2]).collect()
}

/// The smallest and largest z (m) of the upper sheet and its fastest speed (m/s) after
/// `seconds` of simulation.
fn settle(s: &mut Solver, upper: u32, seconds: f64) -> (f64, f64, f64) {
    s.advance(seconds).unwrap();
    let z = upper_heights(s, upper);
    let v = s.velocities(upper).unwrap();
    let speed = v.chunks_exact(3).map(|u| (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt()).fold(0.0, f64::max);
    (z.iter().copied().fold(f64::INFINITY, f64::min), z.iter().copied().fold(f64::NEG_INFINITY, f64::max), speed)
}

/// Asserts that the upper sheet rests within [δ − √(W/3κ), δ] of `delta` (m), and returns its
/// lowest and highest z.
fn assert_rests_at(s: &mut Solver, upper: u32, delta: f64, what: &str) -> (f64, f64) {
    let (lo, hi, speed) = settle(s, upper, 0.6);
    let band = (delta - PENETRATION, delta);
    eprintln!("{what}: gap {lo:.6} .. {hi:.6} m, band {:.6} .. {:.6} m, speed {speed:.2e} m/s", band.0, band.1);
    assert!(speed < 1e-3, "{what}: still moving at {speed} m/s");
    assert!(lo >= band.0 && hi <= band.1, "{what}: gap {lo} .. {hi} m outside {band:?}");
    (lo, hi)
}

/// Two sheets of thicknesses 2 mm and 6 mm, either way up, rest 4 mm apart (less at most the
/// deepest penetration the weight allows): the mean, not either thickness nor the solver's
/// 1 mm. Raising the upper sheet's thickness to 10 mm between steps lifts it to 6 mm.
#[test]
fn stacked_sheets_rest_at_the_mean_of_their_thicknesses() {
    for (a, b) in [(2e-3, 6e-3), (6e-3, 2e-3)] {
        let (mut s, [lower, upper]) = stacked(&params(0), 4.5e-3, false);
        s.set_object_self_contact(lower, true, Some(a)).unwrap();
        s.set_object_self_contact(upper, true, Some(b)).unwrap();
        assert_rests_at(&mut s, upper, 4e-3, &format!("δ_A = {a}, δ_B = {b}"));
        if b == 6e-3 {
            s.set_object_self_contact(upper, true, Some(10e-3)).unwrap();
            assert_rests_at(&mut s, upper, 6e-3, "δ_B raised to 10 mm");
        }
    }
}

/// One object of two stacked pieces: with its self-contact on, the upper piece rests on the
/// lower one (at the object's 4 mm); with it off, the pieces are the same object and the upper
/// one falls freely through the lower one (0.28 m in 0.3 s under the cloth's mass damping). Two
/// separate objects, both with self-contact off, still meet each other.
#[test]
fn a_shell_without_self_contact_passes_through_itself_but_not_through_others() {
    let (mut on, [id, _]) = stacked(&params(0), 4.5e-3, true);
    on.set_object_self_contact(id, true, Some(4e-3)).unwrap();
    assert_rests_at(&mut on, id, 4e-3, "one object, self-contact on");

    let (mut off, [id, _]) = stacked(&params(0), 4.5e-3, true);
    off.set_object_self_contact(id, false, Some(4e-3)).unwrap();
    let (t, alpha) = (0.3, cloth().damping_alpha);
    let (lowest, highest, _) = settle(&mut off, id, t);
    // Free fall under mass damping α from 4.5 mm: z = z0 − (g/α)(t − (1 − e^(−αt))/α).
    let fall = 4.5e-3 - G / alpha * (t - (1.0 - (-alpha * t).exp()) / alpha);
    eprintln!("one object, self-contact off: upper piece at z {lowest:.4} .. {highest:.4} m after {t} s, free fall {fall:.4} m");
    assert!(
        (lowest - fall).abs() < 0.01 && (highest - fall).abs() < 0.01,
        "the upper piece did not fall freely through"
    );

    let (mut apart, [lower, upper]) = stacked(&params(0), 4.5e-3, false);
    for id in [lower, upper] {
        apart.set_object_self_contact(id, false, Some(4e-3)).unwrap();
    }
    assert_rests_at(&mut apart, upper, 4e-3, "two objects, each with self-contact off");
}

/// Bits of the positions and velocities of objects `ids`.
fn bits(s: &Solver, ids: &[u32]) -> Vec<u64> {
    ids.iter()
        .flat_map(|&id| s.positions(id).unwrap().iter().chain(s.velocities(id).unwrap()).map(|x| x.to_bits()))
        .collect()
}

/// The stacked sheets at 2 mm and 6 mm, dropped from 8 mm for 0.1 s.
fn dropped(workers: u32) -> (Solver, [u32; 2]) {
    let (mut s, ids) = stacked(&params(workers), 8e-3, false);
    s.set_object_self_contact(ids[0], true, Some(2e-3)).unwrap();
    s.set_object_self_contact(ids[1], true, Some(6e-3)).unwrap();
    s.advance(0.1).unwrap();
    (s, ids)
}

#[test]
fn per_object_self_contact_is_bit_identical_for_1_and_2_threads() {
    let (one, ids) = dropped(1);
    let (two, _) = dropped(2);
    assert!(s_moved(&one, ids[1]), "the upper sheet must have fallen onto the lower one");
    assert_eq!(bits(&one, &ids), bits(&two, &ids));
}

/// Whether the upper sheet has come down to within 6 mm of the lower one.
fn s_moved(s: &Solver, upper: u32) -> bool {
    upper_heights(s, upper).iter().all(|&z| z < 6e-3)
}

/// A checkpoint holds no per-object settings: restored into a solver configured the same way, it
/// continues bit for bit; restored into one with other settings, it continues differently.
#[test]
fn a_checkpoint_continues_bit_for_bit_in_a_solver_configured_the_same_way() {
    let (mut s, ids) = dropped(0);
    let saved = s.checkpoint();
    s.advance(0.1).unwrap();
    let (mut same, _) = stacked(&params(0), 8e-3, false);
    same.set_object_self_contact(ids[0], true, Some(2e-3)).unwrap();
    same.set_object_self_contact(ids[1], true, Some(6e-3)).unwrap();
    same.restore(&saved).unwrap();
    same.advance(0.1).unwrap();
    assert_eq!(bits(&same, &ids), bits(&s, &ids));
    let (mut other, _) = stacked(&params(0), 8e-3, false);
    other.restore(&saved).unwrap();
    other.advance(0.1).unwrap();
    assert_ne!(bits(&other, &ids), bits(&s, &ids), "the settings must matter to this scene");
}

/// Refused settings leave an object's settings as they were.
#[test]
fn refused_settings_change_nothing() {
    let (mut s, [lower, upper]) = stacked(&params(0), 8e-3, false);
    s.set_object_self_contact(upper, false, Some(3e-3)).unwrap();
    let floor = s.add_collider_shape(&grip::contact::Shape::default()).unwrap();
    let (p, t) = grip::mesh::generate::box_tets([0.1, 0.1, 0.1], [1, 1, 1], [1.0, 0.0, 0.0]);
    let solid = s.add_solid(&p, &t, &Material::default()).unwrap();
    let before = s.object(upper).unwrap().self_contact;
    for bad in [-1e-3, 0.0, f64::NAN, f64::INFINITY, 1.1e3] {
        assert!(s.set_object_self_contact(upper, true, Some(bad)).is_err(), "thickness {bad}");
    }
    for id in [floor, solid, 12345] {
        assert!(s.set_object_self_contact(id, true, None).is_err(), "id {id}");
    }
    assert_eq!(s.object(upper).unwrap().self_contact, before);
    assert_eq!(s.object(lower).unwrap().self_contact, grip::model::ObjectSelfContact::default());
}

/// Through the C API: a solver given refused calls after a valid one steps exactly as one given
/// the valid call only.
#[test]
fn refused_c_api_calls_leave_the_solver_unchanged() {
    let run = |bad_calls: bool| -> Vec<u64> {
        let p = GripSolverParamsExt::stacked();
        let m = grip_material_default();
        let mut solver: *mut GripSolver = std::ptr::null_mut();
        let (pl, tl) = placed_grid(LOWER.0, LOWER.1, |u, w| [u, w, 0.0]);
        let (pu, tu) = placed_grid(UPPER.0, UPPER.1, |u, w| [u + OFFSET[0], w + OFFSET[1], 8e-3]);
        let (mut lower, mut upper) = (0u32, 0u32);
        let ok = |st: GripStatus| assert_eq!(st, GripStatus::Ok);
        // SAFETY: every array holds the stated counts; out pointers are valid.
        unsafe {
            ok(grip_solver_create(&p, &mut solver));
            ok(grip_solver_add_shell(solver, pl.as_ptr(), pl.len() / 3, tl.as_ptr(), tl.len() / 3, &m, &mut lower));
            ok(grip_solver_add_shell(solver, pu.as_ptr(), pu.len() / 3, tu.as_ptr(), tu.len() / 3, &m, &mut upper));
            ok(grip_solver_set_object_self_contact(solver, lower, 1, 2e-3));
            ok(grip_solver_set_object_self_contact(solver, upper, 1, 6e-3));
            if bad_calls {
                for (id, enabled, thickness, status) in [
                    (upper, 1, -1e-3, GripStatus::InvalidArgument),
                    (upper, 0, f64::NAN, GripStatus::InvalidArgument),
                    (upper, 0, f64::INFINITY, GripStatus::InvalidArgument),
                    (upper, 2, 0.0, GripStatus::InvalidArgument),
                    (12345, 0, 0.0, GripStatus::UnknownObject),
                ] {
                    assert_eq!(grip_solver_set_object_self_contact(solver, id, enabled, thickness), status);
                }
            }
            ok(grip_solver_step(solver, 0.05));
            let mut x = vec![0.0; pu.len()];
            ok(grip_solver_get_positions(solver, upper, x.as_mut_ptr(), pu.len() / 3));
            grip_solver_destroy(solver);
            x.iter().map(|v| v.to_bits()).collect()
        }
    };
    assert_eq!(run(true), run(false));
}

/// C parameters of the stacked sheets: self-contact on, κ of [`kappa`].
trait GripSolverParamsExt {
    fn stacked() -> Self;
}

impl GripSolverParamsExt for grip::capi::GripSolverParams {
    fn stacked() -> Self {
        Self { self_contact: 1, contact_stiffness: kappa(), ..grip_solver_params_default() }
    }
}
