//! Kinematic colliders and friction: analytic shapes, their host-driven rigid poses, and the
//! friction coefficient of each pair of objects.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::{GripObjectId, GripStatus};
use crate::contact::GripShape;

/// Default shape: a ground plane through the origin with normal +Z (see each field).
#[no_mangle]
pub extern "C" fn grip_shape_default() -> GripShape {
    GripShape::default()
}

/// `sizeof(GripShape)` as compiled into the library.
#[no_mangle]
pub extern "C" fn grip_sizeof_shape() -> usize {
    std::mem::size_of::<GripShape>()
}

/// Adds a kinematic collider (infinite mass, moved only by the host) of the given shape at the
/// identity pose. Every shell vertex and every boundary vertex of a solid is kept at gap ≥ 0
/// from it (penalty contact, paper §3.2) with friction (`grip_solver_set_friction`, default
/// `params.default_friction`). Writes the collider's id (shared numbering with objects) to `*out_id`.
///
/// # Safety
/// `shape` must point to a `GripShape`; `out_id` to writable storage.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_add_collider_shape(
    solver: *mut GripSolver,
    shape: *const GripShape,
    out_id: *mut GripObjectId,
) -> GripStatus {
    call(|| {
        guard::check_out(out_id, "out_id")?;
        let shape = guard::reference(shape, "shape")?;
        let id = handles::with_solver(solver, |s| s.add_collider_shape(shape))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Sets the pose collider `id` reaches at the end of the next step/advance: a column-major 4×4
/// rigid transform `matrix` (16 doubles; translation in elements 12–14 [m]) applied to the shape
/// as defined. Over the substeps the collider moves there (rotation slerped, translation linear),
/// and its surface velocity enters the friction. Scale and shear are refused.
///
/// # Safety
/// `matrix` must point to 16 doubles.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_collider_transform(
    solver: *mut GripSolver,
    id: GripObjectId,
    matrix: *const f64,
) -> GripStatus {
    call(|| {
        let m = guard::slice(matrix, 16, "matrix")?;
        let m: [f64; 16] = std::array::from_fn(|i| m[i]);
        handles::with_solver(solver, |s| s.set_collider_transform(id, &m))
    })
}

/// Sets the friction coefficient μ (0 ≤ μ ≤ 100, dimensionless) between objects or colliders `a`
/// and `b` (in either order).
///
/// # Safety
/// `solver` must be a handle from `grip_solver_create` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_friction(
    solver: *mut GripSolver,
    a: GripObjectId,
    b: GripObjectId,
    mu: f64,
) -> GripStatus {
    call(|| handles::with_solver(solver, |s| s.set_friction(a, b, mu)))
}
