//! Procedural meshes for demos and tests: a rectangular cloth grid, a box of tetrahedra (six or
//! five per cube), and a helper that finds the vertices on the top of a mesh (for pinning).
//!
//! Positions are flat `x0 y0 z0 x1 …` in metres; element indices are flat and 0-based.

/// A hanging rectangular cloth of `nx × ny` quads, `(nx+1) × (ny+1)` vertices, in the plane
/// y = 0 spanned by X (`width` in m) and Z (`height` in m).
///
/// Vertex (i, j) is at (i·width/nx − width/2, 0, −j·height/ny) with index j·(nx+1) + i, so row
/// j = 0 is the top edge at z = 0 (Z is up) and the cloth hangs down to z = −height. Each quad
/// is split into two triangles with the diagonal alternating in a checkerboard, so the mesh is
/// symmetric about its centre lines. All triangles have normal +y.
///
/// `nx` and `ny` are clamped to at least 1.
pub fn grid_cloth(width: f64, height: f64, nx: usize, ny: usize) -> (Vec<f64>, Vec<u32>) {
    let (nx, ny) = (nx.max(1), ny.max(1));
    let mut positions = Vec::with_capacity(3 * (nx + 1) * (ny + 1));
    for j in 0..=ny {
        for i in 0..=nx {
            let x = i as f64 * width / nx as f64 - 0.5 * width;
            let z = -(j as f64) * height / ny as f64;
            positions.extend_from_slice(&[x, 0.0, z]);
        }
    }
    let index = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut triangles = Vec::with_capacity(6 * nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            let (a, b) = (index(i, j), index(i + 1, j));
            let (c, d) = (index(i + 1, j + 1), index(i, j + 1));
            if (i + j) % 2 == 0 {
                triangles.extend_from_slice(&[a, b, c, a, c, d]); // diagonal a–c
            } else {
                triangles.extend_from_slice(&[a, b, d, b, c, d]); // diagonal b–d
            }
        }
    }
    (positions, triangles)
}

/// Axis permutations of the Kuhn (Freudenthal) subdivision with their parity (+1 even).
const KUHN: [([usize; 3], f64); 6] =
    [([0, 1, 2], 1.0), ([1, 2, 0], 1.0), ([2, 0, 1], 1.0), ([0, 2, 1], -1.0), ([2, 1, 0], -1.0), ([1, 0, 2], -1.0)];

/// A box of `cells[0] × cells[1] × cells[2]` cubes (cells clamped to ≥ 1), each split into six
/// tets by the Kuhn/Freudenthal subdivision along its (0,0,0)–(1,1,1) diagonal, so neighbouring
/// cubes share their face triangulations (the mesh is conforming).
///
/// `size` (m) is the box extent, `origin` (m) its minimum corner. Vertex (i, j, k) is at
/// origin + (i·sx/cx, j·sy/cy, k·sz/cz) with index (k·(cy+1) + j)·(cx+1) + i. Every tet is
/// positively oriented: det[x1 − x0, x2 − x0, x3 − x0] > 0 (for positive `size`).
pub fn box_tets(size: [f64; 3], cells: [usize; 3], origin: [f64; 3]) -> (Vec<f64>, Vec<u32>) {
    let c = cells.map(|n| n.max(1));
    let positions = grid_vertices(size, c, origin);
    let index = |p: [usize; 3]| ((p[2] * (c[1] + 1) + p[1]) * (c[0] + 1) + p[0]) as u32;
    // Orientation flips if the size has an odd number of negative components.
    let flip = size.iter().filter(|s| **s < 0.0).count() % 2 == 1;
    let mut tets = Vec::with_capacity(24 * c[0] * c[1] * c[2]);
    for k in 0..c[2] {
        for j in 0..c[1] {
            for i in 0..c[0] {
                for (perm, parity) in KUHN {
                    // Walk from corner (i,j,k) to (i+1,j+1,k+1), one axis at a time.
                    let mut p = [i, j, k];
                    let mut t = [index(p); 4];
                    for (s, &axis) in perm.iter().enumerate() {
                        p[axis] += 1;
                        t[s + 1] = index(p);
                    }
                    if (parity < 0.0) != flip {
                        t.swap(1, 2);
                    }
                    tets.extend_from_slice(&t);
                }
            }
        }
    }
    (positions, tets)
}

