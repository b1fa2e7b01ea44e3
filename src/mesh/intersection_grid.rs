//! Broad phase of the intersection checker (`intersection.rs`): a uniform grid of cubic cells
//! over axis-aligned bounding boxes. Each box is entered in every cell it overlaps; two boxes
//! are a candidate pair iff the closed boxes overlap (touching counts), and the pair is produced
//! only by the cell that holds the lower corner of the boxes' overlap, so it comes out exactly
//! once without a set of pairs seen.
//!
//! Cost: with a cell of about one edge length, a triangle of a cloth overlaps O(1) cells and
//! meets O(1) others there, so building and querying are O(n) for n triangles (a hash map holds
//! the occupied cells only). Boxes spanning many cells (a few huge triangles) would make the
//! grid large: the cell size is doubled until the cell entries number at most
//! [`MAX_ENTRIES_PER_BOX`] per box, which bounds memory in every case.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A closed axis-aligned box (m): lower and upper corner.
pub(crate) type Box3 = [[f64; 3]; 2];

/// Most cell entries per box on average before the cell size is doubled.
const MAX_ENTRIES_PER_BOX: u64 = 16;

/// Integer cell coordinates.
type Cell = [i64; 3];

/// A small multiplicative hash of cell coordinates (the map is never iterated in an order that
/// matters: the candidates are sorted by the caller).
#[derive(Default)]
struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The grid: origin (m), cell edge (m) and the boxes entered in each occupied cell (box indices
/// increasing).
struct Grid {
    origin: [f64; 3],
    cell: f64,
    cells: HashMap<Cell, Vec<u32>, BuildHasherDefault<CellHasher>>,
}

impl Grid {
    /// Cell holding point `p`: ⌊(pₖ − originₖ) / cell⌋ per axis (monotone in p, saturating).
    fn cell_of(&self, p: [f64; 3]) -> Cell {
        std::array::from_fn(|k| ((p[k] - self.origin[k]) / self.cell).floor() as i64)
    }

    /// Number of cells box `b` overlaps (saturating).
    fn span(&self, b: &Box3) -> u64 {
        let (lo, hi) = (self.cell_of(b[0]), self.cell_of(b[1]));
        (0..3).fold(1u64, |n, k| n.saturating_mul(hi[k].saturating_sub(lo[k]).saturating_add(1) as u64))
    }
}

/// Whether closed boxes `a` and `b` share a point.
fn overlap(a: &Box3, b: &Box3) -> bool {
    (0..3).all(|k| a[0][k] <= b[1][k] && b[0][k] <= a[1][k])
}

/// Every pair (i, j), i < j, of the finite `boxes` whose closed boxes overlap and for which
/// `consider(i, j)` holds, each once, in no particular order. `cell` (m) is the requested cell
/// edge (the mean edge length of the triangles); it is enlarged when needed (see the module
/// documentation). Boxes with a non-finite coordinate are left out. `consider` is asked before
/// the boxes are compared, so pairs of kinds the caller never wants cost no more than a call.
pub(crate) fn candidate_pairs(boxes: &[Box3], cell: f64, consider: impl Fn(u32, u32) -> bool) -> Vec<(u32, u32)> {
    let finite: Vec<u32> =
        (0..boxes.len() as u32).filter(|&i| boxes[i as usize].iter().flatten().all(|x| x.is_finite())).collect();
    let Some(&first) = finite.first() else { return Vec::new() };
    let (mut lo, mut hi) = (boxes[first as usize][0], boxes[first as usize][1]);
    for &i in &finite {
        for k in 0..3 {
            lo[k] = lo[k].min(boxes[i as usize][0][k]);
            hi[k] = hi[k].max(boxes[i as usize][1][k]);
        }
    }
    // At most 2²⁰ cells along an axis, so that cell coordinates stay small.
    let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max);
    let mut size = if cell > 0.0 && cell.is_finite() { cell } else { extent.max(1.0) };
    size = size.max(extent / f64::from(1u32 << 20));
    let mut grid = Grid { origin: lo, cell: size, cells: HashMap::default() };
    let budget = MAX_ENTRIES_PER_BOX * finite.len() as u64;
    while finite.iter().map(|&i| grid.span(&boxes[i as usize])).fold(0u64, u64::saturating_add) > budget {
        grid.cell *= 2.0;
    }
    for &i in &finite {
        let b = &boxes[i as usize];
        let (c0, c1) = (grid.cell_of(b[0]), grid.cell_of(b[1]));
        for x in c0[0]..=c1[0] {
            for y in c0[1]..=c1[1] {
                for z in c0[2]..=c1[2] {
                    grid.cells.entry([x, y, z]).or_default().push(i);
                }
            }
        }
    }
    let mut pairs = Vec::new();
    for (cell, items) in &grid.cells {
        for (n, &i) in items.iter().enumerate() {
            let a = &boxes[i as usize];
            for &j in &items[n + 1..] {
                let b = &boxes[j as usize];
                if !consider(i, j) || !overlap(a, b) {
                    continue;
                }
                // The pair's home cell: the one holding the lower corner of the overlap.
                let corner = std::array::from_fn(|k| a[0][k].max(b[0][k]));
                if grid.cell_of(corner) == *cell {
                    pairs.push((i, j));
                }
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All overlapping pairs by brute force.
    fn brute(boxes: &[Box3]) -> Vec<(u32, u32)> {
        let n = boxes.len() as u32;
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .filter(|&(i, j)| overlap(&boxes[i as usize], &boxes[j as usize]))
            .collect()
    }

    fn sorted(mut pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
        pairs.sort_unstable();
        pairs
    }

    /// Random boxes of mixed sizes (a few huge ones force the cell to grow), touching boxes and
    /// a NaN box: the grid finds exactly the brute-force pairs, each once.
    #[test]
    fn grid_pairs_equal_brute_force() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut boxes: Vec<Box3> = (0..600)
            .map(|i| {
                let size = if i % 100 == 0 { 5.0 } else { 0.05 + 0.1 * next() };
                let lo = [next() * 3.0, next() * 3.0, next() * 0.5];
                [lo, [lo[0] + size * next(), lo[1] + size * next(), lo[2] + size * next()]]
            })
            .collect();
        boxes.push([[1.0, 1.0, 0.0], [2.0, 2.0, 0.0]]);
        boxes.push([[2.0, 2.0, 0.0], [3.0, 3.0, 0.0]]); // touches the previous one at a corner
        boxes.push([[f64::NAN, 0.0, 0.0], [1.0, 1.0, 1.0]]);
        let want = brute(&boxes[..602]);
        assert!(want.contains(&(600, 601)) && want.len() > 100, "{}", want.len());
        for cell in [0.1, 0.01, 1e-9, 0.0, 10.0] {
            assert_eq!(sorted(candidate_pairs(&boxes, cell, |_, _| true)), want, "cell {cell}");
        }
        // Only pairs of an even and an odd box: exactly those of the brute force.
        let mixed = |i: u32, j: u32| (i + j) % 2 == 1;
        let want_mixed: Vec<_> = want.iter().copied().filter(|&(i, j)| mixed(i, j)).collect();
        assert_eq!(sorted(candidate_pairs(&boxes, 0.1, mixed)), want_mixed);
        assert!(candidate_pairs(&[], 1.0, |_, _| true).is_empty());
    }
}
