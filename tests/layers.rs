//! The crate's modules form layers: each may use the ones below it, never one above. The
//! layers, lowest first, are listed in [`LAYERS`]; this test reads every source file under
//! `src/`, collects the top-level modules it names through `crate::` paths (comments aside),
//! counting a name the crate root re-exports (`crate::Solver`) as a use of the module it comes
//! from, and fails on any that sits above the file's own module. The crate documentation in
//! `src/lib.rs` lists the same layers with the same descriptions, checked here too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules, lowest layer first, each with its description in the crate documentation.
const LAYERS: &[(&str, &str)] = &[
    ("math", "small-vector arithmetic, forward-mode automatic differentiation"),
    ("error", "the crate's error type"),
    ("mesh", "mesh validation, topology, geometry, tetrahedralization"),
    ("solve", "Newton and the linear solvers, over any nonlinear system"),
    ("energy", "elastic energies of single elements"),
    ("contact", "contact and friction laws: colliders, implicit surfaces, self-contact"),
    ("model", "what is simulated: parameters, materials, objects"),
    ("assemble", "one implicit stage's residual, merit and Jacobian from the model's terms"),
    ("integrate", "time stepping: schemes, substeps, retries, the report"),
    ("solver", "the Rust API: state, step/advance, checkpoints"),
    ("analytic", "experiments with closed-form answers"),
    ("io", "mesh files (OBJ, VTK, USD) and previews"),
    ("scene", "scenes, scene files, motions, the frame driver (feature `scene`)"),
    ("capi", "the C API (`include/grip.h`)"),
];

fn lib_source() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap()
}

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

/// The names a use tree such as `a::{b, c::d as e, f::{self, g}}` brings into scope: its leaves,
/// renamed by `as`, with `self` standing for the path it ends.
fn use_tree_names(tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) {
        let prefix = tree[..open].trim_end_matches("::");
        let inner = &tree[open + 1..tree.len() - 1];
        let mut depth = 0;
        let mut start = 0;
        let mut parts = Vec::new();
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        for part in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
            if part == "self" {
                out.push(prefix.rsplit("::").next().unwrap().trim().to_string());
            } else {
                use_tree_names(part, out);
            }
        }
    } else if let Some((_, alias)) = tree.split_once(" as ") {
        out.push(alias.trim().to_string());
    } else {
        let last = tree.rsplit("::").next().unwrap().trim();
        assert!(last != "*", "`use {tree}` in src/lib.rs: a glob re-export hides which names it brings in");
        out.push(last.to_string());
    }
}

/// Each name the crate root's `use` items (`pub use error::{Error, Result};`) bring in, mapped
/// to the top-level module it comes from: `crate::Error` is a use of `error`.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for item in strip_comments(lib).split(';') {
        // Attributes before the item (`#[cfg(…)]`, the crate's `#![…]`).
        let mut item = item.trim_start();
        while item.starts_with('#') {
            let end = item.find(']').expect("an attribute ends");
            item = item[end + 1..].trim_start();
        }
        if let Some(rest) = item.strip_prefix("pub") {
            let rest = rest.trim_start();
            item = if rest.starts_with('(') { rest[rest.find(')').unwrap() + 1..].trim_start() } else { rest };
        }
        let Some(tree) = item.strip_prefix("use ") else { continue };
        let tree = tree.trim().trim_start_matches("::");
        let tree = tree.strip_prefix("crate::").unwrap_or(tree);
        let module: String = tree.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let mut names = Vec::new();
        use_tree_names(tree, &mut names);
        for name in names {
            map.insert(name, module.clone());
        }
    }
    map
}

/// The top-level modules `code` uses through `crate::` paths, a re-exported name counting as its
/// module.
fn used_modules(code: &str, reexports: &BTreeMap<String, String>) -> BTreeSet<String> {
    named_modules(code).into_iter().map(|name| reexports.get(&name).cloned().unwrap_or(name)).collect()
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rank = |m: &str| LAYERS.iter().position(|(l, _)| *l == m);
    let reexports = reexports(&lib_source());
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
        for used in used_modules(&code, &reexports) {
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
fn a_name_the_crate_root_reexports_counts_as_its_module() {
    let lib = "#![warn(missing_docs)]\npub mod error;\npub use error::{Error, Result};\n\
               #[cfg(feature = \"x\")]\npub use solver::{self, Solver as S, step::{StepReport}};\n\
               pub(crate) use model::Material; // a comment: pub use io::Mesh;";
    let map = reexports(lib);
    let pairs: Vec<_> = map.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("Error", "error"),
            ("Material", "model"),
            ("Result", "error"),
            ("S", "solver"),
            ("StepReport", "solver"),
            ("solver", "solver")
        ]
    );
    let code = "use crate::{Error, math::Vec3};\nfn f() -> crate::Result<crate::S> { todo!() }";
    let used: Vec<_> = used_modules(code, &map).into_iter().collect();
    assert_eq!(used, ["error", "math", "solver"]);
    // The crate's own re-exports.
    let map = reexports(&lib_source());
    assert_eq!(map.get("Solver").map(String::as_str), Some("solver"));
    assert_eq!(map.get("Result").map(String::as_str), Some("error"));
    assert_eq!(map.get("SolverParams").map(String::as_str), Some("model"));
}

#[test]
fn every_top_level_module_has_a_layer() {
    for line in lib_source().lines() {
        if let Some(name) = line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")) {
            let name = name.trim_end_matches(';');
            assert!(LAYERS.iter().any(|(l, _)| *l == name), "`{name}` is missing from LAYERS");
        }
    }
}

/// The crate documentation's layer list (the first list after "Layout:", one ``- `name`: description``
/// line each)
/// names the layers of [`LAYERS`], in its order, with its descriptions.
#[test]
fn the_crate_documentation_lists_the_layers_in_order() {
    let lib = lib_source();
    let layout = lib.find("//! Layout:").expect("src/lib.rs has a \"Layout:\" paragraph");
    let listed: Vec<(String, String)> = lib[layout..]
        .lines()
        .map_while(|l| l.strip_prefix("//!"))
        .map(str::trim)
        .skip_while(|l| !l.starts_with("- "))
        .take_while(|l| l.starts_with("- "))
        .map(|l| {
            let l =
                l.strip_prefix("- `").unwrap_or_else(|| panic!("`{l}`: a layer is written \"- `name`: description\""));
            let (name, description) = l.split_once('`').expect("a closing backtick");
            let description = description.strip_prefix(':').expect("`name`: description").trim();
            (name.to_string(), description.to_string())
        })
        .collect();
    let expected: Vec<(String, String)> = LAYERS.iter().map(|(n, d)| (n.to_string(), d.to_string())).collect();
    assert_eq!(listed, expected, "the crate documentation's layers differ from LAYERS");
}
