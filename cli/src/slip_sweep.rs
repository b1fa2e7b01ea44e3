//! `grip slip-vs-mu`: the tube cloth bend at μ = 0, 0.1, 0.2, 0.4 and 0.8, each run written
//! into `<out>/mu-<μ>/` as `grip demo` writes it, then a table of the sleeve's slip on the limb at
//! the last frame (mean and largest over the sleeve, `stats.csv`'s slip columns) against μ as
//! `slip_vs_mu.csv` and `slip_vs_mu.md`, its plot `slip_vs_mu.png`, and the last frames at
//! μ 0.2 and 0.8 side by side, seen with one camera, the sleeve coloured by slip,
//! `last_frames_mu_0.2_0.8.png`.

use crate::demo::DemoOptions;
use crate::demo_tube::{tube_cloth_bend, Resolution, SleeveFit};
use crate::plot::{color_key, ramp, side_by_side, stacked, Legend, LinePlot, Series};
use crate::png_file::write_png;
use crate::report::Terminal;
use grip::io::obj::{read_obj, SurfaceMesh};
use grip::io::preview::{render_image, Camera, PreviewMesh};
use grip::scene::output::{frame_file_name, PREVIEW_SIZE};
use grip::scene::run::{describe, simulate};
use grip::scene::slip::SlipEmbedding;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The friction coefficients of the sweep.
pub const MUS: [f64; 5] = [0.0, 0.1, 0.2, 0.4, 0.8];

/// The two μ shown side by side.
const COMPARED: [f64; 2] = [0.2, 0.8];

/// What `grip slip-vs-mu` runs.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Mesh resolution (default low).
    pub resolution: Option<Resolution>,
    /// The sleeve (default fitted).
    pub sleeve: Option<SleeveFit>,
    /// Frames per run (default the scene's 48).
    pub frames: Option<usize>,
    /// Output directory (default `out/slip-vs-mu`).
    pub out: Option<PathBuf>,
    /// Write the table and figures from the runs already in the output directory, without
    /// simulating.
    pub figures_only: bool,
}

/// One run of the sweep, read back from its `stats.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// Friction coefficient.
    pub mu: f64,
    /// Frames simulated.
    pub frames: usize,
    /// Mean slip of the sleeve on the limb at the last frame (m).
    pub mean_slip: f64,
    /// Largest slip of a sleeve vertex at the last frame (m).
    pub max_slip: f64,
    /// Substeps over the run (one per frame when no step was halved).
    pub substeps: usize,
    /// Newton iterations over the run.
    pub newton_iterations: usize,
    /// Smallest gap between a free vertex and the limb over all frames (m).
    pub deepest_gap: f64,
    /// Wall-clock time of the run (s).
    pub seconds: f64,
}

/// The directory of the run at `mu` inside `out`.
pub fn run_dir(out: &Path, mu: f64) -> PathBuf {
    out.join(format!("mu-{mu}"))
}

/// Reads a run's `stats.csv`: the last row's slip columns, the sums and the smallest gap.
pub fn read_row(dir: &Path, mu: f64) -> Result<SweepRow, String> {
    let path = dir.join("stats.csv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let column =
        |name: &str| header.iter().position(|h| *h == name).ok_or(format!("{}: no column {name}", path.display()));
    let [frame, substeps, newton, seconds, gap, mean, max] = [
        "frame",
        "substeps",
        "newton_iterations",
        "seconds",
        "deepest_gap",
        "sleeve_slip_on_limb",
        "sleeve_max_slip_on_limb",
    ]
    .map(column);
    let (frame, substeps, newton, seconds, gap, mean, max) = (frame?, substeps?, newton?, seconds?, gap?, mean?, max?);
    // Every column is a number but the name of the object where a fallback's solve failed.
    let used = [frame, substeps, newton, seconds, gap, mean, max];
    let rows: Vec<Vec<f64>> = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            if cells.len() != header.len() {
                return Err(format!("{}: a row without {} columns", path.display(), header.len()));
            }
            let number = |(k, x): (usize, &str)| match used.contains(&k) {
                true => x.parse::<f64>().map_err(|_| format!("{}: not a number: {x}", path.display())),
                false => Ok(f64::NAN),
            };
            cells.into_iter().enumerate().map(number).collect()
        })
        .collect::<Result<_, _>>()?;
    let last = rows.last().ok_or(format!("{}: no rows", path.display()))?;
    let sum = |k: usize| rows.iter().map(|r| r[k]).sum::<f64>();
    Ok(SweepRow {
        mu,
        frames: last[frame] as usize,
        mean_slip: last[mean],
        max_slip: last[max],
        substeps: sum(substeps) as usize,
        newton_iterations: sum(newton) as usize,
        deepest_gap: rows.iter().map(|r| r[gap]).fold(f64::INFINITY, f64::min),
        seconds: sum(seconds),
    })
}

