//! The library that Blender, Houdini and other hosts load (package `grip`, built with its
//! `scene` feature) has none of the command line's crates among its normal dependencies: `clap`,
//! `indicatif` and `png` belong to the `grip` binary (package `grip-cli`, `cli/`). Read from
//! `cargo tree` on the workspace's lock file, offline.

use std::collections::BTreeSet;
use std::process::Command;

/// Crates only the command line may depend on.
const CLI_ONLY: [&str; 3] = ["clap", "indicatif", "png"];

/// The names of every crate in the normal dependency tree of `package` with `args`.
fn normal_dependencies(package: &str, args: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "-e", "normal", "--prefix", "none", "-p", package])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo tree failed:\n{}", String::from_utf8_lossy(&out.stderr));
    text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn the_library_with_scenes_has_no_command_line_crates() {
    let library = normal_dependencies("grip", &["--features", "scene"]);
    assert!(library.contains("toml") && library.contains("serde"), "scene files need toml and serde: {library:?}");
    let found: Vec<&str> = CLI_ONLY.iter().copied().filter(|c| library.contains(*c)).collect();
    assert!(found.is_empty(), "the library depends on command-line crates {found:?}");
}

#[test]
fn the_library_without_scenes_has_no_toml_or_serde() {
    let library = normal_dependencies("grip", &["--no-default-features"]);
    assert!(library.contains("faer"), "{library:?}");
    for c in CLI_ONLY.iter().chain(&["toml", "serde"]) {
        assert!(!library.contains(*c), "the library without `scene` depends on {c}");
    }
}

#[test]
fn the_command_line_has_them() {
    // The check above sees these crates where they are.
    let cli = normal_dependencies("grip-cli", &[]);
    for c in CLI_ONLY {
        assert!(cli.contains(c), "grip-cli should depend on {c}: {cli:?}");
    }
}
