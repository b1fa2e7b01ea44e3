//! The fuzz targets of `fuzz/` on stable Rust, bounded: each decoder (`fuzz/common/`) runs over
//! its seed corpus (`fuzz/seeds/TARGET/`, taken from a libFuzzer run), every crash reproducer
//! kept as a regression (`fuzz/regressions/TARGET/`), and [`RANDOM_INPUTS`] pseudo-random byte
//! strings from a fixed seed. With `GRIP_FUZZ_SECONDS=N` each target also keeps drawing random
//! inputs for N seconds (what `fuzz/run.sh` falls back to without a nightly toolchain).
//! A finding is a panic: a panic reaching the C boundary, a failure without a message, a
//! non-finite state after a successful step or a failed step that changed the state.

#[path = "../fuzz/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Pseudo-random inputs per target in every run.
const RANDOM_INPUTS: usize = 300;

fn files(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(dir);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .map(|p| (p.display().to_string(), std::fs::read(&p).expect("read input")))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u8 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 56) as u8
    }
    fn input(&mut self) -> Vec<u8> {
        let n = 1 + self.next() as usize;
        (0..n).map(|_| self.next()).collect()
    }
}

fn replay(target: &str, run: fn(&[u8])) {
    let seeds = files(&format!("seeds/{target}"));
    let regressions = files(&format!("regressions/{target}"));
    assert!(!seeds.is_empty(), "no seeds for {target}");
    for (name, data) in seeds.iter().chain(&regressions) {
        println!("{name}");
        run(data);
    }
    let mut rng = Lcg(0x6772_6970 ^ target.len() as u64);
    let mut count = 0;
    for _ in 0..RANDOM_INPUTS {
        run(&rng.input());
        count += 1;
    }
    let seconds: u64 = std::env::var("GRIP_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(seconds) {
        run(&rng.input());
        count += 1;
    }
    println!("fuzz replay {target}: {} seeds, {} regressions, {count} random inputs", seeds.len(), regressions.len());
}

#[test]
fn api_sequence_replay() {
    replay("api_sequence", common::api_sequence::run);
}

#[test]
fn mesh_input_replay() {
    replay("mesh_input", common::mesh_input::run);
}
