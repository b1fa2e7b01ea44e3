//! Kinematic colliders and friction: analytic shapes and their host-driven rigid poses,
//! host-animated collider meshes (skinned characters), each object's and collider's own friction
//! coefficient and the per-pair overrides.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::solver_api::checked_arrays;
use super::types::GripShape;
use super::{GripObjectId, GripStatus};
use crate::contact::Shape;
use crate::error::Error;

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
/// from it (penalty contact, paper §3.2) with friction (`grip_solver_set_object_friction`,
/// `grip_solver_set_friction`; default `params.default_friction`). Writes the collider's id
/// (shared numbering with objects) to `*out_id`.
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
        let shape = Shape::try_from(guard::reference(shape, "shape")?)?;
        let id = handles::with_solver(solver, |s| s.add_collider_shape(&shape))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Sets the pose collider `id` reaches at the end of the next step/advance: a column-major 4×4
/// rigid transform `matrix` (16 doubles; translation in elements 12–14 in m) applied to the shape
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

/// Adds a kinematic collider mesh (a skinned character, a moving prop): `vertex_count` positions
/// (in m) and `triangle_count` triangles (`3 × triangle_count` indices), wound counter-clockwise
/// seen from outside (the side objects are kept on). Shells and solids touch it through its
/// smooth implicit surface (paper §3.2) with friction (`grip_solver_set_object_friction`,
/// `grip_solver_set_friction`). It has infinite mass: only `grip_solver_set_collider_positions`
/// moves it. Writes its id to `*out_id`.
///
/// # Safety
/// `positions` must hold `3 × vertex_count` doubles, `triangles` `3 × triangle_count` indices;
/// `out_id` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_add_collider_mesh(
    solver: *mut GripSolver,
    positions: *const f64,
    vertex_count: usize,
    triangles: *const u32,
    triangle_count: usize,
    out_id: *mut GripObjectId,
) -> GripStatus {
    call(|| {
        guard::check_out(out_id, "out_id")?;
        let (positions, tris) = checked_arrays(positions, vertex_count, triangles, triangle_count, 3, "triangle")?;
        let id = handles::with_solver(solver, |s| s.add_collider_mesh(positions, tris))?;
        guard::write(out_id, id, "out_id")
    })
}

/// Sets where the vertices of collider mesh `id` are at the end of the next step/advance
/// (`xyz`: `3 × vertex_count` doubles in m, same vertex order and count as when added). Over the
/// substeps the vertices move there linearly; their velocity (change over the step) enters the
/// friction of what touches them. Without a call the mesh stays where it is.
///
/// # Safety
/// `xyz` must hold `3 × vertex_count` doubles.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_collider_positions(
    solver: *mut GripSolver,
    id: GripObjectId,
    xyz: *const f64,
    vertex_count: usize,
) -> GripStatus {
    call(|| {
        let n = vertex_count.checked_mul(3).ok_or_else(|| Error::invalid("vertex_count is too large"))?;
        let xyz = guard::slice(xyz, n, "xyz")?;
        handles::with_solver(solver, |s| s.set_collider_positions(id, xyz))
    })
}

/// Sets the own friction coefficient μ (0 ≤ μ ≤ 100, dimensionless) of object or collider `id`.
/// The μ of a pair of objects or colliders is, first match wins: its `grip_solver_set_friction`
/// override; else the geometric mean √(μ_a μ_b) of their own μ, one without its own μ counting
/// as the pair's default; else that default: 0 between two shells (their self-contact, paper
/// Eq. 8, 16, with `params.self_contact` on) and `params.default_friction` for every other
/// pair. An object's μ applies to its self-contact too (√(μ μ) = μ).
///
/// # Safety
/// `solver` must be a handle from `grip_solver_create` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_object_friction(
    solver: *mut GripSolver,
    id: GripObjectId,
    mu: f64,
) -> GripStatus {
    call(|| handles::with_solver(solver, |s| s.set_object_friction(id, mu)))
}

/// Overrides the friction coefficient μ (0 ≤ μ ≤ 100, dimensionless) between objects or
/// colliders `a` and `b` (in either order), whatever their own μ
/// (`grip_solver_set_object_friction`). With `params.self_contact` on, μ between two shells (or
/// `a == b`, a shell against itself) is the smoothed Coulomb friction of their self-contact pairs
/// (paper Eq. 8, 16), which is 0 unless set here or by both shells' own μ
/// (`params.default_friction` does not apply to it).
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
