//! The bad-input matrix through the C API: every case of
//! `tests/bad_input/cases.txt` (the same table `tests/python/test_bad_input.py` runs through the
//! Python binding) is one call with one set of bad arguments. It must return the expected
//! status with a message naming the problem; afterwards the scene is bit-identical, holds no new
//! object, and still advances.

use grip::capi::attribute_api::grip_solver_set_vertex_attribute;
use grip::capi::collider_api::*;
use grip::capi::handles::GripSolver;
use grip::capi::mesher_api::{grip_tet_mesh_destroy, grip_tetrahedralize, GripTetMesh};
use grip::capi::query_api::*;
use grip::capi::self_contact_api::*;
use grip::capi::solver_api::*;
use grip::capi::status::grip_last_error;
use grip::capi::version_api::{grip_material_default, grip_solver_params_default};
use grip::capi::GripStatus;
use grip::capi::{GripMaterial, GripShape, GripSolverParams, GripStepReport};
use std::collections::HashMap;
use std::ffi::{c_char, CStr, CString};

#[path = "bad_input/calls.rs"]
mod calls;
use calls::{base, run};

/// One line of the table.
struct Case {
    line: usize,
    call: String,
    mutations: Vec<String>,
    status: GripStatus,
    substring: String,
}

fn status_named(name: &str) -> GripStatus {
    match name {
        "OK" => GripStatus::Ok,
        "NULL_POINTER" => GripStatus::NullPointer,
        "INVALID_ARGUMENT" => GripStatus::InvalidArgument,
        "INVALID_MESH" => GripStatus::InvalidMesh,
        "UNKNOWN_OBJECT" => GripStatus::UnknownObject,
        "NOT_CONVERGED" => GripStatus::NotConverged,
        "CANCELLED" => GripStatus::Cancelled,
        "PANIC" => GripStatus::Panic,
        other => panic!("unknown status {other}"),
    }
}

fn cases() -> Vec<Case> {
    let text = include_str!("bad_input/cases.txt");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "line {}: {l}", i + 1);
            Case {
                line: i + 1,
                call: f[0].into(),
                mutations: f[1].split_whitespace().map(String::from).collect(),
                status: status_named(f[2]),
                substring: f[3].to_lowercase(),
            }
        })
        .collect()
}

/// The base scene's ids and handle.
struct Scene {
    solver: *mut GripSolver,
    ids: HashMap<&'static str, u32>,
    stale: *mut GripSolver,
}

fn cloth() -> (Vec<f64>, Vec<u32>) {
    let x = (0..9).flat_map(|v| [0.1 * (v % 3) as f64, 0.1 * (v / 3) as f64, 0.5]).collect();
    let mut t = Vec::new();
    for j in 0..2u32 {
        for i in 0..2u32 {
            let a = 3 * j + i;
            t.extend([a, a + 1, a + 4, a, a + 4, a + 3]);
        }
    }
    (x, t)
}

fn det(x: &[f64], t: &[u32]) -> f64 {
    let p = |k: usize| [x[3 * t[k] as usize], x[3 * t[k] as usize + 1], x[3 * t[k] as usize + 2]];
    let (a, b, c, d) = (p(0), p(1), p(2), p(3));
    let (u, v, w) = (
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        [d[0] - a[0], d[1] - a[1], d[2] - a[2]],
    );
    u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])
}

fn cube() -> (Vec<f64>, Vec<u32>) {
    let x: Vec<f64> = (0..8)
        .flat_map(|v| [1.0 + 0.2 * (v & 1) as f64, 0.2 * ((v >> 1) & 1) as f64, 1.0 + 0.2 * (v >> 2) as f64])
        .collect();
    let mut t = vec![1, 2, 4, 7, 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7];
    for e in 0..5 {
        if det(&x, &t[4 * e..4 * e + 4]) < 0.0 {
            t.swap(4 * e + 2, 4 * e + 3);
        }
    }
    (x, t)
}

fn tetrahedron() -> (Vec<f64>, Vec<u32>) {
    (vec![-3.0, 0.0, 0.0, -2.9, 0.0, 0.0, -3.0, 0.1, 0.0, -3.0, 0.0, 0.1], vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])
}

/// Closed surface of the cube [0, 0.2]³: 8 vertices, 12 outward triangles.
fn cube_surface() -> (Vec<f64>, Vec<u32>) {
    let x = (0..8).flat_map(|v| [0.2 * (v & 1) as f64, 0.2 * ((v >> 1) & 1) as f64, 0.2 * (v >> 2) as f64]).collect();
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let t = quads.iter().flat_map(|[a, b, c, d]| [*a, *b, *c, *a, *c, *d]).collect();
    (x, t)
}

fn ok(s: GripStatus) {
    assert_eq!(s, GripStatus::Ok, "{}", last_error());
}

