//! The committed `include/grip.h` must equal what cbindgen generates from the current sources
//! (build.rs writes it to `$OUT_DIR/grip.h`). Regenerate with `GRIP_WRITE_HEADER=1 cargo build`.

#[test]
fn committed_header_matches_generated_header() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/grip.h"));
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/grip.h"))
        .expect("include/grip.h is missing");
    assert!(
        generated == committed,
        "include/grip.h is stale: run `GRIP_WRITE_HEADER=1 cargo build` and commit the result"
    );
}

#[test]
fn header_declares_the_v1_api() {
    let h = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/grip.h"));
    for symbol in [
        "grip_abi_version",
        "grip_version",
        "grip_last_error",
        "grip_solver_params_default",
        "grip_material_default",
        "grip_solver_create",
        "grip_solver_destroy",
        "grip_solver_add_solid",
        "grip_solver_add_shell",
        "grip_solver_set_vertex_attribute",
        "grip_solver_step",
        "grip_solver_advance",
        "grip_solver_vertex_count",
        "grip_solver_get_positions",
        "grip_solver_get_velocities",
        "grip_solver_get_report",
        "grip_solver_set_progress_callback",
        "grip_sizeof_solver_params",
        "grip_sizeof_material",
        "grip_sizeof_step_report",
        "GRIP_STATUS_OK = 0",
        "GRIP_STATUS_NULL_POINTER = 1",
        "GRIP_STATUS_INVALID_ARGUMENT = 2",
        "GRIP_STATUS_INVALID_MESH = 3",
        "GRIP_STATUS_UNKNOWN_OBJECT = 4",
        "GRIP_STATUS_NOT_CONVERGED = 5",
        "GRIP_STATUS_CANCELLED = 6",
        "GRIP_STATUS_PANIC = 7",
    ] {
        assert!(h.contains(symbol), "grip.h lacks {symbol}");
    }
}
