//! Per-vertex attributes set by the host.

use super::guard::{self, call};
use super::handles::{self, GripSolver};
use super::{GripObjectId, GripStatus};
use crate::error::Error;
use crate::solver::VertexAttribute;
use std::ffi::c_char;

/// Sets a per-vertex attribute of object `id` from `vertex_count × components` doubles:
/// - `"velocity"` (3 components, m/s);
/// - `"position"` (3, m): moves the vertices now (rest shape unchanged);
/// - `"pinned"` (1): nonzero = the vertex is pinned (held, or driven to its target);
/// - `"target"` (3, m): where pinned vertices must be at the end of the next step/advance;
///   without a target a pinned vertex stays put. Targets are consumed by the next step/advance;
///   a soft-pinned vertex's target is where its anchor is during the next step/advance;
/// - `"pin_stiffness"` (1, N/m, in [0, 1e9]): a soft pin, a spring ½ k |x − a|² pulling the vertex
///   toward its anchor a, which starts at the vertex's position when the pin is made and then
///   follows the vertex's targets; 0 removes it; a hard pin takes precedence.
///
/// `vertex_count` must equal the object's vertex count. Every value must be finite, positions
/// and targets within ±1e5 m; a refused call changes nothing.
///
/// # Safety
/// `name` must be NUL-terminated; `values` must hold `vertex_count × components` doubles.
#[no_mangle]
pub unsafe extern "C" fn grip_solver_set_vertex_attribute(
    solver: *mut GripSolver,
    id: GripObjectId,
    name: *const c_char,
    values: *const f64,
    vertex_count: usize,
    components: usize,
) -> GripStatus {
    call(|| {
        let name = guard::string(name, "name")?;
        if vertex_count == 0 {
            return Err(Error::invalid("vertex_count is 0"));
        }
        if components == 0 || components > 16 {
            return Err(Error::invalid(format!("components must be 1..=16, got {components}")));
        }
        let n = vertex_count.checked_mul(components).ok_or_else(|| Error::invalid("vertex_count is too large"))?;
        let values = guard::slice(values, n, "values")?;
        let attribute = VertexAttribute::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = VertexAttribute::ALL.iter().map(|a| a.name()).collect();
            Error::invalid(format!("unknown vertex attribute \"{name}\" (known: {})", known.join(", ")))
        })?;
        if components != attribute.components() {
            return Err(Error::invalid(format!(
                "attribute \"{name}\" has {} components, got {components}",
                attribute.components()
            )));
        }
        handles::with_solver(solver, |s| s.set_vertex_attribute(id, attribute, values))
    })
}