fn last_error() -> String {
    // SAFETY: never NULL.
    unsafe { CStr::from_ptr(grip_last_error()) }.to_string_lossy().into_owned()
}

impl Scene {
    fn new() -> Self {
        let p = grip_solver_params_default();
        let m = grip_material_default();
        let mut solver = std::ptr::null_mut();
        let mut ids = HashMap::new();
        let (mut id, mut stale) = (0u32, std::ptr::null_mut());
        // SAFETY: every array holds the stated counts; out pointers are valid.
        unsafe {
            ok(grip_solver_create(&p, &mut solver));
            let (x, t) = cloth();
            ok(grip_solver_add_shell(solver, x.as_ptr(), 9, t.as_ptr(), 8, &m, &mut id));
            ids.insert("cloth", id);
            let (x, t) = cube();
            ok(grip_solver_add_solid(solver, x.as_ptr(), 8, t.as_ptr(), 5, &m, &mut id));
            ids.insert("cube", id);
            ok(grip_solver_add_collider_shape(solver, &grip_shape_default(), &mut id));
            ids.insert("plane", id);
            let (x, t) = tetrahedron();
            ok(grip_solver_add_collider_mesh(solver, x.as_ptr(), 4, t.as_ptr(), 4, &mut id));
            ids.insert("collider_mesh", id);
            ok(grip_solver_create(&p, &mut stale));
        }
        grip_solver_destroy(stale);
        grip_solver_destroy(stale); // destroying twice is guarded
        Scene { solver, ids, stale }
    }

    /// Positions and velocities of cloth and cube, and the report, as bits.
    fn snapshot(&self) -> (Vec<u64>, GripStepReport) {
        let mut bits = Vec::new();
        for (name, n) in [("cloth", 9), ("cube", 8)] {
            let mut x = vec![0.0; 3 * n];
            for get in [grip_solver_get_positions, grip_solver_get_velocities] {
                // SAFETY: `x` holds 3 n doubles.
                ok(unsafe { get(self.solver, self.ids[name], x.as_mut_ptr(), n) });
                bits.extend(x.iter().map(|v| v.to_bits()));
            }
        }
        let mut r = GripStepReport::default();
        // SAFETY: valid out pointer.
        ok(unsafe { grip_solver_get_report(self.solver, &mut r) });
        (bits, r)
    }
}

/// A parsed mutation target: `arg`, `arg[i]`, `arg.field`, `arg.field[i]`.
fn split_key(key: &str) -> (String, Option<String>, Option<usize>) {
    let (head, index) = match key.find('[') {
        Some(b) => (&key[..b], Some(key[b + 1..key.len() - 1].parse().expect("index"))),
        None => (key, None),
    };
    match head.split_once('.') {
        Some((a, f)) => (a.into(), Some(f.into()), index),
        None => (head.into(), None, index),
    }
}

/// Arguments of one call: base values, changed by the mutations.
#[derive(Default)]
struct Args {
    f64s: HashMap<String, Vec<f64>>,
    u32s: HashMap<String, Vec<u32>>,
    nulls: Vec<String>,
    sizes: HashMap<String, usize>,
    ids: HashMap<String, u32>,
    scalars: HashMap<String, f64>,
    name: String,
    solver: Option<*mut GripSolver>,
    params: GripSolverParams,
    material: GripMaterial,
    shape: GripShape,
}

fn float(v: &str) -> f64 {
    match v {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "max" => f64::MAX,
        _ => v.parse().unwrap_or_else(|_| panic!("not a number: {v}")),
    }
}

fn set_field(args: &mut Args, strukt: &str, field: &str, index: Option<usize>, v: &str) {
    let (p, m, s) = (&mut args.params, &mut args.material, &mut args.shape);
    let i = index.unwrap_or(0);
    match (strukt, field) {
        ("params", "time_step") => p.time_step = float(v),
        ("params", "gravity") => p.gravity[i] = float(v),
        ("params", "contact_thickness") => p.contact_thickness = float(v),
        ("params", "linear_solver") => p.linear_solver = v.parse().unwrap(),
        ("params", "integrator") => p.integrator = v.parse().unwrap(),
        ("params", "contact_kernel") => p.contact_kernel = v.parse().unwrap(),
        ("params", "collider_mesh_contact") => p.collider_mesh_contact = v.parse().unwrap(),
        ("params", "struct_tag") => p.struct_tag = v.parse().unwrap(),
        ("params", "max_newton_iterations") => p.max_newton_iterations = v.parse().unwrap(),
        ("params", "friction_epsilon") => p.friction_epsilon = float(v),
        ("params", "default_friction") => p.default_friction = float(v),
        ("params", "self_contact") => p.self_contact = v.parse().unwrap(),
        ("params", "self_contact_thickness") => p.self_contact_thickness = float(v),
        ("params", "newmark_beta") => p.newmark_beta = float(v),
        ("params", "newmark_gamma") => p.newmark_gamma = float(v),
        ("params", "spectral_radius") => p.spectral_radius = float(v),
        ("params", "modal_count") => p.modal_count = v.parse().unwrap(),
        ("params", "semi_implicit") => p.semi_implicit = v.parse().unwrap(),
        ("params", "failure_policy") => p.failure_policy = v.parse().unwrap(),
        ("material", "poisson_ratio") => m.poisson_ratio = float(v),
        ("material", "density") => m.density = float(v),
        ("material", "thickness") => m.thickness = float(v),
        ("material", "youngs_modulus") => m.youngs_modulus = float(v),
        ("material", "membrane_model") => m.membrane_model = v.parse().unwrap(),
        ("material", "struct_tag") => m.struct_tag = v.parse().unwrap(),
        ("shape", "kind") => s.kind = v.parse().unwrap(),
        ("shape", "radius") => s.radius = float(v),
        ("shape", "axis") => s.axis[i] = float(v),
        ("shape", "center") => s.center[i] = float(v),
        other => panic!("no such field {other:?}"),
    }
}

