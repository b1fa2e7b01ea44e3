//! Per-vertex attributes the host sets: velocities, positions, hard pins with their targets,
//! and the stiffness of soft pins.

use super::Solver;
use crate::error::{Error, Result};
use crate::model::ObjectKind;

/// A per-vertex attribute of an object, set with [`Solver::set_vertex_attribute`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexAttribute {
    /// Velocity (3 components, m/s).
    Velocity,
    /// Position (3, m): moves the vertices now; the rest shape is unchanged.
    Position,
    /// Hard pin (1): nonzero holds the vertex, or drives it to its target.
    Pinned,
    /// Target (3, m): where a hard-pinned vertex must be at the end of the next step/advance,
    /// and where a soft pin's anchor is during it. Consumed by the next step/advance.
    Target,
    /// Soft-pin stiffness (1, N/m, in [0, 1e9]): a spring ½ k |x − a|² pulls the vertex toward
    /// its anchor a, which starts at the vertex's position when the pin is made and then
    /// follows its targets; 0 removes it. Hard pins take precedence.
    PinStiffness,
}

impl VertexAttribute {
    /// Every attribute, in the order of the names of [`VertexAttribute::name`].
    /// cbindgen:ignore
    pub const ALL: [VertexAttribute; 5] = [
        VertexAttribute::Velocity,
        VertexAttribute::Position,
        VertexAttribute::Pinned,
        VertexAttribute::Target,
        VertexAttribute::PinStiffness,
    ];

    /// Values per vertex.
    pub fn components(self) -> usize {
        match self {
            Self::Velocity | Self::Position | Self::Target => 3,
            Self::Pinned | Self::PinStiffness => 1,
        }
    }

    /// The attribute's name in the C API and scene files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Velocity => "velocity",
            Self::Position => "position",
            Self::Pinned => "pinned",
            Self::Target => "target",
            Self::PinStiffness => "pin_stiffness",
        }
    }

    /// The attribute called `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }
}

impl Solver {
    /// Sets `attribute` of every vertex of object `id` from `values`
    /// (`vertex_count × attribute.components()`, units in [`VertexAttribute`]). Every value must
    /// be finite, positions and targets within ±1e5 m; a refused call changes nothing.
    pub fn set_vertex_attribute(&mut self, id: u32, attribute: VertexAttribute, values: &[f64]) -> Result<()> {
        let components = attribute.components();
        let name = attribute.name();
        if !values.len().is_multiple_of(components) {
            return Err(Error::invalid(format!(
                "attribute \"{name}\" has {components} components, but {} values were given",
                values.len()
            )));
        }
        let range = self.object_range(id, values.len() / components)?;
        if self.model.object(id)?.kind == ObjectKind::ColliderMesh {
            return Err(Error::invalid(format!(
                "object {id} is a collider mesh: its vertices move only by grip_solver_set_collider_positions"
            )));
        }
        if let Some(i) = values.iter().position(|x| !x.is_finite()) {
            return Err(Error::invalid(format!(
                "attribute \"{name}\" of vertex {} is not finite ({})",
                i / components,
                values[i]
            )));
        }
        // Positions obey the limit of mesh input; beyond it squared lengths lose all precision.
        let limit = crate::mesh::validate::MAX_COORDINATE;
        if matches!(attribute, VertexAttribute::Position | VertexAttribute::Target) {
            if let Some(i) = values.iter().position(|x| x.abs() > limit) {
                return Err(Error::invalid(format!(
                    "attribute \"{name}\" of vertex {} is {} m, beyond the limit of {limit:e} m",
                    i / components,
                    values[i]
                )));
            }
        }
        let dofs = 3 * range.start..3 * range.end;
        match attribute {
            VertexAttribute::Velocity => {
                self.carried.history = None;
                self.v[dofs].copy_from_slice(values);
            }
            VertexAttribute::Position => {
                self.carried.history = None;
                self.q[dofs].copy_from_slice(values);
            }
            VertexAttribute::Pinned => {
                for (p, &x) in self.pinned[range].iter_mut().zip(values) {
                    *p = x != 0.0;
                }
            }
            VertexAttribute::Target => {
                for (t, x) in self.target[range].iter_mut().zip(values.chunks_exact(3)) {
                    *t = Some([x[0], x[1], x[2]]);
                }
            }
            VertexAttribute::PinStiffness => self.model.set_pin_stiffness(range.start, values, &self.q)?,
        }
        Ok(())
    }
}
