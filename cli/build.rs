//! Passes the compiler's version to the crate as `GRIP_RUSTC_VERSION`, for the machine section
//! of BENCHMARKS.md (`grip bench --report`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    println!("cargo:rustc-env=GRIP_RUSTC_VERSION={version}");
}
