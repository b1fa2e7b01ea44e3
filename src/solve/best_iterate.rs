//! The iterate of lowest residual norm a Newton solve has met ([`BestIterate`]): where a solve
//! that fails ends when `NewtonSettings::end_at_best` is set, for a caller that accepts an
//! unconverged answer rather than none (the failsafe's last fallback).

use super::NewtonStats;

/// The lowest ‖r‖₂ met so far, its relative value, and the velocities (m/s) where it was met.
#[derive(Clone, Debug)]
pub struct BestIterate {
    /// ‖r‖₂ at the best iterate (kg·m/s); +∞ before any finite one.
    residual: f64,
    /// ‖r‖₂ / ‖r(v₀)‖₂ there.
    relative: f64,
    /// The best iterate.
    v: Vec<f64>,
}

impl Default for BestIterate {
    fn default() -> Self {
        Self { residual: f64::INFINITY, relative: f64::INFINITY, v: Vec::new() }
    }
}

impl BestIterate {
    /// Keeps `v` when its finite residual norm `residual` (relative value `relative`) is below
    /// the best so far.
    pub fn offer(&mut self, residual: f64, relative: f64, v: &[f64]) {
        if residual.is_finite() && residual < self.residual {
            self.residual = residual;
            self.relative = relative;
            self.v.clear();
            self.v.extend_from_slice(v);
        }
    }

    /// Ends a failed solve at the best iterate: writes it into `v` and its residual into
    /// `stats`. Without a finite one, `v` stays and `stats.residual` becomes +∞, which tells
    /// the caller there is nothing to accept.
    pub fn restore(self, v: &mut [f64], stats: &mut NewtonStats) {
        if self.v.len() == v.len() {
            v.copy_from_slice(&self.v);
        }
        stats.residual = self.residual;
        stats.relative_residual = self.relative;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a finite, lower residual replaces the best; restoring writes it back.
    #[test]
    fn keeps_the_lowest_finite_residual() {
        let mut best = BestIterate::default();
        best.offer(2.0, 0.2, &[1.0, 1.0, 1.0]);
        best.offer(f64::NAN, f64::NAN, &[9.0; 3]);
        best.offer(1.0, 0.1, &[2.0, 2.0, 2.0]);
        best.offer(1.5, 0.15, &[3.0; 3]);
        let (mut v, mut stats) = (vec![0.0; 3], NewtonStats::default());
        best.restore(&mut v, &mut stats);
        assert_eq!(v, vec![2.0; 3]);
        assert_eq!((stats.residual, stats.relative_residual), (1.0, 0.1));
        let (mut v, mut stats) = (vec![5.0; 3], NewtonStats::default());
        BestIterate::default().restore(&mut v, &mut stats);
        assert_eq!(v, vec![5.0; 3]);
        assert!(stats.residual.is_infinite());
    }
}
