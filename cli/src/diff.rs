//! `grip diff A B`: how far apart two runs' frames are. Both directories hold the
//! `<object>_<frame>.obj` files that `grip demo` and `grip run` write; for every object and
//! frame present in both, the largest distance (m) between a vertex's position in A and in B.
//! Used to check that two solvers (or two builds, thread counts, machines) reach the same
//! motion, e.g. the direct against the inexact Newton solver on the tube cloth bend.
//!
//! Exit codes as diff(1)'s: 0 the same (within `--tolerance` over every common frame, and the
//! same frame files in both), 1 different, 2 trouble (a directory or file that cannot be read,
//! two files for one frame, objects of different vertex counts, no frame in common).

use grip::io::obj::read_obj;
use grip::math::real::{norm, sub};
use grip::scene::output::parse_frame_file_name;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Exit code: the runs agree.
const SAME: i32 = 0;
/// Exit code: the runs differ by more than the tolerance, or one has frames the other lacks.
const DIFFERENT: i32 = 1;
/// Exit code: the runs could not be compared.
const TROUBLE: i32 = 2;

/// A frame file's key: (frame, object name).
type FrameKey = (u32, String);

/// The frame OBJ files of `dir` by (frame, object name); an error where the directory or an
/// entry cannot be read, or two files name the same frame of one object (`cloth_2.obj` and
/// `cloth_0002.obj`).
fn frames(dir: &Path) -> Result<BTreeMap<FrameKey, PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out = BTreeMap::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((object, frame)) = parse_frame_file_name(&name) else { continue };
        if let Some(other) = out.insert((frame, object.to_string()), entry.path()) {
            return Err(format!("{} and {name} are both frame {frame} of {object}", other.display()));
        }
    }
    Ok(out)
}

/// The largest distance (m) between the vertices of the OBJ files `a` and `b`, which must have
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
    Ok(a_mesh.positions.iter().zip(&b_mesh.positions).map(|(p, q)| norm(sub(*p, *q))).fold(0.0, f64::max))
}

/// Two runs side by side: the largest vertex distance (m) per common frame and object, and the
/// frame files only one of them has.
struct Comparison {
    rows: BTreeMap<u32, Vec<(String, f64)>>,
    only_a: Vec<FrameKey>,
    only_b: Vec<FrameKey>,
}

fn compare(a: &Path, b: &Path) -> Result<Comparison, String> {
    let (fa, fb) = (frames(a)?, frames(b)?);
    let mut rows: BTreeMap<u32, Vec<(String, f64)>> = BTreeMap::new();
    for (key, path) in &fa {
        if let Some(other) = fb.get(key) {
            rows.entry(key.0).or_default().push((key.1.clone(), largest_distance(path, other)?));
        }
    }
    let only = |x: &BTreeMap<FrameKey, PathBuf>, y: &BTreeMap<FrameKey, PathBuf>| {
        x.keys().filter(|k| !y.contains_key(*k)).cloned().collect::<Vec<_>>()
    };
    Ok(Comparison { only_a: only(&fa, &fb), only_b: only(&fb, &fa), rows })
}

/// "cloth frame 3" for the first of `keys`, and how many more.
fn describe(keys: &[FrameKey]) -> String {
    let (frame, object) = &keys[0];
    match keys.len() {
        1 => format!("{object} frame {frame}"),
        n => format!("{object} frame {frame} and {} more", n - 1),
    }
}

/// Prints, per frame present in both `a` and `b`, the largest vertex distance (m) of each
/// object, the frame files only one run has, and the largest distance over all common frames
/// and at the last one; returns the exit code (`SAME`, `DIFFERENT`, `TROUBLE`). Without
/// `tolerance` (m) it only reports (0 unless trouble); with it, 1 when a common frame differs by
/// more or a frame file is in one run only.
pub fn run(a: &Path, b: &Path, tolerance: Option<f64>) -> i32 {
    let c = match compare(a, b) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("grip: error: {m}");
            return TROUBLE;
        }
    };
    let Some((&last, last_row)) = c.rows.iter().next_back() else {
        eprintln!("grip: error: {} and {} have no frame OBJ file in common", a.display(), b.display());
        return TROUBLE;
    };
    println!("frame  largest vertex distance [m] per object");
    for (frame, objects) in &c.rows {
        let cells: Vec<String> = objects.iter().map(|(o, d)| format!("{o} {d:.3e}")).collect();
        println!("{frame:5}  {}", cells.join("  "));
    }
    for (dir, only) in [(a, &c.only_a), (b, &c.only_b)] {
        if !only.is_empty() {
            println!("grip: {} frame files only in {}: {}", only.len(), dir.display(), describe(only));
        }
    }
    let largest = |row: &Vec<(String, f64)>| row.iter().map(|(_, d)| *d).fold(0.0, f64::max);
    let (worst_frame, worst) =
        c.rows.iter().map(|(f, row)| (*f, largest(row))).max_by(|x, y| x.1.total_cmp(&y.1)).unwrap_or((last, 0.0));
    println!("grip: largest vertex distance over the common frames: {worst:.3e} m (frame {worst_frame})");
    println!("grip: largest vertex distance at the last common frame ({last}): {:.3e} m", largest(last_row));
    let Some(t) = tolerance else { return SAME };
    if !(worst <= t) {
        eprintln!("grip: frame {worst_frame} differs by {worst:.3e} m, more than the tolerance {t:.3e} m");
        DIFFERENT
    } else if !c.only_a.is_empty() || !c.only_b.is_empty() {
        eprintln!("grip: the runs do not hold the same frames");
        DIFFERENT
    } else {
        SAME
    }
}
