//! Angle-weighted vertex pseudonormals of a triangle surface (Bærentzen & Aanæs 2005, "Signed
//! distance computation using the angle weighted pseudonormal"): Σ αᵢ nᵢ over the faces at a
//! vertex, nᵢ a face's unit normal and αᵢ its angle at the vertex. Unlike an area-weighted mean
//! the sum does not lean towards the side with more or bigger faces (at the rim of a cylinder's
//! cap it bisects the rim), and for a closed, outward-oriented surface a point just inside beside
//! the vertex lies on its negative side: the sign of a signed distance where the closest point is
//! a vertex (`tetrahedralize::surface_sdf`), and the side of a solid's vertex against a shell
//! (`crate::contact::self_contact::shell_solid`).

use crate::math::real::{add, cross, dot, norm, scale, sub, unit};

/// Σ αᵢ nᵢ (not normalised) of each of `vertex_count` vertices over the triangles `faces`
/// (indices below `vertex_count`) with corners at `position(v)` (m); zero for a vertex of no
/// face. Faces are taken in order, corners 0, 1, 2, so the sums do not depend on threads.
pub fn angle_weighted_normals(
    faces: &[[u32; 3]],
    vertex_count: usize,
    position: impl Fn(u32) -> [f64; 3],
) -> Vec<[f64; 3]> {
    let mut out = vec![[0.0; 3]; vertex_count];
    for &f in faces {
        let [a, b, c] = f.map(&position);
        let n = unit(cross(sub(b, a), sub(c, a)));
        let corners = [(a, b, c), (b, c, a), (c, a, b)];
        for (k, (p, next, prev)) in corners.into_iter().enumerate() {
            // atan2(|e₁ × e₂|, e₁ · e₂): accurate at angles near 0 and π, where acos is not.
            let (e1, e2) = (sub(next, p), sub(prev, p));
            let angle = norm(cross(e1, e2)).atan2(dot(e1, e2));
            let v = f[k] as usize;
            out[v] = add(out[v], scale(angle, n));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube's corner has three right angles of three faces: the diagonal, each face
    /// weighted π/2 whatever its triangulation (the side with two triangles at the corner gets
    /// π/4 twice).
    #[test]
    fn a_cube_corner_points_along_its_diagonal() {
        let p: Vec<[f64; 3]> = (0..8).map(|v| [(v & 1) as f64, ((v >> 1) & 1) as f64, (v >> 2) as f64]).collect();
        // The three faces at corner 0, outward: z = 0 split through corner 0, the others not.
        let faces = [[0, 3, 1], [0, 2, 3], [0, 1, 5], [0, 5, 4], [0, 4, 6], [0, 6, 2]];
        let n = angle_weighted_normals(&faces, 8, |v| p[v as usize]);
        let h = std::f64::consts::FRAC_PI_2;
        assert!((0..3).all(|k| (n[0][k] + h).abs() < 1e-12), "{:?}", n[0]);
        assert_eq!(n[7], [0.0; 3]);
    }
}
