//! Fuzz target (a): sequences of C API calls decoded from bytes. Up to two live solvers (and
//! the handles of destroyed ones) receive creates, destroys, adds, attribute sets, collider
//! moves, friction, steps, advances and reads with arguments that are usually valid and
//! sometimes not (NULL, NaN, wrong counts, unknown ids, stale handles). Work per input is
//! bounded: small meshes, at most 8 substeps per advance, at most 24 calls.
//!
//! Findings: a panic at the boundary, a failed call without a message, a successful call that
//! leaves a message, a non-finite state after a successful step, and a failed step that changed
//! the state.

use super::bytes::Bytes;
use super::checks::{assert_finite, checked};
use grip::capi::attribute_api::grip_solver_set_vertex_attribute;
use grip::capi::collider_api::{
    grip_shape_default, grip_solver_add_collider_mesh, grip_solver_add_collider_shape,
    grip_solver_set_collider_positions, grip_solver_set_collider_transform, grip_solver_set_friction,
};
use grip::capi::handles::GripSolver;
use grip::capi::query_api::{grip_solver_get_positions, grip_solver_get_report, grip_solver_vertex_count};
use grip::capi::solver_api::{
    grip_solver_add_shell, grip_solver_add_solid, grip_solver_advance, grip_solver_create, grip_solver_destroy,
    grip_solver_step,
};
use grip::capi::GripStatus;
use grip::capi::{GripMaterial, GripSolverParams, GripStepReport};
use grip::mesh::generate::{box_tets, grid_cloth};
use std::ffi::CString;

/// Most calls decoded from one input.
const MAX_CALLS: usize = 24;

struct Live {
    handle: *mut GripSolver,
    /// Ids returned by adds (objects and colliders), with vertex counts (0 for shapes).
    ids: Vec<(u32, usize)>,
}

fn params(b: &mut Bytes) -> GripSolverParams {
    let mut p = GripSolverParams { max_newton_iterations: 12, max_substep_halvings: 2, ..Default::default() };
    for _ in 0..b.below(4) {
        match b.u8() % 12 {
            0 => p.time_step = [1.0 / 240.0, 0.01, -0.01, 0.0, f64::NAN, 1e-3][b.below(6)],
            1 => p.gravity[b.below(3)] = b.f64(),
            2 => p.max_newton_iterations = [0, 1, 3, 12, 100_001][b.below(5)],
            3 => {
                // Few halvings, then the failure policy: a hard substep fails the call, falls
                // back, or (an unknown code) is refused at creation.
                p.max_substep_halvings = [0, 1, 3, 21][b.below(4)];
                p.failure_policy = b.u8() as u32 % 3;
            }
            4 => p.contact_thickness = b.near(1e-3),
            5 => p.linear_solver = b.u8() as u32 % 4,
            6 => p.residual_tolerance = b.near(1e-6),
            7 => p.worker_count = [0, 1, 2, 4, 2000][b.below(5)],
            8 => p.default_friction = b.f64(),
            9 => p.self_contact = b.u8() as u32 % 3,
            10 => p.self_contact_thickness = b.near(1e-3),
            _ => p.struct_tag ^= b.u8() as u32 & 1,
        }
    }
    p
}

fn material(b: &mut Bytes) -> GripMaterial {
    let mut m = GripMaterial::default();
    if b.u8() < 32 {
        match b.u8() % 4 {
            0 => m.poisson_ratio = b.near(0.49),
            1 => m.density = b.f64(),
            2 => m.youngs_modulus = b.f64(),
            _ => m.struct_tag = 0,
        }
    }
    m
}

fn values(b: &mut Bytes, n: usize, base: f64) -> Vec<f64> {
    let mut v = vec![base; n];
    for _ in 0..b.below(3) {
        if n > 0 {
            let i = b.below(n);
            v[i] = b.f64();
        }
    }
    v
}

/// A vertex count near `n`: usually `n`, sometimes off by one, zero or huge.
fn count(b: &mut Bytes, n: usize) -> usize {
    match b.u8() {
        0 => 0,
        1 => n + 1,
        2 => n.saturating_sub(1),
        3 => usize::MAX / 2,
        _ => n,
    }
}

