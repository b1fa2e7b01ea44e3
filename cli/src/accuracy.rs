//! `grip accuracy`: runs the friction experiments of `grip::analytic` for both friction couplings
//! and several time steps, compares each with its closed-form answer, and writes a Markdown report
//! (ACCURACY.md). A run that fails (e.g. Newton does not converge) is recorded, not fatal.

use grip::analytic::incline::{stop, G};
use grip::analytic::{Incline, InclineSample, Pinch};
use grip::contact::law::FrictionCoupling;
use std::fmt::Write as _;
use std::path::Path;

/// Time steps of the full report (s); `--quick` runs only the last.
///
/// cbindgen:ignore
pub const STEPS: [f64; 3] = [0.01, 0.025, 0.05];
/// Friction couplings compared, with their names.
const COUPLINGS: [(FrictionCoupling, &str); 2] =
    [(FrictionCoupling::Implicit, "implicit"), (FrictionCoupling::Lagged, "lagged")];
/// Speed below which the sliding block counts as stopped (m/s).
const STOP_SPEED: f64 = 1e-4;
/// Largest drift of a sticking block that passes (m).
const STICK_LIMIT: f64 = 1e-3;
/// Column header of every table.
///
/// cbindgen:ignore
pub const TABLE_HEADER: &str = "| coupling | h [s] | measured | analytic | error % |";

/// One measured quantity for every (coupling, h): its table.
struct Table {
    title: &'static str,
    /// How the error column is computed.
    note: String,
    rows: Vec<String>,
}

impl Table {
    fn new(title: &'static str, note: String) -> Self {
        Self { title, note, rows: Vec::new() }
    }

    /// Adds a row: `measured` (or why there is none), `analytic`, and the error relative to `scale`
    /// (the analytic value itself when it is nonzero).
    fn row(&mut self, coupling: &str, h: f64, measured: Result<f64, String>, analytic: f64, scale: f64, unit: &str) {
        let (m, e) = match measured {
            Ok(x) => (format!("{} {unit}", number(x)), percent(100.0 * (x - analytic) / scale)),
            Err(why) => (why.replace('|', "/").replace('\n', " "), "—".into()),
        };
        self.rows.push(format!("| {coupling} | {h} | {m} | {} {unit} | {e} |", number(analytic)));
    }
}

/// Six significant digits, in scientific notation below 0.01 in magnitude.
fn number(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() < 0.01 {
        format!("{x:.4e}")
    } else {
        format!("{:.*}", (5 - x.abs().log10().floor() as i32).max(0) as usize, x)
    }
}

/// A signed percentage: two decimals, or two significant digits when smaller than 0.01.
fn percent(p: f64) -> String {
    if p != 0.0 && p.abs() < 0.01 {
        format!("{p:+.1e}")
    } else {
        format!("{p:+.2}")
    }
}

/// Mean acceleration (m/s²) between the samples nearest times `t0` and `t1`.
fn acceleration(samples: &[InclineSample], h: f64, t0: f64, t1: f64) -> Result<f64, String> {
    let at = |t: f64| samples.get((t / h).round() as usize).ok_or_else(|| format!("no sample at t = {t} s"));
    let (a, b) = (at(t0)?, at(t1)?);
    Ok((b.speed - a.speed) / (b.t - a.t))
}

fn failed(e: grip::Error) -> String {
    format!("failed: {e}")
}

/// The experiments with their fixed parameters.
fn slide(h: f64, coupling: FrictionCoupling) -> Incline {
    Incline { h, coupling, ..Incline::default() }
}
fn sliding(h: f64, coupling: FrictionCoupling) -> Incline {
    Incline { mu: 0.1, v0: 0.0, duration: 2.0, ..slide(h, coupling) }
}
fn sticking(h: f64, coupling: FrictionCoupling) -> Incline {
    Incline { mu: 0.3, v0: 0.0, duration: 5.0, ..slide(h, coupling) }
}
fn conveyor(h: f64, coupling: FrictionCoupling) -> Incline {
    Incline { angle_deg: 0.0, mu: 0.4, v0: 0.0, belt_speed: 0.5, settle: 0.2, duration: 1.0, ..slide(h, coupling) }
}
fn pinch(h: f64, coupling: FrictionCoupling) -> Pinch {
    Pinch { h, coupling, ..Pinch::default() }
}

