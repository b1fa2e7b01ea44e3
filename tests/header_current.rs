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

/// Everything the header declares lives in grip's namespace: `GRIP_` macros and enum values,
/// `Grip` types and `grip_` functions, so it cannot clash with a host's own names.
#[test]
fn header_names_are_prefixed() {
    let h = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/include/grip.h"));
    let code = h.lines().filter(|l| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'))
    });
    let mut functions = 0;
    for line in code {
        let top_level = !line.starts_with(' ') && !line.starts_with('}');
        if let Some(rest) = line.strip_prefix("#define ") {
            assert!(rest.starts_with("GRIP_"), "macro outside the GRIP_ namespace: {line}");
        } else if let Some(rest) = line.strip_prefix("typedef ") {
            let tokens: Vec<&str> = rest.split_whitespace().collect();
            let name = if let Some(i) = rest.find("(*") {
                rest[i + 2..].split(')').next().unwrap_or("")
            } else if rest.ends_with('{') {
                tokens.get(1).copied().unwrap_or("")
            } else {
                tokens.last().map(|t| t.trim_end_matches(';')).unwrap_or("")
            };
            assert!(name.starts_with("Grip"), "type outside the Grip namespace: {line}");
        } else if top_level && line.contains('(') && !line.starts_with('#') {
            let name = line.split('(').next().unwrap_or("").split_whitespace().last().unwrap_or("");
            let name = name.trim_start_matches('*');
            assert!(name.starts_with("grip_"), "function outside the grip_ namespace: {line}");
            functions += 1;
        } else if line.starts_with("    ") && line.contains(" = ") && line.trim_end().ends_with(',') {
            assert!(line.trim_start().starts_with("GRIP_"), "enum value outside the GRIP_ namespace: {line}");
        } else if let Some(rest) = line.strip_prefix("enum ").or_else(|| line.strip_prefix("struct ")) {
            assert!(rest.starts_with("Grip"), "tag outside the Grip namespace: {line}");
        }
    }
    assert!(functions >= 20, "found only {functions} function declarations");
}
