//! Signed distance to a closed, manifold, outward-oriented triangle surface (Bærentzen & Aanæs
//! 2005): the distance to the closest point q (found through a bounding-volume hierarchy), with
//! the sign of (p − q)·n, where n is the *angle-weighted pseudo-normal* of the feature q lies on:
//! the face normal inside a face, the sum of the two face normals on an edge, the sum of the
//! incident face normals weighted by their angle at a vertex. For such a surface the sign is
//! exact: negative inside, positive outside.

use super::bvh::{Aabb, Bvh};
use super::surface_check::Surface;
use crate::energy::real::{cross, dot, sub, unit};

/// Where on a triangle the closest point lies.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Feature {
    /// Corner k.
    Vertex(usize),
    /// Edge from corner k to corner k+1.
    Edge(usize),
    /// The interior.
    Face,
}

fn axpy(a: f64, x: [f64; 3], y: [f64; 3]) -> [f64; 3] {
    [y[0] + a * x[0], y[1] + a * x[1], y[2] + a * x[2]]
}

/// Closest point to `p` on triangle `t` and the feature it lies on, by the Voronoi regions of
/// the triangle's corners and edges (Ericson, *Real-Time Collision Detection*, §5.1.5).
fn closest_on_triangle(p: [f64; 3], t: [[f64; 3]; 3]) -> ([f64; 3], Feature) {
    let [a, b, c] = t;
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, Feature::Vertex(0));
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return (b, Feature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (axpy(d1 / (d1 - d3), ab, a), Feature::Edge(0));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return (c, Feature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (axpy(d2 / (d2 - d6), ac, a), Feature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return (axpy((d4 - d3) / ((d4 - d3) + (d5 - d6)), sub(c, b), b), Feature::Edge(1));
    }
    let denom = 1.0 / (va + vb + vc);
    (axpy(vc * denom, ac, axpy(vb * denom, ab, a)), Feature::Face)
}

/// The signed distance field of a checked, outward-oriented surface.
pub(super) struct SurfaceSdf<'a> {
    positions: &'a [[f64; 3]],
    triangles: &'a [[u32; 3]],
    bvh: Bvh,
    face_normals: Vec<[f64; 3]>,
    /// Pseudo-normal of edge k of each triangle: the sum of the two unit face normals.
    edge_normals: Vec<[[f64; 3]; 3]>,
    /// Angle-weighted pseudo-normal of each vertex.
    vertex_normals: Vec<[f64; 3]>,
}

impl<'a> SurfaceSdf<'a> {
    /// Precomputes the hierarchy and the pseudo-normals.
    pub fn new(positions: &'a [[f64; 3]], surface: &'a Surface) -> Self {
        let triangles = &surface.triangles;
        let corners = |t: &[u32; 3]| t.map(|v| positions[v as usize]);
        let boxes: Vec<Aabb> = triangles.iter().map(|t| Aabb::of_points(&corners(t))).collect();
        let face_normals: Vec<[f64; 3]> = triangles
            .iter()
            .map(|t| {
                let [a, b, c] = corners(t);
                unit(cross(sub(b, a), sub(c, a)))
            })
            .collect();
        let edge_normals = (0..triangles.len())
            .map(|t| {
                let n = face_normals[t];
                surface.neighbours[t].map(|o| axpy(1.0, face_normals[o as usize], n))
            })
            .collect();
        let mut vertex_normals = vec![[0.0; 3]; positions.len()];
        for (t, tri) in triangles.iter().enumerate() {
            let p = corners(tri);
            for k in 0..3 {
                let (e1, e2) = (sub(p[(k + 1) % 3], p[k]), sub(p[(k + 2) % 3], p[k]));
                let angle = dot(cross(e1, e2), cross(e1, e2)).sqrt().atan2(dot(e1, e2));
                let v = tri[k] as usize;
                vertex_normals[v] = axpy(angle, face_normals[t], vertex_normals[v]);
            }
        }
        SurfaceSdf { positions, triangles, bvh: Bvh::new(&boxes), face_normals, edge_normals, vertex_normals }
    }

    fn corners(&self, t: u32) -> [[f64; 3]; 3] {
        self.triangles[t as usize].map(|v| self.positions[v as usize])
    }

    /// Signed distance [m] from `p` to the surface: negative inside, positive outside.
    pub fn signed_distance(&self, p: [f64; 3]) -> f64 {
        let Some((t, d2)) = self.bvh.closest(p, |t| {
            let (q, _) = closest_on_triangle(p, self.corners(t));
            let d = sub(p, q);
            dot(d, d)
        }) else {
            return f64::INFINITY;
        };
        let (q, feature) = closest_on_triangle(p, self.corners(t));
        let normal = match feature {
            Feature::Face => self.face_normals[t as usize],
            Feature::Edge(k) => self.edge_normals[t as usize][k],
            Feature::Vertex(k) => self.vertex_normals[self.triangles[t as usize][k] as usize],
        };
        let d = d2.sqrt();
        if dot(sub(p, q), normal) < 0.0 {
            -d
        } else {
            d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::surface_check::check_topology;
    use super::*;

    #[test]
    fn closest_point_regions() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert_eq!(closest_on_triangle([-1.0, -1.0, 1.0], t), ([0.0; 3], Feature::Vertex(0)));
        assert_eq!(closest_on_triangle([0.5, -1.0, 0.0], t), ([0.5, 0.0, 0.0], Feature::Edge(0)));
        let (q, f) = closest_on_triangle([0.2, 0.3, 2.0], t);
        assert!(f == Feature::Face && (q[0] - 0.2).abs() < 1e-15 && (q[1] - 0.3).abs() < 1e-15 && q[2] == 0.0);
        assert_eq!(closest_on_triangle([1.0, 1.0, 0.0], t).1, Feature::Edge(1));
        assert_eq!(closest_on_triangle([-0.5, 0.5, 0.0], t), ([0.0, 0.5, 0.0], Feature::Edge(2)));
        assert_eq!(closest_on_triangle([0.0, 3.0, 0.0], t), ([0.0, 1.0, 0.0], Feature::Vertex(2)));
    }

    #[test]
    fn signed_distance_to_a_cube() {
        // Unit cube [0, 1]³, outward triangles.
        let p: Vec<[f64; 3]> = (0..8).map(|v| [(v & 1) as f64, ((v >> 1) & 1) as f64, (v >> 2) as f64]).collect();
        let t = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        let surface = check_topology(&p, &t).unwrap();
        let sdf = SurfaceSdf::new(&p, &surface);
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(sdf.signed_distance([0.5, 0.5, 0.5]), -0.5));
        assert!(near(sdf.signed_distance([0.5, 0.2, 0.5]), -0.2));
        assert!(near(sdf.signed_distance([1.5, 0.5, 0.5]), 0.5));
        assert!(near(sdf.signed_distance([2.0, 2.0, 0.5]), 2f64.sqrt())); // closest to an edge
        assert!(near(sdf.signed_distance([-1.0, -1.0, -1.0]), 3f64.sqrt())); // closest to a corner
        assert!(near(sdf.signed_distance([0.999, 0.999, 0.999]), -0.001));
    }
}
