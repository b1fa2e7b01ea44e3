//! A fitted sleeve: a cloth tube cut smaller than the cylinder it is put on, so that it
//! stretches around it and presses on it. A membrane of hoop tension T (N/m) wrapped around a
//! cylinder of radius R presses on it with p = T / R (Laplace's law for a cylinder), which is
//! how compression garments are designed. [`hoop_tension`] gives T for the membrane energies of
//! `crate::energy::membrane` in closed form; [`FittedSleeve`] puts a sleeve on a rigid analytic
//! cylinder, lets it settle and measures the mean contact pressure against p = T / R.

use crate::contact::{Shape, ShapeKind};
use crate::energy::lame::lame_plane_stress;
use crate::energy::membrane::{MembraneModel, AREA_RATIO_EPSILON};
use crate::mesh::shapes::open_cylinder;
use crate::{Material, Result, Solver, SolverParams};

/// ∂Ψ/∂λ₁ and ∂Ψ/∂λ₂ (Pa) of the membrane energy density Ψ at principal stretches λ₁, λ₂ (the
/// deformation gradient diag(λ₁, λ₂), C = diag(λ₁², λ₂²)), exactly as `membrane.rs` defines Ψ:
/// neo-Hookean Ψ = μ/2 (tr C − 2) − μ(J − 1) + λ̃/2 (J − 1)² with its regularised area ratio
/// J = s(√(λ₁²λ₂² + ε²) − s) + 1, or St. Venant–Kirchhoff Ψ = μ tr(E²) + λ*/2 (tr E)².
pub fn membrane_stress(material: &Material, stretch: [f64; 2]) -> [f64; 2] {
    let (mu, lambda_ps) = lame_plane_stress(material.youngs_modulus, material.poisson_ratio);
    let [l1, l2] = stretch;
    match material.membrane_model {
        MembraneModel::NeoHookean => {
            let lambda = lambda_ps + mu;
            let eps = AREA_RATIO_EPSILON;
            let s = (1.0 + eps * eps).sqrt();
            let area = l1 * l2;
            let root = (area * area + eps * eps).sqrt();
            let j = s * (root - s) + 1.0;
            // ∂J/∂λ₁ = s λ₁λ₂ λ₂ / √(λ₁²λ₂² + ε²), and the same with λ₁ for λ₂.
            let dj = [s * area * l2 / root, s * area * l1 / root];
            let tension = -mu + lambda * (j - 1.0);
            [mu * l1 + tension * dj[0], mu * l2 + tension * dj[1]]
        }
        MembraneModel::StVenantKirchhoff => {
            let e = [(l1 * l1 - 1.0) / 2.0, (l2 * l2 - 1.0) / 2.0];
            let trace = e[0] + e[1];
            [(2.0 * mu * e[0] + lambda_ps * trace) * l1, (2.0 * mu * e[1] + lambda_ps * trace) * l2]
        }
    }
}

