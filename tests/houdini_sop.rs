//! The Houdini plugin (`plugins/houdini`) without Houdini:
//! - the Python SOP's logic (`python/grip_houdini.py`) passes `tests/houdini/test_grip_houdini.py`
//!   in the numpy-only venv against this build's cdylib;
//! - the SOP's HDK-independent C++ core compiles as the single translation unit that the hcustom
//!   build (`src/SOP_Grip_hcustom.C`) makes of it, which includes every `src/core/*.cpp`;
//! - the README says that the HDK layer is not compiled in this repository's CI.
//!
//! The core's unit tests run in `tests/host_example.rs` (through the host example's harness).
//! Run with `cargo test --release --test houdini_sop`.

mod cdylib;
mod pyenv;

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn plugin() -> PathBuf {
    root().join("plugins").join("houdini")
}

/// The core's sources, sorted.
fn core_sources() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(plugin().join("src").join("core"))
        .expect("list src/core")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cpp"))
        .collect();
    names.sort();
    names
}

#[test]
fn python_sop_logic_tests_pass() {
    let python = pyenv::ensure_venv("python", &["numpy>=1.24"], &["python3.11", "python3"]);
    let path = std::env::join_paths([root().join("plugins").join("python"), plugin().join("python")]).unwrap();
    let out = Command::new(python)
        .arg(root().join("tests").join("houdini").join("test_grip_houdini.py"))
        .env("GRIP_LIBRARY", cdylib::cdylib_path())
        .env("PYTHONPATH", path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run python");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success() && text.contains("\nOK"), "{text}");
}

#[test]
fn hcustom_unity_build_covers_the_core_and_compiles() {
    let unity = std::fs::read_to_string(plugin().join("src").join("SOP_Grip_hcustom.C")).expect("SOP_Grip_hcustom.C");
    let sources = core_sources();
    assert!(!sources.is_empty());
    for name in &sources {
        assert!(unity.contains(&format!("#include \"core/{name}\"")), "SOP_Grip_hcustom.C misses core/{name}");
    }
    // The core part of that translation unit (SOP_Grip.C itself needs the HDK).
    let dir = std::env::temp_dir().join(format!("grip-hcustom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tu = dir.join("core_unity.cpp");
    let text: String = sources.iter().map(|n| format!("#include \"core/{n}\"\n")).collect();
    std::fs::write(&tu, text).unwrap();
    let out = Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"])
        .arg("-I")
        .arg(plugin().join("src"))
        .arg("-I")
        .arg(plugin().join("src").join("core"))
        .arg("-I")
        .arg(root().join("include"))
        .arg(&tu)
        .output()
        .expect("run g++");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn core_includes_no_hdk_header() {
    for name in std::fs::read_dir(plugin().join("src").join("core")).expect("list src/core") {
        let path = name.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        for line in text.lines().filter(|l| l.trim_start().starts_with("#include")) {
            let hdk = ["<UT/", "<GU/", "<GA/", "<GEO/", "<SOP/", "<OP/", "<PRM/", "<CH/", "<GOP/", "<SYS/"];
            assert!(!hdk.iter().any(|h| line.contains(h)), "{}: {line}", path.display());
        }
    }
}

#[test]
fn readme_says_the_hdk_layer_is_not_compiled_in_ci() {
    let readme = std::fs::read_to_string(plugin().join("README.md")).expect("README.md");
    assert!(readme.contains("**The HDK layer is not compiled in this repository's CI.**"));
}
