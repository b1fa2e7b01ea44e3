//! Scene files carry the integrator choices: `integrator` (0 to 9) and `newmark_beta`,
//! `newmark_gamma`, `spectral_radius`, `modal_count` and `semi_implicit` of `[solver]` are read,
//! written by the export and read back unchanged; a value out of range is refused with an error
//! naming the key. Parsing and export only: no step is taken.
//!
//! Run with `cargo test --release --test scene_file_integrators`.

use grip::scene::file::{codes, export::export, load, parse};
use grip::{FailurePolicy, Integrator, SolverParams};
use std::path::Path;

mod common;
use common::scene_files::{scene_text, Scratch};

fn parse_solver(dir: &Path, solver: &str) -> Result<SolverParams, String> {
    parse(&scene_text(solver), dir, "integrators").map(|scene| scene.params)
}

#[test]
fn every_integrator_code_is_read_and_written_back() {
    let dir = Scratch::new("integrators-codes");
    let expected = [
        Integrator::BackwardEuler,
        Integrator::Trapezoidal,
        Integrator::Bdf2,
        Integrator::TrBdf2,
        Integrator::Sdirk2,
        Integrator::SemiImplicit,
        Integrator::Newmark,
        Integrator::GeneralizedAlpha,
        Integrator::ExponentialEuler,
        Integrator::Siere,
    ];
    for (code, integrator) in expected.into_iter().enumerate() {
        let code = code as u32;
        assert_eq!(codes::integrator(code), Some(integrator));
        assert_eq!(codes::integrator_code(integrator), code);
        let scene = parse(&scene_text(&format!("integrator = {code}")), &dir.0, "codes").expect("parse");
        assert_eq!(scene.params.integrator, integrator, "integrator = {code}");
        let written = export(&scene, &dir.0.join(format!("export-{code}"))).expect("export");
        let text = std::fs::read_to_string(&written).expect("read exported scene");
        assert!(text.contains(&format!("\nintegrator = {code}\n")), "integrator = {code} not written:\n{text}");
        assert_eq!(load(&written).expect("load exported scene").params, scene.params, "integrator = {code}");
    }
    assert_eq!(codes::integrator(10), None);
}

#[test]
fn integrator_fields_round_trip_through_export_and_import() {
    let dir = Scratch::new("integrators-fields");
    let solver = "integrator = 7\nspectral_radius = 0.6\nnewmark_beta = 0.3025\nnewmark_gamma = 0.6\n\
                  modal_count = 12\nsemi_implicit = true";
    let scene = parse(&scene_text(solver), &dir.0, "fields").expect("parse");
    let p = &scene.params;
    assert_eq!(p.integrator, Integrator::GeneralizedAlpha);
    assert_eq!((p.spectral_radius, p.newmark_beta, p.newmark_gamma), (0.6, 0.3025, 0.6));
    assert_eq!((p.modal_count, p.semi_implicit), (12, true));

    let written = export(&scene, &dir.0.join("export")).expect("export");
    let text = std::fs::read_to_string(&written).expect("read exported scene");
    for line in [
        "integrator = 7",
        "spectral_radius = 0.6",
        "newmark_beta = 0.3025",
        "newmark_gamma = 0.6",
        "modal_count = 12",
        "semi_implicit = true",
    ] {
        assert!(text.contains(&format!("\n{line}\n")), "{line} not written:\n{text}");
    }
    let back = load(&written).expect("load exported scene");
    assert_eq!(back.params, scene.params);

    // Keys left out keep the defaults, which the export writes too (a scene file's failure
    // policy is continue, the library's strict).
    let d = SolverParams { failure_policy: FailurePolicy::Continue, ..SolverParams::default() };
    let plain = parse_solver(&dir.0, "").expect("parse");
    assert_eq!(plain, d);
    assert_eq!(
        (d.newmark_beta, d.newmark_gamma, d.spectral_radius, d.modal_count, d.semi_implicit),
        (0.25, 0.5, 0.8, 10, false)
    );
    let scene = parse(&scene_text(""), &dir.0, "defaults").expect("parse");
    let written = export(&scene, &dir.0.join("defaults")).expect("export");
    assert_eq!(load(&written).expect("load").params, d);
}

#[test]
fn integrator_values_out_of_range_are_refused_naming_the_key() {
    let dir = Scratch::new("integrators-refused");
    let cases = [
        ("integrator = 10", "params.integrator"),
        ("newmark_beta = 0.0", "params.newmark_beta"),
        ("newmark_beta = 1.5", "params.newmark_beta"),
        ("newmark_beta = nan", "params.newmark_beta"),
        ("newmark_gamma = 0.4", "params.newmark_gamma"),
        ("newmark_gamma = 1.1", "params.newmark_gamma"),
        ("spectral_radius = 1.5", "params.spectral_radius"),
        ("spectral_radius = -0.1", "params.spectral_radius"),
        ("modal_count = 0", "params.modal_count"),
        ("modal_count = 201", "params.modal_count"),
        // Wrong TOML types: the parser's message quotes the line, key included.
        ("modal_count = -1", "modal_count"),
        ("modal_count = 2.5", "modal_count"),
        ("semi_implicit = 2", "semi_implicit"),
        ("spectral_radius = \"high\"", "spectral_radius"),
    ];
    for (line, key) in cases {
        let err = parse_solver(&dir.0, line).expect_err(line);
        assert!(err.contains(key), "{line}: the error does not name {key}: {err}");
        if key.starts_with("params.") {
            assert!(err.starts_with("[solver]"), "{line}: the error does not name the table: {err}");
        }
    }
}