/// The axial stretch λ₂ at which a membrane stretched by λ₁ around a tube carries no axial
/// force (∂Ψ/∂λ₂ = 0: the sleeve's ends are free), by bisection on (0, 1].
pub fn free_axial_stretch(material: &Material, hoop_stretch: f64) -> f64 {
    let axial = |l2: f64| membrane_stress(material, [hoop_stretch, l2])[1];
    let (mut lo, mut hi) = (1e-3, 1.0 + 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if axial(mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Hoop tension T (N/m, force per metre of worn sleeve length) of a membrane stretched by
/// `hoop_stretch` around a tube with free ends: T = t ∂Ψ/∂λ₁ / λ₂, λ₂ from
/// [`free_axial_stretch`]. For small strain ε it is E t ε.
pub fn hoop_tension(material: &Material, hoop_stretch: f64) -> f64 {
    let l2 = free_axial_stretch(material, hoop_stretch);
    material.thickness * membrane_stress(material, [hoop_stretch, l2])[0] / l2
}

/// The pressure (Pa) a sleeve of rest radius `rest_radius` worn at radius `radius` (m) exerts:
/// p = T / R with T = [`hoop_tension`] at λ₁ = R / R₀.
pub fn hoop_pressure(material: &Material, rest_radius: f64, radius: f64) -> f64 {
    hoop_tension(material, radius / rest_radius) / radius
}

/// A sleeve fitted on a rigid analytic cylinder along x, without gravity or friction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedSleeve {
    /// The cylinder's radius R (m).
    pub cylinder_radius: f64,
    /// Hoop strain when worn on the cylinder's surface: the rest radius is R / (1 + strain).
    pub hoop_strain: f64,
    /// Worn half length (m); the rest length is shorter by the free axial stretch.
    pub half_length: f64,
    /// Quads around and along.
    pub quads: (usize, usize),
    /// The sleeve's material.
    pub material: Material,
    /// Contact thickness δ (m); the sleeve starts 1.5 δ off the cylinder.
    pub contact_thickness: f64,
    /// Time step (s) and the number of steps it settles for.
    pub h: f64,
    /// Steps of `h`.
    pub steps: usize,
}

/// What [`FittedSleeve::run`] measures once the sleeve has settled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedSleeveSample {
    /// Total normal contact force on the sleeve, Σ λ(dᵢ) over its vertices (N).
    pub normal_force: f64,
    /// The sleeve's area as worn (m²).
    pub area: f64,
    /// Mean contact pressure, `normal_force / area` (Pa).
    pub pressure: f64,
    /// Mean distance of the sleeve's vertices from the axis (m).
    pub radius: f64,
    /// The hoop strain as worn, radius / rest radius − 1.
    pub hoop_strain: f64,
    /// p = T / R at the worn radius ([`hoop_pressure`]) (Pa).
    pub analytic_pressure: f64,
    /// Largest vertex speed at the end (m/s): how well it has settled.
    pub max_speed: f64,
}

impl FittedSleeve {
    /// A stretch-jersey sleeve fitted on a 50 mm cylinder: E t = 60 N/m (E = 100 kPa, t = 0.6 mm),
    /// ν = 0.3, 0.18 kg/m² (ρ = 300 kg/m³), D = E t³ / (12 (1 − ν²)) ≈ 2e-6 N·m, cut with a
    /// girth 1/1.2 of the cylinder's (a 17 % reduction) so that it is worn at 20 % hoop strain
    /// and presses with p = T / R ≈ 0.24 kPa; 0.24 m long, 48 × 31 quads.
    pub fn jersey() -> Self {
        Self {
            cylinder_radius: 0.05,
            hoop_strain: 0.20,
            half_length: 0.12,
            quads: (48, 31),
            material: Material {
                youngs_modulus: 1e5,
                poisson_ratio: 0.3,
                thickness: 6e-4,
                density: 300.0,
                bending_stiffness: 1e5 * 6e-4f64.powi(3) / (12.0 * (1.0 - 0.3 * 0.3)),
                damping_alpha: 0.0,
                ..Material::default()
            },
            contact_thickness: 1e-3,
            h: 0.01,
            steps: 60,
        }
    }

    /// The sleeve's rest radius (m): R / (1 + strain).
    pub fn rest_radius(&self) -> f64 {
        self.cylinder_radius / (1.0 + self.hoop_strain)
    }

    /// Rest and initial positions of the sleeve: the rest tube (radius R₀, length shortened by
    /// the free axial stretch λ₂ at λ₁ = 1 + strain) and the same vertices on a tube 1.5 δ off
    /// the cylinder, of the worn length.
    pub fn sleeve(&self) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
        let axial = free_axial_stretch(&self.material, 1.0 + self.hoop_strain);
        let l = self.half_length;
        let (around, along) = self.quads;
        let (rest, triangles) = open_cylinder(self.rest_radius(), -l / axial, l / axial, around, along);
        let start = self.cylinder_radius + 1.5 * self.contact_thickness;
        let (initial, _) = open_cylinder(start, -l, l, around, along);
        (rest, initial, triangles)
    }

    /// Puts the sleeve on, lets it settle for `steps` steps and measures the contact pressure.
    pub fn run(&self) -> Result<FittedSleeveSample> {
        let params = SolverParams {
            time_step: self.h,
            gravity: [0.0; 3],
            contact_thickness: self.contact_thickness,
            default_friction: 0.0,
            residual_tolerance: 1e-8,
            velocity_tolerance: 1e-9,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(&params)?;
        let (rest, initial, triangles) = self.sleeve();
        let id = solver.add_shell(&rest, &triangles, &self.material)?;
        solver.set_vertex_attribute(id, crate::solver::VertexAttribute::Position, &initial)?;
        let length = 4.0 * self.half_length;
        let shape = Shape {
            kind: ShapeKind::Cylinder,
            center: [0.0; 3],
            axis: [1.0, 0.0, 0.0],
            radius: self.cylinder_radius,
            half_length: length,
            inside: false,
        };
        let cylinder = solver.add_collider_shape(&shape)?;
        solver.set_friction(id, cylinder, 0.0)?;
        for _ in 0..self.steps {
            solver.step(self.h)?;
        }
        let q = solver.positions(id)?.to_vec();
        let law = solver.params().contact_law(solver.report().contact_stiffness);
        let shape = shape.validated()?;
        let point = |i: usize| [q[3 * i], q[3 * i + 1], q[3 * i + 2]];
        let n = q.len() / 3;
        let normal_force: f64 = (0..n).map(|i| law.force(shape.gap(point(i)).0)).sum();
        let radius = (0..n).map(|i| point(i)[1].hypot(point(i)[2])).sum::<f64>() / n as f64;
        let area: f64 = triangles
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| nalgebra::Vector3::from(point(t[k] as usize)));
                0.5 * (b - a).cross(&(c - a)).norm()
            })
            .sum();
        let max_speed =
            solver.velocities(id)?.chunks_exact(3).map(|v| v[0].hypot(v[1]).hypot(v[2])).fold(0.0, f64::max);
        let rest_radius = self.rest_radius();
        Ok(FittedSleeveSample {
            normal_force,
            area,
            pressure: normal_force / area,
            radius,
            hoop_strain: radius / rest_radius - 1.0,
            analytic_pressure: hoop_pressure(&self.material, rest_radius, radius),
            max_speed,
        })
    }
}

