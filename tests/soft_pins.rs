//! Soft pins (per-vertex springs to anchors, `energy::target_spring`) against closed-form
//! answers: a cloth hung on springs sags by m g / k, follows its anchors when they move, and
//! falls freely once the springs are removed; the C API sets them by name.

use grip::capi::attribute_api::grip_solver_set_vertex_attribute;
use grip::capi::solver_api::*;
use grip::capi::status::grip_last_error;
use grip::capi::version_api::grip_solver_params_default;
use grip::capi::{GripMaterial, GripStatus};
use grip::mesh::generate::grid_cloth;
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

const G: f64 = 9.81;
/// Sag (m) the springs are sized for.
const SAG: f64 = 0.01;

/// A horizontal 0.2 m cloth at z = 1 m whose every vertex hangs on a soft pin of stiffness
/// m_i g / SAG, so that the whole cloth sags by SAG as one piece (no elastic force).
fn hung_cloth() -> (Solver, u32, Vec<f64>) {
    let params = SolverParams { time_step: 0.01, ..Default::default() };
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = grid_cloth(0.2, 0.2, 4, 4);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2], 1.0]).collect();
    let id = s.add_shell(&p, &t, &Material::default()).unwrap();
    let k: Vec<f64> = s.model().mass.iter().map(|m| m * G / SAG).collect();
    s.set_vertex_attribute(id, VertexAttribute::PinStiffness, &k).unwrap();
    (s, id, p)
}

/// Largest |x − (rest + offset)| over the vertices (m).
fn deviation(x: &[f64], rest: &[f64], offset: [f64; 3]) -> f64 {
    x.iter().zip(rest).enumerate().map(|(i, (x, r))| (x - r - offset[i % 3]).abs()).fold(0.0, f64::max)
}

#[test]
fn a_cloth_on_soft_pins_sags_by_m_g_over_k() {
    let (mut s, id, rest) = hung_cloth();
    s.advance(3.0).unwrap();
    let err = deviation(s.positions(id).unwrap(), &rest, [0.0, 0.0, -SAG]);
    println!("sag error {err:e} m of {SAG} m");
    assert!(err < 1e-6 * SAG.max(1.0), "positions deviate by {err} m from the uniform sag");
    let speed = s.velocities(id).unwrap().iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(speed < 1e-5, "not at rest: {speed} m/s");
}

#[test]
fn soft_pins_follow_their_targets_and_release_at_zero_stiffness() {
    let (mut s, id, rest) = hung_cloth();
    let shift = [0.05, -0.02, 0.03];
    let target: Vec<f64> = rest.iter().enumerate().map(|(i, x)| x + shift[i % 3]).collect();
    s.set_vertex_attribute(id, VertexAttribute::Target, &target).unwrap();
    s.advance(0.1).unwrap();
    // The anchors stay at the targets once consumed: the cloth settles there.
    s.advance(3.0).unwrap();
    let err = deviation(s.positions(id).unwrap(), &rest, [shift[0], shift[1], shift[2] - SAG]);
    assert!(err < 1e-6, "the cloth settled {err} m away from its moved anchors");
    // Released: free fall from rest, v = −g t exactly under backward Euler.
    let n = rest.len() / 3;
    s.set_vertex_attribute(id, VertexAttribute::PinStiffness, &vec![0.0; n]).unwrap();
    s.advance(0.1).unwrap();
    let v = s.velocities(id).unwrap();
    let err = v.chunks_exact(3).map(|v| (v[2] + G * 0.1).abs()).fold(0.0, f64::max);
    assert!(err < 1e-6, "released cloth falls at {} m/s, not {}", v[2], -G * 0.1);
}

#[test]
fn the_c_api_sets_pin_stiffness_by_name() {
    let (p, t) = grid_cloth(0.2, 0.2, 2, 2);
    let n = p.len() / 3;
    unsafe {
        let params = grip_solver_params_default();
        let mut s = std::ptr::null_mut();
        assert_eq!(grip_solver_create(&params, &mut s), GripStatus::Ok);
        let mut cloth = 0;
        let m = GripMaterial::default();
        assert_eq!(grip_solver_add_shell(s, p.as_ptr(), n, t.as_ptr(), t.len() / 3, &m, &mut cloth), GripStatus::Ok);
        let k = vec![50.0; n];
        let name = c"pin_stiffness".as_ptr();
        assert_eq!(grip_solver_set_vertex_attribute(s, cloth, name, k.as_ptr(), n, 1), GripStatus::Ok);
        // Three components, a negative or an absurd stiffness: refused.
        assert_ne!(grip_solver_set_vertex_attribute(s, cloth, name, k.as_ptr(), n / 3, 3), GripStatus::Ok);
        for bad in [-1.0, 1e10, f64::NAN] {
            let mut k = k.clone();
            k[1] = bad;
            assert_ne!(grip_solver_set_vertex_attribute(s, cloth, name, k.as_ptr(), n, 1), GripStatus::Ok);
        }
        let bad = c"stiffness".as_ptr();
        assert_ne!(grip_solver_set_vertex_attribute(s, cloth, bad, k.as_ptr(), n, 1), GripStatus::Ok);
        let message = std::ffi::CStr::from_ptr(grip_last_error()).to_string_lossy().into_owned();
        assert!(message.contains("pin_stiffness"), "{message}");
        assert_eq!(grip_solver_step(s, 0.01), GripStatus::Ok);
        grip_solver_destroy(s);
    }
}
