//! Files written by `grip demo` and `grip run`: one OBJ per object per frame (collider meshes
//! included), `stats.csv`, and the `preview_first.png` / `preview_last.png` images (objects,
//! collider meshes and analytic colliders; planes and infinite capsules and cylinders are drawn
//! cut around the objects; planes seen from their material side are left out, and so is the near
//! half of colliders that hold objects inside them, so that they do not hide the objects;
//! objects with `preview = "translucent"` are drawn half transparent, showing what they wrap).
//!
//! `stats.csv` has one row per frame (frame 0 included, from a zero report): the columns of
//! `STATS_HEADER` from the frame's `StepReport` (energies in J, seconds of wall-clock
//! time, `deepest_gap` in m, `inf` without contact; `fallback_object`, the one text column,
//! empty and the place `nan` without a fallback; the pinch's place and separation `nan` without
//! a pinch), then the scene's metrics (`metrics.rs`).

use super::build::SceneSolver;
use super::collider::{pose_matrix, IDENTITY};
use super::collider_mesh::{collider_mesh, ColliderMesh};
use super::description::{PreviewStyle, TRANSLUCENT_OPACITY};
use super::metrics::Metrics;
use crate::contact::collider::shape::ShapeKind;
use crate::contact::Shape;
use crate::io::obj::write_obj;
use crate::io::preview::{render_image, Camera, PreviewMesh, RgbImage};
use crate::mesh::triples;
use crate::solver::{Solver, StepReport};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The columns of `stats.csv` that every scene has.
pub const STATS_HEADER: &str = "frame,substeps,newton_iterations,residual,seconds,kinetic_energy,elastic_energy,\
                                       linear_iterations,deepest_gap,active_contacts,contact_retries,\
                                       seconds_contact_search,fallbacks_lagged,fallbacks_frictionless,\
                                       fallbacks_best_iterate,fallback_object,fallback_x,fallback_y,fallback_z,\
                                       pinched_vertices,pinch_x,pinch_y,pinch_z,pinch_separation";
/// Size of the preview images (pixels).
pub const PREVIEW_SIZE: (u32, u32) = (640, 480);
/// Colours of the solids and shells in the previews, in scene order, cycled.
const OBJECT_COLORS: [[u8; 3]; 4] = [[70, 130, 200], [220, 120, 60], [90, 170, 90], [190, 80, 160]];
/// Colour of the colliders in the previews.
const COLLIDER_COLOR: [u8; 3] = [200, 195, 180];

/// Where the previews go: called with the path of each image file and its pixels.
pub type PreviewStore<'a> = &'a mut dyn FnMut(&Path, &RgbImage) -> Result<(), String>;

/// One object's output: file-name stem, solver id, surface triangles, first and last positions,
/// preview colour and style.
struct Track {
    name: String,
    id: u32,
    surface: Vec<[u32; 3]>,
    first: Vec<[f64; 3]>,
    last: Vec<[f64; 3]>,
    color: [u8; 3],
    style: PreviewStyle,
}

/// One collider's shape as the solver holds it and its first and last poses (column-major).
struct ColliderTrack {
    id: u32,
    shape: Shape,
    first: [f64; 16],
    last: [f64; 16],
}

/// The name of object `object`'s OBJ file at frame `frame`: `<object>_<frame:04>.obj`.
pub fn frame_file_name(object: &str, frame: usize) -> String {
    format!("{object}_{frame:04}.obj")
}

/// The object and frame of a file name written by [`frame_file_name`] (any number of frame
/// digits), or `None` for other files.
pub fn parse_frame_file_name(name: &str) -> Option<(&str, u32)> {
    let (object, frame) = name.strip_suffix(".obj")?.rsplit_once('_')?;
    let frame = frame.parse().ok()?;
    (!object.is_empty()).then_some((object, frame))
}

