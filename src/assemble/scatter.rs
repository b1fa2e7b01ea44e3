//! The deterministic scatter of local stencil values into the global vectors and Jacobian:
//! stencils are evaluated in parallel into per-stencil slots by the caller, then added here one
//! stencil after another in stencil order, so every sum is taken in the same order whatever the
//! thread count. Every term of the stage (elements and contacts) goes through it.

use super::layout::SystemLayout;
use crate::math::real::Real;
use crate::solve::pattern::BlockSlot;

/// out += scale · values for each stencil in order: stencil vertex a's three values go to
/// coordinates 3v..3v+3 of its global vertex v.
pub fn add_vectors<'a, T, V, W>(stencils: impl Iterator<Item = (&'a V, &'a W)>, scale: f64, out: &mut [T])
where
    T: Real + 'a,
    V: AsRef<[u32]> + ?Sized + 'a,
    W: AsRef<[T]> + ?Sized + 'a,
{
    for (vertices, values) in stencils {
        let values = values.as_ref();
        for (a, &v) in vertices.as_ref().iter().enumerate() {
            for k in 0..3 {
                out[3 * v as usize + k] += values[3 * a + k] * scale;
            }
        }
    }
}

/// A stencil's dense matrix over its coordinates (3 per vertex): entry (row, column).
pub trait StencilMatrix {
    /// Entry (`row`, `col`).
    fn at(&self, row: usize, col: usize) -> f64;
}

impl<R: nalgebra::Dim, C: nalgebra::Dim, S: nalgebra::RawStorage<f64, R, C>> StencilMatrix
    for nalgebra::Matrix<f64, R, C, S>
{
    fn at(&self, row: usize, col: usize) -> f64 {
        self[(row, col)]
    }
}

/// jac += scale · m for one stencil's matrix `m` on `vertices`, its blocks at `slots` (row-major
/// over vertex pairs) when given, else looked up in the layout's pattern (a one-vertex stencil at
/// its diagonal slot); rows and columns of `fixed` vertices are skipped. Returns the blocks left
/// out because the pattern lacks them.
pub fn add_matrix(
    vertices: &[u32],
    m: &impl StencilMatrix,
    slots: Option<&[BlockSlot]>,
    scale: f64,
    layout: &SystemLayout,
    fixed: &[bool],
    jac: &mut [f64],
) -> u32 {
    let n = vertices.len();
    match slots {
        Some(slots) => {
            add_blocks(vertices, m, scale, fixed, jac, |a, b, _, _| Some(slots[a * n + b]));
            0
        }
        None if n == 1 => {
            add_blocks(vertices, m, scale, fixed, jac, |_, _, va, _| Some(layout.diagonal_slots[va as usize]))
        }
        None => add_blocks(vertices, m, scale, fixed, jac, |_, _, va, vb| layout.pattern.slot(va, vb)),
    }
}

/// jac += scale · m block by block, each block (a, b) at `slot(a, b, vertex a, vertex b)`
/// (`None`: left out and counted), rows and columns of `fixed` vertices skipped.
fn add_blocks(
    vertices: &[u32],
    m: &impl StencilMatrix,
    scale: f64,
    fixed: &[bool],
    jac: &mut [f64],
    slot: impl Fn(usize, usize, u32, u32) -> Option<BlockSlot>,
) -> u32 {
    let mut dropped = 0;
    for (a, &va) in vertices.iter().enumerate() {
        if fixed[va as usize] {
            continue;
        }
        for (b, &vb) in vertices.iter().enumerate() {
            if fixed[vb as usize] {
                continue;
            }
            let Some(slot) = slot(a, b, va, vb) else {
                dropped += 1;
                continue;
            };
            for c in 0..3 {
                for r in 0..3 {
                    jac[(slot.start + c as u32 * slot.stride + r as u32) as usize] +=
                        scale * m.at(3 * a + r, 3 * b + c);
                }
            }
        }
    }
    dropped
}
