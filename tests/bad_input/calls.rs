//! The calls of the bad-input matrix (`tests/bad_input.rs`): each call's valid base arguments
//! for the scene, and the dispatch of one call through the C API.

use super::*;

/// The base arguments of `call`, valid for the scene.
pub(super) fn base(call: &str, scene: &Scene) -> Args {
    let mut a = Args {
        params: grip_solver_params_default(),
        material: grip_material_default(),
        shape: grip_shape_default(),
        name: "velocity".into(),
        ..Default::default()
    };
    let mut arrays = |x: Vec<f64>, t: Vec<u32>, n: usize, tn: &str, e: usize, en: &str| {
        a.sizes.insert("vertex_count".into(), n);
        a.sizes.insert(en.into(), e);
        a.f64s.insert("positions".into(), x);
        a.u32s.insert(tn.into(), t);
    };
    match call {
        "add_shell" => {
            let (x, t) = cloth();
            arrays(x, t, 9, "triangles", 8, "triangle_count");
        }
        "add_solid" => {
            let (x, t) = cube();
            arrays(x, t, 8, "tets", 5, "tet_count");
        }
        "add_collider_mesh" => {
            let (x, t) = tetrahedron();
            arrays(x, t, 4, "triangles", 4, "triangle_count");
        }
        "tetrahedralize" => {
            let (x, t) = cube_surface();
            arrays(x, t, 8, "triangles", 12, "triangle_count");
            a.scalars.insert("cell_size".into(), 0.05);
        }
        _ => {}
    }
    let identity: Vec<f64> = (0..16).map(|i| if i % 5 == 0 { 1.0 } else { 0.0 }).collect();
    let ids = &scene.ids;
    match call {
        "set_collider_transform" => {
            a.ids.insert("id".into(), ids["plane"]);
            a.f64s.insert("matrix".into(), identity);
        }
        "set_collider_positions" => {
            a.ids.insert("id".into(), ids["collider_mesh"]);
            a.f64s.insert("xyz".into(), tetrahedron().0);
            a.sizes.insert("vertex_count".into(), 4);
        }
        "set_friction" => {
            a.ids.insert("a".into(), ids["cloth"]);
            a.ids.insert("b".into(), ids["plane"]);
            a.scalars.insert("mu".into(), 0.3);
        }
        "set_object_self_contact" => {
            a.ids.insert("id".into(), ids["cloth"]);
            a.sizes.insert("enabled".into(), 1);
            a.scalars.insert("thickness".into(), 0.002);
        }
        "set_attr" => {
            a.ids.insert("id".into(), ids["cloth"]);
            a.f64s.insert("values".into(), vec![0.0; 27]);
            a.sizes.insert("vertex_count".into(), 9);
            a.sizes.insert("components".into(), 3);
        }
        "get_positions" | "get_velocities" => {
            a.ids.insert("id".into(), ids["cloth"]);
            a.sizes.insert("vertex_count".into(), 9);
        }
        "vertex_count" => {
            a.ids.insert("id".into(), ids["cloth"]);
        }
        "step" => {
            a.scalars.insert("dt".into(), 0.01);
        }
        "advance" => {
            a.scalars.insert("duration".into(), 0.01);
        }
        _ => {}
    }
    a
}

impl Args {
    fn null(&self, arg: &str) -> bool {
        self.nulls.iter().any(|n| n == arg)
    }
    fn f64p(&self, arg: &str) -> *const f64 {
        if self.null(arg) {
            std::ptr::null()
        } else {
            self.f64s[arg].as_ptr()
        }
    }
    fn u32p(&self, arg: &str) -> *const u32 {
        if self.null(arg) {
            std::ptr::null()
        } else {
            self.u32s[arg].as_ptr()
        }
    }
    fn ptr<T>(&self, arg: &str, value: &T) -> *const T {
        if self.null(arg) {
            std::ptr::null()
        } else {
            value
        }
    }
    fn out<T>(&self, value: &mut T) -> *mut T {
        if self.null("out") {
            std::ptr::null_mut()
        } else {
            value
        }
    }
}

