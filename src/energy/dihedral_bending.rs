//! Discrete dihedral-angle bending of a shell (Grinspun et al. 2003, "Discrete Shells"), on a hinge:
//! the shared edge (x0, x1) and the opposite vertices x2 (triangle A = x0 x1 x2) and x3
//! (triangle B = x1 x0 x3).
//!
//! W = k · (θ − θ̄)² · |ē|² / (2(Ā_A + Ā_B)), with k the bending stiffness (N·m), θ the signed dihedral
//! angle, θ̄ its rest value, ē the rest edge and Ā the rest triangle areas. On an equilateral mesh
//! of a cylinder of radius R this gives ½ k R⁻² per unit area, the plate energy ½ D κ²
//! (checked in tests/bending_calibration.rs; like every hinge energy it depends on the mesh:
//! a grid of right triangles bent across its rows comes out stiffer).
//!
//! θ = atan2((n_A × n_B)·ê, n_A·n_B) with n_A = (x1−x0)×(x2−x0), n_B = (x3−x0)×(x1−x0): zero for a
//! flat hinge, smooth through ±π/2 and large rotations. Its gradient is the closed form of
//! Bridson et al. 2003 (§4.1), and its Hessian that form differentiated by hand. A hinge whose
//! triangle has collapsed (area below 10⁻⁸ of rest) or whose edge has vanished exerts no bending
//! force: no NaN for any input.

use super::Element;
use crate::math::autodiff;
use crate::math::real::{c, cross, dot, scale, set_vertex, sub, vertex, Real};
use nalgebra::{Matrix3, SMatrix, SVector, Vector3};

/// Relative area below which a hinge triangle counts as collapsed.
const COLLAPSED_AREA_RATIO: f64 = 1e-8;

/// One bending hinge with its rest shape.
#[derive(Clone, Debug)]
pub struct BendingHinge {
    /// Global indices: edge (x0, x1), then the opposite vertices x2, x3.
    pub vertices: [u32; 4],
    /// Rest dihedral angle θ̄ (rad).
    pub rest_angle: f64,
    /// k |ē|² / (2(Ā_A + Ā_B)), in J.
    pub weight: f64,
    /// Squared rest |n_A|, |n_B|, |e| (for the collapse test).
    rest_sq: [f64; 3],
}

/// The hinge's edge e = x1 − x0 and normals n_A, n_B, or `None` if it is collapsed relative to
/// `reference` (squared rest |n_A|, |n_B|, |e|), or, without one, degenerate.
fn frame(x: &[f64; 12], reference: Option<&[f64; 3]>) -> Option<[[f64; 3]; 3]> {
    let (x0, x1, x2, x3) = (vertex(x, 0), vertex(x, 1), vertex(x, 2), vertex(x, 3));
    let e = sub(x1, x0);
    let na = cross(e, sub(x2, x0));
    let nb = cross(sub(x3, x0), e);
    let sq = [dot(na, na), dot(nb, nb), dot(e, e)];
    let collapsed = match reference {
        Some(r) => (0..3).any(|i| !(sq[i] > COLLAPSED_AREA_RATIO * COLLAPSED_AREA_RATIO * r[i])),
        None => sq.iter().any(|&s| !(s > 0.0)),
    };
    (!collapsed).then_some([e, na, nb])
}

/// Signed dihedral angle of a hinge (rad), or `None` if it is collapsed relative to `reference`.
fn angle(x: &[f64; 12], reference: Option<&[f64; 3]>) -> Option<f64> {
    let [e, na, nb] = frame(x, reference)?;
    let y = dot(cross(na, nb), e) / dot(e, e).sqrt();
    Some(y.atan2(dot(na, nb)))
}

impl BendingHinge {
    /// Builds the hinge from rest positions; `None` if either rest triangle has zero area.
    pub fn new(vertices: [u32; 4], rest: [[f64; 3]; 4], bending_stiffness: f64) -> Option<Self> {
        let x: [f64; 12] = std::array::from_fn(|i| rest[i / 3][i % 3]);
        let p = |i: usize| Vector3::from(rest[i]);
        let e = p(1) - p(0);
        let na = e.cross(&(p(2) - p(0)));
        let nb = (p(3) - p(0)).cross(&e);
        let rest_sq = [na.norm_squared(), nb.norm_squared(), e.norm_squared()];
        let theta = angle(&x, None)?;
        let areas = 0.5 * (na.norm() + nb.norm());
        let scale = e.norm_squared();
        if !(na.norm() > 1e-12 * scale && nb.norm() > 1e-12 * scale) {
            return None;
        }
        Some(Self { vertices, rest_angle: theta, weight: 0.5 * bending_stiffness * scale / areas, rest_sq })
    }

    /// Signed dihedral angle θ (rad) at `x`, 0 for a collapsed hinge.
    pub fn angle(&self, x: &[f64; 12]) -> f64 {
        angle(x, Some(&self.rest_sq)).unwrap_or(self.rest_angle)
    }

