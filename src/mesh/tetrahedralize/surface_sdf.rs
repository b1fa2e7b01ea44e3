//! Signed distance to a closed, manifold, outward-oriented triangle surface (Bærentzen & Aanæs
//! 2005): the distance to the closest point q (found through a bounding-volume hierarchy), with
//! the sign of (p − q)·n, where n is the *angle-weighted pseudo-normal* of the feature q lies on:
//! the face normal inside a face, the sum of the two face normals on an edge, the sum of the
//! incident face normals weighted by their angle at a vertex. For such a surface the sign is
//! exact: negative inside, positive outside.

use super::surface_check::Surface;
use crate::math::real::{add, cross, dot, sub, unit};
use crate::mesh::bvh::{Aabb, Bvh};
use crate::mesh::closest_point::{closest_on_triangle, point_at, Feature};
use crate::mesh::pseudonormal::angle_weighted_normals;

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
                surface.neighbours[t].map(|o| add(n, face_normals[o as usize]))
            })
            .collect();
        let vertex_normals = angle_weighted_normals(triangles, positions.len(), |v| positions[v as usize]);
        SurfaceSdf { positions, triangles, bvh: Bvh::new(&boxes), face_normals, edge_normals, vertex_normals }
    }

    fn corners(&self, t: u32) -> [[f64; 3]; 3] {
        self.triangles[t as usize].map(|v| self.positions[v as usize])
    }

    /// Signed distance (m) from `p` to the surface: negative inside, positive outside.
    pub fn signed_distance(&self, p: [f64; 3]) -> f64 {
        let Some((t, d2)) = self.bvh.closest(p, |t| {
            let corners = self.corners(t);
            let d = sub(p, point_at(corners, closest_on_triangle(p, corners).0));
            dot(d, d)
        }) else {
            return f64::INFINITY;
        };
        let corners = self.corners(t);
        let (w, feature) = closest_on_triangle(p, corners);
        let q = point_at(corners, w);
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