/// The output directory of one simulation.
pub struct Output {
    dir: PathBuf,
    stats: BufWriter<File>,
    /// A resumed run's `stats.csv.partial` until [`Output::commit`] renames it.
    pending: Option<PathBuf>,
    tracks: Vec<Track>,
    colliders: Vec<ColliderTrack>,
    metrics: Metrics,
    view: Option<[f64; 3]>,
}

impl Output {
    /// Creates `dir` (and parents) and `stats.csv` with its header, for the objects and
    /// colliders of `built` (objects named `names`: unique file-name stems).
    pub fn create(dir: &Path, built: &SceneSolver, names: &[String]) -> Result<Self, String> {
        Self::open(dir, built, names, None)
    }

    /// [`Output::create`] for a run taken up after `frame` (`grip run --resume`): `built` still
    /// at frame 0 (the first preview's state); `stats.csv`'s rows up to `frame` are copied to
    /// `stats.csv.partial`, which replaces `stats.csv` at [`Output::commit`] (so a resume that
    /// fails before it leaves `stats.csv` whole) and is written on from there. Fails when
    /// `stats.csv` is missing, has another header or lacks a row.
    pub fn resume(dir: &Path, built: &SceneSolver, names: &[String], frame: usize) -> Result<Self, String> {
        Self::open(dir, built, names, Some(frame))
    }

    /// Puts the `stats.csv` of a resumed run in place (nothing to do for a new run).
    pub fn commit(&mut self) -> Result<(), String> {
        let Some(partial) = self.pending.take() else { return Ok(()) };
        let path = self.dir.join("stats.csv");
        std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Drops a resumed run's `stats.csv.partial` (the resume failed; `stats.csv` stays).
    pub fn abandon(mut self) {
        if let Some(partial) = self.pending.take() {
            let _ = std::fs::remove_file(partial);
        }
    }

    fn open(dir: &Path, built: &SceneSolver, names: &[String], resume: Option<usize>) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
        let metrics = Metrics::new(built, names)?;
        let stats_path = dir.join("stats.csv");
        let header: String = metrics.header().iter().map(|c| format!(",{c}")).collect();
        let header = format!("{STATS_HEADER}{header}");
        let kept = match resume {
            Some(frame) => kept_rows(&stats_path, &header, frame)?,
            None => vec![header],
        };
        let pending = resume.map(|_| dir.join("stats.csv.partial"));
        let path = pending.clone().unwrap_or(stats_path);
        let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut stats = BufWriter::new(file);
        kept.iter().try_for_each(|line| writeln!(stats, "{line}")).map_err(|e| format!("{}: {e}", path.display()))?;
        stats.flush().map_err(|e| format!("{}: {e}", path.display()))?;
        let (solver, scene) = (&built.solver, &built.scene);
        let mut tracks = Vec::with_capacity(names.len());
        let mut drawn = 0;
        for ((name, &id), o) in names.iter().zip(&built.objects).zip(&scene.objects) {
            let surface = solver.object(id).map_err(|e| e.to_string())?.surface.clone();
            let q = triples(solver.positions(id).map_err(|e| e.to_string())?);
            let color = if o.is_collider_mesh() {
                COLLIDER_COLOR
            } else {
                drawn += 1;
                OBJECT_COLORS[(drawn - 1) % OBJECT_COLORS.len()]
            };
            let (first, last, style) = (q.clone(), q, o.preview);
            tracks.push(Track { name: name.clone(), id, surface, first, last, color, style });
        }
        let colliders = scene
            .colliders
            .iter()
            .zip(&built.colliders)
            .map(|(c, &id)| {
                let pose = solver.collider_pose(id).map_err(|e| e.to_string())?;
                let shape = c.initial_shape(scene.fps);
                Ok(ColliderTrack { id, shape, first: pose_matrix(&pose), last: pose_matrix(&pose) })
            })
            .collect::<Result<_, String>>()?;
        Ok(Self { dir: dir.to_path_buf(), stats, pending, tracks, colliders, metrics, view: scene.view })
    }