/// The `(c[0]+1) × (c[1]+1) × (c[2]+1)` grid points of a box (flat, m), vertex (i, j, k) at
/// origin + (i·sx/cx, j·sy/cy, k·sz/cz) with index (k·(cy+1) + j)·(cx+1) + i.
fn grid_vertices(size: [f64; 3], c: [usize; 3], origin: [f64; 3]) -> Vec<f64> {
    let mut positions = Vec::with_capacity(3 * (c[0] + 1) * (c[1] + 1) * (c[2] + 1));
    for k in 0..=c[2] {
        for j in 0..=c[1] {
            for i in 0..=c[0] {
                let ijk = [i, j, k];
                for a in 0..3 {
                    positions.push(origin[a] + ijk[a] as f64 * size[a] / c[a] as f64);
                }
            }
        }
    }
    positions
}

/// Corners (dx, dy, dz) of a cube whose coordinate sum is even: the central tet of the
/// five-tet split, and each odd corner's three neighbours.
const EVEN_CORNERS: [[usize; 3]; 4] = [[0, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]];
/// The odd corners, each cut off with its three (even) neighbours.
const ODD_CORNERS: [[usize; 3]; 4] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]];

/// A box of `cells[0] × cells[1] × cells[2]` cubes (cells clamped to ≥ 1), each split into five
/// tets: a central regular tet on four alternate corners and the four corner tets cut off
/// around it. The central tet uses the corners whose global grid index sum i + j + k is even,
/// so the split alternates (mirrors) from cube to cube and neighbouring cubes share their face
/// diagonals (the mesh is conforming).
///
/// Same vertices, numbering and orientation (det[x1 − x0, x2 − x0, x3 − x0] > 0) as
/// [`box_tets`]; 5 instead of 6 tets per cube.
pub fn box_tets_five(size: [f64; 3], cells: [usize; 3], origin: [f64; 3]) -> (Vec<f64>, Vec<u32>) {
    let c = cells.map(|n| n.max(1));
    let positions = grid_vertices(size, c, origin);
    let index = |p: [usize; 3]| ((p[2] * (c[1] + 1) + p[1]) * (c[0] + 1) + p[0]) as u32;
    let corner = |p: usize| [0, 1, 2].map(|a| positions[3 * p + a]);
    let mut tets = Vec::with_capacity(20 * c[0] * c[1] * c[2]);
    for k in 0..c[2] {
        for j in 0..c[1] {
            for i in 0..c[0] {
                // In a cube of odd i + j + k, the globally even corners are the locally odd ones.
                let (central, cut) =
                    if (i + j + k) % 2 == 0 { (EVEN_CORNERS, ODD_CORNERS) } else { (ODD_CORNERS, EVEN_CORNERS) };
                let at = |d: [usize; 3]| index([i + d[0], j + d[1], k + d[2]]);
                let mut cube = vec![central.map(at)];
                for tip in cut {
                    // The three corners one edge away from the tip.
                    let near = central.iter().filter(|d| (0..3).filter(|&a| d[a] != tip[a]).count() == 1);
                    let mut t = [at(tip); 4];
                    for (slot, d) in t[1..].iter_mut().zip(near) {
                        *slot = at(*d);
                    }
                    cube.push(t);
                }
                for mut t in cube {
                    let [a, b, cc, d] = t.map(|v| corner(v as usize));
                    if signed_volume6(a, b, cc, d) < 0.0 {
                        t.swap(1, 2);
                    }
                    tets.extend_from_slice(&t);
                }
            }
        }
    }
    (positions, tets)
}

/// det[b − a, c − a, d − a]: six times the signed volume of the tet (a, b, c, d) (m³).
fn signed_volume6(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> f64 {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])
}

