//! The friction coefficient μ (dimensionless, ≥ 0) of every pair of bodies — objects and
//! colliders, which share one id numbering — resolved when the model changes into one table that
//! collider contact, implicit-surface contact and self-contact read.
//!
//! Each body may have its own μ ([`FrictionTable::set_own`]); a pair of bodies may have an
//! override ([`FrictionTable::set_pair`], `a == b` being a body's contact with itself). The μ of
//! a pair (a, b) is, first match wins:
//! 1. its override;
//! 2. the geometric mean √(μ_a μ_b) of the two bodies' own μ, a body without one counting as the
//!    pair's default (and a body with itself: its own μ);
//! 3. the pair's default: 0 between two shells (self-contact friction is opt-in) and
//!    [`FrictionTable::default_mu`] (`SolverParams::default_friction`) for every other pair.
//!
//! Why the geometric mean: it is symmetric, gives back μ for two bodies of the same μ (a body
//! with itself included), and a frictionless body (μ = 0) stays frictionless against everything,
//! whatever the other side; the arithmetic mean would give ice on rubber half of rubber's μ.
//! A pair where neither body has its own μ gets exactly its default, so a scene that sets no
//! body's μ sees the same μ for every pair whether or not this table exists.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Largest friction coefficient accepted (dimensionless).
const MAX_FRICTION: f64 = 100.0;

/// One body of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Body {
    /// Whether the body is a shell (shell–shell pairs default to μ = 0).
    shell: bool,
    /// The body's own μ, when set.
    own: Option<f64>,
}

/// μ of every pair of bodies (ids 1, 2, … in creation order), kept resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionTable {
    /// μ of pairs other than shell–shell where no body has its own μ (dimensionless).
    default_mu: f64,
    /// Bodies in id order: body `id` at index `id − 1`.
    bodies: Vec<Body>,
    /// Per-pair overrides, keyed (smaller id, larger id).
    overrides: BTreeMap<(u32, u32), f64>,
    /// Resolved μ, lower triangle packed by rows: pair of indices (i, j ≤ i) at i(i+1)/2 + j.
    resolved: Vec<f64>,
}

impl Default for FrictionTable {
    /// A table with `SolverParams::default().default_friction` as default μ.
    fn default() -> Self {
        Self::new(super::params::SolverParams::default().default_friction)
    }
}

/// A coefficient in [0, `MAX_FRICTION`] (NaN refused), or an error naming `what`.
fn checked(mu: f64, what: &str) -> Result<f64> {
    if mu >= 0.0 && mu <= MAX_FRICTION {
        Ok(mu)
    } else {
        Err(Error::invalid(format!("{what} friction coefficient must be in [0, {MAX_FRICTION}], got {mu}")))
    }
}

/// The combine rule: the geometric mean √(a b) of two coefficients (exactly `a` when a == b).
pub fn combine(a: f64, b: f64) -> f64 {
    if a == b {
        a
    } else {
        (a * b).sqrt()
    }
}

impl FrictionTable {
    /// An empty table whose pairs default to `default_mu` (dimensionless, ≥ 0; shell–shell
    /// pairs to 0).
    pub fn new(default_mu: f64) -> Self {
        Self { default_mu, bodies: Vec::new(), overrides: BTreeMap::new(), resolved: Vec::new() }
    }

    /// The μ of pairs without override where no body has its own μ (shell–shell pairs aside).
    pub fn default_mu(&self) -> f64 {
        self.default_mu
    }

