//! One vertex's contact with a collider mesh as a [`GapField`], so that the penalty b(d)
//! (paper Eq. 3) and the smoothed Coulomb friction (Eq. 16) of an analytic collider apply
//! unchanged (`contact::collider::vertex`).
//!
//! Outside the mesh the gap is the exact signed distance to its closest feature
//! (`super::feature`): C¹ wherever the collider is convex, so a flat floor of any tessellation
//! gives the analytic plane's contact to round-off. Inside, under a convex edge or corner, two
//! triangles are equally close on a medial surface, where the distance has a kink; a vertex that
//! an impact pushed in and friction holds there leaves Newton cycling between the two sides
//! (a cloth's centre landing on a UV sphere's pole). So inside, the gap blends the triangles'
//! gaps tᵢ (each signed as the closest) with weights wᵢ = exp(−(|tᵢ| − d₀)/τ), d₀ the smallest
//! |tᵢ|:
//!
//! g = Σ wᵢ tᵢ / Σ wᵢ,  ∇g = Σ wᵢ nᵢ (1 − sgn(tᵢ)(tᵢ − g)/τ) / Σ wᵢ,
//!
//! with nᵢ = ∇tᵢ: the closest triangle's gap where it is closer than the others by many τ, and
//! at most 0.28 τ deeper per competing triangle elsewhere. Triangles farther than 20 τ beyond d₀
//! get weight below e⁻²⁰ and are left out. τ = δ/32 (`BLEND_FRACTION`). A vertex crossing the
//! surface within 20 τ of an edge sees the gap step by at most 0.28 τ there.
//!
//! Across a concave edge the exact distance has a kink outside the mesh too (the closest point
//! jumps between the two faces on their bisector; a skinned elbow is faceted with such edges).
//! So the exact minimum is taken within each convex patch of the candidate triangles
//! (`super::patches::local_patches`), and the patches'
//! gaps tₖ are blended by the same weights: a smooth minimum, C¹ across concave edges, that is
//! the exact distance wherever one patch is closer than the others by many τ and on every
//! convex or flat mesh (one patch).
//!
//! Friction acts in the tangent plane of the blended interpolated (Phong) normal
//! ([`GapField::friction_normal`]): the face normal on a flat patch, turning across a sharp
//! edge or corner over the triangles' size rather than over the gap. The gap's own normal turns
//! within a distance equal to the gap there, and friction in its tangent plane makes the fully
//! implicit residual too nonlinear for Newton.

use super::feature::FeatureGap;
use super::geometry::{ClosestFeature, MeshGeometry};
use super::patches::local_patches;
use super::topology::MeshTopology;
use crate::contact::collider::vertex::GapField;
use crate::math::real::{c, dot, Real, V3};

/// The blending length τ of the gap as a fraction of the contact thickness δ.
pub(crate) const BLEND_FRACTION: f64 = 1.0 / 32.0;

/// Triangles whose distance exceeds the smallest by more than this many τ are left out of the
/// blend (their weight would be below e⁻²⁰).
const BLEND_CUTOFF: f64 = 20.0;

/// A point's contact with a collider mesh at one stage: the triangles near enough to blend,
/// grouped by their convex patch among the candidates (`super::patches::local_patches`).
#[derive(Clone, Debug)]
pub struct MeshPoint {
    patches: Vec<Vec<FeatureGap>>,
    /// Blending length τ (m).
    tau: f64,
}

impl MeshPoint {
    /// The contact of a point at `x` (m) with the `candidates` triangles (distinct), blended
    /// over length `tau` (m); `None` without candidates. The patches are those of the
    /// candidates, so a contact whose candidates stay fixed (a stencil over a stage's Newton
    /// iterations) keeps its patches.
    pub fn at(
        topology: &MeshTopology,
        geometry: &MeshGeometry,
        candidates: &[u32],
        x: [f64; 3],
        tau: f64,
    ) -> Option<Self> {
        let local = local_patches(topology, &geometry.convex_joins, candidates);
        let found: Vec<(u32, ClosestFeature)> = candidates
            .iter()
            .zip(&local)
            .filter_map(|(&t, &patch)| geometry.feature_of(topology, x, t).map(|f| (patch, f)))
            .collect();
        let d0 = found.iter().map(|f| f.1.distance2).fold(f64::INFINITY, f64::min).sqrt();
        let mut ids: Vec<u32> = Vec::new();
        let mut patches: Vec<Vec<FeatureGap>> = Vec::new();
        for (id, f) in found.iter().filter(|f| f.1.distance2.sqrt() - d0 <= BLEND_CUTOFF * tau) {
            let slot = ids.iter().position(|p| p == id).unwrap_or_else(|| {
                ids.push(*id);
                patches.push(Vec::new());
                ids.len() - 1
            });
            patches[slot].push(FeatureGap::new(topology, geometry, f));
        }
        (!patches.is_empty()).then_some(Self { patches, tau })
    }