/// The header: what is compared, with the closed-form answers (machine-independent).
fn header(steps: &[f64]) -> String {
    let s = slide(0.01, FrictionCoupling::Implicit);
    let (x_t, t_t) = s.analytic_stop();
    let (sl, st, cv, p) = (
        sliding(0.01, FrictionCoupling::Implicit),
        sticking(0.01, FrictionCoupling::Implicit),
        conveyor(0.01, FrictionCoupling::Implicit),
        pinch(0.01, FrictionCoupling::Implicit),
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "# Accuracy of grip's friction against closed-form answers\n\n\
         Written by `grip accuracy` (grip {version}{quick}); rerun it to regenerate. The analytic values \
         and the formulas below are the machine-independent facts: physics (rigid block, Coulomb friction, \
         g = {G} m/s²), never fitted to the solver. The measured values are deterministic for a given build \
         (they do not depend on the thread count). The \
         simulated block is an elastic tet mesh (E = 10 MPa) on a penalty contact layer (δ = 1 mm) with \
         smoothed friction (ε = {eps:e} m/s), which is what the errors measure. Each case runs with friction \
         coupling *implicit* (sliding basis and contact force at the end of the step, paper Eq. 23) and \
         *lagged* (at the start, as IPC), taking one solver step per h.\n\n\
         - **Block slide** (θ = {theta}°, μ = {mu}, v₀ = {v0} m/s down the slope): deceleration \
         a = g(μ cos θ − sin θ) = {a} m/s²; stopping distance x_T = v₀²/(2a) = {x_t:.5} m at \
         T = v₀/a = {t_t:.4} s. Measured at the first step whose speed is below {STOP_SPEED:e} m/s.\n\
         - **Sliding acceleration** (μ = {mu1}, from rest): a = g(sin θ − μ cos θ) = {a1:.5} m/s², measured \
         from the speeds at the steps nearest t = 0.5 s and 2.0 s.\n\
         - **Sticking** (μ = {mu2} > tan θ = {tan:.4}, from rest, {d2} s): the block must not move; measured \
         the largest |displacement|, error % relative to the {limit} mm pass limit.\n\
         - **Conveyor belt** (flat, μ = {mu3}, belt at {belt} m/s after {settle} s at rest): the belt drags \
         the block at a = μg = {a3:.5} m/s² until it reaches the belt's speed (at v/(μg) = {reach:.3} s), \
         then carries it. Measured: the acceleration between the steps nearest t = 0.02 s and 0.1 s, and the largest \
         |v − v_belt| for t ≥ 0.6 s (error % relative to v_belt).\n\
         - **Pinch** (μ = {mu4}, plates squeeze {sq} mm into a soft block, then lift {lift} m in {tl} s and hold): \
         the grip holds the block, so it rises with the plates: slip = plate rise − block rise = 0 at the \
         end ({end} s); the block's elastic sag under its weight counts as slip. Error % relative to the lift.\n\n\
         Time steps: {steps}. A cell reads \"did not stop\" when the block never fell below the stop speed, \
         and \"failed: …\" when the solver refused a step (e.g. Newton did not converge).\n",
        version = env!("CARGO_PKG_VERSION"),
        quick = if steps.len() < STEPS.len() { ", --quick" } else { "" },
        eps = s.epsilon,
        theta = s.angle_deg,
        mu = s.mu,
        v0 = s.v0,
        a = number(s.deceleration()),
        mu1 = sl.mu,
        a1 = -sl.deceleration(),
        mu2 = st.mu,
        tan = st.angle_deg.to_radians().tan(),
        d2 = st.duration,
        limit = 1e3 * STICK_LIMIT,
        mu3 = cv.mu,
        belt = cv.belt_speed,
        settle = cv.settle,
        a3 = cv.mu * G,
        reach = cv.belt_speed / (cv.mu * G),
        mu4 = p.mu,
        sq = 1e3 * p.squeeze,
        lift = p.lift,
        tl = p.phases[1],
        end = p.duration(),
        steps = steps.iter().map(|h| format!("{h} s")).collect::<Vec<_>>().join(", "),
    );
    out
}

