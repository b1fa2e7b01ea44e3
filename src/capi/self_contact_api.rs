//! Each shell's self-contact: whether it meets itself, and its own thickness.

use super::guard::call;
use super::handles::{self, GripSolver};
use super::{GripObjectId, GripStatus};
use crate::error::Error;

/// Sets the self-contact of shell `id`, which acts while `params.self_contact` is on (that
/// switch still turns self-contact on and off for the whole solver). `enabled` (0 or 1): with 0
/// the shell's primitives form no pairs with each other (it may pass through itself), but it
/// still meets every other shell (layered garments) and every solid. `thickness` is the shell's
/// own thickness δ in m (> 0, at most 1e3), or 0 for the solver's `params.self_contact_thickness`
/// (the default of every shell). The pairs between shells A and B are δ_AB = (δ_A + δ_B)/2
/// thick (a shell against itself: its own δ); the pairs of a shell and a solid's boundary
/// faces take half the shell's δ. The initial self-contact stiffness (with
/// `params.contact_stiffness` 0) holds the heaviest shell vertex's weight at half the smallest
/// shell thickness. Takes effect at the next step or advance. Refused (nothing changed) for an
/// id that is not a shell (a solid, a collider mesh, an analytic collider, or no object), an
/// `enabled` other than 0 or 1, and a negative, non-finite or too large thickness.
///
/// # Safety
/// `solver` must be a handle from `grip_solver_create` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_object_self_contact(
    solver: *mut GripSolver,
    id: GripObjectId,
    enabled: u32,
    thickness: f64,
) -> GripStatus {
    call(|| {
        let enabled = match enabled {
            0 => false,
            1 => true,
            other => return Err(Error::invalid(format!("enabled must be 0 or 1, got {other}"))),
        };
        let thickness = if thickness == 0.0 { None } else { Some(thickness) };
        handles::with_solver(solver, |s| s.set_object_self_contact(id, enabled, thickness))
    })
}
