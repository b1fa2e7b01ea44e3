//! End-to-end tests of the `grip` binary on a hard frame: under `failure_policy = "strict"` a run
//! stops and names the frame, under the scene file's default (continue) it goes on with a
//! fallback and says where.
//! Run in release: `cargo test --release --test cli_failure_policy`.

mod cli_support;

use cli_support::{
    assert_fails_with, assert_ok, check_png, grip, scene_file, stats, stats_cells, stderr, TempDir, FALLBACK_OBJECT,
    FIRST_METRIC, PINCHED_VERTICES,
};

/// A `[solver]` table no substep of the pinned cloth converges under: one Newton iteration and a
/// residual it cannot reach.
const HOPELESS: &str = "[solver]\nmax_newton_iterations = 1\nresidual_tolerance = 1e-15\nvelocity_tolerance = 0.0";

#[test]
fn solver_failure_keeps_outputs_and_names_the_frame() {
    let dir = TempDir::new("nonconv");
    let scene = scene_file(&dir, &format!("{HOPELESS}\nfailure_policy = \"strict\""), "cloth.obj");
    let out = dir.0.join("out");
    let o = grip(&["run", scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_fails_with(&o, &["frame 1", "converge", "with failure_policy = \"continue\" the run goes on"]);
    assert!(out.join("cloth_0000.obj").exists());
    assert_eq!(stats(&out).len(), 1);
    check_png(&out.join("preview_last.png"));
}

/// The same scene without the key (a scene file's policy is continue) runs its frame with
/// fallbacks: a warning names the cloth, the place and the frame, `stats.csv` counts the
/// fallbacks, the summary line their total; `--failure-policy strict` stops it again.
#[test]
fn a_hard_frame_goes_on_with_a_fallback_and_a_warning() {
    let dir = TempDir::new("fallback");
    let scene = scene_file(&dir, HOPELESS, "cloth.obj");
    let out = dir.0.join("out");
    let o = grip(&["run", scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_ok(&o);
    let e = stderr(&o);
    assert!(
        e.contains("grip: warning: cloth failed to converge near (") && e.contains("m at frame 1; fallback: "),
        "{e}"
    );
    let rows = stats(&out);
    assert_eq!(rows.len(), 2);
    let (lagged, frictionless, best) = (rows[1][12], rows[1][13], rows[1][14]);
    assert!(lagged == 0.0 && frictionless == 0.0 && best >= 1.0, "no friction to lag or drop: {:?}", rows[1]);
    assert!(rows[0][12..15].iter().all(|x| *x == 0.0));
    // Where: the cloth, at a vertex's place near the hanging cloth's 1 m square (x in [-0.5,
    // 0.5], y = 0, z in [-1, 0] at rest); nothing at frame 0.
    let cells = stats_cells(&out);
    assert_eq!((cells[0][FALLBACK_OBJECT].as_str(), cells[1][FALLBACK_OBJECT].as_str()), ("", "cloth"));
    let place = &rows[1][FALLBACK_OBJECT + 1..PINCHED_VERTICES];
    assert!(rows[0][FALLBACK_OBJECT + 1..PINCHED_VERTICES].iter().all(|x| x.is_nan()), "{:?}", rows[0]);
    // No collider, so no pinch: a count of 0 and no place.
    for r in &rows {
        assert!(
            r[PINCHED_VERTICES] == 0.0 && r[PINCHED_VERTICES + 1..FIRST_METRIC].iter().all(|x| x.is_nan()),
            "{r:?}"
        );
    }
    let near_rest = place[0].abs() < 0.6 && place[1].abs() < 0.1 && (-1.1..0.1).contains(&place[2]);
    assert!(near_rest, "{place:?}");
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!(" substeps, {best} by a fallback), ")), "{o:?}");
    let strict = dir.0.join("strict");
    let o = grip(&["run", scene.to_str().unwrap(), "--out", strict.to_str().unwrap(), "--failure-policy", "strict"]);
    assert_fails_with(&o, &["frame 1", "converge"]);
}

/// Two planes closing on the hanging cloth from 3 mm on each side to 0.25 mm (half the
/// contact thickness δ = 1 mm apart) over frame 1: under the scene file's default (continue)
/// the run goes on, warns naming the cloth, both planes and the place, and `stats.csv` counts
/// the pinched vertices with the place and the planes' separation; under strict the frame fails
/// with that message.
#[test]
fn a_pinch_between_two_planes_warns_or_stops_the_run() {
    let dir = TempDir::new("pinch");
    let scene = scene_file(&dir, "", "cloth.obj");
    let mut text = std::fs::read_to_string(&scene).expect("read scene");
    // 2.75 mm in 1/24 s; the names are the default ones, "plane-1" and "plane-2".
    for (y, sign) in [(-3e-3, 1.0), (3e-3, -1.0)] {
        text.push_str(&format!(
            "[[collider]]\nkind = \"plane\"\ncenter = [0, {y}, 0]\naxis = [0, {sign}, 0]\nvelocity = [0, {}, 0]\n",
            sign * 0.066
        ));
    }
    std::fs::write(&scene, text).expect("write scene");
    let out = dir.0.join("out");
    let o = grip(&["run", scene.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_ok(&o);
    let e = stderr(&o);
    assert!(e.contains("grip: warning: cloth is pinched between plane-"), "{e}");
    assert!(e.contains("at frame 1") && e.contains("under the contact thickness 1.0 mm"), "{e}");
    let rows = stats(&out);
    let (count, place, separation) =
        (rows[1][PINCHED_VERTICES], &rows[1][PINCHED_VERTICES + 1..FIRST_METRIC - 1], rows[1][FIRST_METRIC - 1]);
    assert!(count > 0.0 && place.iter().all(|x| x.is_finite()), "{:?}", rows[1]);
    assert!((separation - 0.5e-3).abs() < 1e-6, "{:?}", rows[1]);
    assert!(rows[0][PINCHED_VERTICES] == 0.0 && rows[0][PINCHED_VERTICES + 1..FIRST_METRIC].iter().all(|x| x.is_nan()));
    let strict = dir.0.join("strict");
    let o = grip(&["run", scene.to_str().unwrap(), "--out", strict.to_str().unwrap(), "--failure-policy", "strict"]);
    assert_fails_with(&o, &["frame 1", "is pinched between collider", "set the failure policy to continue"]);
}
