//! Volume-change penalty of one closed object (paper §3.4): the work W(V) the enclosed fluid
//! does against the ambient pressure when the volume V changes from its rest value V₀, as a
//! function of V alone. The force on the vertices is f = p(V) ∂V/∂q, with p(V) = −W′(V) the net
//! over-pressure (inside minus ambient), in Pa.
//!
//! Models, with κ_v the compression coefficient in 1/Pa (paper Eq. 17) and P the over-pressure
//! at V₀ in Pa (0 in the paper; a tennis ball holds ≈ 1 atm):
//! - quadratic (Eq. 20/21): p(V) = P − (V − V₀)/(V₀ κ_v), W = −P(V − V₀) + (V − V₀)²/(2V₀κ_v);
//! - ideal gas (Eq. 18): the gas inside is at absolute pressure 1/κ_v at V₀ (an ideal gas has
//!   κ_v = 1/P_abs) and follows Boyle's law, the ambient is at 1/κ_v − P:
//!   p(V) = V₀/(κ_v V) − (1/κ_v − P), W = −(V₀/κ_v) ln(V/V₀) + (1/κ_v − P)(V − V₀);
//!   with P = 0 this is Eq. 18 with P₀ = 1/κ_v;
//! - nearly incompressible (Eq. 19): p(V) = P − ln(V/V₀)/κ_v,
//!   W = −P(V − V₀) + (V₀ − V(1 − ln(V/V₀)))/κ_v.
//!
//! The logarithmic models are undefined for V ≤ 0; below V = V₀/10 their p(V) continues along
//! its tangent (W stays C², finite for any V), so a Newton iterate that collapses the object
//! still gets a finite, restoring force.

use crate::error::{Error, Result};
use crate::math::real::{c, cross, dot, sub, Real, V3};

/// The pressure–volume law of a volume penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeKind {
    /// Quadratic volume penalty (paper Eq. 20/21).
    Quadratic,
    /// Ideal gas enclosed (paper Eq. 18, Boyle's law).
    IdealGas,
    /// Nearly incompressible fluid enclosed, constant κ_v (paper Eq. 19).
    NearlyIncompressible,
}

/// Volume ratio V/V₀ below which the logarithmic models continue linearly in p.
const SMALLEST_RATIO: f64 = 0.1;

/// The pressure–volume law of one object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VolumeModel {
    /// Quadratic, ideal gas or nearly incompressible.
    pub kind: VolumeKind,
    /// Compression coefficient κ_v in 1/Pa (> 0).
    pub kappa: f64,
    /// Over-pressure P at the rest volume (Pa).
    pub pressure: f64,
    /// Rest volume V₀ in m³ (> 0).
    pub rest_volume: f64,
}

impl VolumeModel {
    /// Validates the parameters; the error names the bad one.
    pub fn new(kind: VolumeKind, kappa: f64, pressure: f64, rest_volume: f64) -> Result<Self> {
        if !(kappa.is_finite() && kappa > 0.0 && kappa <= 1.0) {
            return Err(Error::invalid(format!("compression coefficient must be in (0, 1] 1/Pa, got {kappa}")));
        }
        if !(pressure.is_finite() && pressure.abs() <= 1e12) {
            return Err(Error::invalid(format!("pressure must be finite and within ±1e12 Pa, got {pressure}")));
        }
        if kind == VolumeKind::IdealGas && pressure > 1.0 / kappa {
            return Err(Error::invalid(format!(
                "ideal gas: the over-pressure {pressure} Pa exceeds the absolute pressure 1/κ_v = {} Pa (negative ambient)",
                1.0 / kappa
            )));
        }
        if !(rest_volume.is_finite() && rest_volume > 0.0) {
            return Err(Error::invalid(format!("the enclosed volume must be > 0 m³, got {rest_volume}")));
        }
        Ok(Self { kind, kappa, pressure, rest_volume })
    }

    /// p and dp/dV of the unextended law at V (V > 0 for the logarithmic models).
    fn law(&self, v: f64) -> (f64, f64) {
        let (k, v0, p) = (self.kappa, self.rest_volume, self.pressure);
        match self.kind {
            VolumeKind::IdealGas => (v0 / (k * v) - (1.0 / k - p), -v0 / (k * v * v)),
            VolumeKind::NearlyIncompressible => (p - (v / v0).ln() / k, -1.0 / (k * v)),
            VolumeKind::Quadratic => (p - (v - v0) / (v0 * k), -1.0 / (v0 * k)),
        }
    }

