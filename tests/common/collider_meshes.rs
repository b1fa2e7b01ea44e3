//! Helpers of the collider-mesh contact tests: the dropped cloth, its solver settings and a
//! brute-force signed-distance oracle that does not come from the solver.

use grip::mesh::closest_point::{closest_on_triangle, point_at};
use grip::mesh::generate::grid_cloth;
use grip::{ColliderMeshContact, SolverParams};

/// A horizontal `n` × `n` grid cloth of side `size` (m) centred over the origin at height `z`.
pub fn flat_cloth(size: f64, n: usize, z: f64) -> (Vec<f64>, Vec<u32>) {
    let (p, t) = grid_cloth(size, size, n, n);
    (p.chunks(3).flat_map(|x| [x[0], x[2] + 0.5 * size, z]).collect(), t)
}

/// Signed depth oracle of a closed, outward triangle mesh: the brute-force distance to its
/// triangles, negative where the generalized winding number (Σ solid angles / 4π) is above ½.
pub fn signed_distance(points: &[[f64; 3]], tris: &[[u32; 3]], x: [f64; 3]) -> f64 {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let norm = |a: [f64; 3]| dot(a, a).sqrt();
    let mut d2 = f64::INFINITY;
    let mut winding = 0.0;
    for t in tris {
        let c = t.map(|v| points[v as usize]);
        let q = point_at(c, closest_on_triangle(x, c).0);
        d2 = d2.min(dot(sub(x, q), sub(x, q)));
        // Van Oosterom–Strackee solid angle of the triangle seen from x.
        let [a, b, cc] = c.map(|p| sub(p, x));
        let (la, lb, lc) = (norm(a), norm(b), norm(cc));
        let det = a[0] * (b[1] * cc[2] - b[2] * cc[1]) - a[1] * (b[0] * cc[2] - b[2] * cc[0])
            + a[2] * (b[0] * cc[1] - b[1] * cc[0]);
        let den = la * lb * lc + dot(a, b) * lc + dot(b, cc) * la + dot(cc, a) * lb;
        winding += 2.0 * det.atan2(den);
    }
    let inside = winding / (4.0 * std::f64::consts::PI) > 0.5;
    if inside {
        -d2.sqrt()
    } else {
        d2.sqrt()
    }
}

/// The solver of the cloth drops onto proxies: 1/240 s steps, δ = 2 mm, exact distance.
pub fn drop_params() -> SolverParams {
    SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: 2e-3,
        collider_mesh_contact: ColliderMeshContact::Exact,
        ..Default::default()
    }
}

/// A horizontal rectangle [`x0`, `x1`] × [`y0`, `y1`] at height `z` (m) of two triangles facing
/// +z: an open sheet (a floor, a table top).
pub fn sheet(x0: f64, x1: f64, y0: f64, y1: f64, z: f64) -> (Vec<f64>, Vec<u32>) {
    (vec![x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z], vec![0, 1, 2, 0, 2, 3])
}
