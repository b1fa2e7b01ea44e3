//! `grip damping --quick` for backward Euler and the trapezoidal rule on the soft beam of
//! Ascher et al. 2022 Fig. 6, against the physics: with no physical damping the trapezoidal
//! rule (energy-conserving) must keep the oscillation, backward Euler must damp it, and both
//! must swing with the beam's own period. Run in release: `cargo test --release --test damping`.

mod cli_support;

use cli_support::{assert_ok, grip, TempDir};
use grip::Integrator;
use grip_cli::damping_beam::{euler_bernoulli_period, run_beam, static_equilibrium};
use grip_cli::damping_fit::measure;
use grip_cli::damping_report::{SAMPLES_HEADER, SUMMARY_HEADER};

/// The summary rows by method: (λ in 1/s, period in s).
fn summary(text: &str) -> Vec<(String, f64, f64)> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(SUMMARY_HEADER));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let number = |i: usize| f[i].parse::<f64>().unwrap_or_else(|_| panic!("field {i} of {l:?}"));
            (f[0].to_string(), number(2), number(4))
        })
        .collect()
}

#[test]
fn quick_damping_keeps_tr_lively_damps_be_and_writes_its_files() {
    let dir = TempDir::new("damping");
    let out = grip(&["damping", "--quick", "--methods", "BE,TR", "--out", dir.0.to_str().expect("utf-8 path")]);
    assert_ok(&out);
    for file in ["damping.csv", "damping_summary.csv", "damping.png", "DAMPING.md"] {
        let len = std::fs::metadata(dir.0.join(file)).map_or(0, |m| m.len());
        assert!(len > 0, "{file} is missing or empty");
    }
    let samples = std::fs::read_to_string(dir.0.join("damping.csv")).expect("samples");
    assert_eq!(samples.lines().next(), Some(SAMPLES_HEADER));
    // 2 s at h = 0.01 s: 201 samples per method, t = 0 included.
    assert_eq!(samples.lines().count(), 1 + 2 * 201);
    let report = std::fs::read_to_string(dir.0.join("DAMPING.md")).expect("report");
    assert!(report.contains("| BE | 0.01 |") && report.contains("| TR | 0.01 |"), "{report}");
    assert!(report.contains("![Potential energy over time, h = 0.01 s](damping.png)"));
    let png = std::io::BufReader::new(std::fs::File::open(dir.0.join("damping.png")).expect("png"));
    let info = png::Decoder::new(png).read_info().expect("png header").info().clone();
    assert_eq!((info.width, info.height), (960, 540));

    let rows = summary(&std::fs::read_to_string(dir.0.join("damping_summary.csv")).expect("summary"));
    let [(be_name, be_lambda, be_period), (tr_name, tr_lambda, tr_period)] = &rows[..] else {
        panic!("two rows expected: {rows:?}")
    };
    assert_eq!((be_name.as_str(), tr_name.as_str()), ("BE", "TR"));
    eprintln!("λ: BE {be_lambda:.4} 1/s, TR {tr_lambda:.4} 1/s; period: BE {be_period:.4} s, TR {tr_period:.4} s");
    assert!(tr_lambda.abs() < 0.1, "TR has no numerical damping, measured λ = {tr_lambda} 1/s");
    assert!(*be_lambda > 0.5 && *be_lambda > 10.0 * tr_lambda.abs(), "BE must damp clearly: λ = {be_lambda} 1/s");

    // The Euler–Bernoulli period (0.78 s) is the small-amplitude one; released straight, the
    // beam sags ≈ 0.13 m and swings as far about that, which stretches the clamped beam and
    // shortens its period to ≈ 0.54 s, so comparing with it would be unfair. The reference is
    // the period of the same motion by the trapezoidal rule at a quarter of the step.
    let (pe_eq, z_eq) = static_equilibrium().expect("equilibrium");
    let fine = run_beam(Integrator::Trapezoidal, 0.0025, 1.0, 0);
    assert!(fine.failure.is_none(), "{:?}", fine.failure);
    let reference = measure(&fine.t, &fine.pe, &fine.mid_z, pe_eq, z_eq).expect("reference period").period;
    eprintln!("reference period {reference:.4} s (Euler–Bernoulli {:.4} s)", euler_bernoulli_period());
    assert!(reference < euler_bernoulli_period(), "the sagging beam is stiffer than the straight one");
    for (name, period) in [("BE", be_period), ("TR", tr_period)] {
        assert!((period - reference).abs() < 0.15 * reference, "{name}: period {period} s, reference {reference} s");
    }
}
