//! Materials of solids and shells (`GripMaterial` in `grip.h`).

use crate::energy::membrane::MembraneModel;
use crate::error::{Error, Result};

/// Membrane model of a shell: rest-stable neo-Hookean.
pub const GRIP_MEMBRANE_NEO_HOOKEAN: u32 = 0;
/// Membrane model of a shell: St. Venant–Kirchhoff.
pub const GRIP_MEMBRANE_STVK: u32 = 1;
/// Value of `GripMaterial::struct_tag` written by `grip_material_default()`.
pub const GRIP_MATERIAL_TAG: u32 = 0x4752_4D31;

/// Material of one object. Start from `grip_material_default()` (a woven cotton-like cloth).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GripMaterial {
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
    /// Shell membrane model, one of `GRIP_MEMBRANE_*`. Default neo-Hookean.
    pub membrane_model: u32,
    /// Written by `grip_material_default()`; do not change.
    pub struct_tag: u32,
}

impl Default for GripMaterial {
    fn default() -> Self {
        Self {
            density: 300.0,
            youngs_modulus: 1e6,
            poisson_ratio: 0.3,
            thickness: 1e-3,
            bending_stiffness: 1e-6,
            damping_alpha: 0.0,
            damping_beta: 0.0,
            membrane_model: GRIP_MEMBRANE_NEO_HOOKEAN,
            struct_tag: GRIP_MATERIAL_TAG,
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

impl GripMaterial {
    /// Checks every field; `shell` also checks thickness and bending.
    pub fn validate(&self, shell: bool) -> Result<()> {
        if self.struct_tag != GRIP_MATERIAL_TAG {
            return Err(Error::invalid("material.struct_tag is not set: start from grip_material_default()"));
        }
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
        self.membrane()?;
        Ok(())
    }

    /// The membrane model named by `membrane_model`.
    pub fn membrane(&self) -> Result<MembraneModel> {
        match self.membrane_model {
            GRIP_MEMBRANE_NEO_HOOKEAN => Ok(MembraneModel::NeoHookean),
            GRIP_MEMBRANE_STVK => Ok(MembraneModel::StVenantKirchhoff),
            other => Err(Error::invalid(format!("material.membrane_model: unknown value {other}"))),
        }
    }
}
