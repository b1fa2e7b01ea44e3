//! The cloth-slip metric of `stats.csv`: how far the vertices of one object have slid over the
//! surface of another since frame 0.
//!
//! At frame 0 every vertex x_a of the sliding object within `EMBED_DISTANCE` of the base
//! surface is embedded at its closest point p_b on it (a triangle and barycentric coordinates),
//! together with the offset r₀ = x_a(0) − p_b(0). At frame k the embedded point p_b(k) moves
//! with the triangle's vertices, and the vertex's slip is the tangential part (with respect to
//! the triangle's normal n_k at frame k) of
//!
//! d = (x_a(k) − p_b(k)) − R_k r₀,
//!
//! where R_k is the rotation of the triangle's frame (its first edge, its normal) from frame 0
//! to frame k. The metrics are the mean and the largest |d − (d·n_k) n_k| over the embedded
//! vertices (m):
//! a vertex carried rigidly with the surface (translated *and* rotated) has zero slip, moving
//! along the normal (lifting off, pressing in) is not slip, and sliding 1 cm along the surface
//! is 1 cm. (Without R_k a vertex held 1 mm off a surface that turns by 90° would count
//! ≈1.4 mm of slip.)

use crate::math::real::{cross, dot, sub, unit};
use crate::mesh::closest_point::{closest_on_triangle, point_at};

/// Vertices farther than this from the base surface at frame 0 are not measured (m).
///
/// cbindgen:ignore
pub const EMBED_DISTANCE: f64 = 5e-3;

type V3 = [f64; 3];

/// One embedded vertex.
#[derive(Clone, Debug, PartialEq)]
struct Embedded {
    vertex: usize,
    triangle: usize,
    bary: V3,
    /// r₀ = x_a(0) − p_b(0).
    offset: V3,
    /// The triangle's frame at frame 0 (rows: edge direction, in-plane normal, normal).
    frame: [V3; 3],
}

/// The frame-0 embedding of one object's vertices on another's surface.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipEmbedding {
    triangles: Vec<[u32; 3]>,
    embedded: Vec<Embedded>,
}

/// Orthonormal frame of triangle (a, b, c): the unit first edge, the in-plane perpendicular,
/// the unit normal (b − a) × (c − a).
fn triangle_frame(a: V3, b: V3, c: V3) -> [V3; 3] {
    let e = unit(sub(b, a));
    let n = unit(cross(sub(b, a), sub(c, a)));
    [e, cross(n, e), n]
}

fn corners(points: &[V3], t: [u32; 3]) -> [V3; 3] {
    t.map(|i| points[i as usize])
}

impl SlipEmbedding {
    /// Embeds the vertices `sliding` (m) within `EMBED_DISTANCE` of the surface `triangles`
    /// over `base` (m) at their closest points (ties: the first triangle).
    pub fn new(sliding: &[V3], base: &[V3], triangles: &[[u32; 3]]) -> Self {
        let mut embedded = Vec::new();
        for (vertex, &x) in sliding.iter().enumerate() {
            let mut best: Option<(f64, usize, V3)> = None;
            for (t, &tri) in triangles.iter().enumerate() {
                let c = corners(base, tri);
                // Cheap rejection: farther from every corner than the longest edge plus the limit.
                let edge = |k: usize| dot(sub(c[k], c[(k + 1) % 3]), sub(c[k], c[(k + 1) % 3])).sqrt();
                let reach = EMBED_DISTANCE + edge(0).max(edge(1)).max(edge(2));
                if dot(sub(x, c[0]), sub(x, c[0])) > reach * reach {
                    continue;
                }
                let bary = closest_on_triangle(x, c).0;
                let d = sub(x, point_at(c, bary));
                let dist = dot(d, d).sqrt();
                if dist <= EMBED_DISTANCE && best.is_none_or(|b| dist < b.0) {
                    best = Some((dist, t, bary));
                }
            }
            if let Some((_, triangle, bary)) = best {
                let c = corners(base, triangles[triangle]);
                embedded.push(Embedded {
                    vertex,
                    triangle,
                    bary,
                    offset: sub(x, point_at(c, bary)),
                    frame: triangle_frame(c[0], c[1], c[2]),
                });
            }
        }
        Self { triangles: triangles.to_vec(), embedded }
    }

    /// Number of embedded (measured) vertices.
    pub fn len(&self) -> usize {
        self.embedded.len()
    }

    /// Whether no vertex was close enough to be measured.
    pub fn is_empty(&self) -> bool {
        self.embedded.is_empty()
    }

