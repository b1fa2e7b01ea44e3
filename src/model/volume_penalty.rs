//! Per-object volume-change penalties (paper §3.4): which cells measure an object's volume and
//! the pressure–volume law acting on it. `grip_solver_set_volume_penalty` lands here.

use super::objects::{Model, ObjectKind};
use crate::energy::gather;
use crate::energy::volume::{tet_volume, triangle_volume, VolumeKind, VolumeModel};
use crate::error::{Error, Result};
use std::collections::HashMap;

/// The cells whose signed volumes sum to an object's volume.
#[derive(Clone, Debug, PartialEq)]
pub enum VolumeCells {
    /// A closed triangle surface (global vertex indices), oriented outward, with the fixed point
    /// the divergence-theorem tets share (the rest centroid, for round-off).
    Surface {
        /// Triangles, outward.
        triangles: Vec<[u32; 3]>,
        /// Apex of every cell (m).
        origin: [f64; 3],
    },
    /// The tets of a solid (global vertex indices, positively oriented).
    Tets(Vec<[u32; 4]>),
}

/// The volume penalty of one object.
#[derive(Clone, Debug, PartialEq)]
pub struct VolumePenalty {
    /// Object id.
    pub object: u32,
    /// Pressure–volume law (its rest volume is the volume when the penalty was set).
    pub model: VolumeModel,
    /// Cells measuring the volume.
    pub cells: VolumeCells,
}

impl VolumePenalty {
    /// Enclosed volume V(q) (m³) at global positions `q` (cells summed in order).
    pub fn volume(&self, q: &[f64]) -> f64 {
        match &self.cells {
            VolumeCells::Surface { triangles, origin } => {
                triangles.iter().map(|t| triangle_volume(&gather::<9>(t, q), *origin)).sum()
            }
            VolumeCells::Tets(tets) => tets.iter().map(|t| tet_volume(&gather::<12>(t, q))).sum(),
        }
    }
}

/// Whether every edge of `triangles` is shared by exactly two triangles, in opposite directions
/// (a closed, consistently oriented surface).
fn is_closed(triangles: &[[u32; 3]]) -> bool {
    let mut edges: HashMap<(u32, u32), i32> = HashMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_default() += if a < b { 1 } else { -1 };
        }
    }
    let mut count: HashMap<(u32, u32), u32> = HashMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    !triangles.is_empty() && edges.values().all(|&s| s == 0) && count.values().all(|&n| n == 2)
}

impl Model {
    /// Sets (or with `None` removes) the volume penalty of object `id` at global
    /// positions `q`: a tet solid (sum of its tets' volumes) or a closed shell (enclosed volume by
    /// the divergence theorem; an inward-oriented shell is flipped). κ_v in 1/Pa, P in Pa; the rest
    /// volume is the volume at `q`. Changes nothing on error.
    pub fn set_volume_penalty(
        &mut self,
        id: u32,
        kind: Option<VolumeKind>,
        kappa: f64,
        pressure: f64,
        q: &[f64],
    ) -> Result<()> {
        let o = self.object(id)?;
        let Some(kind) = kind else {
            self.volumes.retain(|p| p.object != id);
            return Ok(());
        };
        let first = o.first_vertex as u32;
        let range = first..first + o.vertex_count as u32;
        let cells = match o.kind {
            ObjectKind::Solid => VolumeCells::Tets(
                self.tets
                    .elements
                    .iter()
                    .map(|t| {
                        let v = crate::energy::Element::<12>::vertices(t);
                        [v[0], v[1], v[2], v[3]]
                    })
                    .filter(|t| range.contains(&t[0]))
                    .collect(),
            ),
            ObjectKind::Shell => {
                if !is_closed(&o.surface) {
                    return Err(Error::invalid(format!(
                        "object {id} is not a closed, consistently oriented surface: it encloses no volume"
                    )));
                }
                let n = o.vertex_count as f64;
                let mut origin = [0.0; 3];
                for v in range.clone() {
                    for k in 0..3 {
                        origin[k] += q[3 * v as usize + k] / n;
                    }
                }
                let triangles = o.surface.iter().map(|t| t.map(|v| v + first)).collect();
                VolumeCells::Surface { triangles, origin }
            }
            ObjectKind::ColliderMesh => {
                return Err(Error::invalid(format!("object {id} is a collider mesh: it has no volume penalty")))
            }
        };
        let mut penalty =
            VolumePenalty { object: id, model: VolumeModel { kind, kappa, pressure, rest_volume: 1.0 }, cells };
        let mut v0 = penalty.volume(q);
        if let VolumeCells::Surface { triangles, .. } = &mut penalty.cells {
            if v0 < 0.0 {
                triangles.iter_mut().for_each(|t| t.swap(1, 2));
                v0 = -v0;
            }
        }
        penalty.model = VolumeModel::new(kind, kappa, pressure, v0)?;
        match self.volumes.iter_mut().find(|p| p.object == id) {
            Some(p) => *p = penalty,
            None => self.volumes.push(penalty),
        }
        Ok(())
    }
}
