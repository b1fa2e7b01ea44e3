//! End-to-end tests of the `grip` binary: demos, scene files, outputs and error handling.
//! Run in release: `cargo test --release --test cli`.

mod cli_support;

use cli_support::{
    assert_fails_with, assert_ok, check_png, grip, scene_file, stats, stats_with, stderr, TempDir, FIRST_METRIC,
};
use grip::io::obj::read_obj;
use std::path::Path;

#[test]
fn help_version_and_list() {
    let o = grip(&["--help"]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("demo") && out.contains("run"), "{out}");
    let o = grip(&["--version"]);
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains(env!("CARGO_PKG_VERSION")));
    let o = grip(&["demo", "--list"]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("hanging-cloth") && out.contains("hanging-bar"), "{out}");
    assert!(out.starts_with("tube-cloth-bend"), "the default demo is listed first: {out}");
    let o = grip(&["demo", "--help"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("default: tube-cloth-bend") && out.contains("--export") && out.contains("--res"), "{out}");
    assert!(!out.contains("tiny"), "--res tiny is for tests only: {out}");
    let o = grip(&["run", "--help"]);
    let out = String::from_utf8_lossy(&o.stdout);
    for key in [
        "pin_group",
        "hinge",
        "[[friction]]",
        "[[slip]]",
        "contact_kernel",
        "collider_mesh_contact",
        "contact_radius_multiplier",
        "self_contact_thickness",
    ] {
        assert!(out.contains(key), "grip run --help should document {key}: {out}");
    }
    assert_ne!(grip(&["frobnicate"]).status.code(), Some(0));
}

#[test]
fn hanging_cloth_demo_writes_every_output() {
    let dir = TempDir::new("demo6");
    let out = dir.0.to_str().expect("utf-8 path");
    let o = grip(&["demo", "hanging-cloth", "--frames", "6", "--out", out]);
    assert_ok(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("6 frames"));
    for f in 0..=6 {
        let m = read_obj(&dir.0.join(format!("cloth_{f:04}.obj"))).expect("frame OBJ");
        assert_eq!(m.positions.len(), 21 * 21);
        assert_eq!(m.triangles.len(), 2 * 20 * 20);
    }
    assert!(!dir.0.join("cloth_0007.obj").exists());
    let rows = stats(&dir.0);
    assert_eq!(rows.len(), 7, "frame 0 plus one row per frame");
    for (f, r) in rows.iter().enumerate() {
        assert_eq!(r[0], f as f64);
        assert_eq!(r[8], f64::INFINITY, "no contact: the deepest gap is inf");
        if f > 0 {
            assert_eq!(r[1], 10.0, "1/24 s in substeps of 1/240 s");
            assert!(r[2] >= r[1] && r[3] <= 1e-6 && r[5].is_finite() && r[6].is_finite());
            assert_eq!(r[7], r[2], "one LU solve per Newton iteration");
            assert_eq!((r[9], r[10]), (0.0, 0.0), "no contacts, no retries");
        }
        assert_eq!(r[FIRST_METRIC], 0.0, "frame {f}: the cloth does not pass through itself");
    }
    check_png(&dir.0.join("preview_first.png"));
    check_png(&dir.0.join("preview_last.png"));
}

/// The `intersecting_pairs` column counts pairs of a shell's triangles that intersect: two
/// pinned crossing triangles are one pair in every frame; a third triangle falling far from them
/// adds none.
#[test]
fn stats_count_intersecting_triangles() {
    let dir = TempDir::new("cross");
    let obj = "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0.02 0.02 -0.05\nv 0.03 0.02 0.05\nv 0.02 0.03 0.05\n\
               v 0.5 0.5 0\nv 0.6 0.5 0\nv 0.5 0.6 0\nf 1 2 3\nf 4 5 6\nf 7 8 9\n";
    std::fs::write(dir.0.join("cross.obj"), obj).expect("mesh");
    let scene = "[output]\nframes = 2\n[[object]]\nkind = \"shell\"\nmesh = \"cross.obj\"\n\
                 pin_vertices = [0, 1, 2, 3, 4, 5]\n";
    std::fs::write(dir.0.join("scene.toml"), scene).expect("scene");
    let out = dir.0.join("out");
    assert_ok(&grip(&["run", dir.0.join("scene.toml").to_str().unwrap(), "--out", out.to_str().unwrap()]));
    let rows = stats(&out);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r[FIRST_METRIC] == 1.0), "{rows:?}");
    let fallen = read_obj(&out.join("cross_0002.obj")).expect("frame 2");
    assert!(fallen.positions[6][2] < -1e-3, "the free triangle falls");
}

