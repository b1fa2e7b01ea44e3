//! Per-frame vertex positions of a deforming collider mesh (a point cache): a skinned limb or
//! any animated body that a host hands over as the mesh's vertices at each frame. Frame k holds
//! the positions at the end of output frame k, frame 0 the initial ones; the solver interpolates
//! linearly over the substeps between two frames, and the last frame holds after the cache ends.
//!
//! Files use the PC2 format that Blender's Mesh Cache modifier and Houdini read and write
//! (little-endian): the 12 bytes `POINTCACHE2\0`, i32 version 1, i32 point count, f32 start
//! frame, f32 sample rate (frames per sample), i32 sample count, then the samples' points as
//! f32 x y z. Single precision keeps positions to 6·10⁻⁸ of their magnitude (0.06 µm at 1 m).

use std::path::Path;

/// The PC2 file signature.
const SIGNATURE: &[u8; 12] = b"POINTCACHE2\0";
/// Bytes of the PC2 header.
const HEADER_BYTES: usize = 32;

/// Positions (m) of one mesh at every output frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointCache {
    /// Flat positions `x0 y0 z0 x1 …` at the end of frames 0, 1, …; every frame has the same
    /// vertex count.
    pub frames: Vec<Vec<f64>>,
}

impl PointCache {
    /// The cache of `frames`, each flat `x0 y0 z0 …` (m).
    pub fn new(frames: Vec<Vec<f64>>) -> Self {
        Self { frames }
    }

    /// Positions at the end of `frame` (the last cached frame beyond the cache's end).
    pub fn positions(&self, frame: usize) -> &[f64] {
        self.frames.get(frame).or(self.frames.last()).map_or(&[], |f| f.as_slice())
    }

    /// Checks that there is a frame, that every frame has `vertex_count` finite points.
    pub fn check(&self, vertex_count: usize) -> Result<(), String> {
        if self.frames.is_empty() {
            return Err("point cache: no frames".into());
        }
        for (k, f) in self.frames.iter().enumerate() {
            if f.len() != 3 * vertex_count {
                return Err(format!(
                    "point cache: frame {k} has {} points, the mesh {vertex_count} vertices",
                    f.len() / 3
                ));
            }
            if let Some(x) = f.iter().find(|x| !x.is_finite()) {
                return Err(format!("point cache: frame {k} has a non-finite coordinate {x}"));
            }
        }
        Ok(())
    }

    /// Reads a PC2 file; every sample becomes one frame (start frame and sample rate are not
    /// used: sample k is output frame k).
    pub fn read_pc2(path: &Path) -> Result<Self, String> {
        let fail = |m: String| format!("{}: {m}", path.display());
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        Self::from_pc2_bytes(&bytes).map_err(fail)
    }

    /// Parses the bytes of a PC2 file.
    pub fn from_pc2_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..12] != SIGNATURE {
            return Err("not a PC2 point cache (no POINTCACHE2 header)".into());
        }
        let int = |at: usize| i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        let (version, points, samples) = (int(12), int(16), int(28));
        if version != 1 {
            return Err(format!("PC2 version {version} (only 1 exists)"));
        }
        let (Ok(points), Ok(samples)) = (usize::try_from(points), usize::try_from(samples)) else {
            return Err(format!("negative point ({points}) or sample ({samples}) count"));
        };
        let floats = points.checked_mul(3).and_then(|n| n.checked_mul(samples));
        let expected = floats.and_then(|n| n.checked_mul(4)).and_then(|n| n.checked_add(HEADER_BYTES));
        if expected != Some(bytes.len()) {
            return Err(format!(
                "{points} points × {samples} samples need {} bytes, the file has {}",
                expected.map_or("too many".into(), |e| e.to_string()),
                bytes.len()
            ));
        }
        let values: Vec<f64> = bytes[HEADER_BYTES..]
            .chunks_exact(4)
            .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
            .collect();
        let frames = if points == 0 {
            vec![Vec::new(); samples]
        } else {
            values.chunks(3 * points).map(<[f64]>::to_vec).collect()
        };
        Ok(Self { frames })
    }

    /// The cache as PC2 bytes: start frame 0, one sample per frame.
    pub fn to_pc2_bytes(&self) -> Result<Vec<u8>, String> {
        let points = self.frames.first().map_or(0, |f| f.len() / 3);
        let count = |n: usize, what: &str| i32::try_from(n).map_err(|_| format!("too many {what} for PC2: {n}"));
        let mut out = Vec::with_capacity(HEADER_BYTES + 12 * points * self.frames.len());
        out.extend_from_slice(SIGNATURE);
        out.extend_from_slice(&1i32.to_le_bytes());
        out.extend_from_slice(&count(points, "points")?.to_le_bytes());
        out.extend_from_slice(&0f32.to_le_bytes());
        out.extend_from_slice(&1f32.to_le_bytes());
        out.extend_from_slice(&count(self.frames.len(), "frames")?.to_le_bytes());
        for f in &self.frames {
            if f.len() != 3 * points {
                return Err("point cache: frames of different vertex counts".into());
            }
            f.iter().for_each(|&x| out.extend_from_slice(&(x as f32).to_le_bytes()));
        }
        Ok(out)
    }

    /// Writes the cache as a PC2 file.
    pub fn write_pc2(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_pc2_bytes()?).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The cache with `f` applied to every point (a placement transform).
    pub fn map_points(&self, f: impl Fn([f64; 3]) -> [f64; 3]) -> Self {
        let frames = self
            .frames
            .iter()
            .map(|frame| frame.chunks_exact(3).flat_map(|p| f([p[0], p[1], p[2]])).collect())
            .collect();
        Self { frames }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PointCache {
        PointCache::new(vec![vec![0.0, 1.0, 2.0, -0.5, 0.25, 3.0], vec![0.125, 1.0, 2.0, -0.5, 0.5, 3.0]])
    }

    #[test]
    fn pc2_round_trips_and_has_the_documented_header() {
        let c = sample();
        let bytes = c.to_pc2_bytes().unwrap();
        assert_eq!(bytes.len(), 32 + 2 * 2 * 12);
        assert_eq!(&bytes[..12], b"POINTCACHE2\0");
        assert_eq!(i32::from_le_bytes(bytes[16..20].try_into().unwrap()), 2); // points
        assert_eq!(i32::from_le_bytes(bytes[28..32].try_into().unwrap()), 2); // samples
        assert_eq!(f32::from_le_bytes(bytes[32 + 12..32 + 16].try_into().unwrap()), -0.5);
        assert_eq!(PointCache::from_pc2_bytes(&bytes).unwrap(), c);
    }

    #[test]
    fn bad_files_and_frames_are_refused() {
        let bytes = sample().to_pc2_bytes().unwrap();
        assert!(PointCache::from_pc2_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        assert!(PointCache::from_pc2_bytes(b"POINTCACHE3\0").unwrap_err().contains("PC2"));
        let mut v2 = bytes.clone();
        v2[12] = 2;
        assert!(PointCache::from_pc2_bytes(&v2).unwrap_err().contains("version"));
        assert!(sample().check(3).unwrap_err().contains("frame 0"));
        assert!(PointCache::default().check(2).unwrap_err().contains("no frames"));
        let nan = PointCache::new(vec![vec![0.0, f64::NAN, 0.0]]);
        assert!(nan.check(1).unwrap_err().contains("non-finite"));
        sample().check(2).unwrap();
    }

    #[test]
    fn frames_beyond_the_cache_hold_the_last() {
        let c = sample();
        assert_eq!(c.positions(1), c.positions(7));
        assert_eq!(c.positions(0)[0], 0.0);
    }
}