/// Which live solver a call goes to; `None` (a NULL or stale handle) one time in eight.
fn handle(b: &mut Bytes, live: &[Live]) -> Option<usize> {
    match b.u8() % 8 {
        0 => None,
        _ if live.is_empty() => None,
        x => Some(x as usize % live.len()),
    }
}

fn object(b: &mut Bytes, s: &Live) -> (u32, usize) {
    match b.u8() {
        0 => (0, 4),
        1 => (999, 4),
        x if !s.ids.is_empty() => s.ids[x as usize % s.ids.len()],
        _ => (1, 4),
    }
}

/// Runs one input.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut live: Vec<Live> = Vec::new();
    let mut stale: Vec<*mut GripSolver> = Vec::new();
    let (cloth_x, cloth_t) = grid_cloth(0.2, 0.2, 3, 3);
    let (cube_x, cube_t) = box_tets([0.1, 0.1, 0.1], [1, 1, 1], [0.0, 0.0, 0.3]);
    for _ in 0..MAX_CALLS {
        if b.done() {
            break;
        }
        let op = b.u8() % 16;
        if op == 0 || live.is_empty() {
            let p = params(&mut b);
            let mut h: *mut GripSolver = std::ptr::null_mut();
            // SAFETY: valid pointers to locals.
            if checked("create", unsafe { grip_solver_create(&p, &mut h) }) == GripStatus::Ok && live.len() < 2 {
                live.push(Live { handle: h, ids: Vec::new() });
            } else if !h.is_null() {
                grip_solver_destroy(h);
                stale.push(h);
            }
            continue;
        }
        let which = handle(&mut b, &live);
        let h = match (which, stale.is_empty(), b.u8() % 4) {
            (Some(i), _, _) => live[i].handle,
            (None, false, 0) => stale[0],
            _ => std::ptr::null_mut(),
        };
        let at = which.unwrap_or(0);
        match op {
            1 => {
                if let Some(i) = which {
                    grip_solver_destroy(live[i].handle);
                    grip_solver_destroy(live[i].handle); // twice: ignored
                    stale.push(live.swap_remove(i).handle);
                }
            }
            2 | 3 => {
                let m = material(&mut b);
                let shell = op == 2;
                let (x, t, per) = if shell { (&cloth_x, &cloth_t, 3) } else { (&cube_x, &cube_t, 4) };
                let mut x = x.clone();
                for _ in 0..b.below(2) {
                    let i = b.below(x.len());
                    x[i] = b.f64();
                }
                let mut t = t.clone();
                if b.u8() < 16 {
                    let i = b.below(t.len());
                    t[i] = b.u8() as u32 % 12;
                }
                let n = count(&mut b, x.len() / 3).min(x.len() / 3 + 1);
                let e = t.len() / per;
                let mut id = 0;
                let add = if shell { grip_solver_add_shell } else { grip_solver_add_solid };
                let xs = if n > x.len() / 3 { std::ptr::null() } else { x.as_ptr() };
                // SAFETY: `xs` holds 3 n doubles (or is NULL), `t` holds per × e indices.
                let s = checked("add", unsafe { add(h, xs, n, t.as_ptr(), e, &m, &mut id) });
                if s == GripStatus::Ok {
                    live[at].ids.push((id, n));
                }
            }
            4 => {
                let mut shape = grip_shape_default();
                shape.kind = b.u8() as u32 % 5;
                shape.center[2] = b.near(0.0);
                shape.radius = b.near(0.5);
                let mut id = 0;
                // SAFETY: valid pointers.
                if checked("add shape", unsafe { grip_solver_add_collider_shape(h, &shape, &mut id) }) == GripStatus::Ok
                {
                    live[at].ids.push((id, 0));
                }
            }
            5 => {
                let (x, t) = grid_cloth(0.3, 0.3, 2, 2);
                let x: Vec<f64> = x.iter().enumerate().map(|(i, v)| if i % 3 == 2 { v - 0.05 } else { *v }).collect();
                let mut id = 0;
                // SAFETY: arrays hold the stated counts.
                let s = unsafe { grip_solver_add_collider_mesh(h, x.as_ptr(), 4, t.as_ptr(), t.len() / 3, &mut id) };
                if checked("add collider mesh", s) == GripStatus::Ok {
                    live[at].ids.push((id, 4));
                }
            }
            6 if which.is_some() => {
                let (id, _) = object(&mut b, &live[at]);
                let mut m = [0.0; 16];
                [0, 5, 10, 15].iter().for_each(|&i| m[i] = 1.0);
                m[14] = b.near(0.0);
                if b.u8() < 32 {
                    let i = b.below(16);
                    m[i] = b.f64();
                }
                // SAFETY: 16 doubles.
                checked("transform", unsafe { grip_solver_set_collider_transform(h, id, m.as_ptr()) });
            }
            7 if which.is_some() => {
                let (id, n) = object(&mut b, &live[at]);
                let xyz = values(&mut b, 3 * n, 0.01);
                let c = count(&mut b, n).min(n);
                // SAFETY: `xyz` holds 3 n ≥ 3 c doubles.
                checked("collider positions", unsafe { grip_solver_set_collider_positions(h, id, xyz.as_ptr(), c) });
            }
            8 | 9 if which.is_some() => {
                let (id, n) = object(&mut b, &live[at]);
                let names = ["velocity", "position", "pinned", "target", "colour", "Velocity"];
                let name = CString::new(names[b.below(names.len())]).unwrap();
                let components = [3, 1, 0, 4][b.below(4)];
                let v = values(&mut b, 3 * n.max(1), if components == 1 { 1.0 } else { 0.01 });
                let c = count(&mut b, n).min(v.len() / components.max(1));
                // SAFETY: `v` holds at least c × components doubles.
                checked("attribute", unsafe {
                    grip_solver_set_vertex_attribute(h, id, name.as_ptr(), v.as_ptr(), c, components)
                });
            }
            10 if which.is_some() => {
                let (a, _) = object(&mut b, &live[at]);
                let (c, _) = object(&mut b, &live[at]);
                let mu = b.f64();
                // SAFETY: handle checked by grip.
                checked("friction", unsafe { grip_solver_set_friction(h, a, c, mu) });
            }
            11..=13 => step(&mut b, h, which.map(|i| &live[i]), op == 11),
            _ if which.is_some() => {
                let (id, n) = object(&mut b, &live[at]);
                let mut out = vec![0.0; 3 * n.max(1)];
                let mut c = 0usize;
                let mut r = GripStepReport::default();
                // SAFETY: `out` holds 3 n doubles; out pointers are valid.
                unsafe {
                    checked("positions", grip_solver_get_positions(h, id, out.as_mut_ptr(), n.max(1)));
                    checked("vertex count", grip_solver_vertex_count(h, id, &mut c));
                    checked("report", grip_solver_get_report(h, &mut r));
                }
            }
            _ => {}
        }
    }
    for s in live {
        grip_solver_destroy(s.handle);
    }
}