#[test]
fn hanging_bar_demo_runs() {
    let dir = TempDir::new("bar");
    let o = grip(&["demo", "hanging-bar", "--frames", "2", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let m = read_obj(&dir.0.join("bar_0002.obj")).expect("bar OBJ");
    assert_eq!(m.positions.len(), 3 * 3 * 21);
    assert!(m.positions.iter().all(|p| p.iter().all(|x| x.is_finite())));
    // With ν = 0 the bar stretches under gravity without thinning: its volume grows a little.
    let rows = stats_with(&dir.0, &["bar_volume_change_pct"]);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0][FIRST_METRIC], 0.0);
    assert!(rows[2][FIRST_METRIC] > 0.0 && rows[2][FIRST_METRIC] < 1.0, "volume change {} %", rows[2][FIRST_METRIC]);
}

#[test]
fn example_scene_runs() {
    let dir = TempDir::new("example");
    let scene = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes/hanging-cloth.toml");
    let o = grip(&["run", scene.to_str().unwrap(), "--frames", "3", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let first = read_obj(&dir.0.join("cloth_0000.obj")).expect("frame 0");
    let last = read_obj(&dir.0.join("cloth_0003.obj")).expect("frame 3");
    // Translated to z = 1 m; the pinned top row stays there, the initial push moved the rest.
    assert!(first.positions.iter().all(|p| p[2] <= 1.0 + 1e-12 && p[2] >= -1e-12));
    assert!(last.positions[..13].iter().zip(&first.positions).all(|(a, b)| a == b));
    assert!(last.positions.iter().any(|p| p[1] > 0.01));
    assert_eq!(stats(&dir.0).len(), 4);
}

#[test]
fn example_solid_scene_reads_vtk() {
    let dir = TempDir::new("example_bar");
    let scene = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes/hanging-bar.toml");
    let o = grip(&["run", scene.to_str().unwrap(), "--frames", "2", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let m = read_obj(&dir.0.join("bar_0002.obj")).expect("bar OBJ");
    assert_eq!(m.triangles.len(), 2 * (2 + 4 * 8), "boundary of 1 x 1 x 8 cubes");
    // The top face is pinned at z = 0; everything else has dropped below it.
    assert_eq!(m.positions.iter().filter(|p| p[2] == 0.0).count(), 4);
    assert!(m.positions.iter().all(|p| p[2] <= 0.0));
}

#[test]
fn bad_input_fails_with_a_message() {
    let dir = TempDir::new("bad");
    let out = dir.0.join("out");
    let out = out.to_str().unwrap();
    let unknown_key = scene_file(&dir, "colour = \"red\"", "cloth.obj");
    assert_fails_with(&grip(&["run", unknown_key.to_str().unwrap(), "--out", out]), &["colour", "scene.toml"]);
    let missing = scene_file(&dir, "", "no-such-mesh.obj");
    assert_fails_with(&grip(&["run", missing.to_str().unwrap(), "--out", out]), &["no-such-mesh.obj"]);
    let bad_section = scene_file(&dir, "[solver]\ntimestep = 0.01", "cloth.obj");
    assert_fails_with(&grip(&["run", bad_section.to_str().unwrap(), "--out", out]), &["timestep"]);
    let bad_step = scene_file(&dir, "[solver]\ntime_step = -1.0", "cloth.obj");
    assert_fails_with(&grip(&["run", bad_step.to_str().unwrap(), "--out", out]), &["time_step"]);
    let bad_pin = scene_file(&dir, "pin_vertices = [100000]", "cloth.obj");
    assert_fails_with(&grip(&["run", bad_pin.to_str().unwrap(), "--out", out]), &["pin_vertices", "100000"]);
    let no_file = dir.0.join("absent.toml");
    assert_fails_with(&grip(&["run", no_file.to_str().unwrap()]), &["absent.toml"]);
    assert_fails_with(&grip(&["demo", "flapping-flag", "--out", out]), &["flapping-flag", "tube-cloth-bend"]);
    assert_fails_with(&grip(&["demo", "--fps", "0", "--out", out]), &["fps"]);
}

/// The hanging cloth for its full 48 frames stays finite, stays below its pins in every frame,
/// and its kinetic energy decays: the cloth starts horizontal and swings like a damped pendulum,
/// so KE oscillates; its envelope (the peak of each half of the run) must fall by more than half,
/// and the last frame must hold less than a fifth of the peak.
#[test]
fn hanging_cloth_swings_down_and_decays() {
    let dir = TempDir::new("demo48");
    let started = std::time::Instant::now();
    assert_ok(&grip(&["demo", "hanging-cloth", "--out", dir.0.to_str().unwrap()]));
    eprintln!("48-frame hanging cloth: {:.2} s", started.elapsed().as_secs_f64());
    let mut lowest = 0.0f64;
    for f in 0..=48 {
        let m = read_obj(&dir.0.join(format!("cloth_{f:04}.obj"))).expect("frame OBJ");
        assert!(m.positions.iter().flatten().all(|x| x.is_finite()), "frame {f} has NaN");
        let pin_z = m.positions[0][2].max(m.positions[20][2]);
        assert!(m.positions.iter().all(|p| p[2] <= pin_z + 1e-9), "frame {f}: a vertex is above the pins");
        lowest = m.positions.iter().fold(lowest, |l, p| l.min(p[2]));
    }
    assert!(lowest < -0.8, "the 1 m cloth should hang down about 1 m, lowest z = {lowest} m");
    let ke: Vec<f64> = stats(&dir.0).iter().map(|r| r[5]).collect();
    assert_eq!(ke.len(), 49);
    let peak = |r: std::ops::Range<usize>| ke[r].iter().cloned().fold(0.0, f64::max);
    let (early, late) = (peak(0..25), peak(25..49));
    eprintln!("kinetic energy peaks: frames 0-24 {early:.4} J, 25-48 {late:.4} J, last {:.4} J", ke[48]);
    assert!(early > 0.1, "the cloth should swing (peak KE {early} J)");
    assert!(late < 0.5 * early, "kinetic energy did not decay: {late} J vs {early} J");
    assert!(ke[48] < 0.2 * early, "last {} J vs peak {early} J", ke[48]);
}

/// `grip bench` prints one row per scene with its size and Newton work (timings are not checked),
/// and takes the solver overrides.
#[test]
fn bench_prints_a_row_per_scene() {
    for (solver, linear_per_frame_at_least) in [("direct", 10.0), ("iterative", 10.0)] {
        let o = grip(&["bench", "hanging-bar", "--frames", "1", "--linear-solver", solver, "--threads", "1"]);
        assert_ok(&o);
        let out = String::from_utf8_lossy(&o.stdout);
        let row = out.lines().find(|l| l.starts_with("hanging-bar")).unwrap_or_else(|| panic!("no row: {out}"));
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols.len(), 14, "{row}");
        assert_eq!(cols[1], solver, "{row}");
        assert_eq!(cols[2], "567", "3 x 189 vertices: {row}");
        assert_eq!(cols[3], "1");
        assert_eq!(cols[4], "10", "1/24 s in substeps of 1/240 s: {row}");
        let numbers: Vec<f64> = cols[5..].iter().map(|c| c.parse::<f64>().unwrap_or(f64::NAN)).collect();
        assert!(numbers.iter().all(|x| x.is_finite() && *x >= 0.0), "{row}");
        // Every substep takes at least one Newton iteration, and each one linear solve.
        assert!(numbers[0] >= 10.0 && numbers[1] >= linear_per_frame_at_least, "{row}");
    }
    assert_fails_with(&grip(&["bench", "no-such-demo"]), &["unknown demo"]);
    assert_fails_with(&grip(&["bench", "hanging-bar", "--linear-solver", "qr"]), &["qr", "direct", "iterative"]);
}

/// Mean of an OBJ's vertices [m].
fn centroid(m: &grip::io::obj::SurfaceMesh) -> [f64; 3] {
    let n = m.positions.len() as f64;
    [0, 1, 2].map(|k| m.positions.iter().map(|p| p[k]).sum::<f64>() / n)
}

/// The incline demo: a block on a 10° plane started at 0.1 m/s down the slope keeps sliding
/// (Coulomb friction only slows it by 0.007 m/s² here), so after 6 frames (0.25 s) it has moved
/// about v₀ t = 25 mm along the slope, which runs along +x and down.
#[test]
fn incline_demo_slides_down_the_slope() {
    let dir = TempDir::new("incline");
    let o = grip(&["demo", "incline", "--frames", "6", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let (a, b) = (
        centroid(&read_obj(&dir.0.join("block_0000.obj")).unwrap()),
        centroid(&read_obj(&dir.0.join("block_0006.obj")).unwrap()),
    );
    let (s, c) = 10f64.to_radians().sin_cos();
    let along = (b[0] - a[0]) * c - (b[2] - a[2]) * s;
    let across = (b[0] - a[0]) * s + (b[2] - a[2]) * c;
    assert!(along > 0.02 && along < 0.03, "moved {along} m down the slope");
    // The Kuhn-split block is not mirror-symmetric across the slope: a few micrometres of
    // sideways creep over 25 mm of sliding are allowed.
    assert!(
        across.abs() < 1e-3 && (b[1] - a[1]).abs() < 1e-5,
        "left the slope: {across} m across, {} m sideways",
        b[1] - a[1]
    );
    assert_eq!(stats_with(&dir.0, &["block_volume_change_pct"]).len(), 7);
    check_png(&dir.0.join("preview_last.png"));
    // The contact options reach it; demos that do not use one refuse it by name.
    let o = grip(&[
        "demo",
        "incline",
        "--frames",
        "1",
        "--coupling",
        "lagged",
        "--h",
        "0.02",
        "--angle",
        "20",
        "--mu",
        "0.1",
        "--out",
        dir.0.to_str().unwrap(),
    ]);
    assert_ok(&o);
    assert_fails_with(&grip(&["demo", "pinch", "--v0", "1", "--out", dir.0.to_str().unwrap()]), &["pinch", "--v0"]);
    assert_fails_with(&grip(&["demo", "hanging-bar", "--coupling", "lagged"]), &["hanging-bar", "--coupling"]);
    assert_fails_with(&grip(&["demo", "incline", "--h", "0", "--out", dir.0.to_str().unwrap()]), &["--h"]);
}

#[test]
fn pinch_demo_runs() {
    let dir = TempDir::new("pinch");
    let o = grip(&["demo", "pinch", "--frames", "2", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let m = read_obj(&dir.0.join("block_0002.obj")).expect("block OBJ");
    assert_eq!(m.positions.len(), 4 * 4 * 4);
    // The plates move in along x, the block stays between them, above the floor.
    assert!(m.positions.iter().all(|p| p.iter().all(|x| x.is_finite()) && p[2] > -1e-3 && p[0].abs() < 0.06));
    assert_eq!(stats_with(&dir.0, &["block_volume_change_pct"]).len(), 3);
    check_png(&dir.0.join("preview_first.png"));
}

#[test]
fn accuracy_quick_writes_the_report() {
    let dir = TempDir::new("accuracy");
    let path = dir.0.join("ACCURACY.md");
    let o = grip(&["accuracy", "--quick", "--out", path.to_str().unwrap()]);
    assert_ok(&o);
    let text = std::fs::read_to_string(&path).expect("report written");
    assert!(String::from_utf8_lossy(&o.stdout).contains(&text), "the report is also printed");
    for needle in [
        "| coupling | h [s] | measured | analytic | error % |",
        "## Block slide",
        "## Sliding acceleration",
        "## Sticking",
        "## Conveyor",
        "## Pinch",
        "x_T = v₀²/(2a)",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    // One row per coupling in each of the 7 tables, at h = 0.05 s only.
    assert_eq!(text.lines().filter(|l| l.starts_with("| implicit | 0.05 |")).count(), 7, "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("| lagged | 0.05 |")).count(), 7, "{text}");
    assert!(!text.contains("| 0.01 |"));
}

/// The cloth-on-sphere example: after 2 frames the cloth has reached the ball, and no cloth
/// vertex is inside it by more than the contact thickness.
#[test]
fn cloth_on_sphere_example_stays_outside_the_ball() {
    let dir = TempDir::new("cloth_on_sphere");
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("examples/scenes/cloth-on-sphere.toml");
    let scene = grip::scene::file::load(&path).expect("scene loads");
    let ball = scene.colliders.iter().find(|c| c.name == "ball").expect("a ball").shape;
    let delta = scene.params.contact_thickness;
    let o = grip(&["run", path.to_str().unwrap(), "--frames", "2", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let m = read_obj(&dir.0.join("cloth_0002.obj")).expect("cloth OBJ");
    let gap = |p: &[f64; 3]| (0..3).map(|k| (p[k] - ball.center[k]).powi(2)).sum::<f64>().sqrt() - ball.radius;
    let deepest = m.positions.iter().map(gap).fold(f64::INFINITY, f64::min);
    assert!(deepest < 5e-3, "the cloth should have landed on the ball, smallest gap {deepest} m");
    assert!(deepest > -delta, "a cloth vertex is {deepest} m inside the ball (thickness {delta} m)");
    check_png(&dir.0.join("preview_last.png"));
}

#[test]
fn bad_colliders_fail_naming_the_key() {
    let dir = TempDir::new("bad_collider");
    let out = dir.0.join("out");
    let out = out.to_str().unwrap();
    let cases: [(&str, &[&str]); 5] = [
        ("[[collider]]\nkind = \"cone\"\nradius = 1.0", &["kind", "cone", "sphere"]),
        ("[[collider]]\nkind = \"sphere\"\nradius = 1.0\nscale = 2.0", &["scale", "collider"]),
        ("[[collider]]\nkind = \"capsule\"", &["radius", "capsule"]),
        ("[[collider]]\nkind = \"plane\"\naxis = [0.0, 0.0, 0.0]", &["axis"]),
        ("[solver]\nfriction_coupling = \"sideways\"", &["friction_coupling", "lagged"]),
    ];
    for (extra, needles) in cases {
        let scene = scene_file(&dir, extra, "cloth.obj");
        assert_fails_with(&grip(&["run", scene.to_str().unwrap(), "--out", out]), needles);
    }
}

/// `grip diff` of two runs of the same demo (one with the sparse LU, one with BiCGSTAB) reports
/// per-frame vertex distances, and with `--tolerance` fails (1) when any common frame differs by
/// more, not only the last; a vertex moved by 1 cm in one frame shows as 1 cm; a frame missing
/// from one run fails the tolerance check; a vertex-count mismatch, two files for one frame and
/// directories without a common frame are trouble (2).
#[test]
fn diff_compares_two_runs_frame_by_frame() {
    let dir = TempDir::new("diff");
    let (a, b) = (dir.0.join("a"), dir.0.join("b"));
    for (out, solver) in [(&a, "direct"), (&b, "iterative")] {
        let out = out.to_str().unwrap();
        assert_ok(&grip(&["demo", "hanging-cloth", "--frames", "2", "--linear-solver", solver, "--out", out]));
    }
    let (a_str, b_str) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = grip(&["diff", a_str, b_str, "--tolerance", "1e-6"]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.lines().filter(|l| l.contains("cloth ")).count() == 3, "frames 0, 1 and 2: {out}");
    assert!(out.contains("last common frame (2)"), "{out}");
    // Move one vertex of frame 1 in B by 1 cm along x: frame 1 fails the check, though the
    // last frame agrees.
    let path = b.join("cloth_0001.obj");
    let original = read_obj(&path).expect("frame 1");
    let mut moved = original.clone();
    moved.positions[7][0] += 0.01;
    grip::io::obj::write_obj(&path, &moved.positions, &moved.triangles).expect("write");
    let o = grip(&["diff", a_str, b_str, "--tolerance", "1e-3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let row = out.lines().find(|l| l.trim_start().starts_with("1 ")).expect("frame 1 row");
    let d: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!((d - 0.01).abs() < 1e-6, "{row}");
    assert!(out.contains("over the common frames: 1.000e-2 m (frame 1)"), "{out}");
    assert_ok(&grip(&["diff", a_str, b_str]));
    grip::io::obj::write_obj(&path, &original.positions, &original.triangles).expect("write");
    // A run that stopped a frame early.
    std::fs::remove_file(b.join("cloth_0002.obj")).unwrap();
    let o = grip(&["diff", a_str, b_str, "--tolerance", "1e-3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 frame files only in"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Trouble: other vertex counts, two files for one frame, nothing in common.
    let fewer = dir.0.join("fewer");
    std::fs::create_dir_all(&fewer).unwrap();
    grip::io::obj::write_obj(&fewer.join("cloth_0000.obj"), &original.positions[..3], &[[0, 1, 2]]).expect("write");
    assert_eq!(grip(&["diff", a_str, fewer.to_str().unwrap()]).status.code(), Some(2));
    std::fs::copy(a.join("cloth_0001.obj"), a.join("cloth_1.obj")).unwrap();
    assert_eq!(grip(&["diff", a_str, b_str]).status.code(), Some(2));
    let empty = dir.0.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_eq!(grip(&["diff", b_str, empty.to_str().unwrap()]).status.code(), Some(2));
}

/// The sleeve on the skinned limb mesh runs the first 12 frames of the bend (past the frame
/// where fully implicit friction stalls), the limb's OBJ at frame 12 is its point cache's frame
/// 12, and the sleeve has begun to slip (between 1 and 50 mm).
#[test]
fn sleeve_on_limb_mesh_demo_runs_and_plays_its_cache() {
    let dir = TempDir::new("limb_mesh");
    let o = grip(&["demo", "sleeve-on-limb-mesh", "--frames", "12", "--out", dir.0.to_str().unwrap()]);
    assert_ok(&o);
    let scene = grip_cli::demo::scene("sleeve-on-limb-mesh").expect("scene");
    let cache = scene.objects[0].point_cache.as_ref().expect("cache");
    let limb = read_obj(&dir.0.join("limb_0012.obj")).expect("limb OBJ");
    for (v, p) in limb.positions.iter().enumerate() {
        assert!((0..3).all(|k| (p[k] - cache.positions(12)[3 * v + k]).abs() < 1e-12), "limb vertex {v}");
    }
    let rows = stats_with(
        &dir.0,
        &["sleeve_slip_on_limb", "sleeve_max_slip_on_limb", "intersecting_pairs", "intersecting_pairs_with_solids"],
    );
    let slip = rows[12][FIRST_METRIC];
    assert!(rows[12][FIRST_METRIC + 1] >= slip, "largest slip {} below the mean {slip}", rows[12][FIRST_METRIC + 1]);
    assert!(slip > 1e-3 && slip < 0.05, "slip {slip} m at frame 12");
}
