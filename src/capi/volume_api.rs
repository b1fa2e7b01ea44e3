//! Volume-change penalties (paper §3.4): inflatables (pressurized closed shells) and solids
//! that keep their volume.

use super::guard::call;
use super::handles::{self, GripSolver};
use super::types::codes;
use super::{GripObjectId, GripStatus};
use crate::error::Error;

/// Sets the volume-change penalty of object `id` (paper §3.4), or removes it with
/// `GRIP_VOLUME_NONE`. `model`: `GRIP_VOLUME_QUADRATIC` (Eq. 20/21),
/// `GRIP_VOLUME_IDEAL_GAS` (Eq. 18; the gas is at absolute pressure 1/κ_v at the rest volume,
/// the ambient at 1/κ_v − pressure) or `GRIP_VOLUME_NEARLY_INCOMPRESSIBLE` (Eq. 19).
/// `compression_coefficient` κ_v (1/Pa) in (0, 1] (1/101325 is 1 atm⁻¹; smaller is stiffer);
/// `pressure` (Pa): over-pressure inside at the rest volume (a tennis ball holds ≈ 1 atm). The
/// rest volume is the object's volume at the call: the sum of a solid's tet volumes, or the
/// volume a closed shell encloses (divergence theorem; open shells are refused). The penalty's
/// dense Jacobian is applied exactly by every linear solver.
///
/// # Safety
/// `solver` must be a handle from `grip_solver_create` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_volume_penalty(
    solver: *mut GripSolver,
    id: GripObjectId,
    model: u32,
    compression_coefficient: f64,
    pressure: f64,
) -> GripStatus {
    call(|| {
        let kind =
            codes::volume(model).ok_or_else(|| Error::invalid(format!("volume model: unknown value {model}")))?;
        handles::with_solver(solver, |s| s.set_volume_penalty(id, kind, compression_coefficient, pressure))
    })
}