/// The table as CSV (lengths in m, time in s).
pub fn csv(rows: &[SweepRow]) -> String {
    let mut t = String::from("mu,frames,mean_slip,max_slip,substeps,newton_iterations,deepest_gap,seconds\n");
    for r in rows {
        let _ = writeln!(
            t,
            "{},{},{:e},{:e},{},{},{:e},{:.2}",
            r.mu, r.frames, r.mean_slip, r.max_slip, r.substeps, r.newton_iterations, r.deepest_gap, r.seconds
        );
    }
    t
}

/// The table in Markdown (lengths in mm), under a line naming the scene.
pub fn markdown(rows: &[SweepRow], scene: &str) -> String {
    let mut t = format!(
        "# Sleeve slip against μ\n\n{scene}\n\n| μ | frames | mean slip (mm) | largest slip (mm) | substeps | Newton \
         iterations | deepest gap (mm) | time (s) |\n|---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        let _ = writeln!(
            t,
            "| {} | {} | {:.2} | {:.2} | {} | {} | {:.3} | {:.1} |",
            r.mu,
            r.frames,
            1e3 * r.mean_slip,
            1e3 * r.max_slip,
            r.substeps,
            r.newton_iterations,
            1e3 * r.deepest_gap,
            r.seconds
        );
    }
    t
}

/// The plot of mean and largest slip (mm) against μ.
pub fn plot(rows: &[SweepRow], frames: usize) -> grip::io::preview::RgbImage {
    let title = format!("Tube cloth bend: sleeve slip on the limb at frame {frames}");
    LinePlot {
        title: &title,
        x_label: "friction coefficient mu",
        y_label: "slip (mm)",
        series: vec![
            Series {
                label: "largest",
                points: rows.iter().map(|r| (r.mu, 1e3 * r.max_slip)).collect(),
                color: [220, 120, 60],
                markers: true,
            },
            Series {
                label: "mean",
                points: rows.iter().map(|r| (r.mu, 1e3 * r.mean_slip)).collect(),
                color: [70, 130, 200],
                markers: true,
            },
        ],
        legend: Legend::Inside,
    }
    .draw(720, 480)
}

/// The limb's colour in the last frames, apart from every colour of the key.
const LIMB_GREY: [u8; 3] = [185, 185, 185];
/// Slip (mm) at which the colour key of the last frames saturates.
const KEY_MAX_MM: f64 = 30.0;
/// Colour bands of the key, each `KEY_MAX_MM / KEY_BANDS` wide.
const KEY_BANDS: usize = 6;

/// Each sleeve vertex's slip on the limb (m) at `frame` of the run in `dir`, measured as
/// `stats.csv` measures it (vertices not within reach of the limb at frame 0 get 0).
fn vertex_slips(dir: &Path, frame: usize) -> Result<(Vec<f64>, [SurfaceMesh; 2]), String> {
    let read =
        |object: &str, frame: usize| read_obj(&dir.join(frame_file_name(object, frame))).map_err(|e| e.to_string());
    let (limb0, sleeve0) = (read("limb", 0)?, read("sleeve", 0)?);
    let (limb, sleeve) = (read("limb", frame)?, read("sleeve", frame)?);
    let embedding = SlipEmbedding::new(&sleeve0.positions, &limb0.positions, &limb0.triangles);
    let mut slips = vec![0.0; sleeve.positions.len()];
    for (v, slip) in embedding.slips(&sleeve.positions, &limb.positions) {
        slips[v] = slip;
    }
    Ok((slips, [limb, sleeve]))
}