    /// The contact with the one feature `closest`.
    pub fn of(topology: &MeshTopology, geometry: &MeshGeometry, closest: &ClosestFeature) -> Self {
        Self { patches: vec![vec![FeatureGap::new(topology, geometry, closest)]], tau: 1.0 }
    }

    /// Each piece of one patch: its gap and gradient at `x`, signed as the closest piece's, and
    /// its blending weight (the largest is 1). A piece's own sign may differ from the closest
    /// one's (a point outside a sharp ridge lies below the plane of the far face it projects
    /// onto).
    fn blend<T: Real>(&self, pieces: &[FeatureGap], x: V3<T>) -> Vec<(T, V3<T>, T)> {
        let gaps: Vec<(T, V3<T>)> = pieces.iter().map(|p| p.gap(x)).collect();
        if gaps.len() == 1 {
            let (t, n) = gaps[0];
            return vec![(t, n, c(1.0))];
        }
        let nearest = (0..gaps.len()).fold(0, |a, i| if gaps[i].0.re().abs() < gaps[a].0.re().abs() { i } else { a });
        let closest = gaps[nearest].0.re();
        let one = c::<T>(1.0);
        if closest >= 0.0 || !pieces[nearest].is_face() {
            // Outside, or inside by an edge or corner (a concave one: the distance is C¹ there):
            // the closest feature alone.
            return gaps
                .into_iter()
                .enumerate()
                .map(|(i, (t, n))| (t, n, if i == nearest { one } else { c(0.0) }))
                .collect();
        }
        let sigma = -1.0;
        let d0 = closest.abs();
        // Inside a convex part the closest point of every near triangle is in its face: only
        // faces compete. (An edge's or corner's distance there belongs to a farther face.)
        gaps.into_iter()
            .zip(pieces)
            .map(|((t, n), piece)| {
                if !piece.is_face() {
                    return (t, n, c(0.0));
                }
                // σ|t| and its gradient σ sgn(t) n.
                let s = if t.re() < 0.0 { -sigma } else { sigma };
                (t * s, n.map(|k| k * s), ((t.abs() - d0) * (-1.0 / self.tau)).exp())
            })
            .collect()
    }

    /// The blend of gaps tᵢ with gradients nᵢ and weights wᵢ = exp(−(|tᵢ| − d₀)/τ):
    /// g = Σ wᵢ tᵢ / Σ wᵢ, ∇g = Σ wᵢ nᵢ (1 − sgn(tᵢ)(tᵢ − g)/τ) / Σ wᵢ.
    fn blended_gap<T: Real>(&self, parts: &[(T, V3<T>, T)]) -> (T, V3<T>) {
        if parts.len() == 1 {
            return (parts[0].0, parts[0].1);
        }
        let total = parts.iter().fold(c::<T>(0.0), |s, p| s + p.2);
        let g = parts.iter().fold(c::<T>(0.0), |s, p| s + p.2 * p.0) / total;
        let mut n = [c::<T>(0.0); 3];
        for (t, ni, w) in parts {
            let sign = if t.re() < 0.0 { -1.0 } else { 1.0 };
            let factor = *w * (c::<T>(1.0) - (*t - g) * (sign / self.tau));
            for k in 0..3 {
                n[k] += factor * ni[k];
            }
        }
        (g, n.map(|v| v / total))
    }

    /// Each patch's gap and gradient at `x` (the exact minimum over its triangles, blended
    /// inside), signed as the closest patch's, and the patches' weights exp(−(|tₖ| − d₀)/τ): a
    /// smooth minimum across the concave edges between patches, where the exact minimum has a
    /// kink.
    /// `blends` are each patch's pieces as [`MeshPoint::blend`] gives them.
    fn patch_parts<T: Real>(&self, blends: &[Vec<(T, V3<T>, T)>]) -> Vec<(T, V3<T>, T)> {
        let gaps: Vec<(T, V3<T>)> = blends.iter().map(|b| self.blended_gap(b)).collect();
        if gaps.len() == 1 {
            return vec![(gaps[0].0, gaps[0].1, c(1.0))];
        }
        // Every patch's gap signed as the closest patch's: σ|tₖ|, gradient σ sgn(tₖ) nₖ (a point
        // just inside one patch may lie outside a neighbouring patch's valley).
        let nearest = (0..gaps.len()).fold(0, |a, i| if gaps[i].0.re().abs() < gaps[a].0.re().abs() { i } else { a });
        let sigma = if gaps[nearest].0.re() < 0.0 { -1.0 } else { 1.0 };
        let d0 = gaps[nearest].0.re().abs();
        gaps.into_iter()
            .map(|(t, n)| {
                let s = if t.re() < 0.0 { -sigma } else { sigma };
                (t * s, n.map(|k| k * s), ((t.abs() - d0) * (-1.0 / self.tau)).exp())
            })
            .collect()
    }

