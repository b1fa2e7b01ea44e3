//! The body-centred cubic (BCC) lattice of isosurface stuffing (Labelle & Shewchuk 2007, §2).
//!
//! Two interlocked cubic grids of spacing `L`: the *black* vertices at the cube corners
//! `origin + L·(i, j, k)` and the *red* vertices at the cube centres `origin + L·(i+½, j+½, k+½)`.
//! Every square face shared by two cubes carries four lattice tets, one per edge of the square:
//! the square's edge (two black vertices) joined to the two cube centres on either side (two red
//! vertices). Each tet has two *long* edges of length `L` (the black one and the red one, which
//! are opposite) and four *short* edges of length `√3/2·L`; its dihedral angles are 60° and 90°;
//! its volume is `L³/12` (12 tets per cube).
//!
//! Coordinates are kept as exact *doubled* integers (black `2i`, red `2i+1`), so orientation and
//! the parity rule are decided without rounding.

/// A BCC lattice over `cells[0] × cells[1] × cells[2]` cubes of side `spacing` (m) whose first
/// black vertex is at `origin` (m).
#[derive(Clone, Debug)]
pub(super) struct Lattice {
    /// Position of black vertex (0, 0, 0) (m).
    pub origin: [f64; 3],
    /// Cube side `L` in m (the length of a long edge).
    pub spacing: f64,
    /// Cube counts along x, y, z (each ≥ 1).
    pub cells: [usize; 3],
}

impl Lattice {
    /// Number of black vertices, `(nx+1)(ny+1)(nz+1)`; black vertices come first in the numbering.
    pub fn black_count(&self) -> usize {
        self.cells.iter().map(|n| n + 1).product()
    }

    /// Number of red vertices (cube centres), `nx·ny·nz`.
    pub fn red_count(&self) -> usize {
        self.cells.iter().product()
    }

    /// Total number of lattice vertices.
    pub fn vertex_count(&self) -> usize {
        self.black_count() + self.red_count()
    }

    /// Index of black vertex (i, j, k): `(k·(ny+1) + j)·(nx+1) + i`.
    fn black(&self, p: [usize; 3]) -> u32 {
        let [nx, ny, _] = self.cells;
        ((p[2] * (ny + 1) + p[1]) * (nx + 1) + p[0]) as u32
    }

    /// Index of the red vertex at the centre of cube (i, j, k): black count + `(k·ny + j)·nx + i`.
    fn red(&self, p: [usize; 3]) -> u32 {
        let [nx, ny, _] = self.cells;
        (self.black_count() + (p[2] * ny + p[1]) * nx + p[0]) as u32
    }

    /// Doubled integer coordinates of vertex `v`: `(2i, 2j, 2k)` for a black vertex,
    /// `(2i+1, 2j+1, 2k+1)` for the red vertex of cube (i, j, k).
    pub fn doubled(&self, v: u32) -> [i64; 3] {
        let v = v as usize;
        let nb = self.black_count();
        let (dims, local, offset) = if v < nb { (self.cells.map(|n| n + 1), v, 0) } else { (self.cells, v - nb, 1) };
        let i = local % dims[0];
        let j = (local / dims[0]) % dims[1];
        let k = local / (dims[0] * dims[1]);
        [i, j, k].map(|c| 2 * c as i64 + offset)
    }

    /// Position of vertex `v` (m): `origin + ½·L·doubled(v)`.
    pub fn position(&self, v: u32) -> [f64; 3] {
        let d = self.doubled(v);
        std::array::from_fn(|a| self.origin[a] + 0.5 * self.spacing * d[a] as f64)
    }

    /// Whether `u`–`v` is a long lattice edge (both ends of the same colour).
    pub fn is_long(&self, u: u32, v: u32) -> bool {
        let nb = self.black_count() as u32;
        (u < nb) == (v < nb)
    }

