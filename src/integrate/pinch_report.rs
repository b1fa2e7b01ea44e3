//! Pinches over a call (`crate::contact::pinch`): after every substep the call scans its state
//! for free vertices that two collider surfaces close on to less than the contact thickness δ.
//! No position satisfies both contacts there, so the call cannot do what it was asked. Under
//! `FailurePolicy::Continue` it goes on (the contact penalties keep the cloth between the
//! surfaces as well as they can, and the failsafe takes any substep Newton cannot solve) and
//! reports the pinch ([`PinchSite`], `Warnings::PINCH`); under `FailurePolicy::Strict` the call
//! fails with a message naming the objects, the place and what to do, and the solver is left as
//! before it.

use super::call::Call;
use super::pinch_scan::scan;
use super::report::{StepReport, Warnings};
use crate::contact::pinch::PinchScan;
use crate::error::{Error, Result};
use crate::model::{FailurePolicy, ObjectKind};

/// Where a call's worst pinch was: the pinched free vertex whose two surfaces were closest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PinchSite {
    /// Id of the simulated object the vertex belongs to.
    pub object: u32,
    /// The vertex's index within its object.
    pub vertex: u32,
    /// The vertex's position at the end of the substep that found the pinch (m).
    pub position: [f64; 3],
    /// Ids of the two colliders or collider meshes that close on it; equal ids mean two parts
    /// of one collider mesh folded onto each other.
    pub colliders: [u32; 2],
    /// The surfaces' separation across the vertex: the distance between their points nearest
    /// it (m), under the contact thickness.
    pub separation: f64,
}

impl StepReport {
    /// Records the pinches a scan found after one substep: the count is the largest over the
    /// call's substeps, the substep is counted, the site is the one of smallest separation (the
    /// earliest of equals), and `Warnings::PINCH` is raised.
    pub(crate) fn add_pinch(&mut self, count: u32, site: PinchSite) {
        self.pinched_vertices = self.pinched_vertices.max(count);
        self.pinch_substeps += 1;
        if self.pinch_site.is_none_or(|s| site.separation < s.separation) {
            self.pinch_site = Some(site);
        }
        self.warnings |= Warnings::PINCH;
    }

    /// A sentence a user can act on when the call met a pinch and went on, `None` otherwise:
    /// which object is pinched between which colliders near which point (m), `when` (e.g. "at
    /// frame 12"; empty for nothing), how far apart the surfaces are against the contact
    /// thickness `thickness` (m), and what to do; `name` gives an object's name from its id.
    /// E.g. "cloth is pinched between collider 1 and collider 2 near (0.000, 0.000, 0.101) m at
    /// frame 4: the surfaces are 1.0 mm apart, under the contact thickness 2.0 mm; the cloth is
    /// kept between them: open the gap or thin the contact layer to free it".
    pub fn pinch_message(&self, when: &str, thickness: f64, name: impl Fn(u32) -> String) -> Option<String> {
        Some(format!("{}; {CONTINUE_REMEDY}", self.pinch_facts(when, thickness, name)?))
    }

    /// [`StepReport::pinch_message`] up to the thickness: who, between what, where, when, how
    /// far apart.
    fn pinch_facts(&self, when: &str, thickness: f64, name: impl Fn(u32) -> String) -> Option<String> {
        let s = self.pinch_site?;
        let when = if when.is_empty() { String::new() } else { format!(" {when}") };
        let between = if s.colliders[0] == s.colliders[1] {
            format!("{} and itself", name(s.colliders[0]))
        } else {
            format!("{} and {}", name(s.colliders[0]), name(s.colliders[1]))
        };
        let [x, y, z] = s.position;
        let also = match self.pinched_vertices {
            0 | 1 => String::new(),
            n => format!(" ({n} vertices pinched)"),
        };
        Some(format!(
            "{} is pinched between {between} near ({x:.3}, {y:.3}, {z:.3}) m{when}{also}: the surfaces are {:.1} mm \
             apart, under the contact thickness {:.1} mm",
            name(s.object),
            1e3 * s.separation,
            1e3 * thickness
        ))
    }
}