/// Runs every experiment for every coupling and each of `steps`, reporting progress on stderr;
/// returns the Markdown report.
pub fn report(steps: &[f64]) -> String {
    let (x_t, t_t) = slide(0.01, FrictionCoupling::Implicit).analytic_stop();
    let mut tables = [
        Table::new("Block slide: stopping distance", "Error % relative to x_T".into()),
        Table::new("Block slide: stopping time", "Error % relative to T".into()),
        Table::new("Sliding acceleration", "Error % relative to the analytic acceleration".into()),
        Table::new("Sticking: largest drift", format!("Error % relative to the {} mm limit", 1e3 * STICK_LIMIT)),
        Table::new("Conveyor: drag acceleration", "Error % relative to μg".into()),
        Table::new("Conveyor: largest |v − v_belt| once carried (t ≥ 0.6 s)", "Error % relative to v_belt".into()),
        Table::new("Pinch: final slip (plate rise − block rise)", "Error % relative to the lift".into()),
    ];
    for (coupling, name) in COUPLINGS {
        for &h in steps {
            eprintln!("grip accuracy: {name} coupling, h = {h} s");
            match slide(h, coupling).run().map_err(failed) {
                Ok(samples) => match stop(&samples, STOP_SPEED) {
                    Some(s) => {
                        tables[0].row(name, h, Ok(s.distance), x_t, x_t, "m");
                        tables[1].row(name, h, Ok(s.t), t_t, t_t, "s");
                    }
                    None => {
                        tables[0].row(name, h, Err("did not stop".into()), x_t, x_t, "m");
                        tables[1].row(name, h, Err("did not stop".into()), t_t, t_t, "s");
                    }
                },
                Err(m) => {
                    tables[0].row(name, h, Err(m.clone()), x_t, x_t, "m");
                    tables[1].row(name, h, Err(m), t_t, t_t, "s");
                }
            }
            let case = sliding(h, coupling);
            let a = -case.deceleration();
            let measured = case.run().map_err(failed).and_then(|s| acceleration(&s, h, 0.5, 2.0));
            tables[2].row(name, h, measured, a, a, "m/s²");
            let drift = sticking(h, coupling)
                .run()
                .map_err(failed)
                .map(|s| s.iter().map(|s| s.distance.abs()).fold(0.0, f64::max));
            tables[3].row(name, h, drift, 0.0, STICK_LIMIT, "m");
            let case = conveyor(h, coupling);
            let a = case.mu * G;
            match case.run().map_err(failed) {
                Ok(samples) => {
                    tables[4].row(name, h, acceleration(&samples, h, 0.02, 0.1), a, a, "m/s²");
                    let carried = samples.iter().filter(|s| s.t >= 0.6 - 1e-9);
                    let slip = carried.map(|s| (s.speed - case.belt_speed).abs()).fold(0.0, f64::max);
                    tables[5].row(name, h, Ok(slip), 0.0, case.belt_speed, "m/s");
                }
                Err(m) => {
                    tables[4].row(name, h, Err(m.clone()), a, a, "m/s²");
                    tables[5].row(name, h, Err(m), 0.0, case.belt_speed, "m/s");
                }
            }
            let case = pinch(h, coupling);
            let slip = case.run().map_err(failed).and_then(|s| {
                s.last().map(|l| l.plate_rise - l.block_rise).ok_or_else(|| "failed: no samples".to_string())
            });
            tables[6].row(name, h, slip, 0.0, case.lift, "m");
        }
    }
    let mut out = header(steps);
    for t in &tables {
        let _ = write!(out, "\n## {}\n\n{}.\n\n{TABLE_HEADER}\n|---|---|---|---|---|\n", t.title, t.note);
        for r in &t.rows {
            let _ = writeln!(out, "{r}");
        }
    }
    out.push_str(&super::accuracy_order::section());
    out
}

/// `grip accuracy [--quick] [--out FILE]`: prints the report and writes it to `out`. Returns the
/// exit code (1 only when the file cannot be written).
pub fn run(out: &Path, quick: bool) -> i32 {
    let steps: &[f64] = if quick { &STEPS[STEPS.len() - 1..] } else { &STEPS };
    let report = report(steps);
    print!("{report}");
    match std::fs::write(out, &report) {
        Ok(()) => {
            eprintln!("grip accuracy: wrote {}", out.display());
            0
        }
        Err(e) => {
            eprintln!("grip: error: {}: {e}", out.display());
            1
        }
    }
}
