//! Mesh input/output and preview rendering.
//!
//! * [`obj`]: Wavefront OBJ surface meshes (read and write).
//! * [`vtk`]: legacy VTK unstructured grids and polydata (read ASCII/BINARY, write ASCII).
//! * [`preview`]: a small software rasterizer producing flat-shaded PNG previews.
//! * [`usda`]: USD ASCII layers of animated triangle meshes (write).
//!
//! All coordinates are `f64` in SI units (metres). Readers never panic on malformed
//! input; they return an [`IoError`] whose message names the offending line, section or
//! path.

pub mod obj;
pub mod preview;
pub mod usda;
pub mod vtk;

use std::fmt;

/// Error produced by every reader, writer and renderer in this module.
#[derive(Debug, Clone, PartialEq)]
pub struct IoError {
    /// Human-readable description, including the path and/or line number where known.
    pub message: String,
}

impl IoError {
    /// Returns a copy of this error with `context` (e.g. a file path) prepended.
    pub fn context(self, context: impl fmt::Display) -> IoError {
        IoError { message: format!("{context}: {}", self.message) }
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IoError {}

impl From<std::io::Error> for IoError {
    fn from(e: std::io::Error) -> Self {
        IoError { message: e.to_string() }
    }
}

/// Builds an [`IoError`] from a message.
pub(crate) fn err(msg: impl Into<String>) -> IoError {
    IoError { message: msg.into() }
}

/// Checks that every vertex position is finite and every index is below `positions.len()`;
/// used by the writers so that they never produce a file the readers would reject.
pub(crate) fn validate_mesh<const N: usize>(
    positions: &[[f64; 3]],
    cells: &[[u32; N]],
    what: &str,
) -> Result<(), IoError> {
    if let Some(i) = positions.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
        return Err(err(format!("vertex {i} has a non-finite coordinate {:?}", positions[i])));
    }
    let n = positions.len();
    for (ci, cell) in cells.iter().enumerate() {
        if let Some(&bad) = cell.iter().find(|&&v| v as usize >= n) {
            return Err(err(format!("{what} {ci} references vertex {bad}, but there are only {n} vertices")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_display_and_conversion() {
        let e = err("bad thing");
        assert_eq!(e.to_string(), "bad thing");
        assert_eq!(e.clone().context("x.obj").message, "x.obj: bad thing");
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "missing");
        let e: IoError = io.into();
        assert!(e.message.contains("missing"));
        let boxed: Box<dyn std::error::Error> = Box::new(err("boxed"));
        assert_eq!(boxed.to_string(), "boxed");
    }

    #[test]
    fn validate_mesh_catches_problems() {
        let p = [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert!(validate_mesh(&p, &[[0u32, 1, 2]], "triangle").is_ok());
        assert!(validate_mesh(&p, &[[0u32, 1, 3]], "triangle").is_err());
        let q = [[0.0, f64::NAN, 0.0]];
        assert!(validate_mesh::<3>(&q, &[], "triangle").is_err());
    }
}