    /// The angle difference θ − θ̄ wrapped to (−π, π].
    fn angle_change(&self, theta: f64) -> f64 {
        let d = theta - self.rest_angle;
        d - (2.0 * std::f64::consts::PI) * ((d + std::f64::consts::PI) / (2.0 * std::f64::consts::PI)).floor()
    }
}

impl Element<12> for BendingHinge {
    fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    fn energy(&self, x: &[f64; 12]) -> f64 {
        match angle(x, Some(&self.rest_sq)) {
            Some(theta) => self.weight * self.angle_change(theta).powi(2),
            None => 0.0,
        }
    }

    /// ∂W/∂x = 2k′(θ − θ̄) ∂θ/∂x (∂θ/∂x: `BendingHinge::angle_gradient`).
    fn gradient<T: Real>(&self, x: &[T; 12]) -> [T; 12] {
        let mut g = [c::<T>(0.0); 12];
        let Some((theta, [g0, g1, ua, ub], elen)) = self.bridson_modes(x) else {
            return g;
        };
        let wrap = self.angle_change(theta.re()) - (theta.re() - self.rest_angle);
        // With this θ's sign convention the Bridson modes are −∂θ/∂x.
        let coef = (theta - self.rest_angle + wrap) * (-2.0 * self.weight);
        set_vertex(&mut g, 0, scale(coef, g0));
        set_vertex(&mut g, 1, scale(coef, g1));
        set_vertex(&mut g, 2, scale(coef * elen, ua));
        set_vertex(&mut g, 3, scale(coef * elen, ub));
        g
    }

    /// ∇²W = 2k′(∇θ∇θᵀ + (θ − θ̄)∇²θ) in closed form (`BendingHinge::angle_hessian`): the
    /// same matrix as the AD Jacobian of the gradient (tests/energy_derivatives.rs), at about a
    /// fifth of its cost; zero for a collapsed hinge.
    fn hessian(&self, x: &[f64; 12]) -> SMatrix<f64, 12, 12> {
        match self.angle_hessian(x) {
            Some((theta, dtheta, d2theta)) => {
                let g = SVector::<f64, 12>::from(dtheta);
                (g * g.transpose() + d2theta * self.angle_change(theta)) * (2.0 * self.weight)
            }
            None => SMatrix::zeros(),
        }
    }

    /// Gauss–Newton: 2k′ ∂θ/∂x ∂θ/∂xᵀ, the Hessian without its (θ − θ̄)∂²θ/∂x² term (positive
    /// semi-definite by construction, and no eigendecomposition; for the modified Newton
    /// Jacobian, `crate::solve::newton`).
    fn definite_hessian(&self, x: &[f64; 12]) -> SMatrix<f64, 12, 12> {
        match self.angle_gradient(x) {
            Some((_, dtheta)) => {
                let g = SVector::<f64, 12>::from(dtheta);
                g * g.transpose() * (2.0 * self.weight)
            }
            None => SMatrix::zeros(),
        }
    }
}

impl BendingHinge {
    /// θ and ∂θ/∂x = −(u0, u1, |e| u2, |e| u3) from [`BendingHinge::bridson_modes`]; `None`
    /// for a collapsed hinge.
    fn angle_gradient(&self, x: &[f64; 12]) -> Option<(f64, [f64; 12])> {
        let (theta, [g0, g1, ua, ub], elen) = self.bridson_modes(x)?;
        let mut g = [0.0; 12];
        set_vertex(&mut g, 0, scale(-1.0, g0));
        set_vertex(&mut g, 1, scale(-1.0, g1));
        set_vertex(&mut g, 2, scale(-elen, ua));
        set_vertex(&mut g, 3, scale(-elen, ub));
        Some((theta, g))
    }

    /// θ, the Bridson et al. (2003) modes (with our sign of θ)
    /// u0 = −∂θ/∂x0 = ((x2−x1)·ê) n_A/|n_A|² + ((x3−x1)·ê) n_B/|n_B|²,
    /// u1 = −∂θ/∂x1 = −((x2−x0)·ê) n_A/|n_A|² − ((x3−x0)·ê) n_B/|n_B|², u2 = n_A/|n_A|²,
    /// u3 = n_B/|n_B|² (−∂θ/∂x2 = |e| u2, −∂θ/∂x3 = |e| u3), and |e|; `None` for a collapsed hinge.
    #[allow(clippy::type_complexity)]
    fn bridson_modes<T: Real>(&self, x: &[T; 12]) -> Option<(T, [[T; 3]; 4], T)> {
        let xr: [f64; 12] = x.map(|v| v.re());
        frame(&xr, Some(&self.rest_sq))?;
        let (x0, x1, x2, x3) = (vertex(x, 0), vertex(x, 1), vertex(x, 2), vertex(x, 3));
        let e = sub(x1, x0);
        let na = cross(e, sub(x2, x0));
        let nb = cross(sub(x3, x0), e);
        let (na2, nb2, e2) = (dot(na, na), dot(nb, nb), dot(e, e));
        let elen = e2.sqrt();
        let y = dot(cross(na, nb), e) / elen;
        let theta = y.atan2(dot(na, nb));
        let ua = scale(na2.recip(), na);
        let ub = scale(nb2.recip(), nb);
        let ehat = scale(elen.recip(), e);
        let g0 = [0, 1, 2].map(|k| ua[k] * dot(sub(x2, x1), ehat) + ub[k] * dot(sub(x3, x1), ehat));
        let g1 = [0, 1, 2].map(|k| -(ua[k] * dot(sub(x2, x0), ehat) + ub[k] * dot(sub(x3, x0), ehat)));
        Some((theta, [g0, g1, ua, ub], elen))
    }

