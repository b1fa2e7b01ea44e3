//! Where the cdylib of this build is, for the tests that load it from C, C++ and Python.

use std::path::{Path, PathBuf};

/// File name of the cdylib on this platform.
pub fn lib_name() -> &'static str {
    if cfg!(target_os = "macos") {
        "libgrip.dylib"
    } else {
        "libgrip.so"
    }
}

/// The cdylib of this very build: the test binary's `deps/`, where `cargo test` builds it; the
/// profile dir (`target/release`) only as a fallback, because `cargo test` does not refresh the
/// copy there (it may be left from an older `cargo build`).
pub fn cdylib_path() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test binary has a parent dir").to_path_buf();
    let candidates = [Some(deps.clone()), deps.parent().map(Path::to_path_buf)];
    for dir in candidates.iter().flatten() {
        let lib = dir.join(lib_name());
        if lib.is_file() {
            return lib;
        }
    }
    panic!("{} not found in {} or its parent; build the cdylib first", lib_name(), deps.display());
}
