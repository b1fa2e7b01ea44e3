//! Files written by `grip demo` and `grip run`: one OBJ per object per frame, `stats.csv`, and
//! the `preview_first.png` / `preview_last.png` images.

use crate::io::obj::write_obj;
use crate::io::preview::{render_png, Camera, PreviewMesh};
use crate::solver::{GripStepReport, Solver};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Header of `stats.csv`; energies in J, seconds of wall-clock time.
pub(crate) const STATS_HEADER: &str = "frame,substeps,newton_iterations,residual,seconds,kinetic_energy,elastic_energy";
/// Size of the preview images [pixels].
pub(crate) const PREVIEW_SIZE: (u32, u32) = (640, 480);
/// Colours of the objects in the previews, cycled.
const COLORS: [[u8; 3]; 4] = [[70, 130, 200], [220, 120, 60], [90, 170, 90], [190, 80, 160]];

/// One object's output: file-name stem, solver id, surface triangles, first and last positions.
struct Track {
    name: String,
    id: u32,
    surface: Vec<[u32; 3]>,
    first: Vec<[f64; 3]>,
    last: Vec<[f64; 3]>,
}

/// The output directory of one simulation.
pub struct Output {
    dir: PathBuf,
    stats: BufWriter<File>,
    tracks: Vec<Track>,
}

fn triples(flat: &[f64]) -> Vec<[f64; 3]> {
    flat.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}

impl Output {
    /// Creates `dir` (and parents) and `stats.csv` with its header, for the objects `ids` of
    /// `solver` named `names` (file-name stems).
    pub fn create(dir: &Path, solver: &Solver, names: &[String], ids: &[u32]) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
        let path = dir.join("stats.csv");
        let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut stats = BufWriter::new(file);
        writeln!(stats, "{STATS_HEADER}").map_err(|e| format!("{}: {e}", path.display()))?;
        let mut tracks = Vec::with_capacity(ids.len());
        for (name, &id) in names.iter().zip(ids) {
            let surface = solver.object(id).map_err(|e| e.to_string())?.surface.clone();
            let q = triples(solver.positions(id).map_err(|e| e.to_string())?);
            tracks.push(Track { name: name.clone(), id, surface, first: q.clone(), last: q });
        }
        Ok(Self { dir: dir.to_path_buf(), stats, tracks })
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes `<name>_<frame:04>.obj` for every object and appends the `stats.csv` row of
    /// `frame`: from `report` (the last advance), or zeros for the initial frame (`None`).
    pub fn write_frame(
        &mut self,
        frame: usize,
        solver: &Solver,
        report: Option<&GripStepReport>,
    ) -> Result<(), String> {
        for t in &mut self.tracks {
            t.last = triples(solver.positions(t.id).map_err(|e| e.to_string())?);
            let path = self.dir.join(format!("{}_{frame:04}.obj", t.name));
            write_obj(&path, &t.last, &t.surface).map_err(|e| e.to_string())?;
        }
        let r = report.copied().unwrap_or_default();
        let (ke, ee) = match report {
            Some(r) => (r.kinetic_energy, r.elastic_energy),
            None => (solver.kinetic_energy(), solver.elastic_energy()),
        };
        let row = format!(
            "{frame},{},{},{:e},{:.6},{:e},{:e}",
            r.substeps, r.newton_iterations, r.residual, r.seconds_total, ke, ee
        );
        let path = self.dir.join("stats.csv");
        writeln!(self.stats, "{row}").and_then(|_| self.stats.flush()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Renders `preview_first.png` (initial positions) and `preview_last.png` (the last frame
    /// written) with one camera fitted to both, looking with world `up` [any length] upwards.
    pub fn write_previews(&self, up: [f64; 3]) -> Result<(), String> {
        let meshes = |last: bool| -> Vec<PreviewMesh> {
            self.tracks
                .iter()
                .enumerate()
                .map(|(i, t)| PreviewMesh {
                    positions: if last { &t.last } else { &t.first },
                    triangles: &t.surface,
                    color: COLORS[i % COLORS.len()],
                })
                .collect()
        };
        let mut both = meshes(false);
        both.extend(meshes(true));
        let (w, h) = PREVIEW_SIZE;
        let camera = Camera::fit(&both, up, w, h);
        for (last, file) in [(false, "preview_first.png"), (true, "preview_last.png")] {
            render_png(&self.dir.join(file), &meshes(last), &camera).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
