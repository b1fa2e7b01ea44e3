//! A collider mesh where it sits during one implicit stage: its corner positions and velocities,
//! the unit face normals and the angle-weighted pseudonormals of its edges and vertices
//! (Bærentzen & Aanæs 2005), and the feature of a set of candidate triangles closest to a point.
//! The mesh is kinematic, so all of it is constant over a stage's Newton iterations.

use super::corners::Corners;
use super::patches::convex_joins;
use super::ridges::Ridges;
use super::topology::MeshTopology;
use crate::math::real::{add, cross, dot, sub, unit};
use crate::mesh::bvh::Aabb;
use crate::mesh::closest_point::{closest_on_triangle, point_at, Feature};
use crate::mesh::pseudonormal::angle_weighted_normals;

/// The feature of a collider mesh closest to a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestFeature {
    /// The triangle (lowest index among equally close ones).
    pub triangle: u32,
    /// Its face, edge or corner that holds the closest point.
    pub feature: Feature,
    /// Squared distance (m²).
    pub distance2: f64,
}

/// A collider mesh at one stage (object-local numbering, as its [`MeshTopology`]).
#[derive(Clone, Debug)]
pub struct MeshGeometry {
    /// Corner positions (m).
    pub positions: Vec<[f64; 3]>,
    /// Corner velocities (m/s): the prescribed motion over the substep.
    pub velocities: Vec<[f64; 3]>,
    /// Unit normal of each triangle, by its winding (zero for a collapsed triangle).
    pub face_normals: Vec<[f64; 3]>,
    /// Pseudonormal of each triangle's edges k → k + 1: the sum of the unit normals of the two
    /// triangles sharing it, or the triangle's own normal on a boundary edge.
    pub edge_normals: Vec<[[f64; 3]; 3]>,
    /// Angle-weighted pseudonormal of each vertex, summed over its welded corner's triangles.
    pub vertex_normals: Vec<[f64; 3]>,
    /// Per triangle and edge, whether the triangle across is in its convex patch
    /// ([`super::patches::convex_joins`]).
    pub convex_joins: Vec<[bool; 3]>,
    /// Its sharp convex edges, which simulated edges meet too ([`super::ridges`]).
    pub ridges: Ridges,
    /// Its sharp convex corners, which simulated triangles meet too ([`super::corners`]).
    pub corners: Corners,
}

