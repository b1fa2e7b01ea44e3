//! `grip diff A B`: how far apart two runs' frames are. Both directories hold the
//! `<object>_<frame>.obj` files that `grip demo` and `grip run` write; for every object and
//! frame present in both, the largest distance [m] between a vertex's position in A and in B.
//! Used to check that two solvers (or two builds, thread counts, machines) reach the same
//! motion, e.g. issue 5's direct against inexact Newton on the tube cloth bend.

use crate::io::obj::read_obj;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The frame OBJ files of `dir` by (frame, object name).
fn frames(dir: &Path) -> Result<BTreeMap<(u32, String), PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out = BTreeMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".obj") else { continue };
        let Some((object, frame)) = stem.rsplit_once('_') else { continue };
        if let (false, Ok(frame)) = (object.is_empty(), frame.parse::<u32>()) {
            out.insert((frame, object.to_string()), entry.path());
        }
    }
    Ok(out)
}

/// The largest distance [m] between the vertices of the OBJ files `a` and `b`, which must have
/// the same number of vertices.
fn largest_distance(a: &Path, b: &Path) -> Result<f64, String> {
    let read = |p: &Path| read_obj(p).map_err(|e| format!("{}: {e}", p.display()));
    let (a_mesh, b_mesh) = (read(a)?, read(b)?);
    if a_mesh.positions.len() != b_mesh.positions.len() {
        return Err(format!(
            "{} has {} vertices, {} has {}",
            a.display(),
            a_mesh.positions.len(),
            b.display(),
            b_mesh.positions.len()
        ));
    }
    let distance = |(p, q): (&[f64; 3], &[f64; 3])| (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f64>().sqrt();
    Ok(a_mesh.positions.iter().zip(&b_mesh.positions).map(distance).fold(0.0, f64::max))
}

/// Prints, per frame present in both `a` and `b`, the largest vertex distance [m] of each
/// object, then the largest at the last common frame; returns the exit code: 0, or 1 when that
/// distance exceeds `tolerance` [m] (or on an error), 2 when the runs share no frame.
pub fn run(a: &Path, b: &Path, tolerance: Option<f64>) -> i32 {
    let compared = frames(a).and_then(|fa| {
        let fb = frames(b)?;
        let mut rows: BTreeMap<u32, Vec<(String, f64)>> = BTreeMap::new();
        for ((frame, object), path) in &fa {
            if let Some(other) = fb.get(&(*frame, object.clone())) {
                rows.entry(*frame).or_default().push((object.clone(), largest_distance(path, other)?));
            }
        }
        Ok(rows)
    });
    let rows = match compared {
        Ok(rows) => rows,
        Err(m) => {
            eprintln!("grip: error: {m}");
            return 1;
        }
    };
    let Some((&last, last_row)) = rows.iter().next_back() else {
        eprintln!("grip: error: {} and {} have no frame OBJ file in common", a.display(), b.display());
        return 2;
    };
    println!("frame  largest vertex distance [m] per object");
    for (frame, objects) in &rows {
        let cells: Vec<String> = objects.iter().map(|(o, d)| format!("{o} {d:.3e}")).collect();
        println!("{frame:5}  {}", cells.join("  "));
    }
    let worst = last_row.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    println!("grip: largest vertex distance at the last common frame ({last}): {worst:.3e} m");
    match tolerance {
        Some(t) if !(worst <= t) => {
            eprintln!("grip: frame {last} differs by {worst:.3e} m, more than the tolerance {t:.3e} m");
            1
        }
        _ => 0,
    }
}