    /// The up-to-12 lattice tets owned by cube `c` (flat index `(k·ny + j)·nx + i`): for each axis
    /// `a` with `c[a] ≥ 1`, the four tets of the square shared with the cube below along `a`.
    /// Every tet is positively oriented (det[x1−x0, x2−x0, x3−x0] > 0), with its long edges at
    /// local positions (0, 1) (black) and (2, 3) (red).
    pub fn tets_of_cube(&self, cube: usize) -> impl Iterator<Item = [u32; 4]> + '_ {
        let [nx, ny, _] = self.cells;
        let c = [cube % nx, (cube / nx) % ny, cube / (nx * ny)];
        (0..3).filter(move |&a| c[a] >= 1).flat_map(move |a| {
            let (b, d) = ((a + 1) % 3, (a + 2) % 3);
            let mut below = c;
            below[a] -= 1;
            let (red_hi, red_lo) = (self.red(c), self.red(below));
            // Corners of the shared square, in cyclic order: the square lies in the plane
            // black[a] = c[a] and spans cube c along axes b and d.
            let corner = |u: usize, w: usize| {
                let mut p = c;
                p[b] += u;
                p[d] += w;
                self.black(p)
            };
            let square = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
            (0..4).map(move |e| self.oriented([square[e], square[(e + 1) % 4], red_lo, red_hi]))
        })
    }

    /// `t` with its red pair swapped if needed so it is positively oriented (exact, in doubled
    /// integer coordinates).
    fn oriented(&self, mut t: [u32; 4]) -> [u32; 4] {
        let p = t.map(|v| self.doubled(v));
        let e = |i: usize| [p[i][0] - p[0][0], p[i][1] - p[0][1], p[i][2] - p[0][2]];
        let (u, v, w) = (e(1), e(2), e(3));
        let det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0]);
        debug_assert!(det != 0, "degenerate lattice tet {t:?}");
        if det < 0 {
            t.swap(2, 3);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volume(l: &Lattice, t: [u32; 4]) -> f64 {
        let p = t.map(|v| l.position(v));
        let e = |i: usize| [p[i][0] - p[0][0], p[i][1] - p[0][1], p[i][2] - p[0][2]];
        let (u, v, w) = (e(1), e(2), e(3));
        (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]))
            / 6.0
    }

    #[test]
    fn tets_are_positive_with_bcc_volume_and_edge_lengths() {
        let l = Lattice { origin: [0.1, -0.2, 0.3], spacing: 0.5, cells: [3, 4, 2] };
        let mut count = 0;
        for cube in 0..l.red_count() {
            for t in l.tets_of_cube(cube) {
                count += 1;
                let v = volume(&l, t);
                assert!((v - 0.125 / 12.0).abs() < 1e-14, "tet {t:?} volume {v}");
                for (i, j) in [(0, 1), (2, 3), (0, 2), (0, 3), (1, 2), (1, 3)] {
                    let (a, b) = (l.position(t[i]), l.position(t[j]));
                    let len = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
                    let long = (i, j) == (0, 1) || (i, j) == (2, 3);
                    assert_eq!(l.is_long(t[i], t[j]), long);
                    let want = if long { 0.5 } else { 0.5 * 3f64.sqrt() / 2.0 };
                    assert!((len - want).abs() < 1e-12, "edge {i}{j} of {t:?}: {len}");
                }
            }
        }
        // Interior squares: 4 tets each.
        let squares = 2 * 4 * 2 + 3 * 3 * 2 + 3 * 4;
        assert_eq!(count, 4 * squares);
    }

    #[test]
    fn doubled_coordinates_round_trip() {
        let l = Lattice { origin: [0.0; 3], spacing: 1.0, cells: [2, 3, 4] };
        assert_eq!(l.doubled(l.black([2, 3, 4])), [4, 6, 8]);
        assert_eq!(l.doubled(l.red([1, 2, 3])), [3, 5, 7]);
        assert_eq!(l.vertex_count(), 3 * 4 * 5 + 2 * 3 * 4);
    }
}
