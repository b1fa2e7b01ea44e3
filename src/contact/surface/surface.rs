//! The samples of an object's implicit contact surface: its triangles (the shell itself, a
//! solid's boundary, or a collider mesh) in global vertex numbering, each with its kernel radius
//! r_i = radius_multiplier × the sample's spacing (largest centroid-to-corner distance at rest,
//! which for an equilateral mesh equals the distance between neighbouring centroids).

use super::sample;

/// An object's implicit surface (paper §3.2).
#[derive(Clone, Debug)]
pub struct ImplicitSurface {
    /// Id of the object it belongs to.
    pub object: u32,
    /// Sample triangles, global vertex indices, oriented with outward normals.
    pub triangles: Vec<[u32; 3]>,
    /// Kernel support radius of each sample (m).
    pub radius: Vec<f64>,
    /// Thin shells are surfaces from both sides: the gap is measured on the side the query
    /// point is on at the start of the step.
    pub two_sided: bool,
    /// Gap of the far-field background sample in m (> the contact thickness): φ tends to it
    /// where the samples' weights vanish, e.g. beyond the open edge of a shell. `new` sets the
    /// largest kernel radius; the solver sets twice the contact thickness.
    pub far: f64,
    /// (vertex, sample) for every corner of every sample, sorted: the samples around a vertex.
    corners: Vec<(u32, u32)>,
}

impl ImplicitSurface {
    /// Samples at `triangles` (global indices into `rest`, the rest positions in m) with kernel
    /// radii `radius_multiplier` × spacing.
    pub fn new(
        object: u32,
        triangles: Vec<[u32; 3]>,
        rest: &[[f64; 3]],
        radius_multiplier: f64,
        two_sided: bool,
    ) -> Self {
        let radius: Vec<f64> = triangles
            .iter()
            .map(|t| {
                let p = t.map(|v| rest[v as usize]);
                let cen = [0, 1, 2].map(|k| (p[0][k] + p[1][k] + p[2][k]) / 3.0);
                let spacing = p.iter().map(|v| dist(v, &cen)).fold(0.0, f64::max);
                radius_multiplier * spacing.max(f64::MIN_POSITIVE)
            })
            .collect();
        let far = radius.iter().copied().fold(0.0, f64::max);
        let mut corners: Vec<(u32, u32)> =
            triangles.iter().enumerate().flat_map(|(i, t)| t.map(|v| (v, i as u32))).collect();
        corners.sort_unstable();
        Self { object, triangles, radius, two_sided, far, corners }
    }

    /// Largest kernel radius in m (0 without samples).
    pub fn max_radius(&self) -> f64 {
        self.radius.iter().copied().fold(0.0, f64::max)
    }

    /// Centroid of sample `i` at positions `q` (m).
    pub fn centroid(&self, i: usize, q: &[f64]) -> [f64; 3] {
        let t = self.triangles[i];
        [0, 1, 2].map(|k| (q[3 * t[0] as usize + k] + q[3 * t[1] as usize + k] + q[3 * t[2] as usize + k]) / 3.0)
    }

    /// Local coordinates z = (x, a, b, c) of sample `i` seen from `x`.
    pub fn local(&self, i: usize, x: &[f64; 3], q: &[f64]) -> [f64; 12] {
        let t = self.triangles[i];
        let mut z = [0.0; 12];
        z[..3].copy_from_slice(x);
        for (m, &v) in t.iter().enumerate() {
            z[3 + 3 * m..6 + 3 * m].copy_from_slice(&q[3 * v as usize..3 * v as usize + 3]);
        }
        z
    }

    /// Unit area-weighted normal of the samples around `vertex` at `q` (outward for a solid's
    /// surface); `None` when no sample has the vertex as a corner or their normals cancel.
    pub fn vertex_normal(&self, vertex: u32, q: &[f64]) -> Option<[f64; 3]> {
        let p = |v: u32| nalgebra::Vector3::new(q[3 * v as usize], q[3 * v as usize + 1], q[3 * v as usize + 2]);
        let first = self.corners.partition_point(|&(v, _)| v < vertex);
        let around = self.corners[first..].iter().take_while(|&&(v, _)| v == vertex);
        let n: nalgebra::Vector3<f64> = around
            .map(|&(_, i)| self.triangles[i as usize])
            .map(|t| (p(t[1]) - p(t[0])).cross(&(p(t[2]) - p(t[0]))))
            .sum();
        let len = n.norm();
        (len > 0.0 && len.is_finite()).then(|| (n / len).into())
    }

    /// Signed plane distance n·(x − p), in m, of sample `i` (its sign tells the side of a shell).
    pub fn plane_distance(&self, i: usize, x: &[f64; 3], q: &[f64]) -> f64 {
        sample::plane_distance(&self.local(i, x, q))
    }
}

/// Euclidean distance (m).
pub fn dist(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}