fn apply(args: &mut Args, scene: &Scene, m: &str) {
    if let Some((a, b)) = m.split_once("<>") {
        let ((an, _, ai), (_, _, bi)) = (split_key(a), split_key(b));
        args.u32s.get_mut(&an).expect("array").swap(ai.unwrap(), bi.unwrap());
        return;
    }
    if let Some((a, list)) = m.split_once("+=") {
        let values = list.split(',').map(|v| v.parse::<u32>().unwrap());
        args.u32s.get_mut(a).expect("array").extend(values);
        return;
    }
    let (key, v) = m.split_once('=').unwrap_or_else(|| panic!("bad mutation {m}"));
    let (arg, field, index) = split_key(key);
    if v == "null" {
        args.nulls.push(arg);
        return;
    }
    if let Some(f) = field {
        return set_field(args, &arg, &f, index, v);
    }
    if arg == "solver" {
        args.solver = Some(match v {
            "stale" => scene.stale,
            "foreign" => 0x1234_5670 as *mut GripSolver,
            _ => panic!("solver={v}"),
        });
    } else if arg == "name" {
        args.name = v.into();
    } else if let Some(i) = index {
        if let Some(a) = args.f64s.get_mut(&arg) {
            a[i] = float(v);
        } else {
            let a = args.u32s.get_mut(&arg).unwrap_or_else(|| panic!("no array {arg}"));
            a[i] = if v == "max" { u32::MAX } else { v.parse().unwrap() };
        }
    } else if args.sizes.contains_key(&arg) {
        args.sizes.insert(arg, if v == "max" { usize::MAX } else { v.parse().unwrap() });
    } else if args.ids.contains_key(&arg) {
        let id = match v.strip_prefix('@') {
            Some(name) => scene.ids[name],
            None => v.parse().unwrap(),
        };
        args.ids.insert(arg, id);
    } else {
        args.scalars.insert(arg, float(v));
    }
}

#[test]
fn every_bad_input_is_refused_with_its_status_and_message_and_changes_nothing() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let scene = Scene::new();
    let mut failures = Vec::new();
    for c in &cases {
        let mut args = base(&c.call, &scene);
        c.mutations.iter().for_each(|m| apply(&mut args, &scene, m));
        let before = scene.snapshot();
        let got = run(&c.call, &args, &scene);
        let message = last_error();
        let what = format!("line {}: {} {}", c.line, c.call, c.mutations.join(" "));
        println!("{what}: {got:?} \"{message}\"");
        if got != c.status || !message.to_lowercase().contains(&c.substring) {
            failures.push(format!("{what}: got {got:?} {message:?}, want {:?} containing {:?}", c.status, c.substring));
            continue;
        }
        let after = scene.snapshot();
        // A failed step reports itself; every other failed call leaves the report alone too.
        let stepping = c.call == "step" || c.call == "advance";
        if before.0 != after.0 || (!stepping && before.1 != after.1) {
            failures.push(format!("{what}: the scene changed"));
        }
        let mut n = 0usize;
        // SAFETY: valid out pointer.
        let extra = unsafe { grip_solver_vertex_count(scene.solver, 5, &mut n) };
        if extra != GripStatus::UnknownObject {
            failures.push(format!("{what}: a refused call added an object"));
            break;
        }
        // SAFETY: live handle.
        let st = unsafe { grip_solver_advance(scene.solver, 1.0 / 240.0) };
        if st != GripStatus::Ok {
            failures.push(format!("{what}: the solver no longer advances: {st:?} {}", last_error()));
        }
    }
    grip_solver_destroy(scene.solver);
    println!("{} bad-input cases through the C API", cases.len());
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