    /// Takes the solver's current state as the last frame's (for `preview_last.png`; alone
    /// when a resumed run simulates nothing more).
    pub fn track_current(&mut self, solver: &Solver) -> Result<(), String> {
        for t in &mut self.tracks {
            t.last = triples(solver.positions(t.id).map_err(|e| e.to_string())?);
        }
        for c in &mut self.colliders {
            c.last = solver.collider_pose(c.id).map(|p| pose_matrix(&p)).unwrap_or(IDENTITY);
        }
        Ok(())
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes `<name>_<frame:04>.obj` for every object and appends the `stats.csv` row of
    /// `frame`: from `report` (the last advance), or zeros for the initial frame (`None`), then
    /// the metrics of the solver's current state.
    pub fn write_frame(&mut self, frame: usize, solver: &Solver, report: Option<&StepReport>) -> Result<(), String> {
        self.track_current(solver)?;
        for t in &self.tracks {
            let path = self.dir.join(frame_file_name(&t.name, frame));
            write_obj(&path, &t.last, &t.surface).map_err(|e| e.to_string())?;
        }
        let r = report.copied().unwrap_or_default();
        let (ke, ee) = match report {
            Some(r) => (r.kinetic_energy, r.elastic_energy),
            None => (solver.kinetic_energy(), solver.elastic_energy()),
        };
        let mut row = format!(
            "{frame},{},{},{:e},{:.6},{:e},{:e},{},{:e},{},{},{:.6},{},{},{}",
            r.substeps,
            r.newton_iterations,
            r.residual,
            r.seconds_total,
            ke,
            ee,
            r.linear_iterations,
            r.deepest_gap,
            r.active_contacts,
            r.contact_retries,
            r.seconds_contact_search,
            r.fallbacks_lagged,
            r.fallbacks_frictionless,
            r.fallbacks_best_iterate
        );
        row.push_str(&self.fallback_site(&r));
        row.push_str(&pinch_cells(&r));
        for x in self.metrics.values(solver)? {
            row.push_str(&format!(",{x:e}"));
        }
        let path = self.dir.join("stats.csv");
        writeln!(self.stats, "{row}").and_then(|_| self.stats.flush()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The `fallback_*` cells of a row: `,<object>,<x>,<y>,<z>` where the solve before the
    /// report's last fallback was worst, the object by its file-name stem and the vertex's place
    /// at that substep's start (m); `,,nan,nan,nan` without a fallback or a named vertex.
    fn fallback_site(&self, r: &StepReport) -> String {
        match r.fallback_site.filter(|_| r.last_fallback.is_some()) {
            Some(site) => {
                let object = match self.tracks.iter().find(|t| t.id == site.object) {
                    Some(t) => t.name.clone(),
                    None => format!("object_{}", site.object),
                };
                let [x, y, z] = site.position;
                format!(",{object},{x:e},{y:e},{z:e}")
            }
            None => ",,nan,nan,nan".into(),
        }
    }

    /// Renders the previews `preview_first.png` (initial positions) and `preview_last.png` (the
    /// last frame written) with one camera fitted to both, looking with world `up` (any length)
    /// upwards, from the scene's view direction if it has one, and hands each image with its
    /// path in the output directory to `store` (the library encodes no image files).
    pub fn write_previews(&self, up: [f64; 3], store: PreviewStore) -> Result<(), String> {
        let (focus, extent) = self.object_bounds();
        let shapes = |last: bool| -> Vec<ColliderMesh> {
            self.colliders
                .iter()
                .map(|c| collider_mesh(&c.shape, if last { &c.last } else { &c.first }, focus, extent))
                .collect()
        };
        let solids = [shapes(false), shapes(true)];
        let mut both = self.meshes(false, &solids[0]);
        both.extend(self.meshes(true, &solids[1]));
        let (w, h) = PREVIEW_SIZE;
        let camera = Camera::fit_towards(&both, up, self.view, w, h);
        for (last, file) in [(false, "preview_first.png"), (true, "preview_last.png")] {
            // Hide what would hide the objects: a plane seen from its material side, and the near
            // half (outward normals facing the viewer) of a shape holding objects inside it.
            let toward_viewer = |n: &[f64; 3]| (0..3).map(|i| n[i] * camera.back[i]).sum::<f64>() > 0.0;
            let visible: Vec<ColliderMesh> = solids[last as usize]
                .iter()
                .zip(&self.colliders)
                .map(|(m, c)| {
                    let inside = c.shape.inside;
                    let keep: Vec<bool> = if c.shape.kind == ShapeKind::Plane {
                        m.normals.iter().map(|n| toward_viewer(n) != inside).collect()
                    } else {
                        m.normals.iter().map(|n| !inside || !toward_viewer(n)).collect()
                    };
                    let triangles = m.triangles.iter().zip(keep).filter(|(_, k)| *k).map(|(t, _)| *t).collect();
                    ColliderMesh { triangles, ..m.clone() }
                })
                .collect();
            let meshes = self.meshes(last, &visible);
            let path = self.dir.join(file);
            let image = render_image(&meshes, &camera).map_err(|e| e.context(path.display()).to_string())?;
            store(&path, &image)?;
        }
        Ok(())
    }

    /// The objects at their first or `last` positions, then the analytic colliders' meshes.
    fn meshes<'a>(&'a self, last: bool, colliders: &'a [ColliderMesh]) -> Vec<PreviewMesh<'a>> {
        let objects = self.tracks.iter().map(|t| PreviewMesh {
            positions: if last { &t.last } else { &t.first },
            triangles: &t.surface,
            color: t.color,
            opacity: if t.style == PreviewStyle::Translucent { TRANSLUCENT_OPACITY } else { 1.0 },
        });
        let shapes = colliders.iter().map(|m| PreviewMesh {
            positions: &m.positions,
            triangles: &m.triangles,
            color: COLLIDER_COLOR,
            opacity: 1.0,
        });
        objects.chain(shapes).collect()
    }

    /// Centre (m) of the box around every object's first and last positions, and the extent
    /// (in m) drawn of unbounded colliders around it (1.2 × its half diagonal, at least 0.1 m).
    fn object_bounds(&self) -> ([f64; 3], f64) {
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        let points = self.tracks.iter().flat_map(|t| t.first.iter().chain(&t.last));
        for p in points.filter(|p| p.iter().all(|x| x.is_finite())) {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        if lo[0] > hi[0] {
            return ([0.0; 3], 1.0);
        }
        let half = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt() * 0.5;
        ([0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k])), (1.2 * half).max(0.1))
    }
}

/// The lines of `stats.csv` at `path` to keep when a run is taken up after `frame`: the header
/// (which must be `header`) and the rows of frames 0 to `frame`.
fn kept_rows(path: &Path, header: &str, frame: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot resume: {}: {e}", path.display()))?;
    let mut lines = text.lines();
    if lines.next() != Some(header) {
        return Err(format!("cannot resume: {} has another header than this scene's", path.display()));
    }
    let rows: Vec<String> = lines.take(frame + 1).map(str::to_string).collect();
    let numbered = rows.iter().enumerate().all(|(i, r)| r.split(',').next() == Some(i.to_string().as_str()));
    if rows.len() != frame + 1 || !numbered {
        return Err(format!("cannot resume: {} lacks the rows of frames 0 to {frame}", path.display()));
    }
    Ok(std::iter::once(header.to_string()).chain(rows).collect())
}

/// The `pinch*` cells of a row: `,<count>,<x>,<y>,<z>,<separation>`, the frame's pinched
/// vertices (the most after any one substep), the place (m) of the one whose surfaces were
/// closest and their separation (m); `,0,nan,nan,nan,nan` without a pinch.
fn pinch_cells(r: &StepReport) -> String {
    match r.pinch_site {
        Some(site) => {
            let [x, y, z] = site.position;
            format!(",{},{x:e},{y:e},{z:e},{:e}", r.pinched_vertices, site.separation)
        }
        None => ",0,nan,nan,nan,nan".into(),
    }
}