    /// (vertex, slip in m) of each embedded vertex, in vertex order, with the sliding object at
    /// `sliding` and the base at `base` (same vertex order as at embedding).
    pub fn slips(&self, sliding: &[V3], base: &[V3]) -> Vec<(usize, f64)> {
        self.embedded
            .iter()
            .map(|e| {
                let c = corners(base, self.triangles[e.triangle]);
                let now = triangle_frame(c[0], c[1], c[2]);
                // R_k r₀ = Σ_i (f0_i · r₀) fk_i for the frames' rows f0 (frame 0) and fk (now).
                let local = e.frame.map(|f| dot(f, e.offset));
                let carried = [0, 1, 2].map(|k| (0..3).map(|i| local[i] * now[i][k]).sum::<f64>());
                let d = sub(sub(sliding[e.vertex], point_at(c, e.bary)), carried);
                let n = now[2];
                let normal = dot(d, n);
                // |d − (d·n) n|² = |d|² − (d·n)², clamped at 0 against rounding.
                (e.vertex, (dot(d, d) - normal * normal).max(0.0).sqrt())
            })
            .collect()
    }

    /// Mean and largest slip (m) over the embedded vertices ([`SlipEmbedding::slips`]); NaN
    /// when no vertex is embedded.
    pub fn mean_and_max(&self, sliding: &[V3], base: &[V3]) -> (f64, f64) {
        if self.embedded.is_empty() {
            return (f64::NAN, f64::NAN);
        }
        let slips = self.slips(sliding, base);
        let sum: f64 = slips.iter().map(|s| s.1).sum();
        (sum / slips.len() as f64, slips.iter().map(|s| s.1).fold(0.0, f64::max))
    }

    /// Mean slip (m) ([`SlipEmbedding::mean_and_max`]); NaN when no vertex is embedded.
    pub fn slip(&self, sliding: &[V3], base: &[V3]) -> f64 {
        self.mean_and_max(sliding, base).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::motion::{apply, steady};

    /// A unit square in the z = 0 plane (normal +z) as two triangles.
    fn square() -> (Vec<V3>, Vec<[u32; 3]>) {
        (vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]], vec![[0, 1, 2], [0, 2, 3]])
    }

    /// Vertices 1 mm above the square, one 1 cm away (not measured). Moving both rigidly —
    /// a quarter turn about an axis in the plane plus a translation — gives zero slip.
    #[test]
    fn riding_a_rigidly_moving_surface_is_not_slip() {
        let (base, tris) = square();
        let cloth = vec![[0.3, 0.6, 1e-3], [0.9, 0.2, 1e-3], [0.5, 0.5, 1e-2]];
        let e = SlipEmbedding::new(&cloth, &base, &tris);
        assert_eq!(e.len(), 2, "the vertex 1 cm away is not measured");
        assert!(e.slip(&cloth, &base) < 1e-15);
        let m = steady([0.1, -0.2, 0.3], [std::f64::consts::FRAC_PI_2, 0.0, 0.0], [0.5, 0.5, 0.0], 1.0);
        let moved = |p: &[V3]| p.iter().map(|x| apply(&m, *x)).collect::<Vec<_>>();
        assert!(e.slip(&moved(&cloth), &moved(&base)) < 1e-15);
    }

    /// Sliding 1 cm along the surface is 1 cm of slip; lifting off or pressing in is none.
    #[test]
    fn tangential_motion_is_slip_and_normal_motion_is_not() {
        let (base, tris) = square();
        let cloth = vec![[0.3, 0.6, 1e-3], [0.9, 0.2, 2e-3]];
        let e = SlipEmbedding::new(&cloth, &base, &tris);
        let slid: Vec<V3> = cloth.iter().map(|p| [p[0] + 6e-3, p[1] - 8e-3, p[2]]).collect();
        assert!((e.slip(&slid, &base) - 1e-2).abs() < 1e-15);
        let lifted: Vec<V3> = cloth.iter().map(|p| [p[0], p[1], p[2] + 4e-3]).collect();
        assert_eq!(e.slip(&lifted, &base), 0.0);
        // Half the vertices slide 1 cm, the other stays: the mean is 5 mm, the largest 1 cm.
        let one = vec![[0.3 + 1e-2, 0.6, 1e-3], cloth[1]];
        let (mean, max) = e.mean_and_max(&one, &base);
        assert_eq!(e.slips(&one, &base).iter().map(|s| s.0).collect::<Vec<_>>(), [0, 1]);
        assert!((mean - 5e-3).abs() < 1e-15 && (max - 1e-2).abs() < 1e-15, "{mean} {max}");
        // The base sliding under a still cloth is slip too.
        let under: Vec<V3> = base.iter().map(|p| [p[0], p[1] + 3e-3, p[2]]).collect();
        assert!((e.slip(&cloth, &under) - 3e-3).abs() < 1e-15);
    }

    #[test]
    fn nothing_close_gives_nan() {
        let (base, tris) = square();
        let e = SlipEmbedding::new(&[[0.5, 0.5, 0.1]], &base, &tris);
        assert!(e.is_empty() && e.slip(&[[0.5, 0.5, 0.1]], &base).is_nan());
    }
}
