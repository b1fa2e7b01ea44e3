//! What the step report says of the failsafe (`super::fallback`): which fallback a substep
//! took ([`Fallback`]) and where the solve that failed before it was worst ([`FailureSite`]),
//! so that a host can tell the user which object failed to converge near which point.

use super::report::{StepReport, Warnings};
use crate::model::{Model, ObjectKind};

/// A cheaper, more robust step taken for a substep that still failed after its last halving
/// (`FailurePolicy::Continue`), in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The substep solved with friction lagged: its sliding basis and normal force frozen at
    /// the substep's start (paper Eq. 25), which leaves Newton a smooth, convex friction term.
    LaggedFriction,
    /// The substep solved without friction (μ = 0 for every contact over that substep).
    Frictionless,
    /// Newton's best iterate (lowest residual norm) of a backward Euler substep without
    /// friction, the contact stiffness kept at its value (no stiffer retries): accepted
    /// unconverged because it is finite.
    BestIterate,
}

impl Fallback {
    /// A few words for messages: "lagged-friction substep", "frictionless substep",
    /// "best unconverged iterate".
    pub fn describe(self) -> &'static str {
        match self {
            Fallback::LaggedFriction => "lagged-friction substep",
            Fallback::Frictionless => "frictionless substep",
            Fallback::BestIterate => "best unconverged iterate",
        }
    }
}

/// Where a failed Newton solve was worst: the free vertex with the largest residual per unit
/// mass ‖r_i‖/m_i (m/s, the velocity error the residual stands for, comparable across
/// vertices of different masses), as its object and its place at the substep's start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FailureSite {
    /// Id of the object the vertex belongs to (as `Solver::add_shell` and friends returned it).
    pub object: u32,
    /// The vertex's index within its object.
    pub vertex: u32,
    /// The vertex's position at the start of the failed substep (m).
    pub position: [f64; 3],
}

impl FailureSite {
    /// The site of global vertex `vertex` of `model` at positions `q` (m); `None` when the
    /// vertex belongs to no simulated object.
    pub(crate) fn of_vertex(model: &Model, vertex: usize, q: &[f64]) -> Option<Self> {
        let o = model.objects.iter().find(|o| {
            o.kind != ObjectKind::ColliderMesh && (o.first_vertex..o.first_vertex + o.vertex_count).contains(&vertex)
        })?;
        let position = [q[3 * vertex], q[3 * vertex + 1], q[3 * vertex + 2]];
        Some(Self { object: o.id, vertex: (vertex - o.first_vertex) as u32, position })
    }
}

/// The free vertex whose residual per unit mass ‖r_i‖/m_i is largest (the first of equals),
/// with `mass` per vertex (kg) and `r` the residual (kg·m/s); `None` when no free vertex has
/// a non-zero finite one. Pinned and massless (kinematic) vertices are left out.
pub(crate) fn worst_vertex(r: &[f64], mass: &[f64], pinned: &[bool]) -> Option<usize> {
    let mut worst: Option<(usize, f64)> = None;
    for (i, ri) in r.chunks_exact(3).enumerate() {
        if pinned[i] || !(mass[i] > 0.0) {
            continue;
        }
        let e = (ri[0] * ri[0] + ri[1] * ri[1] + ri[2] * ri[2]).sqrt() / mass[i];
        if e.is_finite() && e > 0.0 && worst.is_none_or(|(_, w)| e > w) {
            worst = Some((i, e));
        }
    }
    worst.map(|(i, _)| i)
}

impl StepReport {
    /// Records a substep completed by `fallback` after a solve that failed worst at `site`:
    /// counts it, raises `Warnings::FALLBACK`, and keeps it as the call's last fallback.
    pub(crate) fn add_fallback(&mut self, fallback: Fallback, site: Option<FailureSite>) {
        match fallback {
            Fallback::LaggedFriction => self.fallbacks_lagged += 1,
            Fallback::Frictionless => self.fallbacks_frictionless += 1,
            Fallback::BestIterate => self.fallbacks_best_iterate += 1,
        }
        self.warnings |= Warnings::FALLBACK;
        self.last_fallback = Some(fallback);
        self.fallback_site = site;
    }

