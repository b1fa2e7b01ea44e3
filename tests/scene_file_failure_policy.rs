//! Scene files carry the failure policy: `failure_policy = "strict" | "continue"` in `[solver]`,
//! `"continue"` when left out (a scene file is a run, and a run goes on past a hard substep),
//! written by the export and read back unchanged; any other value is refused with a message
//! naming the key and the values it takes; `--set solver.failure_policy=...` overrides it.
//! Parsing and export only: no step is taken.
//!
//! Run with `cargo test --release --test scene_file_failure_policy`.

use grip::scene::file::{export::export, load, load_with_overrides, parse};
use grip::FailurePolicy;

mod common;
use common::scene_files::{scene_text, Scratch};

#[test]
fn the_policy_is_read_written_and_read_back() {
    let dir = Scratch::new("policy-round-trip");
    for (line, policy, written) in [
        ("", FailurePolicy::Continue, "failure_policy = \"continue\""),
        ("failure_policy = \"continue\"", FailurePolicy::Continue, "failure_policy = \"continue\""),
        ("failure_policy = \"strict\"", FailurePolicy::Strict, "failure_policy = \"strict\""),
    ] {
        let scene = parse(&scene_text(line), &dir.0, "policy").expect(line);
        assert_eq!(scene.params.failure_policy, policy, "{line:?}");
        let path = export(&scene, &dir.0.join(format!("export-{policy:?}"))).expect("export");
        let text = std::fs::read_to_string(&path).expect("read the exported scene");
        assert!(text.contains(&format!("\n{written}\n")), "{written} not written:\n{text}");
        assert_eq!(load(&path).expect("load the exported scene").params, scene.params, "{line:?}");
    }
}

#[test]
fn other_values_are_refused_naming_the_key_and_the_choices() {
    let dir = Scratch::new("policy-refused");
    for line in
        ["failure_policy = \"stop\"", "failure_policy = \"Strict\"", "failure_policy = 1", "failure_policy = true"]
    {
        let err = parse(&scene_text(line), &dir.0, "policy").expect_err(line);
        assert!(err.contains("failure_policy"), "{line}: the error does not name the key: {err}");
        if line.contains('"') {
            assert!(err.contains("strict") && err.contains("continue"), "{line}: the error lists no choices: {err}");
        }
    }
}

#[test]
fn an_override_sets_the_policy_for_one_run() {
    let dir = Scratch::new("policy-override");
    let path = dir.0.join("scene.toml");
    std::fs::write(&path, scene_text("")).expect("write the scene");
    let strict = load_with_overrides(&path, &["solver.failure_policy=\"strict\"".to_string()]).expect("override");
    assert_eq!(strict.params.failure_policy, FailurePolicy::Strict);
    let err = load_with_overrides(&path, &["solver.failure_policy=never".to_string()]).expect_err("a bad override");
    assert!(err.contains("failure_policy"), "{err}");
}
