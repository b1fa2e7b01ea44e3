//! Materials of solids and shells ([`Material`]); the C API's `GripMaterial` converts to and
//! from them in `crate::capi::types::material`.

use crate::energy::membrane::MembraneModel;
use crate::error::{Error, Result};

/// Material of one object. Start from `Material::default()` (a woven cotton-like cloth).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Density in kg/m³ (> 0). Shells weigh density × thickness per m². Default 300 (with the
    /// default thickness: 0.3 kg/m²).
    pub density: f64,
    /// Young's modulus E in Pa (> 0). Default 1e6 Pa.
    pub youngs_modulus: f64,
    /// Poisson ratio ν (−1 < ν < 0.5). Default 0.3.
    pub poisson_ratio: f64,
    /// Shell thickness in m (> 0; ignored for solids). Default 0.001 m.
    pub thickness: f64,
    /// Shell bending stiffness k in N·m (≥ 0; ignored for solids): the plate modulus D in
    /// W = ½ D κ² per m². Default 1e-6 N·m.
    pub bending_stiffness: f64,
    /// Rayleigh mass damping α in 1/s (≥ 0): D = αM + βK (paper §3.1). Default 0.
    pub damping_alpha: f64,
    /// Rayleigh stiffness damping β in s (≥ 0). Default 0.
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

fn positive(name: &str, v: f64, unit: &str) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(format!("material.{name} must be finite and > 0 {unit}, got {v}")))
    }
}

fn non_negative(name: &str, v: f64, unit: &str) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(format!("material.{name} must be finite and >= 0 {unit}, got {v}")))
    }
}

impl Material {
    /// Checks every numeric field; `shell` also checks thickness and bending.
    pub fn validate(&self, shell: bool) -> Result<()> {
        positive("density", self.density, "kg/m^3")?;
        positive("youngs_modulus", self.youngs_modulus, "Pa")?;
        if !(self.poisson_ratio.is_finite() && self.poisson_ratio > -1.0 && self.poisson_ratio < 0.5) {
            return Err(Error::invalid(format!(
                "material.poisson_ratio must be in (-1, 0.5), got {}",
                self.poisson_ratio
            )));
        }
        if shell {
            positive("thickness", self.thickness, "m")?;
            non_negative("bending_stiffness", self.bending_stiffness, "N*m")?;
        }
        non_negative("damping_alpha", self.damping_alpha, "1/s")?;
        non_negative("damping_beta", self.damping_beta, "s")?;
        Ok(())
    }
}
