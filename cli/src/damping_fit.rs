//! The numerical damping of a free oscillation, measured from its samples: the decay rate λ of
//! the potential energy's envelope, the envelope's ratio after 1 s, and the first period.
//!
//! For a structure oscillating about its static equilibrium (potential energy PE_eq, mid-span
//! deflection z_eq), E(t) = PE(t) − PE_eq is zero where it passes the equilibrium and has a
//! peak at every turning point, twice per period; without damping every peak equals the
//! oscillation's energy (the kinetic energy is zero there), so the peaks form the envelope.
//! A method that damps like q̈ + d q̇ + ω²q = 0 (Ascher et al. 2022 Eq. 12) shrinks the
//! displacement amplitude as exp(−d t/2) and the envelope as exp(−λ t) with λ = d.
//!
//! The estimator:
//! - period T: the deflection x(t) = z(t) − z_eq crosses zero twice per period; T is the time
//!   from its first crossing to its third, each crossing located by linear interpolation
//!   between the samples on either side;
//! - envelope peaks: the samples of E that are the largest within ±T/4 of themselves (half of
//!   E's own period, so one per turning point, and a higher mode's ripple does not count), the
//!   value refined by the parabola through the peak and its two neighbours. The first sample
//!   counts (a release at rest is a turning point); samples whose window runs past the last
//!   sample do not;
//! - λ = −(least-squares slope of ln E_peak over t_peak) for the peaks above 1e-9 of the first
//!   (below that E is the solver's tolerance, not the motion);
//! - ratio after 1 s: the envelope at t = 1 s (log-linear between the peaks around it) over the
//!   first peak, exp(−λ · 1 s) for an exactly exponential decay.

/// Peaks of E below this fraction of the first are left out of the fit.
const FLOOR: f64 = 1e-9;

/// The damping measured from one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decay {
    /// Decay rate λ of the envelope of PE − PE_eq (1/s).
    pub lambda: f64,
    /// Envelope at t = 1 s over the first peak; `None` when the run does not bracket 1 s.
    pub ratio_1s: Option<f64>,
    /// Period of the first oscillation of the deflection (s).
    pub period: f64,
    /// Envelope peaks used in the fit.
    pub peaks: usize,
}

/// Times (s) where `x` changes sign (zero counting as positive), each by linear interpolation
/// between the two samples around it.
pub fn zero_crossings(t: &[f64], x: &[f64]) -> Vec<f64> {
    let n = t.len().min(x.len());
    (1..n)
        .filter(|&k| (x[k - 1] < 0.0) != (x[k] < 0.0))
        .map(|k| t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]))
        .collect()
}

/// The envelope peaks (t, E) of `e` sampled at `t`: see the module doc; `half_window` = T/4 (s).
pub fn envelope_peaks(t: &[f64], e: &[f64], half_window: f64) -> Vec<(f64, f64)> {
    let n = t.len().min(e.len());
    let Some(&end) = t[..n].last() else { return Vec::new() };
    let mut peaks = Vec::new();
    let mut lo = 0;
    for k in 0..n {
        if t[k] + half_window > end {
            break;
        }
        while t[lo] < t[k] - half_window {
            lo += 1;
        }
        let hi = k + t[k..n].iter().take_while(|&&s| s <= t[k] + half_window).count();
        // Strictly above the earlier samples, so that a plateau counts once.
        if !(e[lo..k].iter().all(|&v| v < e[k]) && e[k..hi].iter().all(|&v| v <= e[k])) {
            continue;
        }
        peaks.push(if k == 0 || k + 1 >= n {
            (t[k], e[k])
        } else {
            parabola_peak(&t[k - 1..=k + 1], &e[k - 1..=k + 1])
        });
    }
    peaks
}

/// The vertex (t, y) of the parabola through three equally spaced samples (the middle one
/// largest).
fn parabola_peak(t: &[f64], y: &[f64]) -> (f64, f64) {
    let curvature = y[0] - 2.0 * y[1] + y[2];
    if curvature >= 0.0 {
        return (t[1], y[1]);
    }
    let offset = 0.5 * (y[0] - y[2]) / curvature;
    (t[1] + offset * (t[2] - t[1]), y[1] - 0.25 * (y[0] - y[2]) * offset)
}

