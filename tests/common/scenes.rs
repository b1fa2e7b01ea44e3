//! Small scenes shared by the integration tests.

use grip::mesh::generate::{box_tets, grid_cloth};
use grip::solver::VertexAttribute;
use grip::{Material, Solver, SolverParams};

/// A 0.3 m cloth of `cells` × `cells` quads, `height` [m] above the base of a soft
/// 0.4 × 0.4 × 0.1 m slab (its base pinned; the slab's top is at 0.1 m), thrown at
/// (0.3, 0, −0.5) m/s onto it, μ = 0.5 between them; returns the solver and the ids
/// (slab, cloth).
pub fn cloth_thrown_on_slab(params: &SolverParams, cells: usize, height: f64) -> (Solver, [u32; 2]) {
    let mut s = Solver::new(params).unwrap();
    let (p, t) = box_tets([0.4, 0.4, 0.1], [3, 3, 1], [-0.2, -0.2, 0.0]);
    let soft = Material { density: 500.0, youngs_modulus: 2e4, poisson_ratio: 0.3, ..Default::default() };
    let slab = s.add_solid(&p, &t, &soft).unwrap();
    let base: Vec<f64> = p.chunks_exact(3).map(|v| if v[2] < 1e-9 { 1.0 } else { 0.0 }).collect();
    s.set_vertex_attribute(slab, VertexAttribute::Pinned, &base).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, cells, cells);
    let p: Vec<f64> = p.chunks_exact(3).flat_map(|v| [v[0], v[2] + 0.15, height]).collect();
    let cloth = s.add_shell(&p, &t, &Material { bending_stiffness: 1e-5, ..Default::default() }).unwrap();
    let v: Vec<f64> = (0..p.len()).map(|i| [0.3, 0.0, -0.5][i % 3]).collect();
    s.set_vertex_attribute(cloth, VertexAttribute::Velocity, &v).unwrap();
    s.set_friction(slab, cloth, 0.5).unwrap();
    (s, [slab, cloth])
}

/// Positions (flat [m]) and triangle indices of a `side` × `side` [m] grid of `n` × `n` quads,
/// each vertex placed at `place(u, w)` from its grid coordinates (u, w) ∈ [−side/2, side/2]²
/// centred at the origin, so callers tilt, turn and move the grid as they need.
pub fn placed_grid(side: f64, n: usize, place: impl Fn(f64, f64) -> [f64; 3]) -> (Vec<f64>, Vec<u32>) {
    let (p, t) = grid_cloth(side, side, n, n);
    let p = p.chunks_exact(3).flat_map(|x| place(x[0], -x[2] - 0.5 * side)).collect();
    (p, t)
}
