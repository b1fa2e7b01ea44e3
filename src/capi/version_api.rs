//! Versions, defaults and struct sizes, for hosts and language bindings to check against.

use super::types::{GripMaterial, GripSolverParams, GripStepReport};
use std::ffi::c_char;

/// ABI version of this header and library: bumped on any change of a struct layout, a
/// signature or an enum value. Bindings refuse a library whose `grip_abi_version()` differs.
pub const GRIP_ABI_VERSION: u32 = 8;

/// The ABI version of the loaded library (equals `GRIP_ABI_VERSION` of a matching header).
#[no_mangle]
pub extern "C" fn grip_abi_version() -> u32 {
    GRIP_ABI_VERSION
}

/// The crate version, e.g. "0.1.0"; a static string, never freed.
#[no_mangle]
pub extern "C" fn grip_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// Default solver parameters (see each field for its default and unit).
#[no_mangle]
pub extern "C" fn grip_solver_params_default() -> GripSolverParams {
    GripSolverParams::default()
}

/// Default material: a woven cotton-like cloth (see each field).
#[no_mangle]
pub extern "C" fn grip_material_default() -> GripMaterial {
    GripMaterial::default()
}

/// `sizeof(GripSolverParams)` as compiled into the library.
#[no_mangle]
pub extern "C" fn grip_sizeof_solver_params() -> usize {
    std::mem::size_of::<GripSolverParams>()
}

/// `sizeof(GripMaterial)` as compiled into the library.
#[no_mangle]
pub extern "C" fn grip_sizeof_material() -> usize {
    std::mem::size_of::<GripMaterial>()
}

/// `sizeof(GripStepReport)` as compiled into the library.
#[no_mangle]
pub extern "C" fn grip_sizeof_step_report() -> usize {
    std::mem::size_of::<GripStepReport>()
}

/// `sizeof(GripRunSummary)` as compiled into the library.
#[cfg(feature = "scene")]
#[no_mangle]
pub extern "C" fn grip_sizeof_run_summary() -> usize {
    std::mem::size_of::<super::scene_run_api::GripRunSummary>()
}
