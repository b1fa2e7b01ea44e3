//! The failsafe of `FailurePolicy::Continue`: a substep that still fails after its last
//! halving (`super::retries`) is taken again, at that smallest length, by cheaper and more
//! robust steps, the first that succeeds standing as the substep:
//!
//! 1. friction lagged ([`Fallback::LaggedFriction`]), when the friction is implicit and any
//!    contact has friction: the sliding basis and the normal force of every contact frozen at
//!    the substep's start (paper Eq. 25), which leaves Newton a smooth, convex friction term in
//!    place of the implicit one whose stick–slip switches it may not resolve;
//! 2. no friction ([`Fallback::Frictionless`]), when any contact has friction: μ = 0 for the
//!    substep (`super::frictionless`), the contact penalty alone, a potential force;
//! 3. Newton's best iterate ([`Fallback::BestIterate`]): a backward Euler substep (the most
//!    robust scheme, L-stable) without friction whose solve ends at its iterate of lowest
//!    residual norm when it fails, accepted if finite; its contact stiffness stays as it is
//!    (a best iterate with a negative gap would otherwise raise κ again and again, and every
//!    raise makes the next solve harder), and so do the self-contact ones.
//!
//! Each fallback taken is counted in the report, with where the solve that failed before it
//! was worst (`super::fallback_report`). Only when even the best iterate is not finite does
//! the call fail, as under `FailurePolicy::Strict`.

use super::call::Call;
use super::fallback_report::Fallback;
use crate::contact::law::FrictionCoupling;
use crate::error::{Error, Result};

impl Call<'_> {
    /// Takes the substep over fractions `[f0, f1]` of the call, `h` seconds, from `(q, v)` by the
    /// fallbacks in turn, after it failed with `failure` at its last halving (see the module
    /// documentation). `(q, v)` are unchanged when it fails.
    pub(crate) fn fall_back(
        &mut self,
        q: &mut Vec<f64>,
        v: &mut Vec<f64>,
        f0: f64,
        f1: f64,
        h: f64,
        failure: String,
    ) -> Result<()> {
        let site = self.state.failure_site.take();
        let friction = self.has_friction();
        log::debug!("{failure}: falling back");
        if friction && self.state.contact_law.coupling == FrictionCoupling::Implicit {
            if took_substep(self.with_lagged_friction(|call| call.try_substep(q, v, f0, f1, h)))? {
                self.out.report.add_fallback(Fallback::LaggedFriction, site);
                return Ok(());
            }
        }
        if friction {
            if took_substep(self.without_friction(|call| call.try_substep(q, v, f0, f1, h)))? {
                self.out.report.add_fallback(Fallback::Frictionless, site);
                return Ok(());
            }
        }
        let best = if friction {
            self.without_friction(|call| call.best_iterate_substep(q, v, f0, f1, h))
        } else {
            self.best_iterate_substep(q, v, f0, f1, h)
        };
        if took_substep(best)? {
            self.out.report.add_fallback(Fallback::BestIterate, site);
            return Ok(());
        }
        Err(Error::NotConverged(format!("{failure}; no fallback reached a finite state")))
    }

    /// Runs `f` with every friction law of the call lagged (paper Eq. 25), then puts the
    /// couplings back (what else `f` changes of the laws, their stiffnesses, stays).
    fn with_lagged_friction<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let own = self.state.contact_law.coupling;
        let shells = self.state.self_contact.as_ref().map(|sc| (sc.law.coupling, sc.solid.coupling));
        self.state.contact_law.coupling = FrictionCoupling::Lagged;
        if let Some(sc) = self.state.self_contact.as_mut() {
            (sc.law.coupling, sc.solid.coupling) = (FrictionCoupling::Lagged, FrictionCoupling::Lagged);
        }
        let result = f(self);
        self.state.contact_law.coupling = own;
        if let (Some(sc), Some(couplings)) = (self.state.self_contact.as_mut(), shells) {
            (sc.law.coupling, sc.solid.coupling) = couplings;
        }
        result
    }

    /// The substep by backward Euler, Newton ending at its best iterate, which stands when it
    /// is finite; no retry raises a contact stiffness (`CallState::best_iterate`).
    fn best_iterate_substep(&mut self, q: &mut Vec<f64>, v: &mut Vec<f64>, f0: f64, f1: f64, h: f64) -> Result<()> {
        let recovering = self.state.recovering;
        // Backward Euler: the scheme of a substep taken while recovering from penetration.
        (self.state.recovering, self.state.best_iterate) = (true, true);
        let result = self.try_substep(q, v, f0, f1, h);
        self.state.best_iterate = false;
        if result.is_err() {
            self.state.recovering = recovering;
        }
        result
    }
}

/// Whether a fallback took the substep: false when it failed to converge too (the next one is
/// tried); any other error (a cancellation) as it is.
fn took_substep(outcome: Result<()>) -> Result<bool> {
    match outcome {
        Ok(()) => Ok(true),
        Err(Error::NotConverged(m)) => {
            log::debug!("fallback failed: {m}");
            Ok(false)
        }
        Err(other) => Err(other),
    }
}
