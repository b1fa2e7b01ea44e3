//! `GripMaterial`: the C layout of [`Material`], with a code for the membrane model and a tag
//! that tells a struct from `grip_material_default()` apart from uninitialised memory.

use super::codes;
use crate::error::{Error, Result};
use crate::model::material::Material;

/// Value of `GripMaterial::struct_tag` written by `grip_material_default()`.
pub const GRIP_MATERIAL_TAG: u32 = 0x4752_4D31;

/// Material of one object. Start from `grip_material_default()` (a woven cotton-like cloth).
///
/// Each field has a closed range covering every real material with a wide margin; a value
/// outside it is refused (`GRIP_STATUS_INVALID_ARGUMENT`, the message naming the field and its
/// range), because the stiffest combinations beyond it make every later step fail. Every
/// combination inside the ranges steps.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GripMaterial {
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
    /// Shell membrane model, one of `GRIP_MEMBRANE_*`. Default neo-Hookean.
    pub membrane_model: u32,
    /// Written by `grip_material_default()`; do not change.
    pub struct_tag: u32,
}

impl Default for GripMaterial {
    fn default() -> Self {
        Self::from(&Material::default())
    }
}

impl From<&Material> for GripMaterial {
    fn from(m: &Material) -> Self {
        Self {
            density: m.density,
            youngs_modulus: m.youngs_modulus,
            poisson_ratio: m.poisson_ratio,
            thickness: m.thickness,
            bending_stiffness: m.bending_stiffness,
            damping_alpha: m.damping_alpha,
            damping_beta: m.damping_beta,
            membrane_model: codes::membrane_code(m.membrane_model),
            struct_tag: GRIP_MATERIAL_TAG,
        }
    }
}

impl TryFrom<&GripMaterial> for Material {
    type Error = Error;

    /// Checks the struct tag and the membrane code; the numeric ranges are checked by
    /// [`Material::validate`] (when an object is added).
    fn try_from(m: &GripMaterial) -> Result<Self> {
        if m.struct_tag != GRIP_MATERIAL_TAG {
            return Err(Error::invalid("material.struct_tag is not set: start from grip_material_default()"));
        }
        let membrane_model = codes::membrane(m.membrane_model)
            .ok_or_else(|| Error::invalid(format!("material.membrane_model: unknown value {}", m.membrane_model)))?;
        Ok(Self {
            density: m.density,
            youngs_modulus: m.youngs_modulus,
            poisson_ratio: m.poisson_ratio,
            thickness: m.thickness,
            bending_stiffness: m.bending_stiffness,
            damping_alpha: m.damping_alpha,
            damping_beta: m.damping_beta,
            membrane_model,
        })
    }
}
