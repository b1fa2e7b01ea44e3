//! The tube cloth bend through the `grip` binary, at the hidden test resolution `--res tiny`
//! (780 tets, 480 triangles; the low and high resolutions take from seconds to minutes per
//! frame). Run in release: `cargo test --release --test cli_tube`.

mod cli_support;

use cli_support::{
    assert_fails_with, assert_ok, check_png, grip, stats_with, TempDir, FALLBACK_OBJECT, FIRST_METRIC, PINCHED_VERTICES,
};
use grip::io::obj::read_obj;

/// The metric columns of the tube's `stats.csv`.
const METRICS: [&str; 5] = [
    "limb_volume_change_pct",
    "sleeve_slip_on_limb",
    "sleeve_max_slip_on_limb",
    "intersecting_pairs",
    "intersecting_pairs_with_solids",
];

/// θ(t) = 90°·(3u² − 2u³), u = min(t / 1 s, 1) [rad].
fn theta(t: f64) -> f64 {
    let u = t.min(1.0);
    std::f64::consts::FRAC_PI_2 * (3.0 * u * u - 2.0 * u * u * u)
}

/// `grip demo` without a name runs the tube (here at the test resolution, 2 frames, μ = 0.8):
/// the limb's ends follow the prescribed bend exactly, the metrics are finite, the sleeve stays
/// on the limb.
#[test]
fn default_demo_bends_the_limb_in_the_sleeve() {
    let dir = TempDir::new("tube");
    let out = dir.0.to_str().unwrap();
    let o = grip(&["demo", "--res", "tiny", "--mu", "0.8", "--frames", "2", "--out", out]);
    assert_ok(&o);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("scene tube-cloth-bend: limb (solid, 242 vertices, 780 tets), sleeve (shell"), "{said}");
    let rest = read_obj(&dir.0.join("limb_0000.obj")).expect("limb at frame 0");
    for frame in [1, 2] {
        let limb = read_obj(&dir.0.join(format!("limb_{frame:04}.obj"))).expect("limb");
        let (s, c) = theta(frame as f64 / 24.0).sin_cos();
        let (mut held, mut turned) = (0, 0);
        for (p0, p) in rest.positions.iter().zip(&limb.positions) {
            if p0[0] <= -0.13 {
                assert_eq!(p0, p, "frame {frame}: a left-end vertex moved");
                held += 1;
            } else if p0[0] >= 0.13 {
                // Rotation by θ about z through (0, 0.075, 0).
                let (dx, dy) = (p0[0], p0[1] - 0.075);
                let want = [c * dx - s * dy, s * dx + c * dy + 0.075, p0[2]];
                let err = (0..3).map(|k| (p[k] - want[k]).abs()).fold(0.0, f64::max);
                assert!(err < 1e-12, "frame {frame}: pinned vertex at {p:?}, analytic {want:?}");
                turned += 1;
            }
        }
        assert!(held > 10 && turned > 10, "{held} held, {turned} turned");
        // The bend has begun: by frame 2 (θ = 1.77°) the tip, (0.2, 0, 0) at rest, has risen by
        // 0.2 sin θ + 0.075 (1 − cos θ) = 6.2 mm.
        let tip = (0..rest.positions.len()).max_by(|&a, &b| rest.positions[a][0].total_cmp(&rest.positions[b][0]));
        let tip = tip.unwrap();
        let rise = limb.positions[tip][1] - rest.positions[tip][1];
        assert!(frame == 1 || (rise - 6.2e-3).abs() < 5e-4, "the tip rose by {rise} m");
    }
    let rows = stats_with(&dir.0, &METRICS);
    assert_eq!(rows.len(), 3);
    let m = FIRST_METRIC;
    assert_eq!((rows[0][8], rows[0][m]), (f64::INFINITY, 0.0), "frame 0: no report, no volume change");
    assert!(
        rows[0][m + 1].abs() < 1e-15 && rows[0][m + 2].abs() < 1e-15,
        "no slip at frame 0: {:?}",
        &rows[0][m + 1..m + 3]
    );
    assert_eq!((rows[0][m + 3], rows[0][m + 4]), (0.0, 0.0), "frame 0: no intersecting triangles");
    for r in &rows[1..] {
        assert!(r[..FALLBACK_OBJECT].iter().chain(&r[m..]).all(|x| x.is_finite()), "{r:?}");
        assert!(r[FALLBACK_OBJECT + 1..PINCHED_VERTICES].iter().all(|x| x.is_nan()), "no fallback: {r:?}");
        let no_pinch = r[PINCHED_VERTICES] == 0.0 && r[PINCHED_VERTICES + 1..m].iter().all(|x| x.is_nan());
        assert!(no_pinch, "no pinch: {r:?}");
        assert!(r[7] >= r[2] && r[7] > 0.0, "linear iterations {} for {} Newton iterations", r[7], r[2]);
        assert!(r[9] > 10.0, "the sleeve rests on the limb: {} active contacts", r[9]);
        assert!(r[8].abs() < 5e-3, "deepest gap {} m", r[8]);
        assert!(r[m].abs() < 5.0, "limb volume change {} %", r[m]);
        assert!(r[m + 1] >= 0.0 && r[m + 1] < 5e-3, "slip {} m over two frames", r[m + 1]);
        assert!(r[m + 2] >= r[m + 1] && r[m + 2] < 1e-2, "largest slip {} m over two frames", r[m + 2]);
        // The sleeve does not pass through itself; limb edges poke through its coarse faces
        // by a fraction of a millimetre (contact keeps the sleeve's vertices out): hundreds of
        // pairs at this resolution, counted apart.
        assert_eq!(r[m + 3], 0.0, "the sleeve intersects itself");
        assert!(r[m + 4] >= 0.0 && r[m + 4].fract() == 0.0, "{}", r[m + 4]);
    }
    let sleeve = read_obj(&dir.0.join("sleeve_0002.obj")).expect("sleeve");
    assert_eq!(sleeve.triangles.len(), 480);
    check_png(&dir.0.join("preview_first.png"));
    check_png(&dir.0.join("preview_last.png"));
    assert_fails_with(&grip(&["demo", "tube-cloth-bend", "--res", "huge"]), &["--res", "huge", "low", "high"]);
    assert_fails_with(&grip(&["demo", "hanging-bar", "--res", "low"]), &["hanging-bar", "--res"]);
    assert_fails_with(&grip(&["demo", "--mu=-1", "--res", "tiny", "--out", out]), &["--mu"]);
}