/// p = E t ε / R: the small-strain hoop pressure (Pa) of a membrane of Young's modulus E (Pa),
/// thickness t (m) stretched by ε around radius R (m), for comparison with [`hoop_pressure`].
pub fn linear_hoop_pressure(youngs_modulus: f64, thickness: f64, strain: f64, radius: f64) -> f64 {
    youngs_modulus * thickness * strain / radius
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At small strain both energies give T = E t ε and λ₂ = 1 − ν ε; at rest no stress.
    #[test]
    fn hoop_tension_is_linear_at_small_strain() {
        for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
            let m = Material { membrane_model: model, ..FittedSleeve::jersey().material };
            let s = membrane_stress(&m, [1.0, 1.0]);
            assert!(s[0].abs() < 1e-9 * m.youngs_modulus && s[1].abs() < 1e-9 * m.youngs_modulus, "{s:?}");
            let eps = 1e-5;
            let t = hoop_tension(&m, 1.0 + eps);
            let linear = m.youngs_modulus * m.thickness * eps;
            assert!((t / linear - 1.0).abs() < 1e-3, "{model:?}: {t} vs {linear}");
            let l2 = free_axial_stretch(&m, 1.0 + eps);
            assert!(((1.0 - l2) / (m.poisson_ratio * eps) - 1.0).abs() < 1e-3, "{model:?}: {l2}");
        }
    }

    /// ∂Ψ/∂λ matches central differences of the energy density membrane.rs integrates.
    #[test]
    fn stress_is_the_derivative_of_the_element_energy() {
        use crate::energy::membrane::MembraneTriangle;
        use crate::energy::Element;
        for model in [MembraneModel::NeoHookean, MembraneModel::StVenantKirchhoff] {
            let m = Material { membrane_model: model, ..FittedSleeve::jersey().material };
            let rest = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
            let tri = MembraneTriangle::new([0, 1, 2], rest, m.youngs_modulus, m.poisson_ratio, 1.0, model)
                .expect("triangle");
            let psi = |l: [f64; 2]| {
                let q = [0.0, 0.0, 0.0, l[0], 0.0, 0.0, 0.0, l[1], 0.0];
                tri.energy(&q) / 0.5
            };
            let l = [1.13, 0.96];
            let s = membrane_stress(&m, l);
            let h = 1e-6;
            let fd = [
                (psi([l[0] + h, l[1]]) - psi([l[0] - h, l[1]])) / (2.0 * h),
                (psi([l[0], l[1] + h]) - psi([l[0], l[1] - h])) / (2.0 * h),
            ];
            for k in 0..2 {
                assert!((s[k] - fd[k]).abs() < 1e-6 * m.youngs_modulus, "{model:?} {k}: {} vs {}", s[k], fd[k]);
            }
        }
    }
}