/// The last frames of the runs at `COMPARED`, rendered with one camera (fitted to both) from
/// the scene's view, side by side under their μ and slip: the sleeve opaque, each triangle
/// coloured by the mean slip of its corners on a key from 0 to `KEY_MAX_MM`.
pub fn last_frames(
    out: &Path,
    frames: usize,
    up: [f64; 3],
    view: Option<[f64; 3]>,
) -> Result<grip::io::preview::RgbImage, String> {
    let runs = COMPARED.iter().map(|&mu| vertex_slips(&run_dir(out, mu), frames)).collect::<Result<Vec<_>, _>>()?;
    let band = |slip_m: f64| ((1e3 * slip_m / KEY_MAX_MM * KEY_BANDS as f64) as usize).min(KEY_BANDS - 1);
    let color = |b: usize| ramp(b as f64 / (KEY_BANDS - 1) as f64);
    // Per run, the sleeve's triangles sorted into the key's bands.
    let banded: Vec<Vec<Vec<[u32; 3]>>> = runs
        .iter()
        .map(|(slips, [_, sleeve])| {
            let mut bands = vec![Vec::new(); KEY_BANDS];
            for t in &sleeve.triangles {
                let mean = t.iter().map(|&v| slips[v as usize]).sum::<f64>() / 3.0;
                bands[band(mean)].push(*t);
            }
            bands
        })
        .collect();
    let meshes = |run: usize| -> Vec<PreviewMesh<'_>> {
        let [limb, sleeve] = &runs[run].1;
        let limb =
            PreviewMesh { positions: &limb.positions, triangles: &limb.triangles, color: LIMB_GREY, opacity: 1.0 };
        let bands = banded[run].iter().enumerate().map(|(b, triangles)| PreviewMesh {
            positions: &sleeve.positions,
            triangles,
            color: color(b),
            opacity: 1.0,
        });
        std::iter::once(limb).chain(bands).collect()
    };
    let all: Vec<PreviewMesh> = (0..runs.len()).flat_map(meshes).collect();
    let (w, h) = PREVIEW_SIZE;
    let camera = Camera::fit_towards(&all, up, view, w, h);
    let images = (0..runs.len())
        .map(|run| render_image(&meshes(run), &camera).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, String>>()?;
    let captions: Vec<String> = COMPARED
        .iter()
        .zip(&runs)
        .map(|(mu, (slips, _))| {
            let mean = 1e3 * slips.iter().sum::<f64>() / slips.len().max(1) as f64;
            format!("mu = {mu}, frame {frames}: mean slip {mean:.1} mm")
        })
        .collect();
    let panels = side_by_side(&[(&images[0], &captions[0]), (&images[1], &captions[1])]);
    let colors: Vec<[u8; 3]> = (0..KEY_BANDS).map(color).collect();
    let step = KEY_MAX_MM / KEY_BANDS as f64;
    let mut labels: Vec<String> = (0..KEY_BANDS).map(|b| format!("{}", b as f64 * step)).collect();
    labels[KEY_BANDS - 1] = format!(">= {}", (KEY_BANDS - 1) as f64 * step);
    let key = color_key(panels.width, "sleeve slip (mm)", &colors, &labels);
    Ok(stacked(&[&panels, &key]))
}

/// Runs the sweep and writes its table and figures; returns the exit code.
pub fn run(options: &SweepOptions) -> i32 {
    match sweep(options) {
        Ok(()) => 0,
        Err(m) => {
            eprintln!("grip: error: {m}");
            1
        }
    }
}

fn sweep(options: &SweepOptions) -> Result<(), String> {
    let out = options.out.clone().unwrap_or_else(|| PathBuf::from("out").join("slip-vs-mu"));
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut rows = Vec::new();
    let mut scene_line = String::new();
    let (mut view, mut up) = (None, [0.0, 1.0, 0.0]);
    for mu in MUS {
        let demo =
            DemoOptions { mu: Some(mu), resolution: options.resolution, sleeve: options.sleeve, ..Default::default() };
        let mut scene = tube_cloth_bend(&demo)?;
        scene.frames = options.frames.unwrap_or(scene.frames);
        (scene_line, view, up) = (describe(&scene), scene.view, scene.params.gravity.map(|g| -g));
        let dir = run_dir(&out, mu);
        if !options.figures_only {
            println!("grip: mu = {mu}: {scene_line}");
            simulate(&scene, &dir, grip::scene::run::RunOptions::default(), &mut Terminal::new())
                .map_err(|e| format!("mu = {mu}: {} (output in {})", e.message, dir.display()))?;
        }
        let row = read_row(&dir, mu)?;
        println!(
            "grip: mu = {mu}: {} frames in {:.1} s, slip {:.2} mm (largest {:.2} mm), output in {}",
            row.frames,
            row.seconds,
            1e3 * row.mean_slip,
            1e3 * row.max_slip,
            dir.display()
        );
        rows.push(row);
    }
    let frames = rows.last().map_or(0, |r| r.frames);
    let write = |name: &str, text: &str| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("slip_vs_mu.csv", &csv(&rows))?;
    let table = markdown(&rows, &scene_line);
    write("slip_vs_mu.md", &table)?;
    write_png(&out.join("slip_vs_mu.png"), &plot(&rows, frames))?;
    write_png(&out.join("last_frames_mu_0.2_0.8.png"), &last_frames(&out, frames, up, view)?)?;
    print!("{table}");
    println!(
        "grip: wrote slip_vs_mu.csv, slip_vs_mu.md, slip_vs_mu.png and last_frames_mu_0.2_0.8.png in {}",
        out.display()
    );
    Ok(())
}
