//! The signed distance from a point to one feature (face, edge or corner) of one collider-mesh
//! triangle, as a closed form over [`Real`], so forward-mode AD gives its exact derivatives:
//! - face: d = σ n·(x − a), normal σ n, with n the unit face normal; smooth through d = 0, so a
//!   vertex pushed through a face feels a force that keeps growing;
//! - edge a→b: d = σ|u|, u = x − a − t(b − a), t = (x − a)·(b − a)/|b − a|²;
//! - corner a: d = σ|x − a|.
//!
//! The sign σ is the side of the feature's angle-weighted pseudonormal (Bærentzen & Aanæs
//! 2005): −1 inside a closed mesh, and behind an open one (a floor or a wall, whose winding
//! says which side is free). The corner weights of the closest point give the surface velocity
//! and the interpolated (Phong) normal there.
//!
//! An open mesh bounds the solid behind it, walled at its rim by each rim edge's *end*: the
//! plane through the edge along the face's normal, of outward unit normal m (in the face's
//! plane, away from the face; `super::ridges`). Near a rim triangle the gap is the signed
//! distance to that wedge, the same the rim's ridge pairs use:
//! - behind the face: d = max(n·(x − a), mₑ·(x − pₑ)) over the rim edges e through the
//!   triangle's corners (its own among them), whose walls bound a convex rim: a point that
//!   slips under a table top's edge is as deep as its distance to the wall, not to the top (a
//!   cloth hanging at the rim would otherwise jump from 0 to the full hanging depth);
//! - at a rim edge or corner, in front of the face's plane: the unsigned distance |u|;
//! - at a rim edge or corner, behind the face's plane: d = max over those rim ends of
//!   mₑ·(x − pₑ), the distance to the wall, which is |u| where the two meet (continuous
//!   through the face's plane) and holds a cloth hanging beside the rim off the wall by the
//!   contact layer. The wall is there all the way down: to pass under a table top, give the
//!   table as a closed mesh.

use super::geometry::{ClosestFeature, MeshGeometry};
use super::topology::MeshTopology;
use crate::math::real::{c, cross, dot, scale, sub, unit, Real, V3};
use crate::mesh::closest_point::Feature;

/// One triangle's feature nearest to a point, with what its gap needs.
#[derive(Clone, Copy, Debug)]
pub struct FeatureGap {
    corners: [[f64; 3]; 3],
    velocities: [[f64; 3]; 3],
    feature: Feature,
    pseudonormal: [f64; 3],
    /// Unit pseudonormals of the triangle's corners, for the interpolated normal.
    corner_normals: [[f64; 3]; 3],
    /// The feature is on an open mesh's rim: its gap is to the rim's wedge.
    rim: bool,
    /// The rim edges through the triangle's corners (its own among them), up to two a corner:
    /// a point on each and its end's outward unit normal m.
    ends: [Option<([f64; 3], [f64; 3])>; 6],
}

impl FeatureGap {
    /// The gap to feature `closest`.
    pub fn new(topology: &MeshTopology, geometry: &MeshGeometry, closest: &ClosestFeature) -> Self {
        let t = closest.triangle as usize;
        let corner_ids = topology.triangles[t];
        let rim = match closest.feature {
            Feature::Face => false,
            Feature::Edge(k) => topology.neighbours[t][k].is_none(),
            Feature::Vertex(k) => topology.rim[corner_ids[k] as usize],
        };
        let corners = geometry.corners(topology, closest.triangle);
        let ridges = &geometry.ridges;
        let ends = std::array::from_fn(|i| {
            let corner = topology.welded[corner_ids[i / 2] as usize] as usize;
            let ridge = ridges.list.get(*ridges.rim_at_vertex.get(corner)?.get(i % 2)? as usize)?;
            Some((geometry.positions[ridge.corners[0] as usize], ridge.normals[1]))
        });
        Self {
            corners,
            ends,
            velocities: corner_ids.map(|v| geometry.velocities[v as usize]),
            feature: closest.feature,
            pseudonormal: unit(geometry.pseudonormal(topology, closest)),
            corner_normals: corner_ids.map(|v| unit(geometry.vertex_normals[v as usize])),
            rim,
        }
    }

