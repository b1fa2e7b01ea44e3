//! A compressed-sparse-column pattern of 3×3 vertex blocks, built from the element stencils and
//! the contact stencils of a stage, with a binary-search lookup of where a block's entries live.
//! Values are assembled into it every Newton iteration without allocation. The pattern is rebuilt
//! when the contacts need blocks it lacks; the element part, and with it the Cholesky
//! preconditioner's symbolic analysis, stays the same until objects are added.

/// CSC pattern of a matrix with one 3×3 block per pair of vertices sharing an element.
#[derive(Clone, Debug)]
pub struct BlockPattern {
    /// Number of vertices (matrix size 3n).
    pub vertex_count: usize,
    /// Column pointers (length 3n + 1).
    pub col_ptr: Vec<usize>,
    /// Row indices, sorted within each column.
    pub row_idx: Vec<usize>,
    /// For vertex column j: the sorted vertex rows of its blocks.
    neighbours: Vec<Vec<u32>>,
}

/// Where one block (row vertex i, column vertex j) sits: entry (r, c) of the block is at
/// `start + c * stride + r` in the value array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockSlot {
    /// Value index of entry (0, 0).
    pub start: u32,
    /// Distance between the block's columns.
    pub stride: u32,
}

impl BlockPattern {
    /// Pattern of all blocks coupling vertices of each stencil, plus every diagonal block.
    pub fn new<'a>(vertex_count: usize, stencils: impl Iterator<Item = &'a [u32]>) -> Self {
        // Each column collects every stencil it is in, then is sorted and deduplicated once.
        let mut neighbours: Vec<Vec<u32>> = (0..vertex_count as u32).map(|v| vec![v]).collect();
        for s in stencils {
            for &b in s {
                neighbours[b as usize].extend_from_slice(s);
            }
        }
        for column in &mut neighbours {
            column.sort_unstable();
            column.dedup();
        }
        let mut col_ptr = Vec::with_capacity(3 * vertex_count + 1);
        let mut row_idx = Vec::new();
        col_ptr.push(0);
        for nb in &neighbours {
            for _c in 0..3 {
                for &i in nb {
                    row_idx.extend([3 * i as usize, 3 * i as usize + 1, 3 * i as usize + 2]);
                }
                col_ptr.push(row_idx.len());
            }
        }
        Self { vertex_count, col_ptr, row_idx, neighbours }
    }

    /// The sorted vertex rows of vertex column `j`'s blocks (its own diagonal block included).
    pub fn block_rows(&self, j: u32) -> &[u32] {
        &self.neighbours[j as usize]
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// The slot of block (row vertex `i`, column vertex `j`); `None` if not in the pattern.
    pub fn slot(&self, i: u32, j: u32) -> Option<BlockSlot> {
        let nb = &self.neighbours[j as usize];
        let k = nb.binary_search(&i).ok()?;
        let start = self.col_ptr[3 * j as usize] + 3 * k;
        Some(BlockSlot { start: start as u32, stride: 3 * nb.len() as u32 })
    }

    /// Adds `scale` × a stencil's matrix to the values `jac` of this pattern: block (a, b) of the
    /// matrix, entries `entry(3a + row, 3b + col)`, goes to vertex pair (`stencil[a]`, `stencil[b]`).
    /// Rows and columns of `fixed` vertices are skipped (they are eliminated); returns how many
    /// blocks were dropped because the pattern lacks them.
    pub fn add_stencil_matrix(
        &self,
        stencil: &[u32],
        entry: impl Fn(usize, usize) -> f64,
        scale: f64,
        fixed: &[bool],
        jac: &mut [f64],
    ) -> u32 {
        let mut dropped = 0;
        for (a, &va) in stencil.iter().enumerate().filter(|(_, &v)| !fixed[v as usize]) {
            for (b, &vb) in stencil.iter().enumerate().filter(|(_, &v)| !fixed[v as usize]) {
                let Some(slot) = self.slot(va, vb) else {
                    dropped += 1;
                    continue;
                };
                for col in 0..3 {
                    for row in 0..3 {
                        jac[(slot.start + col as u32 * slot.stride + row as u32) as usize] +=
                            scale * entry(3 * a + row, 3 * b + col);
                    }
                }
            }
        }
        dropped
    }

    /// Slots of all `(a, b)` vertex pairs of a stencil, row-major over (a, b).
    pub fn stencil_slots(&self, stencil: &[u32]) -> Vec<BlockSlot> {
        let mut out = Vec::with_capacity(stencil.len() * stencil.len());
        for &a in stencil {
            for &b in stencil {
                // Every pair of a stencil is in the pattern by construction.
                out.push(self.slot(a, b).unwrap_or(BlockSlot { start: u32::MAX, stride: 0 }));
            }
        }
        out
    }

    /// y = A x for values `val` in this pattern: a serial column sweep in a fixed order, block
    /// by block (each column's rows come three at a time from its vertex rows, so the sweep
    /// reads the values and a ninth as many vertex indices).
    pub fn multiply(&self, val: &[f64], x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        for (j, rows) in self.neighbours.iter().enumerate() {
            for c in 0..3 {
                let col = 3 * j + c;
                let xc = x[col];
                let column = &val[self.col_ptr[col]..self.col_ptr[col + 1]];
                for (&i, block) in rows.iter().zip(column.chunks_exact(3)) {
                    let yi = &mut y[3 * i as usize..3 * i as usize + 3];
                    yi[0] += block[0] * xc;
                    yi[1] += block[1] * xc;
                    yi[2] += block[2] * xc;
                }
            }
        }
    }

    /// Values in this pattern of the matrix with entries `a(row, col)` (for tests).
    #[cfg(test)]
    pub fn values_of(&self, a: impl Fn(usize, usize) -> f64) -> Vec<f64> {
        let mut val = vec![0.0; self.nnz()];
        for col in 0..self.col_ptr.len() - 1 {
            for k in self.col_ptr[col]..self.col_ptr[col + 1] {
                val[k] = a(self.row_idx[k], col);
            }
        }
        val
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_address_the_right_entries() {
        let p = BlockPattern::new(3, [&[0u32, 2][..]].into_iter());
        let s = p.slot(2, 0).unwrap();
        // Column 0 holds rows of vertices 0 and 2: entry (r=1, c=0) of block (2, 0) is row 7.
        assert_eq!(p.row_idx[(s.start + 1) as usize], 7);
        assert!(p.slot(1, 0).is_none());
        assert_eq!(p.nnz(), 9 * (2 + 1 + 2));
    }

    /// The block sweep equals the entry-by-entry column sweep A x bit for bit.
    #[test]
    fn multiply_matches_an_entry_sweep() {
        let p = BlockPattern::new(5, [&[0u32, 2][..], &[1, 2, 4][..], &[3, 4][..]].into_iter());
        let val: Vec<f64> = (0..p.nnz()).map(|k| ((k * 7919) % 113) as f64 / 17.0 - 3.0).collect();
        let x: Vec<f64> = (0..15).map(|k| ((k * 31) % 11) as f64 / 3.0 - 1.5).collect();
        let mut expected = vec![0.0; 15];
        for (col, xc) in x.iter().enumerate() {
            let (rows, values) = (p.col_ptr[col]..p.col_ptr[col + 1], &val[p.col_ptr[col]..p.col_ptr[col + 1]]);
            for (k, v) in rows.zip(values) {
                expected[p.row_idx[k]] += v * xc;
            }
        }
        let mut y = vec![f64::NAN; 15];
        p.multiply(&val, &x, &mut y);
        assert_eq!(y, expected);
    }
}