/// Least-squares slope of `y` over `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// The damping of a run sampled at times `t` with potential energy `pe` (J) and deflection `z`
/// (m) about the equilibrium (`pe_eq`, `z_eq`). Errors say why nothing could be measured
/// (e.g. no full oscillation, fewer than two peaks).
pub fn measure(t: &[f64], pe: &[f64], z: &[f64], pe_eq: f64, z_eq: f64) -> Result<Decay, String> {
    let x: Vec<f64> = z.iter().map(|z| z - z_eq).collect();
    let crossings = zero_crossings(t, &x);
    if crossings.len() < 3 {
        return Err(format!("no full oscillation ({} zero crossings of the deflection)", crossings.len()));
    }
    let period = crossings[2] - crossings[0];
    let e: Vec<f64> = pe.iter().map(|p| p - pe_eq).collect();
    let peaks = envelope_peaks(t, &e, 0.25 * period);
    let Some(&(_, first)) = peaks.first() else { return Err("no envelope peak".into()) };
    let kept: Vec<(f64, f64)> = peaks.iter().copied().filter(|p| p.1 > FLOOR * first).collect();
    if kept.len() < 2 {
        return Err(format!("{} envelope peak(s) above {FLOOR:e} of the first", kept.len()));
    }
    let (pt, pl): (Vec<f64>, Vec<f64>) = kept.iter().map(|p| (p.0, p.1.ln())).unzip();
    let ratio_1s = kept.windows(2).find(|w| w[0].0 <= 1.0 && w[1].0 >= 1.0).map(|w| {
        let f = (1.0 - w[0].0) / (w[1].0 - w[0].0);
        (w[0].1.ln() + f * (w[1].1.ln() - w[0].1.ln())).exp() / first
    });
    Ok(Decay { lambda: -slope(&pt, &pl), ratio_1s, period, peaks: kept.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples of a damped oscillator: deflection x = A e^{−λt/2} cos(2πt/T) about z_eq and
    /// potential energy ½ k x² above pe_eq, every `h` seconds for `duration`.
    fn oscillator(lambda: f64, period: f64, h: f64, duration: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let (a, k, pe_eq, z_eq) = (0.1, 300.0, -7.0, -0.08);
        let t: Vec<f64> = (0..=(duration / h).round() as usize).map(|i| i as f64 * h).collect();
        let x: Vec<f64> =
            t.iter().map(|t| a * (-0.5 * lambda * t).exp() * (2.0 * std::f64::consts::PI * t / period).cos()).collect();
        let pe = x.iter().map(|x| pe_eq + 0.5 * k * x * x).collect();
        let z = x.iter().map(|x| z_eq + x).collect();
        (t, pe, z)
    }

    #[test]
    fn recovers_the_rate_and_period_of_a_damped_cosine() {
        for (lambda, period, h) in [(1.0, 0.78, 0.01), (0.3, 0.78, 0.02), (2.5, 0.5, 0.005), (1.0, 0.54, 0.04)] {
            let (t, pe, z) = oscillator(lambda, period, h, 5.0);
            let d = measure(&t, &pe, &z, -7.0, -0.08).expect("measured");
            assert!((d.lambda - lambda).abs() < 0.02 * lambda, "λ {} for {lambda}", d.lambda);
            assert!((d.period - period).abs() < 0.02 * period, "T {} for {period}", d.period);
            let ratio = d.ratio_1s.expect("1 s is inside the run");
            assert!((ratio.ln() + lambda).abs() < 0.02 * lambda, "ratio {ratio} for λ {lambda}");
            assert!(d.peaks >= 10);
        }
    }

    #[test]
    fn an_undamped_cosine_has_no_decay() {
        let (t, pe, z) = oscillator(0.0, 0.78, 0.01, 5.0);
        let d = measure(&t, &pe, &z, -7.0, -0.08).expect("measured");
        assert!(d.lambda.abs() < 1e-3, "λ {}", d.lambda);
        assert!((d.ratio_1s.unwrap() - 1.0).abs() < 1e-3);
        assert!((d.period - 0.78).abs() < 1e-3 * 0.78);
        // 2 peaks per period over 5 s, the last quarter period unusable.
        assert_eq!(d.peaks, 13);
    }

    #[test]
    fn no_oscillation_is_an_error_not_a_number() {
        let t: Vec<f64> = (0..100).map(|i| i as f64 * 0.01).collect();
        let z: Vec<f64> = t.iter().map(|t| 0.1 * (-t).exp()).collect();
        let pe = z.iter().map(|z| z * z).collect::<Vec<_>>();
        assert!(measure(&t, &pe, &z, 0.0, 0.0).unwrap_err().contains("no full oscillation"));
        assert_eq!(zero_crossings(&[0.0, 1.0, 2.0], &[1.0, -1.0, 1.0]), vec![0.5, 1.5]);
    }
}
