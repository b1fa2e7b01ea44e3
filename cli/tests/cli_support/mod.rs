//! Helpers shared by the tests of the `grip` binary (tests/cli*.rs): temporary directories,
//! running `grip`, reading `stats.csv` and checking PNG previews.
#![allow(dead_code)]

use grip::io::preview::BACKGROUND;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory for one test (removed again by `Drop`).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("grip_cli_{name}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn grip(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grip")).args(args).output().expect("run grip")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn assert_ok(o: &Output) {
    assert!(o.status.success(), "grip failed ({:?}): {}", o.status, stderr(o));
}

pub fn assert_fails_with(o: &Output, needles: &[&str]) {
    assert!(!o.status.success(), "grip should have failed");
    assert_ne!(o.status.code(), Some(0));
    let e = stderr(o);
    for n in needles {
        assert!(e.contains(n), "stderr should mention {n:?}: {e}");
    }
}

/// The columns every `stats.csv` starts with.
pub const STATS_COLUMNS: &str = "frame,substeps,newton_iterations,residual,seconds,kinetic_energy,elastic_energy,\
                             linear_iterations,deepest_gap,active_contacts,contact_retries,seconds_contact_search,\
                             fallbacks_lagged,fallbacks_frictionless,fallbacks_best_iterate,fallback_object,\
                             fallback_x,fallback_y,fallback_z,pinched_vertices,pinch_x,pinch_y,pinch_z,\
                             pinch_separation";

/// The index of the `fallback_object` column, the one that holds a name.
pub const FALLBACK_OBJECT: usize = 15;

/// The index of the `pinched_vertices` column, after the fallback's place and before the
/// pinch's place and separation.
pub const PINCHED_VERTICES: usize = 19;

/// The index of the first of a scene's metric columns, after [`STATS_COLUMNS`].
pub const FIRST_METRIC: usize = 24;

/// The cells of `stats.csv`'s rows after the header, as text.
pub fn stats_cells(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("stats.csv")).expect("stats.csv");
    text.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// The rows of `stats.csv` as numbers (`inf` included; the `fallback_object` column NaN, see
/// [`stats_cells`]), after checking that the header is [`STATS_COLUMNS`] followed by `extra`
/// (the scene's metric columns).
pub fn stats_with(dir: &Path, extra: &[&str]) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(dir.join("stats.csv")).expect("stats.csv");
    let mut lines = text.lines();
    let header: String = std::iter::once(STATS_COLUMNS).chain(extra.iter().copied()).collect::<Vec<_>>().join(",");
    assert_eq!(lines.next(), Some(&header[..]));
    let number = |(k, x): (usize, &str)| match k {
        FALLBACK_OBJECT => f64::NAN,
        _ => x.parse().unwrap_or_else(|_| panic!("number: {x}")),
    };
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').enumerate().map(number).collect()).collect();
    assert_eq!(STATS_COLUMNS.split(',').count(), FIRST_METRIC);
    assert!(rows.iter().all(|r| r.len() == FIRST_METRIC + extra.len()));
    rows
}

/// [`stats_with`] for a scene of shells only, without slip pairs: its one metric column is
/// `intersecting_pairs` (column [`FIRST_METRIC`]).
pub fn stats(dir: &Path) -> Vec<Vec<f64>> {
    stats_with(dir, &["intersecting_pairs"])
}

/// Decodes a PNG; checks its size and that some pixel is not background.
pub fn check_png(path: &Path) {
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("png exists"));
    let mut reader = png::Decoder::new(file).read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    assert_eq!((info.width, info.height), (640, 480));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let drawn = buf[..info.buffer_size()].chunks_exact(3).filter(|c| *c != BACKGROUND).count();
    assert!(drawn > 1000, "{}: only {drawn} non-background pixels", path.display());
}

/// `scene.toml` in `dir`: one frame of the pinned example cloth (`mesh`, copied in as
/// `cloth.obj`) with `object_extra` (TOML lines) in its object table.
pub fn scene_file(dir: &TempDir, object_extra: &str, mesh: &str) -> PathBuf {
    let cloth = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes/cloth.obj");
    std::fs::copy(cloth, dir.0.join("cloth.obj")).expect("copy mesh");
    let path = dir.0.join("scene.toml");
    let text = format!(
        "[output]\nframes = 1\n[[object]]\nkind = \"shell\"\nmesh = \"{mesh}\"\npin = \"top\"\n{object_extra}\n"
    );
    std::fs::write(&path, text).expect("write scene");
    path
}