    /// θ, ∂θ/∂x and ∂²θ/∂x² in closed form; `None` for a collapsed hinge.
    ///
    /// With e = x1 − x0, a = x2 − x0, b = x3 − x0, n_A = e × a, n_B = b × e, u_T = n_T/|n_T|²,
    /// L = |e| and α_T = (x_T − x0)·ê (the opposite vertex's position along the edge), the
    /// Bridson gradient reads ∂θ/∂x_i = Σ_T c_{T,i} u_T with the scalar weights
    /// c_A = (L − α_A, α_A, −L, 0), c_B = (L − α_B, α_B, 0, −L) on (x0, x1, x2, x3). Its
    /// derivative, block by block, is
    /// ∂²θ/∂x_i∂x_j = Σ_T u_T (∂c_{T,i}/∂x_j)ᵀ + c_{T,i} (I − 2 n̂_T n̂_Tᵀ)/|n_T|² ∂n_T/∂x_j,
    /// with ∂L/∂x1 = −∂L/∂x0 = ê, ∂α_T/∂x_T = ê, ∂α_T/∂x1 = t⊥/L, ∂α_T/∂x0 = −ê − t⊥/L
    /// (t⊥ the part of a or b normal to e), ∂n_A/∂(x0, x1, x2) = ([a]× − [e]×, −[a]×, [e]×)
    /// and ∂n_B/∂(x0, x1, x3) = ([e]× − [b]×, [b]×, −[e]×).
    #[allow(clippy::type_complexity)]
    fn angle_hessian(&self, x: &[f64; 12]) -> Option<(f64, [f64; 12], SMatrix<f64, 12, 12>)> {
        let (theta, dtheta) = self.angle_gradient(x)?;
        let p = |i: usize| Vector3::new(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        let e = p(1) - p(0);
        let length = e.norm();
        let ehat = e / length;
        let zero = Matrix3::zeros();
        let mut h = SMatrix::<f64, 12, 12>::zeros();
        // Triangle A (opposite vertex 2) and triangle B (opposite vertex 3).
        for (opposite, side) in [(2usize, 1.0f64), (3, -1.0)] {
            let t = p(opposite) - p(0);
            // n_A = e × a; n_B = b × e = −(e × b).
            let n = e.cross(&t) * side;
            let n2 = n.norm_squared();
            let u = n / n2;
            let m = (Matrix3::identity() - n * n.transpose() * (2.0 / n2)) / n2;
            let (ex, tx) = (e.cross_matrix() * side, t.cross_matrix() * side);
            // ∂n_T/∂x_j for j = 0..3.
            let mut dn = [tx - ex, -tx, zero, zero];
            dn[opposite] = ex;
            let alpha = t.dot(&ehat);
            let t_perp = (t - ehat * alpha) / length;
            // ∂α_T/∂x_j and ∂L/∂x_j.
            let mut dalpha = [-ehat - t_perp, t_perp, Vector3::zeros(), Vector3::zeros()];
            dalpha[opposite] = ehat;
            let dlength = [-ehat, ehat, Vector3::zeros(), Vector3::zeros()];
            // c_T and ∂c_T,i/∂x_j.
            let mut coef = [length - alpha, alpha, 0.0, 0.0];
            coef[opposite] = -length;
            let dcoef = |i: usize, j: usize| match i {
                0 => dlength[j] - dalpha[j],
                1 => dalpha[j],
                k if k == opposite => -dlength[j],
                _ => Vector3::zeros(),
            };
            for i in [0, 1, opposite] {
                for j in 0..4 {
                    let block = u * dcoef(i, j).transpose() + m * dn[j] * coef[i];
                    let mut view = h.fixed_view_mut::<3, 3>(3 * i, 3 * j);
                    view += block;
                }
            }
        }
        autodiff::symmetrize(&mut h);
        Some((theta, dtheta, h))
    }
}