impl MeshGeometry {
    /// The mesh of `topology` with corners at `positions` (m) moving at `velocities` (m/s).
    pub fn new(topology: &MeshTopology, positions: Vec<[f64; 3]>, velocities: Vec<[f64; 3]>) -> Self {
        let tris = &topology.triangles;
        let face_normals: Vec<[f64; 3]> = tris
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|v| positions[v as usize]);
                unit(cross(sub(b, a), sub(c, a)))
            })
            .collect();
        let edge_normals = (0..tris.len())
            .map(|t| {
                let n = face_normals[t];
                topology.neighbours[t].map(|o| o.map_or(n, |o| add(n, face_normals[o as usize])))
            })
            .collect();
        let welded_faces: Vec<[u32; 3]> = tris.iter().map(|t| t.map(|v| topology.welded[v as usize])).collect();
        let sums = angle_weighted_normals(&welded_faces, positions.len(), |v| positions[v as usize]);
        let vertex_normals: Vec<[f64; 3]> = topology.welded.iter().map(|&w| sums[w as usize]).collect();
        let convex_joins = convex_joins(topology, &positions, &face_normals);
        let ridges = Ridges::new(topology, &positions, &face_normals);
        let corners = Corners::new(topology, &positions, &ridges, &vertex_normals, &face_normals);
        Self { positions, velocities, face_normals, edge_normals, vertex_normals, convex_joins, ridges, corners }
    }

    /// The corners of triangle `t` (m).
    pub fn corners(&self, topology: &MeshTopology, t: u32) -> [[f64; 3]; 3] {
        topology.triangles[t as usize].map(|v| self.positions[v as usize])
    }

    /// The box of triangle `t` (m).
    pub(crate) fn triangle_box(&self, topology: &MeshTopology, t: u32) -> Aabb {
        Aabb::of_points(&self.corners(topology, t))
    }

    /// The feature of the `candidates` closest to `p` (m); `None` without candidates. Collapsed
    /// triangles (no finite closest point) are skipped.
    pub fn closest(&self, topology: &MeshTopology, p: [f64; 3], candidates: &[u32]) -> Option<ClosestFeature> {
        let mut best: Option<ClosestFeature> = None;
        for c in candidates.iter().filter_map(|&t| self.feature_of(topology, p, t)) {
            if best.is_none_or(|b| c.distance2 < b.distance2 || (c.distance2 == b.distance2 && c.triangle < b.triangle))
            {
                best = Some(c);
            }
        }
        best
    }

    /// The feature of triangle `t` closest to `p` (m); `None` for a collapsed triangle (no finite
    /// closest point).
    pub fn feature_of(&self, topology: &MeshTopology, p: [f64; 3], t: u32) -> Option<ClosestFeature> {
        let corners = self.corners(topology, t);
        let (w, feature) = closest_on_triangle(p, corners);
        let r = sub(p, point_at(corners, w));
        let distance2 = dot(r, r);
        distance2.is_finite().then_some(ClosestFeature { triangle: t, feature, distance2 })
    }

    /// The pseudonormal (not normalised) of the closest feature `c`.
    pub fn pseudonormal(&self, topology: &MeshTopology, c: &ClosestFeature) -> [f64; 3] {
        let t = c.triangle as usize;
        match c.feature {
            Feature::Face => self.face_normals[t],
            Feature::Edge(k) => self.edge_normals[t][k],
            Feature::Vertex(k) => self.vertex_normals[topology.triangles[t][k] as usize],
        }
    }

    /// Which side of the mesh `p` (m) is on, by the pseudonormal of its closest feature among
    /// `candidates`: +1 on the side the normals point to (outside a closed mesh), −1 on the
    /// other, +1 on the surface or without candidates.
    pub fn side(&self, topology: &MeshTopology, p: [f64; 3], candidates: &[u32]) -> f64 {
        let Some(c) = self.closest(topology, p, candidates) else { return 1.0 };
        let corners = self.corners(topology, c.triangle);
        let q = point_at(corners, closest_on_triangle(p, corners).0);
        if dot(sub(p, q), self.pseudonormal(topology, &c)) < 0.0 {
            -1.0
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::closest_point::Feature;

    /// Points just outside and inside every feature of an octahedron get the right side, and
    /// outside, the closest feature is the face, edge or corner the point lies over (inside, a
    /// face is always closer than a convex edge or corner).
    #[test]
    fn sides_and_features_of_an_octahedron() {
        let (p, t) = crate::mesh::shapes::octahedron(1.0);
        let (p, t) = (crate::mesh::triples(&p), crate::mesh::triangle_list(&t));
        let topo = MeshTopology::new(&p, &t);
        assert!(topo.closed);
        let geom = MeshGeometry::new(&topo, p.clone(), vec![[0.0; 3]; 6]);
        let all: Vec<u32> = (0..8).collect();
        let third = 1.0 / 3.0;
        let cases = [
            ([third, third, third], Feature::Face),
            ([0.5, 0.5, 0.0], Feature::Edge(0)),
            ([1.0, 0.0, 0.0], Feature::Vertex(0)),
        ];
        for (on_surface, kind) in cases {
            let n = unit(on_surface);
            for (offset, side) in [(1e-3, 1.0), (-1e-3, -1.0), (0.5, 1.0)] {
                let x = add(on_surface, n.map(|k| k * offset));
                assert_eq!(geom.side(&topo, x, &all), side, "{x:?}");
                let c = geom.closest(&topo, x, &all).unwrap();
                let kind = if offset > 0.0 { kind } else { Feature::Face };
                assert_eq!(std::mem::discriminant(&c.feature), std::mem::discriminant(&kind), "{x:?}: {c:?}");
            }
        }
        assert_eq!(geom.side(&topo, [0.0; 3], &all), -1.0);
        assert_eq!(geom.closest(&topo, [0.0; 3], &[]), None);
    }
}
