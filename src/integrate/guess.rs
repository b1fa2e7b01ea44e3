//! Newton's initial guess for one implicit stage: the last substep's acceleration continued
//! (smooth motion needs fewer iterations, sticking contacts in particular), shortened when that
//! lowers the stage's incremental potential, and untangled for self-contact.
//!
//! Continuing the acceleration is a poor guess when the motion turns: a sleeve pressed on a
//! bending limb, continued at its last acceleration, starts Newton with contacts several δ past
//! the surface, where the cubic penalty's stiffness is many times its value at the solution and
//! the first steps overshoot. Of the guesses v̂ + θ (v_pred − v̂), θ ∈ {1, ½, 0}, Newton starts
//! from the one with the lowest incremental potential (`NonlinearSystem::merit`, friction frozen
//! at the start velocities so that all three are compared on one function): the stage's
//! solution minimises that potential, so a lower value is a guess closer to it in the energy
//! norm, and deep contacts (high penalty energy) rank last. With self-contact the untangled
//! prediction stands (`newton_stage`).

use super::call::Call;
use super::self_contact::SelfContactOverCall;
use super::stages::StageInput;
use crate::solve::NonlinearSystem;

/// Fractions θ of the predicted velocity change tried as Newton's guess, in order of preference
/// on ties.
const GUESS_FRACTIONS: [f64; 3] = [1.0, 0.5, 0.0];

impl Call<'_> {
    /// Newton's predicted guess: the last substep's acceleration continued over `h` seconds,
    /// pinned vertices at their prescribed velocities `v_fixed`.
    pub(crate) fn predict(&self, v: &[f64], v_fixed: &[f64], h: f64) -> Vec<f64> {
        let guess: Vec<f64> = if self.state.carried.acceleration.len() == v.len() {
            v.iter().zip(self.state.carried.acceleration.iter()).map(|(v, a)| v + h * a).collect()
        } else {
            v.to_vec()
        };
        with_pins(self.ctx.pinned, guess, v_fixed)
    }

    /// Newton's initial guess with self-contact: the predicted velocities `predicted` unless
    /// their end positions have shell triangles intersecting; then the start velocities `v`, or
    /// else rest (free vertices still, pinned ones at `v_fixed`), whichever intersects least
    /// (earliest on ties), with its count. Newton's line search never adds intersections
    /// (`NonlinearSystem::intersections`), so a tangled guess would keep its tangles.
    pub(crate) fn untangled_guess(
        &self,
        sc: &SelfContactOverCall,
        predicted: Vec<f64>,
        v: &[f64],
        v_fixed: &[f64],
        stage: &StageInput,
    ) -> (Vec<f64>, usize) {
        let count = |u: &[f64]| {
            let q: Vec<f64> = stage.q_hat.iter().zip(u).map(|(x, u)| x + stage.h_eff * u).collect();
            sc.intersections(&q)
        };
        let mut best_count = count(&predicted);
        if best_count == 0 {
            return (predicted, 0);
        }
        let mut best = predicted;
        for candidate in
            [with_pins(self.ctx.pinned, v.to_vec(), v_fixed), with_pins(self.ctx.pinned, vec![0.0; v.len()], v_fixed)]
        {
            let c = count(&candidate);
            if c < best_count {
                best_count = c;
                best = candidate;
            }
            if best_count == 0 {
                break;
            }
        }
        log::debug!("Newton's guess: {best_count} intersecting triangle pairs");
        (best, best_count)
    }
}

/// The guess v_start + θ (predicted − v_start), θ ∈ {1, ½, 0} (`GUESS_FRACTIONS`), with the
/// lowest merit of `system` frozen at `v_start` (the first on ties), among those with no more
/// intersecting shell pairs than `predicted`; `predicted` itself when the system has no merit
/// function.
/// Returns the guess and its θ. Pinned rows agree in `v_start` and `predicted`, so they stay.
pub fn lowest_potential_guess(
    system: &mut dyn NonlinearSystem,
    v_start: &[f64],
    predicted: Vec<f64>,
) -> (Vec<f64>, f64) {
    system.freeze_merit(v_start);
    let intersections = system.intersections(&predicted);
    let Some(mut best_merit) = system.merit(&predicted).filter(|m| m.is_finite()) else {
        return (predicted, 1.0);
    };
    let mut best: Option<(Vec<f64>, f64)> = None;
    for &theta in &GUESS_FRACTIONS[1..] {
        let candidate: Vec<f64> = v_start.iter().zip(&predicted).map(|(a, b)| a + theta * (b - a)).collect();
        let merit = system.merit(&candidate).unwrap_or(f64::INFINITY);
        if merit < best_merit && system.intersections(&candidate) <= intersections {
            best_merit = merit;
            best = Some((candidate, theta));
        }
    }
    best.unwrap_or((predicted, 1.0))
}

/// `u` with the rows of the `pinned` vertices set to their prescribed velocities `v_fixed` (m/s).
pub(crate) fn with_pins(pinned: &[bool], mut u: Vec<f64>, v_fixed: &[f64]) -> Vec<f64> {
    for (i, _) in pinned.iter().enumerate().filter(|(_, p)| **p) {
        u[3 * i..3 * i + 3].copy_from_slice(&v_fixed[3 * i..3 * i + 3]);
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quadratic potential ½ Σ (vᵢ − c)² with the residual as its gradient, and one
    /// "intersection" whenever v₀ is below `wall`.
    struct Bowl {
        centre: f64,
        wall: f64,
        has_merit: bool,
    }

    impl NonlinearSystem for Bowl {
        fn residual(&mut self, v: &[f64], out: &mut [f64]) {
            out.iter_mut().zip(v).for_each(|(o, x)| *o = x - self.centre);
        }
        fn jacobian(&mut self, _v: &[f64], jac: &mut [f64]) {
            jac.fill(0.0);
        }
        fn merit(&mut self, v: &[f64]) -> Option<f64> {
            self.has_merit.then(|| 0.5 * v.iter().map(|x| (x - self.centre).powi(2)).sum::<f64>())
        }
        fn intersections(&mut self, v: &[f64]) -> usize {
            usize::from(v[0] < self.wall)
        }
    }

    fn pick(centre: f64, wall: f64, has_merit: bool) -> f64 {
        let mut bowl = Bowl { centre, wall, has_merit };
        let (guess, theta) = lowest_potential_guess(&mut bowl, &[0.0; 3], vec![1.0; 3]);
        assert!(guess.iter().all(|g| (g - theta).abs() < 1e-15), "guess {guess:?} is θ = {theta}");
        theta
    }

    /// The guess nearest the potential's minimum wins; ties keep the larger θ; without a merit
    /// function the prediction stands; a candidate with more intersections never wins.
    #[test]
    fn the_guess_with_the_lowest_potential_is_chosen() {
        let open = f64::NEG_INFINITY;
        assert_eq!(pick(0.9, open, true), 1.0);
        assert_eq!(pick(0.6, open, true), 0.5);
        assert_eq!(pick(-0.3, open, true), 0.0);
        assert_eq!(pick(0.75, open, true), 1.0, "a tie keeps the prediction");
        assert_eq!(pick(-0.3, open, false), 1.0);
        assert_eq!(pick(-0.3, 0.25, true), 0.5, "θ = 0 would add an intersection");
        assert_eq!(pick(-0.3, 0.75, true), 1.0, "θ = ½ and 0 would add one");
        assert_eq!(pick(-0.3, 2.0, true), 0.0, "equal counts do not block a lower potential");
    }
}
