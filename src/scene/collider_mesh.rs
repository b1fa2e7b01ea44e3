//! Triangle meshes of analytic colliders for the PNG previews. Unbounded shapes (planes, infinite
//! capsules and cylinders) are cut around the simulated objects: a square, or a tube length, of
//! half-size `extent` centred on the point of the shape nearest to `focus`.

use super::collider::{apply, inverse, rotate};
use crate::contact::collider::shape::ShapeKind;
use crate::contact::Shape;
use std::f64::consts::PI;

/// Segments around the axis (and half as many from pole to pole).
const SEGMENTS: usize = 32;

/// A collider's preview mesh in world coordinates, with the outward unit normal of each triangle
/// (pointing away from the shape's material as if `inside` were 0).
#[derive(Clone, Debug, Default)]
pub struct ColliderMesh {
    /// Vertex positions (m).
    pub positions: Vec<[f64; 3]>,
    /// Triangles, 0-based.
    pub triangles: Vec<[u32; 3]>,
    /// Outward normal per triangle.
    pub normals: Vec<[f64; 3]>,
}

/// Builds the mesh of `shape` at the column-major rigid `pose`; `focus` (in m, world frame) and
/// `extent` (in m) bound the drawn part of unbounded shapes. An invalid shape gives an empty mesh.
pub fn collider_mesh(shape: &Shape, pose: &[f64; 16], focus: [f64; 3], extent: f64) -> ColliderMesh {
    let Ok(s) = Shape { inside: false, ..*shape }.validated() else {
        return ColliderMesh::default();
    };
    let a = s.axis;
    let (u, w) = basis(a);
    let rel = sub(apply(&inverse(pose), focus), s.center);
    let zf = dot(rel, a);
    let mut b = Builder { points: Vec::new(), triangles: Vec::new() };
    // A point at local coordinates (along u, along w, along the axis) from the centre.
    let at = |x: f64, y: f64, z: f64| [0, 1, 2].map(|k| s.center[k] + x * u[k] + y * w[k] + z * a[k]);
    match s.kind {
        ShapeKind::Plane => {
            let o = [0, 1, 2].map(|k| rel[k] - zf * a[k]);
            let (ou, ow) = (dot(o, u), dot(o, w));
            let e = extent;
            let q = [(-e, -e), (e, -e), (e, e), (-e, e)].map(|(x, y)| b.point(at(ou + x, ow + y, 0.0)));
            b.triangles.extend([[q[0], q[1], q[2]], [q[0], q[2], q[3]]]);
        }
        ShapeKind::Sphere | ShapeKind::Capsule => {
            let (r, l) = (s.radius, s.half_length);
            if s.kind == ShapeKind::Capsule && l == 0.0 {
                b.tube(&at, r, zf - extent, zf + extent);
            } else {
                // Rings from pole to pole; a capsule's hemispheres sit at ±half_length.
                let rings: Vec<(f64, f64)> = (0..=SEGMENTS / 2)
                    .flat_map(|i| {
                        let t = PI * i as f64 / (SEGMENTS / 2) as f64;
                        let shift = if i <= SEGMENTS / 4 { l } else { -l };
                        let mut v = vec![(r * t.sin(), r * t.cos() + shift)];
                        if l > 0.0 && i == SEGMENTS / 4 {
                            v.push((r, -l));
                        }
                        v
                    })
                    .collect();
                b.revolve(&at, &rings);
            }
        }
        ShapeKind::Cylinder => {
            let (r, l) = (s.radius, s.half_length);
            if l == 0.0 {
                b.tube(&at, r, zf - extent, zf + extent);
            } else {
                b.revolve(&at, &[(0.0, l), (r, l), (r, -l), (0.0, -l)]);
            }
        }
    }
    let normals = b
        .triangles
        .iter()
        .map(|t| {
            let centroid = [0, 1, 2].map(|k| t.iter().map(|&i| b.points[i as usize][k]).sum::<f64>() / 3.0);
            rotate(pose, s.gap::<f64>(centroid).1)
        })
        .collect();
    let positions = b.points.iter().map(|p| apply(pose, *p)).collect();
    ColliderMesh { positions, triangles: b.triangles, normals }
}

struct Builder {
    points: Vec<[f64; 3]>,
    triangles: Vec<[u32; 3]>,
}

impl Builder {
    fn point(&mut self, p: [f64; 3]) -> u32 {
        self.points.push(p);
        (self.points.len() - 1) as u32
    }

    /// Surface of revolution of the profile `(radius, axial position)` about the axis.
    fn revolve(&mut self, at: &impl Fn(f64, f64, f64) -> [f64; 3], profile: &[(f64, f64)]) {
        let first = self.points.len() as u32;
        for &(r, z) in profile {
            for j in 0..SEGMENTS {
                let phi = 2.0 * PI * j as f64 / SEGMENTS as f64;
                self.points.push(at(r * phi.cos(), r * phi.sin(), z));
            }
        }
        let n = SEGMENTS as u32;
        for i in 0..profile.len() as u32 - 1 {
            for j in 0..n {
                let (a, b) = (first + i * n + j, first + i * n + (j + 1) % n);
                let (c, d) = (a + n, b + n);
                self.triangles.extend([[a, c, b], [b, c, d]]);
            }
        }
    }

    /// An open tube of radius `r` between axial positions `z0` and `z1`.
    fn tube(&mut self, at: &impl Fn(f64, f64, f64) -> [f64; 3], r: f64, z0: f64, z1: f64) {
        self.revolve(at, &[(r, z1), (r, z0)]);
    }
}

/// Two unit vectors completing the unit vector `a` to an orthonormal basis.
fn basis(a: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let e = if a[0].abs() < 0.9 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
    let p = sub(e, a.map(|x| x * dot(a, e)));
    let u = p.map(|x| x / dot(p, p).sqrt());
    let w = [a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]];
    (u, w)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::collider::IDENTITY;

    #[test]
    fn meshes_lie_on_their_shapes() {
        let shapes = [
            Shape { kind: ShapeKind::Sphere, center: [1.0, 2.0, 3.0], radius: 0.5, ..Shape::default() },
            Shape {
                kind: ShapeKind::Capsule,
                axis: [1.0, 1.0, 0.0],
                radius: 0.2,
                half_length: 0.3,
                ..Default::default()
            },
            Shape {
                kind: ShapeKind::Cylinder,
                axis: [0.0, 1.0, 0.0],
                radius: 0.2,
                half_length: 0.3,
                ..Default::default()
            },
            Shape { kind: ShapeKind::Cylinder, radius: 0.2, ..Shape::default() },
            Shape { kind: ShapeKind::Plane, axis: [0.0, 1.0, 1.0], ..Shape::default() },
        ];
        for g in shapes {
            let m = collider_mesh(&g, &IDENTITY, [0.3, 0.1, 0.2], 1.0);
            assert!(m.triangles.len() >= 2 && m.normals.len() == m.triangles.len(), "{g:?}");
            let s = g.validated().unwrap();
            for p in &m.positions {
                assert!(s.gap::<f64>(*p).0.abs() < 1e-12, "{g:?}: {p:?}");
            }
        }
    }
}
