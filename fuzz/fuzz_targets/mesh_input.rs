//! cargo-fuzz target: see `fuzz/common/mesh_input.rs`.
#![no_main]

#[path = "../common/mod.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::mesh_input::run(data));