/// Indices of the vertices whose coordinate along `axis` (0 = x, 1 = y, 2 = z) is within
/// `tolerance` (m) of the largest one. Empty when `positions` is empty or `axis > 2`;
/// non-finite coordinates are ignored.
pub fn top_vertices(positions: &[f64], axis: usize, tolerance: f64) -> Vec<usize> {
    if axis > 2 {
        return Vec::new();
    }
    let coord = |v: &[f64]| v[axis];
    let max = positions.chunks_exact(3).map(coord).filter(|x| x.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    positions
        .chunks_exact(3)
        .enumerate()
        .filter(|(_, v)| coord(v).is_finite() && coord(v) >= max - tolerance.abs())
        .map(|(i, _)| i)
        .collect()
}

/// Drops the vertices that no element uses and renumbers the elements: returns the kept
/// positions (flat, in m) and `elements` (flat, any arity) in the new numbering. Kept vertices
/// keep their order. (A solid's unused vertices would otherwise be free particles.)
pub fn without_unused_vertices(positions: &[f64], elements: &[u32]) -> (Vec<f64>, Vec<u32>) {
    let mut new_index = vec![u32::MAX; positions.len() / 3];
    elements.iter().for_each(|&v| new_index[v as usize] = 0);
    let mut kept = Vec::with_capacity(positions.len());
    let mut next = 0;
    for (i, slot) in new_index.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = next;
            next += 1;
            kept.extend_from_slice(&positions[3 * i..3 * i + 3]);
        }
    }
    (kept, elements.iter().map(|&v| new_index[v as usize]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_vertices_are_dropped_and_elements_renumbered() {
        let p = [0.0, 0.0, 0.0, 9.0, 9.0, 9.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 8.0, 8.0, 8.0, 0.0, 0.0, 1.0];
        let (kept, tets) = without_unused_vertices(&p, &[0, 2, 3, 5, 5, 3, 2, 0]);
        assert_eq!(kept, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(tets, [0, 1, 2, 3, 3, 2, 1, 0]);
        // A 4 × 4 × 4-cell box without its central 2 × 2 × 2 cells: the centre vertex is unused.
        let (grid, all) = box_tets([1.0; 3], [4; 3], [0.0; 3]);
        let centroid = |t: &[u32]| [0, 1, 2].map(|a| t.iter().map(|&v| vertex(&grid, v)[a]).sum::<f64>() / 4.0);
        let hollow: Vec<u32> = all
            .chunks_exact(4)
            .filter(|t| !centroid(t).iter().all(|c| (c - 0.5).abs() < 0.25))
            .flatten()
            .copied()
            .collect();
        let (kept, tets) = without_unused_vertices(&grid, &hollow);
        assert_eq!(kept.len() / 3, 125 - 1);
        assert!(!kept.chunks_exact(3).any(|x| x == [0.5, 0.5, 0.5]));
        assert_eq!(tets.len(), hollow.len());
        let corners = |p: &[f64], t: &[u32]| t.iter().map(|&v| vertex(p, v)).collect::<Vec<_>>();
        assert!(hollow.chunks_exact(4).zip(tets.chunks_exact(4)).all(|(a, b)| corners(&grid, a) == corners(&kept, b)));
        assert!(tets.iter().all(|&v| (v as usize) < kept.len() / 3));
    }

    /// Determinant of [b − a, c − a, d − a] (six times the signed tet volume).
    fn orientation(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> f64 {
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
        u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])
    }

    fn vertex(p: &[f64], i: u32) -> [f64; 3] {
        let i = 3 * i as usize;
        [p[i], p[i + 1], p[i + 2]]
    }

    #[test]
    fn grid_counts_layout_and_area() {
        let (p, t) = grid_cloth(2.0, 1.5, 4, 3);
        assert_eq!(p.len(), 3 * 5 * 4);
        assert_eq!(t.len(), 3 * 2 * 4 * 3);
        assert_eq!(vertex(&p, 0), [-1.0, 0.0, 0.0]);
        assert_eq!(vertex(&p, 4), [1.0, 0.0, 0.0]);
        assert_eq!(vertex(&p, 19), [1.0, 0.0, -1.5]);
        let mut area = 0.0;
        for tri in t.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| vertex(&p, tri[k]));
            let (u, v) = ([b[0] - a[0], b[2] - a[2]], [c[0] - a[0], c[2] - a[2]]);
            // Normal along +y: (u × v)·ŷ = u_z v_x − u_x v_z.
            let ny = u[1] * v[0] - u[0] * v[1];
            assert!(ny > 0.0, "triangle {tri:?} normal is not +y");
            area += 0.5 * ny;
        }
        assert!((area - 3.0).abs() < 1e-12, "area {area}");
        // Checkerboard: the first two quads use different diagonals.
        assert_eq!(&t[0..6], &[0, 1, 6, 0, 6, 5]);
        assert_eq!(&t[6..12], &[1, 2, 6, 2, 7, 6]);
    }

    #[test]
    fn box_counts_orientation_and_volume() {
        let size = [0.3, 0.5, 1.1];
        let (p, t) = box_tets(size, [2, 3, 4], [1.0, -2.0, 0.5]);
        assert_eq!(p.len(), 3 * 3 * 4 * 5);
        assert_eq!(t.len(), 4 * 6 * 2 * 3 * 4);
        assert_eq!(vertex(&p, 0), [1.0, -2.0, 0.5]);
        let last = vertex(&p, (p.len() / 3 - 1) as u32);
        for a in 0..3 {
            assert!((last[a] - [1.3, -1.5, 1.6][a]).abs() < 1e-12);
        }
        let mut volume = 0.0;
        for tet in t.chunks_exact(4) {
            let [a, b, c, d] = [0, 1, 2, 3].map(|k| vertex(&p, tet[k]));
            let det = orientation(a, b, c, d);
            assert!(det > 0.0, "tet {tet:?} has det {det}");
            volume += det / 6.0;
        }
        let want = size[0] * size[1] * size[2];
        assert!((volume - want).abs() < 1e-12 * want.max(1.0), "volume {volume}");
    }

    #[test]
    fn box_is_conforming() {
        // In a conforming mesh every interior face is shared by exactly two tets, so the
        // boundary consists of 2 triangles per boundary quad.
        let (_, t) = box_tets([1.0; 3], [2, 2, 3], [0.0; 3]);
        let tets: Vec<[u32; 4]> = t.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let boundary = crate::mesh::boundary_triangles(&tets);
        assert_eq!(boundary.len(), 2 * 2 * (2 * 2 + 2 * 3 + 2 * 3));
    }

    #[test]
    fn five_tet_box_counts_orientation_volume_and_conformity() {
        let size = [0.3, 0.5, 1.1];
        let (p, t) = box_tets_five(size, [2, 3, 4], [1.0, -2.0, 0.5]);
        assert_eq!(p, box_tets(size, [2, 3, 4], [1.0, -2.0, 0.5]).0);
        assert_eq!(t.len(), 4 * 5 * 2 * 3 * 4);
        let mut volume = 0.0;
        for tet in t.chunks_exact(4) {
            let det = orientation(vertex(&p, tet[0]), vertex(&p, tet[1]), vertex(&p, tet[2]), vertex(&p, tet[3]));
            assert!(det > 0.0, "tet {tet:?} has det {det}");
            volume += det / 6.0;
        }
        let want = size[0] * size[1] * size[2];
        assert!((volume - want).abs() < 1e-12 * want, "volume {volume}");
        let tets: Vec<[u32; 4]> = t.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let boundary = crate::mesh::boundary_triangles(&tets);
        assert_eq!(boundary.len(), 2 * 2 * (2 * 3 + 2 * 4 + 3 * 4));
        // The central tet of each cube is regular: all six edges are face diagonals.
        let (p, t) = box_tets_five([1.0; 3], [1, 1, 1], [0.0; 3]);
        let central = &t[..4];
        for a in 0..4 {
            for b in a + 1..4 {
                let (x, y) = (vertex(&p, central[a]), vertex(&p, central[b]));
                let d2: f64 = (0..3).map(|k| (x[k] - y[k]).powi(2)).sum();
                assert!((d2 - 2.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn top_vertices_finds_the_top_row() {
        let (p, _) = grid_cloth(1.0, 1.0, 3, 3);
        assert_eq!(top_vertices(&p, 2, 1e-9), vec![0, 1, 2, 3]);
        assert_eq!(top_vertices(&p, 0, 1e-9), vec![3, 7, 11, 15]);
        assert_eq!(top_vertices(&p, 2, 0.4).len(), 8);
        assert!(top_vertices(&[], 2, 0.1).is_empty());
        assert!(top_vertices(&p, 3, 0.1).is_empty());
        let (b, _) = box_tets([0.1, 0.1, 1.0], [1, 1, 4], [0.0; 3]);
        assert_eq!(top_vertices(&b, 2, 1e-9), vec![16, 17, 18, 19]);
    }
}
