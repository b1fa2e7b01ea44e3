//! Conversions from engineering constants (Young's modulus E in Pa, Poisson ratio ν) to the
//! parameters of the energy densities.

/// Lamé parameters (μ, λ) in Pa of 3D linear elasticity: μ = E / (2(1+ν)), λ = Eν / ((1+ν)(1−2ν)).
pub fn lame_3d(youngs_modulus: f64, poisson_ratio: f64) -> (f64, f64) {
    let (e, nu) = (youngs_modulus, poisson_ratio);
    (e / (2.0 * (1.0 + nu)), e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)))
}

/// Plane-stress Lamé parameters (μ, λ*) in Pa for membranes: μ = E / (2(1+ν)), λ* = Eν / (1−ν²).
pub fn lame_plane_stress(youngs_modulus: f64, poisson_ratio: f64) -> (f64, f64) {
    let (e, nu) = (youngs_modulus, poisson_ratio);
    (e / (2.0 * (1.0 + nu)), e * nu / (1.0 - nu * nu))
}

/// Parameters (μ, λ, α) of the stable neo-Hookean energy (Smith et al. 2018, Eq. 14 with the
/// reparametrization of their §3.4) reproducing the linear response of Lamé (μ_L, λ_L):
/// μ = 4/3 μ_L, λ = λ_L + 5/6 μ_L, α = 1 + 3μ / (4λ) (rest state stress-free).
pub fn stable_neo_hookean(youngs_modulus: f64, poisson_ratio: f64) -> (f64, f64, f64) {
    let (mu_l, lambda_l) = lame_3d(youngs_modulus, poisson_ratio);
    let mu = 4.0 / 3.0 * mu_l;
    let lambda = lambda_l + 5.0 / 6.0 * mu_l;
    (mu, lambda, 1.0 + 0.75 * mu / lambda)
}
