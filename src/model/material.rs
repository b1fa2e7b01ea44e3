//! Materials of solids and shells ([`Material`]); the C API's `GripMaterial` converts to and
//! from them in `crate::capi::types::material`.

use crate::energy::membrane::MembraneModel;
use crate::error::{Error, Result};

/// Material of one object. Start from `Material::default()` (a woven cotton-like cloth).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Density in kg/m³, in [1, 1e5]. Shells weigh density × thickness per m². Default 300 (with the
    /// default thickness: 0.3 kg/m²).
    pub density: f64,
    /// Young's modulus E in Pa, in [1, 1e12], with E / density at most 1e9 m²/s² (a wave speed
    /// of 31.6 km/s, above any real material's). Default 1e6 Pa.
    pub youngs_modulus: f64,
    /// Poisson ratio ν, in [−0.5, 0.4999]. Default 0.3.
    pub poisson_ratio: f64,
    /// Shell thickness in m, in [1e-6, 1] (ignored for solids). Default 0.001 m.
    pub thickness: f64,
    /// Shell bending stiffness k in N·m, in [0, 100] (ignored for solids): the plate modulus D in
    /// W = ½ D κ² per m². Default 1e-6 N·m.
    pub bending_stiffness: f64,
    /// Rayleigh mass damping α in 1/s, in [0, 1e6]: D = αM + βK (paper §3.1). Default 0.
    pub damping_alpha: f64,
    /// Rayleigh stiffness damping β in s, in [0, 0.1]. Default 0.
    pub damping_beta: f64,
    /// Shell membrane model. Default neo-Hookean.
    pub membrane_model: MembraneModel,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            density: 300.0,
            youngs_modulus: 1e6,
            poisson_ratio: 0.3,
            thickness: 1e-3,
            bending_stiffness: 1e-6,
            damping_alpha: 0.0,
            damping_beta: 0.0,
            membrane_model: MembraneModel::NeoHookean,
        }
    }
}

/// Accepted range of each material field, in its unit. Every real material lies well inside;
/// beyond, a value is a typo or a unit mix-up, and (measured on a cloth and a rubber cube falling
/// onto a sphere at 1/240 s) the stiffest corners make every step fail. Each range was checked
/// at all its corners together by `tests/accepted_input_steps.rs`.
pub mod range {
    /// Density (kg/m³): from a light foam to four times osmium's.
    pub const DENSITY: (f64, f64) = (1.0, 1e5);
    /// Young's modulus (Pa): from a soft gel to ten times steel's (diamond: 1.05e12).
    pub const YOUNGS_MODULUS: (f64, f64) = (1.0, 1e12);
    /// Largest specific modulus E/ρ (m²/s²): a wave speed √(E/ρ) of 31.6 km/s, above any real
    /// material's (diamond: 17 km/s).
    ///
    /// cbindgen:ignore
    pub const SPECIFIC_MODULUS_MAX: f64 = 1e9;
    /// Poisson ratio: 0.4999 is rubber's incompressibility, tighter than any real material
    /// needs. Auxetic foams reach about −0.7, but at −0.9 the lightest, stiffest cloth the other
    /// ranges allow fails to step; −0.5 is the lowest that stepped at every corner.
    pub const POISSON_RATIO: (f64, f64) = (-0.5, 0.4999);
    /// Shell thickness (m): from a 1 µm film to a 1 m plate.
    pub const THICKNESS: (f64, f64) = (1e-6, 1.0);
    /// Shell bending stiffness (N·m): from none to a 2 cm steel plate's E t³/12 ≈ 130 N·m.
    pub const BENDING_STIFFNESS: (f64, f64) = (0.0, 1e2);
    /// Rayleigh mass damping α (1/s).
    pub const DAMPING_ALPHA: (f64, f64) = (0.0, 1e6);
    /// Rayleigh stiffness damping β (s): cloth uses about 1e-3 s; 0.1 s already makes motion
    /// quasi-static.
    pub const DAMPING_BETA: (f64, f64) = (0.0, 0.1);
}

/// Refuses `v` outside the closed range `r`, naming the field, its unit and the range.
fn within(name: &str, v: f64, r: (f64, f64), unit: &str) -> Result<()> {
    if v.is_finite() && v >= r.0 && v <= r.1 {
        Ok(())
    } else {
        Err(Error::invalid(format!("material.{name} must be in [{:e}, {:e}] {unit}, got {v}", r.0, r.1)))
    }
}

impl Material {
    /// Checks every numeric field against [`range`]; `shell` also checks thickness and bending.
    pub fn validate(&self, shell: bool) -> Result<()> {
        within("density", self.density, range::DENSITY, "kg/m^3")?;
        within("youngs_modulus", self.youngs_modulus, range::YOUNGS_MODULUS, "Pa")?;
        let specific = self.youngs_modulus / self.density;
        if !(specific <= range::SPECIFIC_MODULUS_MAX) {
            return Err(Error::invalid(format!(
                "material.youngs_modulus / material.density must be at most {:e} m^2/s^2 (a wave speed of {:.1} km/s, \
                 above any real material's), got {specific:e}",
                range::SPECIFIC_MODULUS_MAX,
                range::SPECIFIC_MODULUS_MAX.sqrt() / 1e3
            )));
        }
        within("poisson_ratio", self.poisson_ratio, range::POISSON_RATIO, "")?;
        if shell {
            within("thickness", self.thickness, range::THICKNESS, "m")?;
            within("bending_stiffness", self.bending_stiffness, range::BENDING_STIFFNESS, "N*m")?;
        }
        within("damping_alpha", self.damping_alpha, range::DAMPING_ALPHA, "1/s")?;
        within("damping_beta", self.damping_beta, range::DAMPING_BETA, "s")?;
        Ok(())
    }
}
