//! `grip run --checkpoint` / `--resume`: after every frame the run writes `checkpoint.grip` in
//! its output directory (the frame number, the frame rate and the solver's state,
//! [`Solver::checkpoint`]); a run started with `--resume` on the same scene and output directory
//! restores that state and goes on from the next frame, keeping the OBJs and `stats.csv` rows
//! written so far. A bake interrupted by a crash or the end of a session then continues as if it
//! had never stopped (bit for bit: cli/tests/checkpoint_resume.rs).
//!
//! File format (little-endian): the magic `GRIPRUN1`, the frame (u64), the frames per second
//! (f64), then the solver's bytes. It is written to a temporary file and renamed, so an
//! interruption while writing leaves the previous checkpoint whole.

use crate::solver::Solver;
use std::io::Write;
use std::path::{Path, PathBuf};

/// First bytes of a run checkpoint.
const MAGIC: &[u8; 8] = b"GRIPRUN1";

/// The checkpoint file of output directory `out`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    out.join("checkpoint.grip")
}

/// Writes the state of `solver` after `frame` at `fps` frames per second into `out`.
pub fn write_checkpoint(out: &Path, frame: usize, fps: f64, solver: &Solver) -> Result<(), String> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(frame as u64).to_le_bytes());
    bytes.extend_from_slice(&fps.to_le_bytes());
    bytes.extend_from_slice(&solver.checkpoint());
    let path = checkpoint_path(out);
    let partial = out.join("checkpoint.grip.partial");
    let written = std::fs::File::create(&partial).and_then(|mut f| {
        f.write_all(&bytes)?;
        f.sync_all()
    });
    written.and_then(|_| std::fs::rename(&partial, &path)).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes the checkpoint in `out`, if any (a new run starts there).
pub fn remove_checkpoint(out: &Path) -> Result<(), String> {
    let path = checkpoint_path(out);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("cannot remove {}: {e}", path.display())),
        _ => Ok(()),
    }
}

/// Reads the checkpoint in `out` for a run at `fps` frames per second of `frames` frames:
/// the frame it was written after and the solver's bytes (for [`Solver::restore`]). Fails when
/// the file is missing or malformed, was written at another frame rate or is past `frames`.
pub fn read_checkpoint(out: &Path, fps: f64, frames: usize) -> Result<(usize, Vec<u8>), String> {
    let path = checkpoint_path(out);
    let mut bytes = std::fs::read(&path).map_err(|e| format!("cannot resume: {}: {e}", path.display()))?;
    let fail = |m: String| format!("cannot resume from {}: {m}", path.display());
    if bytes.len() < 24 || &bytes[..8] != MAGIC {
        return Err(fail("not a grip run checkpoint".into()));
    }
    let frame = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    let written_fps = f64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    if written_fps.to_bits() != fps.to_bits() {
        return Err(fail(format!("written at {written_fps} frames per second, this run has {fps}")));
    }
    let frame = usize::try_from(frame).ok().filter(|&f| f <= frames);
    let frame = frame.ok_or_else(|| fail(format!("it is past the run's last frame {frames}")))?;
    bytes.drain(..24);
    Ok((frame, bytes))
}
