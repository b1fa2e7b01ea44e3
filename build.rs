//! Generates the C header with cbindgen into `$OUT_DIR/grip.h` on every build; with
//! `GRIP_WRITE_HEADER=1` it also writes `include/grip.h` (committed). The test
//! `tests/header_current.rs` fails when the committed header differs from the generated one.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=GRIP_WRITE_HEADER");
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = match cbindgen::Builder::new().with_crate(&crate_dir).with_config(config).generate() {
        Ok(b) => b,
        Err(e) => {
            // A syntax error in src/ is reported by rustc itself; do not mask it here.
            println!("cargo:warning=cbindgen could not generate grip.h: {e}");
            return;
        }
    };
    bindings.write_to_file(out_dir.join("grip.h"));
    if std::env::var("GRIP_WRITE_HEADER").map(|v| v == "1").unwrap_or(false) {
        bindings.write_to_file(crate_dir.join("include").join("grip.h"));
    }
}