    /// W of the unextended law at V, in J.
    fn law_energy(&self, v: f64) -> f64 {
        let (k, v0, p) = (self.kappa, self.rest_volume, self.pressure);
        match self.kind {
            VolumeKind::IdealGas => -(v0 / k) * (v / v0).ln() + (1.0 / k - p) * (v - v0),
            VolumeKind::NearlyIncompressible => -p * (v - v0) + (v0 - v * (1.0 - (v / v0).ln())) / k,
            VolumeKind::Quadratic => -p * (v - v0) + (v - v0) * (v - v0) / (2.0 * v0 * k),
        }
    }

    /// Where the logarithmic models switch to their tangent extension in m³ (−∞ for quadratic).
    fn switch(&self) -> f64 {
        if self.kind == VolumeKind::Quadratic {
            f64::NEG_INFINITY
        } else {
            SMALLEST_RATIO * self.rest_volume
        }
    }

    /// Net over-pressure p(V) = −W′(V) in Pa, over [`Real`] (dual numbers differentiate it).
    pub fn over_pressure<T: Real>(&self, v: T) -> T {
        let (k, v0, p) = (self.kappa, self.rest_volume, self.pressure);
        let vm = self.switch();
        if v.re() < vm {
            let (pm, dpm) = self.law(vm);
            return (v - vm) * dpm + pm;
        }
        match self.kind {
            VolumeKind::IdealGas => v.recip() * (v0 / k) - (1.0 / k - p),
            VolumeKind::NearlyIncompressible => c::<T>(p) - (v * (1.0 / v0)).ln() * (1.0 / k),
            VolumeKind::Quadratic => c::<T>(p) - (v - v0) * (1.0 / (v0 * k)),
        }
    }

    /// W″(V) = −p′(V) [Pa/m³] (> 0: the penalty's stiffness against volume change).
    pub fn stiffness(&self, v: f64) -> f64 {
        -self.law(v.max(self.switch())).1
    }

    /// W(V) in J, zero at V₀.
    pub fn energy(&self, v: f64) -> f64 {
        let vm = self.switch();
        if v < vm {
            let (pm, dpm) = self.law(vm);
            let d = v - vm;
            return self.law_energy(vm) - pm * d - 0.5 * dpm * d * d;
        }
        self.law_energy(v)
    }
}

/// Signed volume (m³) of the tet spanned by a closed surface triangle and a fixed point `o`:
/// (x₀ − o)·((x₁ − o) × (x₂ − o))/6; summed over a closed, outward-oriented surface it is the
/// enclosed volume (divergence theorem).
pub fn triangle_volume<T: Real>(x: &[T; 9], o: [f64; 3]) -> T {
    let a: [V3<T>; 3] = std::array::from_fn(|i| [0, 1, 2].map(|k| x[3 * i + k] - o[k]));
    dot(a[0], cross(a[1], a[2])) * (1.0 / 6.0)
}

/// ∂/∂x of [`triangle_volume`].
pub fn triangle_volume_gradient<T: Real>(x: &[T; 9], o: [f64; 3]) -> [T; 9] {
    let a: [V3<T>; 3] = std::array::from_fn(|i| [0, 1, 2].map(|k| x[3 * i + k] - o[k]));
    let g = [cross(a[1], a[2]), cross(a[2], a[0]), cross(a[0], a[1])];
    std::array::from_fn(|i| g[i / 3][i % 3] * (1.0 / 6.0))
}

/// Signed volume (m³) of a tet: (x₁ − x₀)·((x₂ − x₀) × (x₃ − x₀))/6.
pub fn tet_volume<T: Real>(x: &[T; 12]) -> T {
    let p: [V3<T>; 4] = std::array::from_fn(|i| [x[3 * i], x[3 * i + 1], x[3 * i + 2]]);
    let (e1, e2, e3) = (sub(p[1], p[0]), sub(p[2], p[0]), sub(p[3], p[0]));
    dot(e1, cross(e2, e3)) * (1.0 / 6.0)
}

/// ∂/∂x of [`tet_volume`].
pub fn tet_volume_gradient<T: Real>(x: &[T; 12]) -> [T; 12] {
    let p: [V3<T>; 4] = std::array::from_fn(|i| [x[3 * i], x[3 * i + 1], x[3 * i + 2]]);
    let (e1, e2, e3) = (sub(p[1], p[0]), sub(p[2], p[0]), sub(p[3], p[0]));
    let g1 = cross(e2, e3);
    let g2 = cross(e3, e1);
    let g3 = cross(e1, e2);
    let g0 = [0, 1, 2].map(|k| -(g1[k] + g2[k] + g3[k]));
    let g = [g0, g1, g2, g3];
    std::array::from_fn(|i| g[i / 3][i % 3] * (1.0 / 6.0))
}
