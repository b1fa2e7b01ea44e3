//! Fuzz decoders shared by the cargo-fuzz targets (`fuzz/fuzz_targets/`) and the bounded
//! stable-Rust replay in `tests/fuzz_replay.rs`.
#![allow(dead_code)]

pub mod api_sequence;
pub mod bytes;
pub mod checks;
pub mod mesh_input;
