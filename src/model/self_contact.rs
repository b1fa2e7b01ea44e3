//! Each shell's part in self-contact: whether its primitives meet each other, and its own
//! thickness δ (m). The global switch `SolverParams::self_contact` still turns self-contact on
//! or off for the whole solver; these settings act only while it is on.
//!
//! Rules (applied when the self-contact mesh is built, `crate::integrate::self_contact::mesh`):
//! * A pair of primitives of objects A and B is formed unless A == B and A has its
//!   self-contact off: such a shell may pass through itself, but still meets every other shell
//!   (layered garments) and, through the shell–solid pairs, every solid.
//! * Its thickness is δ_AB = (δ_A + δ_B)/2 ([`pair_thickness`]), δ_A being A's own thickness
//!   or `SolverParams::self_contact_thickness` when A has none: two layers rest at the mean of
//!   their thicknesses, a shell against itself at its own. A shell–solid pair takes the
//!   shell's δ (its layer is then `SOLID_THICKNESS_FRACTION` of it,
//!   `crate::contact::self_contact::shell_solid`).
//!
//! These are model settings, not state: checkpoints do not hold them, and a checkpoint is
//! restored into a solver configured the same way.

use super::objects::{Model, ObjectKind};
use crate::error::{Error, Result};

/// Largest thickness accepted (m), the bound of `SolverParams::self_contact_thickness`.
pub(crate) const MAX_THICKNESS: f64 = 1e3;

/// An object's self-contact settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectSelfContact {
    /// Whether the object's primitives form pairs with each other (default true).
    pub enabled: bool,
    /// The object's own thickness δ in m (0 < δ ≤ `MAX_THICKNESS`); `None` (default):
    /// `SolverParams::self_contact_thickness`.
    pub thickness: Option<f64>,
}

impl Default for ObjectSelfContact {
    fn default() -> Self {
        Self { enabled: true, thickness: None }
    }
}

impl ObjectSelfContact {
    /// Settings `enabled` with thickness `thickness` (m; `None`: the solver's); an error for a
    /// thickness that is not finite, not > 0 or above `MAX_THICKNESS`.
    pub fn new(enabled: bool, thickness: Option<f64>) -> Result<Self> {
        if let Some(t) = thickness {
            if !(t > 0.0 && t <= MAX_THICKNESS) {
                return Err(Error::invalid(format!(
                    "an object's self-contact thickness must be > 0 m and <= {MAX_THICKNESS:e} (0: the solver's \
                     self_contact_thickness), got {t}"
                )));
            }
        }
        Ok(Self { enabled, thickness })
    }

    /// The object's thickness δ (m): its own, else `default` (the solver's
    /// `self_contact_thickness`).
    pub fn thickness_or(&self, default: f64) -> f64 {
        self.thickness.unwrap_or(default)
    }
}

impl Model {
    /// Sets the self-contact settings of shell `id`; an error (the model unchanged) for an id
    /// that names no object, or names a solid, a collider mesh or an analytic collider.
    pub fn set_object_self_contact(&mut self, id: u32, settings: ObjectSelfContact) -> Result<()> {
        let settings = ObjectSelfContact::new(settings.enabled, settings.thickness)?;
        let Some(object) = self.objects.iter_mut().find(|o| o.id == id) else {
            let what = if self.colliders.iter().any(|c| c.id == id) { "is a collider" } else { "does not exist" };
            return Err(Error::UnknownObject(format!("object {id} {what}: self-contact settings apply to shells")));
        };
        if object.kind != ObjectKind::Shell {
            let kind = if object.kind == ObjectKind::Solid { "a solid" } else { "a collider mesh" };
            return Err(Error::invalid(format!(
                "object {id} is {kind}: self-contact settings apply to shells (solids meet shells through the \
                 shells' settings)"
            )));
        }
        object.self_contact = settings;
        Ok(())
    }
}

/// The thickness δ_AB (m) of the pairs between two shells of thicknesses `a` and `b` (m): their
/// mean, exactly `a` when a == b.
pub fn pair_thickness(a: f64, b: f64) -> f64 {
    if a == b {
        a
    } else {
        0.5 * (a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thicknesses_are_checked_and_averaged() {
        assert_eq!(ObjectSelfContact::default(), ObjectSelfContact::new(true, None).unwrap());
        for bad in [0.0, -1e-3, f64::NAN, f64::INFINITY, 1.1e3] {
            assert!(ObjectSelfContact::new(true, Some(bad)).is_err(), "{bad}");
        }
        let s = ObjectSelfContact::new(false, Some(2e-3)).unwrap();
        assert_eq!((s.enabled, s.thickness_or(1e-3)), (false, 2e-3));
        assert_eq!(ObjectSelfContact::default().thickness_or(1e-3), 1e-3);
        assert_eq!(pair_thickness(2e-3, 6e-3), 4e-3);
        assert_eq!(pair_thickness(0.1, 0.1), 0.1);
    }
}
