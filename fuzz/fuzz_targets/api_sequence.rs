//! cargo-fuzz target: see `fuzz/common/api_sequence.rs`.
#![no_main]

#[path = "../common/mod.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::api_sequence::run(data));