    /// The offset u = x − closest point of the feature, and the feature's corner weights of
    /// that point.
    fn offset<T: Real>(&self, x: V3<T>) -> (V3<T>, [T; 3]) {
        let [a, b, cc] = self.corners.map(|p| p.map(c::<T>));
        let (zero, one) = (c::<T>(0.0), c::<T>(1.0));
        match self.feature {
            Feature::Face => {
                let n = cross(sub(b, a), sub(cc, a));
                let nn = dot(n, n);
                let w = [
                    dot(cross(sub(cc, b), sub(x, b)), n) / nn,
                    dot(cross(sub(a, cc), sub(x, cc)), n) / nn,
                    dot(cross(sub(b, a), sub(x, a)), n) / nn,
                ];
                (scale(dot(sub(x, a), n) / nn, n), w)
            }
            Feature::Edge(k) => {
                let (p, q) = ([a, b, cc][k], [a, b, cc][(k + 1) % 3]);
                let e = sub(q, p);
                let t = dot(sub(x, p), e) / dot(e, e);
                let mut w = [zero; 3];
                w[k] = one - t;
                w[(k + 1) % 3] = t;
                (sub(sub(x, p), scale(t, e)), w)
            }
            Feature::Vertex(k) => {
                let mut w = [zero; 3];
                w[k] = one;
                (sub(x, [a, b, cc][k]), w)
            }
        }
    }

    /// Whether the closest point is inside the triangle (not on an edge or corner).
    pub fn is_face(&self) -> bool {
        self.feature == Feature::Face
    }

    /// The largest of `gap` (with `normal`) and the signed distances mₑ·(x − pₑ) to the rim
    /// ends through the triangle's corners, with its gradient: the distance to the wedge of a
    /// convex rim, which a point's nearest wall alone decides.
    fn walled<T: Real>(&self, x: V3<T>, gap: T, normal: V3<T>) -> (T, V3<T>) {
        self.ends.iter().flatten().fold((gap, normal), |(d, n), (p, m)| {
            let s = dot(m.map(c::<T>), sub(x, p.map(c::<T>)));
            if s.re() > d.re() {
                (s, m.map(c::<T>))
            } else {
                (d, n)
            }
        })
    }

    /// Signed gap d (m) at `x` and its gradient ∇d (a unit vector).
    pub fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>) {
        let (u, _) = self.offset(x);
        let face_normal = || {
            let [a, b, cc] = self.corners;
            unit(cross(sub(b, a), sub(cc, a)))
        };
        if self.feature == Feature::Face {
            // d = n·(x − a) with n the unit face normal: linear, and smooth through 0.
            let normal = face_normal().map(c::<T>);
            let d = dot(normal, u);
            return if d.re() < 0.0 { self.walled(x, d, normal) } else { (d, normal) };
        }
        if self.rim && dot(u.map(|k| k.re()), face_normal()) < 0.0 {
            // Behind the face's plane at the rim: the distance to the wall under it.
            let start = (c::<T>(f64::NEG_INFINITY), face_normal().map(c::<T>));
            let (d, n) = self.walled(x, start.0, start.1);
            if d.re() > f64::NEG_INFINITY {
                return (d, n);
            }
        }
        let sigma = if !self.rim && dot(u.map(|k| k.re()), self.pseudonormal) < 0.0 { -1.0 } else { 1.0 };
        let r = dot(u, u).sqrt();
        if r.re() <= 0.0 {
            // On the feature itself the direction is undefined: the pseudonormal's.
            let n = self.pseudonormal.map(|k| c::<T>(sigma * k));
            return (c(0.0), n);
        }
        (r * sigma, u.map(|k| k * sigma / r))
    }

    /// Velocity (m/s) of the closest point, interpolated from the corners'.
    pub fn surface_velocity<T: Real>(&self, x: V3<T>) -> V3<T> {
        let (_, w) = self.offset(x);
        std::array::from_fn(|k| (0..3).fold(c::<T>(0.0), |s, i| s + w[i] * self.velocities[i][k]))
    }

    /// The corners' unit pseudonormals interpolated at the closest point, Σ wᵢ nᵢ (Phong's
    /// normal, not normalised).
    pub fn interpolated_normal<T: Real>(&self, x: V3<T>) -> V3<T> {
        let (_, w) = self.offset(x);
        std::array::from_fn(|k| (0..3).fold(c::<T>(0.0), |s, i| s + w[i] * self.corner_normals[i][k]))
    }
}