/// `grip demo --sleeve loose` puts on the 1 mm oversize sleeve (at rest, 51 mm radius);
/// the default fitted one starts 1.5 mm off the limb and presses on it after a frame.
#[test]
fn sleeve_flag_chooses_the_fitted_or_the_loose_sleeve() {
    let radius = |p: &[f64; 3]| p[1].hypot(p[2]);
    for (fit, start) in [("loose", 0.051), ("fitted", 0.0515)] {
        let dir = TempDir::new(&format!("tube_{fit}"));
        let o = grip(&["demo", "--res", "tiny", "--sleeve", fit, "--frames", "1", "--out", dir.0.to_str().unwrap()]);
        assert_ok(&o);
        let first = read_obj(&dir.0.join("sleeve_0000.obj")).expect("sleeve at frame 0");
        assert!(first.positions.iter().all(|p| (radius(p) - start).abs() < 1e-9), "{fit}");
        let after = read_obj(&dir.0.join("sleeve_0001.obj")).expect("sleeve at frame 1");
        let mean = after.positions.iter().map(radius).sum::<f64>() / after.positions.len() as f64;
        if fit == "fitted" {
            // Shrunk onto the skin (r = 50 mm), within the contact thickness of 1 mm.
            assert!(mean > 0.0495 && mean < 0.0508, "fitted sleeve at mean radius {mean} m after a frame");
        } else {
            assert!(mean > 0.0505, "loose sleeve at mean radius {mean} m after a frame");
        }
    }
    assert_fails_with(&grip(&["demo", "--sleeve", "tight"]), &["--sleeve", "tight", "fitted", "loose"]);
    assert_fails_with(&grip(&["demo", "incline", "--sleeve", "loose"]), &["incline", "--sleeve"]);
}

/// `grip slip-vs-mu` runs the five μ and writes the table (CSV, Markdown) and both figures;
/// here at the test resolution for 2 frames.
#[test]
fn slip_vs_mu_writes_its_table_and_figures() {
    let dir = TempDir::new("slip_vs_mu");
    let o = grip(&["slip-vs-mu", "--res", "tiny", "--frames", "2", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let csv = std::fs::read_to_string(dir.0.join("slip_vs_mu.csv")).expect("csv");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("mu,frames,mean_slip,max_slip,substeps,newton_iterations,deepest_gap,seconds"));
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|x| x.parse().expect("number")).collect()).collect();
    assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), [0.0, 0.1, 0.2, 0.4, 0.8]);
    for (r, mu) in rows.iter().zip(["0", "0.1", "0.2", "0.4", "0.8"]) {
        assert_eq!(r[1], 2.0, "frames");
        assert!(r[2] >= 0.0 && r[3] >= r[2] && r[3] < 0.01, "slip {} m, largest {} m", r[2], r[3]);
        assert!(r[4] >= 2.0 && r[5] > 0.0 && r[6] > -1e-3, "{r:?}");
        // The table's last row is the run's last stats.csv row.
        let stats = std::fs::read_to_string(dir.0.join(format!("mu-{mu}/stats.csv"))).expect("run stats");
        let last: Vec<&str> = stats.lines().last().unwrap().split(',').collect();
        let number = |k: usize| last[k].parse::<f64>().unwrap();
        assert_eq!((number(FIRST_METRIC + 1), number(FIRST_METRIC + 2)), (r[2], r[3]), "mu = {mu}");
    }
    let md = std::fs::read_to_string(dir.0.join("slip_vs_mu.md")).expect("md");
    assert!(md.contains("| μ | frames | mean slip (mm) | largest slip (mm) |") && md.lines().count() >= 10, "{md}");
    for (file, size) in [("slip_vs_mu.png", (720, 480)), ("last_frames_mu_0.2_0.8.png", (1280, 548))] {
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(dir.0.join(file)).expect(file)));
        let reader = decoder.read_info().expect("png");
        assert_eq!((reader.info().width, reader.info().height), size, "{file}");
    }
}
