//! The crate's modules form layers: each may use the ones below it, never one above. The
//! layers, lowest first, are listed in [`LAYERS`]; this test reads every source file under
//! `src/`, collects the top-level modules it names through `crate::` paths (comments aside), and
//! fails on any that sits above the file's own module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules, lowest layer first.
const LAYERS: &[&str] = &[
    "math",      // small-vector arithmetic, forward-mode AD
    "error",     // the crate's error type
    "mesh",      // mesh validation, topology, geometry, tetrahedralization
    "solve",     // Newton and the linear solvers, over any nonlinear system
    "energy",    // elastic energies of single elements
    "contact",   // contact and friction laws: colliders, implicit surfaces, self-contact
    "model",     // what is simulated: parameters, materials, objects
    "assemble",  // one implicit stage's residual, merit and Jacobian from the model's terms
    "integrate", // schemes, substeps, retries, the report
    "solver",    // the Rust API: state, step/advance, checkpoints
    "analytic",  // experiments with closed-form answers
    "io",        // mesh files and previews
    "scene",     // scenes, scene files, motions, the frame driver (feature `scene`)
    "capi",      // the C API
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without `//` comments (doc links may point anywhere).
fn strip_comments(source: &str) -> String {
    source.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// The top-level modules named by `crate::name` or `crate::{a, b::c, …}` in `code`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names in a braced group: after `{` and after each comma at depth 0.
            let mut depth = 0;
            let mut start = true;
            for (k, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        names.insert(ident(&group[k..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut upward = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let own = rank(&top).unwrap_or_else(|| panic!("module `{top}` ({}) is not in LAYERS", rel.display()));
        let code = strip_comments(&std::fs::read_to_string(file).unwrap());
        for used in named_modules(&code) {
            let Some(r) = rank(&used) else { continue };
            if used != top {
                graph.entry(top.clone()).or_default().insert(used.clone());
            }
            if r > own {
                upward.push(format!("{} uses `{used}`, a layer above `{top}`", rel.display()));
            }
        }
    }
    for (m, uses) in &graph {
        println!("{m} -> {}", uses.iter().cloned().collect::<Vec<_>>().join(" "));
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn the_layer_check_sees_braced_and_nested_paths() {
    let code = "use crate::{a, b::{c, d}, e::f};\nlet x = crate::g::h(1);";
    let names: Vec<_> = named_modules(code).into_iter().collect();
    assert_eq!(names, ["a", "b", "e", "g"]);
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(name) = line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")) {
            let name = name.trim_end_matches(';');
            assert!(LAYERS.contains(&name), "`{name}` is missing from LAYERS");
        }
    }
}