    /// Adds the body with the next id (`len() + 1`), a shell or not, without its own μ.
    pub fn add_body(&mut self, shell: bool) {
        self.bodies.push(Body { shell, own: None });
        let i = self.bodies.len() - 1;
        let row: Vec<f64> = (0..=i).map(|j| self.resolve(i, j)).collect();
        self.resolved.extend(row);
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether there is no body.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The index of body `id`, or an error.
    fn index(&self, id: u32) -> Result<usize> {
        let i = (id as usize).wrapping_sub(1);
        if i < self.bodies.len() {
            Ok(i)
        } else {
            Err(Error::UnknownObject(format!("no object or collider with id {id}")))
        }
    }

    /// The own μ of body `id` (`None` when unset); an error for an unknown id.
    pub fn own(&self, id: u32) -> Result<Option<f64>> {
        Ok(self.bodies[self.index(id)?].own)
    }

    /// Sets body `id`'s own μ (0 ≤ μ ≤ 100) and resolves every pair it is in.
    pub fn set_own(&mut self, id: u32, mu: f64) -> Result<()> {
        let i = self.index(id)?;
        self.bodies[i].own = Some(checked(mu, "an object's")?);
        for j in 0..self.bodies.len() {
            let (hi, lo) = (i.max(j), i.min(j));
            self.resolved[hi * (hi + 1) / 2 + lo] = self.resolve(hi, lo);
        }
        Ok(())
    }

    /// Overrides μ (0 ≤ μ ≤ 100) of the pair of bodies `a` and `b` (either order; `a == b` is a
    /// body with itself), whatever their own μ.
    pub fn set_pair(&mut self, a: u32, b: u32, mu: f64) -> Result<()> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        let mu = checked(mu, "a pair's")?;
        self.overrides.insert((a.min(b), a.max(b)), mu);
        let (hi, lo) = (i.max(j), i.min(j));
        self.resolved[hi * (hi + 1) / 2 + lo] = mu;
        Ok(())
    }

    /// μ of the pair of bodies `a` and `b` (either order), as resolved; the default μ for an id
    /// that names no body.
    pub fn pair(&self, a: u32, b: u32) -> f64 {
        match (self.index(a), self.index(b)) {
            (Ok(i), Ok(j)) => {
                let (hi, lo) = (i.max(j), i.min(j));
                self.resolved[hi * (hi + 1) / 2 + lo]
            }
            _ => self.default_mu,
        }
    }

    /// μ of the pair of bodies `a` and `b` (either order), as resolved; an error for an id that
    /// names no body.
    pub fn checked_pair(&self, a: u32, b: u32) -> Result<f64> {
        self.index(a)?;
        self.index(b)?;
        Ok(self.pair(a, b))
    }