/// What a user can do about a pinch the call went on through (`FailurePolicy::Continue`).
const CONTINUE_REMEDY: &str = "the cloth is kept between them: open the gap or thin the contact layer to free it";

/// What a user can do about a pinch that failed a strict call.
const STRICT_REMEDY: &str = "open the gap, thin the contact layer, or set the failure policy to continue";

impl Call<'_> {
    /// Scans the state `q` (m) at fraction `f` of the call for pinches and reports them; under
    /// `FailurePolicy::Strict` a pinch fails the call (the solver then commits nothing).
    pub(crate) fn check_pinch(&mut self, q: &[f64], f: f64) -> Result<()> {
        let c = &self.ctx.colliders;
        let motions: Vec<_> = (0..c.shapes.len()).map(|i| c.motion_at(i, f)).collect();
        let delta = self.ctx.params.contact_thickness;
        let PinchScan { vertices, worst } = scan(self.ctx.model, &motions, q, self.ctx.pinned, delta);
        let Some(worst) = worst else { return Ok(()) };
        let model = self.ctx.model;
        let Some(o) =
            model.objects.iter().find(|o| (o.first_vertex..o.first_vertex + o.vertex_count).contains(&worst.vertex))
        else {
            return Ok(());
        };
        let v = worst.vertex;
        let site = PinchSite {
            object: o.id,
            vertex: (v - o.first_vertex) as u32,
            position: [q[3 * v], q[3 * v + 1], q[3 * v + 2]],
            colliders: worst.colliders,
            separation: worst.separation,
        };
        self.out.report.add_pinch(vertices, site);
        if self.ctx.params.failure_policy == FailurePolicy::Strict {
            let when = format!("at {:.1}% of the call", 100.0 * f);
            let name = |id: u32| match model.objects.iter().find(|o| o.id == id) {
                Some(o) if o.kind != ObjectKind::ColliderMesh => format!("object {id}"),
                _ => format!("collider {id}"),
            };
            let facts = self.out.report.pinch_facts(&when, delta, name).unwrap_or_default();
            return Err(Error::NotConverged(format!("{facts}; {STRICT_REMEDY}")));
        }
        log::debug!("{vertices} vertices pinched; closest surfaces {:.3e} m apart", worst.separation);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(separation: f64) -> PinchSite {
        PinchSite { object: 3, vertex: 7, position: [0.0, 0.0, 0.1005], colliders: [1, 2], separation }
    }

    /// The count is the largest over substeps, the site the closest, and the warning is raised.
    #[test]
    fn pinches_keep_the_largest_count_and_the_closest_site() {
        let mut r = StepReport::default();
        r.add_pinch(4, site(1e-3));
        r.add_pinch(2, site(5e-4));
        r.add_pinch(3, site(8e-4));
        assert_eq!((r.pinched_vertices, r.pinch_substeps), (4, 3));
        assert_eq!(r.pinch_site, Some(site(5e-4)));
        assert!(r.warnings.contains(Warnings::PINCH));
    }

    /// The message names the object, both colliders (or one mesh and itself), the place, the
    /// separation against the thickness and what to do; none without a pinch.
    #[test]
    fn the_message_names_objects_place_and_remedy() {
        let name = |id: u32| format!("object {id}");
        let mut r = StepReport::default();
        assert_eq!(r.pinch_message("", 2e-3, name), None);
        r.add_pinch(1, site(1e-3));
        assert_eq!(
            r.pinch_message("at frame 4", 2e-3, name).as_deref(),
            Some(
                "object 3 is pinched between object 1 and object 2 near (0.000, 0.000, 0.101) m at frame 4: the \
                 surfaces are 1.0 mm apart, under the contact thickness 2.0 mm; the cloth is kept between them: \
                 open the gap or thin the contact layer to free it"
            )
        );
        r.add_pinch(5, PinchSite { colliders: [2, 2], ..site(1e-4) });
        let m = r.pinch_message("", 2e-3, name).unwrap();
        assert!(m.starts_with("object 3 is pinched between object 2 and itself near"), "{m}");
        assert!(m.contains("(5 vertices pinched): the surfaces are 0.1 mm apart"), "{m}");
    }
}
