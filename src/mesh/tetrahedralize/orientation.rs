//! Which side of a checked surface is the solid. A surface facing inward as a whole (negative
//! enclosed volume) is flipped. Then every connected shell must be consistent with one solid:
//! the winding number of the other shells at a point of an outward-facing shell must be 0 (it is
//! not inside the solid) and at a point of an inward-facing shell 1 (it bounds a cavity inside
//! the solid), so that the winding number is 1 in the solid and 0 elsewhere.

use super::surface_check::Surface;
use crate::error::{Error, Result};
use crate::math::real::{dot, norm, sub};
use crate::mesh::bvh::Aabb;
use std::f64::consts::PI;

fn det(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])
}

/// Solid angle (sr) of triangle (a, b, c) seen from `p` (Van Oosterom & Strackee 1983):
/// Ω = 2·atan2(det[A, B, C], |A||B||C| + (A·B)|C| + (A·C)|B| + (B·C)|A|) with A = a − p, …;
/// positive when `p` lies behind the triangle (opposite its normal (b − a) × (c − a)), so an
/// outward-facing closed surface sums to 4π at points inside it.
fn solid_angle(p: [f64; 3], a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let (x, y, z) = (sub(a, p), sub(b, p), sub(c, p));
    let (lx, ly, lz) = (norm(x), norm(y), norm(z));
    2.0 * det(x, y, z).atan2(lx * ly * lz + dot(x, y) * lz + dot(x, z) * ly + dot(y, z) * lx)
}

/// Flips a surface that faces inward as a whole and checks that its shells bound one solid.
/// Returns the enclosed volume (m³).
pub(super) fn orient_solid(positions: &[[f64; 3]], surface: &mut Surface) -> Result<f64> {
    let n = surface.component_count;
    let p = |v: u32| positions[v as usize];
    // Signed volume of each shell: Σ det[a − r, b − r, c − r] / 6 about a point r of the shell.
    let mut volume = vec![0.0; n];
    let mut reference: Vec<Option<(usize, [f64; 3])>> = vec![None; n];
    let mut bounds = vec![Aabb::empty(); n];
    for (t, tri) in surface.triangles.iter().enumerate() {
        let c = surface.component[t] as usize;
        let r = reference[c].get_or_insert((t, p(tri[0]))).1;
        let [a, b, d] = tri.map(|v| sub(p(v), r));
        volume[c] += det(a, b, d) / 6.0;
        for &v in tri {
            bounds[c].add_point(p(v));
        }
    }
    let total: f64 = volume.iter().sum();
    if !(total.abs() > 0.0) {
        return Err(Error::mesh("the surface encloses no volume"));
    }
    if total < 0.0 {
        for (tri, nb) in surface.triangles.iter_mut().zip(surface.neighbours.iter_mut()) {
            // (a, b, c) → (a, c, b): edges (a, c), (c, b), (b, a) were edges 2, 1, 0.
            tri.swap(1, 2);
            *nb = [nb[2], nb[1], nb[0]];
        }
        volume.iter_mut().for_each(|v| *v = -*v);
    }
    for c in 0..n {
        let (first, point) = reference[c].expect("every component has a triangle");
        let mut winding = 0.0;
        for (t, tri) in surface.triangles.iter().enumerate() {
            let d = surface.component[t] as usize;
            if d != c && bounds[d].contains(point) {
                winding += solid_angle(point, p(tri[0]), p(tri[1]), p(tri[2]));
            }
        }
        let winding = (winding / (4.0 * PI)).round() as i64;
        let outward = volume[c] > 0.0;
        if outward && winding != 0 {
            return Err(Error::mesh(format!(
                "the surface does not bound one solid: the outward-facing shell containing triangle {first} lies \
                 inside another shell of the same orientation (a cavity's shell must face into the cavity)"
            )));
        }
        if !outward && winding != 1 {
            return Err(Error::mesh(format!(
                "the surface does not bound one solid: the inward-facing shell containing triangle {first} is not \
                 a cavity inside exactly one outward-facing shell"
            )));
        }
    }
    Ok(volume.iter().sum())
}

#[cfg(test)]
mod tests {
    use super::super::surface_check::check_topology;
    use super::*;

    /// A tetrahedron scaled by `s` about `centre`, outward unless `inward`.
    fn tet(s: f64, centre: [f64; 3], first: u32, inward: bool) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
        let p = [[-1.0, -1.0, -1.0], [1.0, -1.0, -1.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]]
            .map(|q| [centre[0] + s * q[0], centre[1] + s * q[1], centre[2] + s * q[2]]);
        let mut t = vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]];
        if inward {
            t.iter_mut().for_each(|x| x.swap(1, 2));
        }
        (p.to_vec(), t.into_iter().map(|x| x.map(|v| v + first)).collect())
    }

    fn run(parts: &[(f64, [f64; 3], bool)]) -> Result<f64> {
        let (mut p, mut t) = (Vec::new(), Vec::new());
        for &(s, c, inward) in parts {
            let (q, u) = tet(s, c, p.len() as u32, inward);
            p.extend(q);
            t.extend(u);
        }
        let mut surface = check_topology(&p, &t).unwrap();
        orient_solid(&p, &mut surface)
    }

    #[test]
    fn inward_surfaces_are_flipped_and_cavities_must_face_inward() {
        let v = run(&[(1.0, [0.0; 3], false)]).unwrap();
        assert!((v - 4.0 / 3.0).abs() < 1e-12, "{v}");
        assert!((run(&[(1.0, [0.0; 3], true)]).unwrap() - v).abs() < 1e-12);
        // Hollow: outer outward, inner (cavity) inward.
        let hollow = run(&[(1.0, [0.0; 3], false), (0.3, [0.0, -0.2, -0.3], true)]).unwrap();
        assert!((hollow - v * (1.0 - 0.027)).abs() < 1e-12, "{hollow}");
        // Two separate solids.
        assert!(run(&[(1.0, [0.0; 3], false), (1.0, [5.0, 0.0, 0.0], false)]).is_ok());
        // Nested shells facing the same way, and a stray inward shell outside the solid.
        let nested = run(&[(1.0, [0.0; 3], false), (0.3, [0.0, -0.2, -0.3], false)]).unwrap_err();
        assert!(nested.message().contains("does not bound one solid"), "{nested}");
        let stray = run(&[(1.0, [0.0; 3], false), (0.3, [5.0, 0.0, 0.0], true)]).unwrap_err();
        assert!(stray.message().contains("inward-facing shell containing triangle 4"), "{stray}");
    }
}