    /// μ of the bodies at indices `i` and `j` by the rule of the module documentation.
    fn resolve(&self, i: usize, j: usize) -> f64 {
        let id = |k: usize| k as u32 + 1;
        if let Some(&mu) = self.overrides.get(&(id(i.min(j)), id(i.max(j)))) {
            return mu;
        }
        let (a, b) = (self.bodies[i], self.bodies[j]);
        let default = if a.shell && b.shell { 0.0 } else { self.default_mu };
        match (a.own, b.own) {
            (None, None) => default,
            (x, y) => combine(x.unwrap_or(default), y.unwrap_or(default)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies 1 and 2 shells, 3 a solid, 4 a collider; default μ 0.3.
    fn table() -> FrictionTable {
        let mut t = FrictionTable::new(0.3);
        [true, true, false, false].into_iter().for_each(|shell| t.add_body(shell));
        t
    }

    #[test]
    fn without_own_mu_every_pair_has_its_default() {
        let t = table();
        for a in 1..=4 {
            for b in 1..=4 {
                let expected = if a <= 2 && b <= 2 { 0.0 } else { 0.3 };
                assert_eq!(t.pair(a, b), expected, "pair ({a}, {b})");
            }
        }
    }

    #[test]
    fn own_mu_combines_by_geometric_mean_and_an_unset_body_counts_as_the_default() {
        let mut t = table();
        t.set_own(3, 0.4).unwrap();
        t.set_own(4, 0.9).unwrap();
        assert!((t.pair(3, 4) - 0.6).abs() < 1e-15 && t.pair(4, 3) == t.pair(3, 4));
        assert_eq!(t.pair(3, 4), (0.4f64 * 0.9).sqrt());
        assert_eq!(t.pair(1, 3), (0.3f64 * 0.4).sqrt());
        t.set_own(1, 0.5).unwrap();
        // Shell 2 has no μ: it counts as 0 against shell 1, as 0.3 against the others.
        assert_eq!(t.pair(1, 2), 0.0);
        assert_eq!(t.pair(1, 4), (0.5f64 * 0.9).sqrt());
        assert_eq!(t.pair(2, 3), (0.3f64 * 0.4).sqrt());
        assert_eq!(t.pair(2, 2), 0.0);
    }

    #[test]
    fn a_body_with_itself_has_its_own_mu() {
        let mut t = table();
        for (id, mu) in [(1, 0.7), (3, 0.3), (4, 1e-3)] {
            t.set_own(id, mu).unwrap();
            assert_eq!(t.pair(id, id), mu);
        }
    }

    #[test]
    fn a_frictionless_body_is_frictionless_against_everything() {
        let mut t = table();
        t.set_own(3, 0.0).unwrap();
        t.set_own(4, 2.0).unwrap();
        assert!([1, 2, 3, 4].iter().all(|&b| t.pair(3, b) == 0.0));
    }

    #[test]
    fn overrides_win_in_either_order_and_survive_later_own_mu() {
        let mut t = table();
        t.set_pair(4, 1, 0.25).unwrap();
        t.set_pair(2, 2, 0.125).unwrap();
        t.set_own(1, 0.8).unwrap();
        t.set_own(2, 0.8).unwrap();
        t.set_own(4, 0.2).unwrap();
        assert_eq!((t.pair(1, 4), t.pair(4, 1), t.pair(2, 2)), (0.25, 0.25, 0.125));
        assert_eq!(t.pair(1, 2), 0.8);
        t.set_pair(1, 4, 0.5).unwrap();
        assert_eq!(t.pair(4, 1), 0.5);
    }

    #[test]
    fn bodies_added_later_resolve_against_the_earlier_ones() {
        let mut t = table();
        t.set_own(3, 0.4).unwrap();
        t.add_body(false);
        assert_eq!(t.pair(5, 3), (0.3f64 * 0.4).sqrt());
        assert_eq!(t.pair(5, 5), 0.3);
        t.add_body(true);
        assert_eq!((t.pair(6, 1), t.pair(6, 5)), (0.0, 0.3));
    }

    #[test]
    fn bad_ids_and_coefficients_are_refused_and_change_nothing() {
        let mut t = table();
        let before = t.resolved.clone();
        assert!(matches!(t.set_own(0, 0.5), Err(Error::UnknownObject(_))));
        assert!(matches!(t.set_own(5, 0.5), Err(Error::UnknownObject(_))));
        assert!(matches!(t.set_pair(1, 9, 0.5), Err(Error::UnknownObject(_))));
        for mu in [-0.1, f64::NAN, f64::INFINITY, 100.5] {
            assert!(t.set_own(1, mu).is_err() && t.set_pair(1, 2, mu).is_err(), "μ = {mu}");
        }
        assert_eq!(t.resolved, before);
        assert_eq!(t.own(1).unwrap(), None);
        assert_eq!(t.pair(1, 99), 0.3);
        assert!(matches!(t.checked_pair(1, 99), Err(Error::UnknownObject(_))));
        assert_eq!(t.checked_pair(2, 1).unwrap(), 0.0);
    }

    #[test]
    fn the_rule_is_symmetric_and_idempotent() {
        for (a, b) in [(0.1, 0.9), (0.0, 0.5), (3.0, 7.0), (0.3, 0.3)] {
            assert_eq!(combine(a, b), combine(b, a));
            assert_eq!(combine(a, a), a);
            assert!(combine(a, b) >= a.min(b) && combine(a, b) <= a.max(b));
        }
    }
}