    /// Substeps completed by a fallback over the call, all kinds together.
    pub fn fallbacks(&self) -> u32 {
        self.fallbacks_lagged + self.fallbacks_frictionless + self.fallbacks_best_iterate
    }

    /// A sentence a user can act on when the call took fallbacks, `None` otherwise: which
    /// object failed to converge near which point (m), `when` (e.g. "at frame 12"; empty for
    /// nothing), the last fallback and, when there were several, how many of each; `name` gives
    /// an object's name from its id. E.g. "sleeve failed to converge near (0.012, -0.034,
    /// 0.250) m at frame 12; fallback: frictionless substep".
    pub fn fallback_message(&self, when: &str, name: impl Fn(u32) -> String) -> Option<String> {
        let last = self.last_fallback?;
        let when = if when.is_empty() { String::new() } else { format!(" {when}") };
        let place = match self.fallback_site {
            Some(FailureSite { object, position: [x, y, z], .. }) => {
                format!("{} failed to converge near ({x:.3}, {y:.3}, {z:.3}) m{when}", name(object))
            }
            None => format!("a substep failed to converge{when}"),
        };
        let counts = match self.fallbacks() {
            0 | 1 => String::new(),
            n => format!(
                " ({n} substeps fell back: {} with lagged friction, {} frictionless, {} at the best iterate)",
                self.fallbacks_lagged, self.fallbacks_frictionless, self.fallbacks_best_iterate
            ),
        };
        Some(format!("{place}; fallback: {}{counts}", last.describe()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst vertex is the one with the largest ‖r_i‖/m_i among the free ones: a heavy
    /// vertex with a larger residual loses to a light one, a pinned vertex never counts.
    #[test]
    fn the_worst_vertex_is_the_largest_residual_per_mass() {
        let r = [3.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 9.0, f64::NAN, 0.0, 0.0];
        let mass = [10.0, 0.5, 0.1, 1.0];
        assert_eq!(worst_vertex(&r, &mass, &[false, false, true, false]), Some(1));
        assert_eq!(worst_vertex(&r, &mass, &[false; 4]), Some(2));
        assert_eq!(worst_vertex(&[0.0; 6], &[1.0, 1.0], &[false; 2]), None);
    }

    /// Each fallback counts in its own field, raises the warning, and the last one is kept.
    #[test]
    fn fallbacks_are_counted_by_kind() {
        let mut r = StepReport::default();
        let site = FailureSite { object: 2, vertex: 7, position: [0.1, 0.2, 0.3] };
        r.add_fallback(Fallback::LaggedFriction, None);
        r.add_fallback(Fallback::BestIterate, Some(site));
        assert_eq!((r.fallbacks_lagged, r.fallbacks_frictionless, r.fallbacks_best_iterate), (1, 0, 1));
        assert_eq!(r.fallbacks(), 2);
        assert!(r.warnings.contains(Warnings::FALLBACK));
        assert_eq!((r.last_fallback, r.fallback_site), (Some(Fallback::BestIterate), Some(site)));
    }

    /// The message names the object, the place and the fallbacks; none without fallbacks.
    #[test]
    fn the_message_names_object_place_and_fallback() {
        let name = |id: u32| format!("object {id}");
        let mut r = StepReport::default();
        assert_eq!(r.fallback_message("at frame 3", name), None);
        let site = FailureSite { object: 2, vertex: 7, position: [0.0124, -0.5, 1.0] };
        r.add_fallback(Fallback::Frictionless, Some(site));
        assert_eq!(
            r.fallback_message("at frame 3", name).as_deref(),
            Some(
                "object 2 failed to converge near (0.012, -0.500, 1.000) m at frame 3; fallback: frictionless substep"
            )
        );
        r.add_fallback(Fallback::LaggedFriction, None);
        assert_eq!(
            r.fallback_message("", name).as_deref(),
            Some(
                "a substep failed to converge; fallback: lagged-friction substep (2 substeps fell back: 1 with \
                 lagged friction, 1 frictionless, 0 at the best iterate)"
            )
        );
    }
}