    /// Σ wₖ fₖ / Σ wₖ over the patches of each patch's Σ wᵢ fᵢ / Σ wᵢ of per-piece vectors `f`.
    fn mean<T: Real>(&self, x: V3<T>, f: impl Fn(&FeatureGap) -> V3<T>) -> V3<T> {
        let blends = self.blends(x);
        let outer: Vec<T> = self.patch_parts(&blends).into_iter().map(|p| p.2).collect();
        let means: Vec<V3<T>> = self
            .patches
            .iter()
            .zip(&blends)
            .map(|(pieces, blend)| {
                let inner: Vec<T> = blend.iter().map(|p| p.2).collect();
                weighted(&inner, |i| f(&pieces[i]))
            })
            .collect();
        weighted(&outer, |k| means[k])
    }

    /// Every patch's [`MeshPoint::blend`] at `x`.
    fn blends<T: Real>(&self, x: V3<T>) -> Vec<Vec<(T, V3<T>, T)>> {
        self.patches.iter().map(|p| self.blend(p, x)).collect()
    }
}

/// Σ wᵢ fᵢ / Σ wᵢ of per-item vectors `f`.
fn weighted<T: Real>(weights: &[T], f: impl Fn(usize) -> V3<T>) -> V3<T> {
    let total = weights.iter().fold(c::<T>(0.0), |s, w| s + *w);
    let mut out = [c::<T>(0.0); 3];
    for (i, w) in weights.iter().enumerate() {
        let v = f(i);
        for k in 0..3 {
            out[k] += *w * v[k];
        }
    }
    out.map(|v| v / total)
}

impl GapField for MeshPoint {
    fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>) {
        self.blended_gap(&self.patch_parts(&self.blends(x)))
    }

    fn surface_velocity<T: Real>(&self, x: V3<T>) -> V3<T> {
        self.mean(x, |piece| piece.surface_velocity(x))
    }

    /// The blended interpolated normal, normalised; the gap normal `n` where it vanishes.
    fn friction_normal<T: Real>(&self, x: V3<T>, n: V3<T>) -> V3<T> {
        let m = self.mean(x, |piece| piece.interpolated_normal(x));
        let len2 = dot(m, m);
        if !(len2.re() > 1e-12) {
            return n;
        }
        let len = len2.sqrt();
        m.map(|k| k / len)
    }
}

/// A contact linearised at a point: the gap d₀ + n·(x − x₀) with the normal n and the surface
/// velocity held. Its force Jacobian is the Gauss–Newton part λ′ n nᵀ of the penalty plus the
/// friction's dependence on v and λ, without the turning of the normal: the modified Newton
/// Jacobian. Near a convex edge or corner the normal turns over a length equal to the gap, and
/// that turning makes the exact Jacobian indefinite with entries ∝ λ/d.
#[derive(Clone, Copy, Debug)]
pub struct HeldNormal {
    x0: [f64; 3],
    d0: f64,
    normal: [f64; 3],
    friction_normal: [f64; 3],
    velocity: [f64; 3],
}

impl HeldNormal {
    /// `field` linearised at `x` (m).
    pub fn at(field: &impl GapField, x: [f64; 3]) -> Self {
        let (d0, normal) = field.gap(x);
        let friction_normal = field.friction_normal(x, normal);
        Self { x0: x, d0, normal, friction_normal, velocity: field.surface_velocity(x) }
    }
}

impl GapField for HeldNormal {
    fn gap<T: Real>(&self, x: V3<T>) -> (T, V3<T>) {
        let d = (0..3).fold(c::<T>(self.d0), |s, k| s + (x[k] - self.x0[k]) * self.normal[k]);
        (d, self.normal.map(c::<T>))
    }

    fn surface_velocity<T: Real>(&self, _x: V3<T>) -> V3<T> {
        self.velocity.map(c::<T>)
    }

    fn friction_normal<T: Real>(&self, _x: V3<T>, _n: V3<T>) -> V3<T> {
        self.friction_normal.map(c::<T>)
    }
}