/// Runs one call; the arrays behind every pointer hold at least the counts passed, except where
/// a count is deliberately huge (grip refuses those before reading).
pub(super) fn run(call: &str, a: &Args, scene: &Scene) -> GripStatus {
    let s = if a.null("solver") { std::ptr::null_mut() } else { a.solver.unwrap_or(scene.solver) };
    let size = |k: &str| a.sizes[k];
    let id = |k: &str| a.ids[k];
    let mut out_id = 0u32;
    let mut out_buf = vec![0.0; 64];
    let name = CString::new(a.name.clone()).unwrap();
    let name_p: *const c_char = if a.null("name") { std::ptr::null() } else { name.as_ptr() };
    // SAFETY: see the function comment.
    unsafe {
        match call {
            "create" => {
                let mut out: *mut GripSolver = std::ptr::null_mut();
                let st = grip_solver_create(a.ptr("params", &a.params), a.out(&mut out));
                if !out.is_null() {
                    grip_solver_destroy(out);
                }
                st
            }
            "add_shell" => grip_solver_add_shell(
                s,
                a.f64p("positions"),
                size("vertex_count"),
                a.u32p("triangles"),
                size("triangle_count"),
                a.ptr("material", &a.material),
                a.out(&mut out_id),
            ),
            "add_solid" => grip_solver_add_solid(
                s,
                a.f64p("positions"),
                size("vertex_count"),
                a.u32p("tets"),
                size("tet_count"),
                a.ptr("material", &a.material),
                a.out(&mut out_id),
            ),
            "add_collider_mesh" => grip_solver_add_collider_mesh(
                s,
                a.f64p("positions"),
                size("vertex_count"),
                a.u32p("triangles"),
                size("triangle_count"),
                a.out(&mut out_id),
            ),
            "add_collider_shape" => grip_solver_add_collider_shape(s, a.ptr("shape", &a.shape), a.out(&mut out_id)),
            "tetrahedralize" => {
                let mut mesh: *mut GripTetMesh = std::ptr::null_mut();
                let st = grip_tetrahedralize(
                    a.f64p("positions"),
                    size("vertex_count"),
                    a.u32p("triangles"),
                    size("triangle_count"),
                    a.scalars["cell_size"],
                    a.out(&mut mesh),
                );
                if !mesh.is_null() {
                    grip_tet_mesh_destroy(mesh);
                }
                st
            }
            "set_collider_transform" => grip_solver_set_collider_transform(s, id("id"), a.f64p("matrix")),
            "set_collider_positions" => {
                grip_solver_set_collider_positions(s, id("id"), a.f64p("xyz"), size("vertex_count"))
            }
            "set_friction" => grip_solver_set_friction(s, id("a"), id("b"), a.scalars["mu"]),
            "set_object_self_contact" => {
                grip_solver_set_object_self_contact(s, id("id"), size("enabled") as u32, a.scalars["thickness"])
            }
            "set_attr" => grip_solver_set_vertex_attribute(
                s,
                id("id"),
                name_p,
                a.f64p("values"),
                size("vertex_count"),
                size("components"),
            ),
            "step" => grip_solver_step(s, a.scalars["dt"]),
            "advance" => grip_solver_advance(s, a.scalars["duration"]),
            "get_positions" | "get_velocities" => {
                let get = if call == "get_positions" { grip_solver_get_positions } else { grip_solver_get_velocities };
                let out = if a.null("out") { std::ptr::null_mut() } else { out_buf.as_mut_ptr() };
                get(s, id("id"), out, size("vertex_count"))
            }
            "get_report" => {
                let mut r = GripStepReport::default();
                grip_solver_get_report(s, a.out(&mut r))
            }
            "vertex_count" => {
                let mut n = 0usize;
                grip_solver_vertex_count(s, id("id"), a.out(&mut n))
            }
            other => panic!("unknown call {other}"),
        }
    }
}