fn snapshot(s: &Live) -> Vec<u64> {
    let mut all = Vec::new();
    for &(id, n) in s.ids.iter().filter(|(_, n)| *n > 0) {
        let mut x = vec![0.0; 3 * n];
        // SAFETY: `x` holds 3 n doubles.
        if unsafe { grip_solver_get_positions(s.handle, id, x.as_mut_ptr(), n) } == GripStatus::Ok {
            all.extend(x.iter().map(|v| v.to_bits()));
        }
    }
    all
}

fn step(b: &mut Bytes, h: *mut GripSolver, s: Option<&Live>, single: bool) {
    let before = s.map(snapshot);
    let t = match b.u8() % 8 {
        0 => b.f64(),
        1 => 0.05,
        k => (k as f64) / 480.0,
    };
    // Bounded work: advances of more than 8 default substeps are not decoded.
    let t = if t.is_finite() && t > 8.0 / 240.0 && !single { 8.0 / 240.0 } else { t };
    let t = if single && t.is_finite() && t > 0.05 { 0.05 } else { t };
    // SAFETY: handle checked by grip.
    let status = unsafe {
        if single {
            grip_solver_step(h, t)
        } else {
            grip_solver_advance(h, t)
        }
    };
    let status = checked("step", status);
    if let Some(s) = s {
        if status == GripStatus::Ok {
            s.ids.iter().filter(|(_, n)| *n > 0).for_each(|&(id, _)| assert_finite(h, id));
        } else {
            assert_eq!(before, Some(snapshot(s)), "a failed step ({status:?}) changed the state");
        }
    }
}
