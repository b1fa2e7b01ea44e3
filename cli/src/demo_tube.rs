//! `tube-cloth-bend`, the default demo: a fitted cloth sleeve on a soft limb that bends 90° at the
//! elbow, the test of friction between deforming meshes.
//!
//! - Limb: a capsule along x, radius 0.05 m, x ∈ [−0.2, 0.2] m, tetrahedralized by isosurface
//!   stuffing ([`tetrahedralize_sdf`]) to about 5K tets (`--res low`) or 30K (`--res high`);
//!   E = 100 kPa, ν = 0.45, ρ = 1000 kg/m³.
//! - Bend: limb vertices with x ≤ −0.13 m are held in place; those with x ≥ 0.13 m follow a
//!   rotation about the z axis through the hinge point (0, 0.075, 0) by θ(t) = 90°·(3u² − 2u³),
//!   u = min(t / 1 s, 1). The middle is free.
//! - Sleeve (`--sleeve fitted`, the default): an open cloth tube worn on the limb at 20 % hoop
//!   strain, x ∈ [−0.12, 0.12] m, 48 × 31 quads (2976 triangles) or 80 × 50 (8000): stretch
//!   jersey, E = 100 kPa, t = 0.6 mm (membrane stiffness E t = 60 N/m), ν = 0.3, 0.18 kg/m²,
//!   bending stiffness E t³ / (12 (1 − ν²)) ≈ 2e-6 N·m ([`FittedSleeve::jersey`]). Its rest
//!   shape has the girth of the limb divided by 1.2 (cut 17 % small, as compression garments
//!   are) and the worn length divided by the free axial stretch; it starts 1.5 mm off the skin,
//!   at the worn length, and shrinks onto it in the first frame. Worn, it presses with
//!   p = T / R ≈ 0.24 kPa (Laplace's law; `tests/fitted_sleeve_pressure.rs` checks it).
//!
//!   Why these values. Laplace's law p = T / R for a knitted sleeve on a cylinder holds to
//!   within 0.5 mmHg in measurements (Teyeme et al. 2021, *Predicting compression pressure of
//!   knitted fabric using a modified Laplace's law*, Materials 14:4461). Garments meant to press
//!   are cut with their girth reduced by a fixed 10–20 % (Mikołajczyk et al. 2020, AUTEX
//!   Research Journal, doi:10.2478/aut-2020-0048); 1/1.2 is a 17 % reduction. Stretch knits are
//!   tested at 3–4 N/cm (EN 14704-1, ASTM D2594), where they stretch by tens of percent: E t of
//!   order 10–100 N/m at small strain; 60 N/m and 20 % give 0.24 kPa (1.8 mmHg), a close fit
//!   far below medical compression (class I: 15–21 mmHg). E t does not decide how much the
//!   sleeve slips, since both the pressure and the force needed to stretch the sleeve with the
//!   skin scale with it; the hoop strain does: friction can stretch the sleeve by at most
//!   μ p L / (E t) = μ ε L / R from a free end (L = 0.12 m), 0.38 at μ = 0.8 and 20 %, against
//!   ≈ 40 % skin strain on the outside of the elbow.
//! - Sleeve (`--sleeve loose`): rest radius 0.051 m, 1 mm over the limb, pressed on by its weight
//!   only (≈ 3 Pa); E = 0.5 MPa, ν = 0.3, thickness 1 mm, ρ = 300 kg/m³.
//! - Inexact Newton with BiCGSTAB (`--linear-solver` overrides it).
//! - μ(sleeve, limb) = `--mu` (default 0.2); gravity −9.81 m/s² along y; 48 frames at 24 fps,
//!   time step 1/24 s; `stats.csv` measures the sleeve's slip on the limb and the limb's volume
//!   change; the previews look at the elbow from the front and draw the sleeve translucent so that
//!   the limb shows through it.
//!
//! `--res medium` (hidden; ≈13K tets, 5120 triangles) is for the scaling benchmark.
//! `--res tiny` (hidden) builds the same scene coarsely (780 tets, 480 triangles) for tests.
//! Measured limb meshes: tiny 242 vertices and 780 tets, low 1278 and 4984, high 6506 and 30310.

use super::demo::DemoOptions;
use grip::analytic::fitted_sleeve::FittedSleeve;
use grip::mesh::shapes::open_cylinder;
use grip::mesh::tetrahedralize::{cell_size_for_tet_count, tetrahedralize_sdf};
use grip::scene::description::{
    Elements, FrictionPair, PinGroup, PinSelection, PreviewStyle, Scene, SceneObject, SlipPair, DEFAULT_FPS,
};
use grip::scene::motion::{Ease, Motion};
use grip::solve::linear_solver::LinearSolverKind;
use grip::{Material, SolverParams};
use std::f64::consts::PI;

/// Limb radius (m).
pub(crate) const LIMB_RADIUS: f64 = 0.05;
/// Half the length of the limb's cylindrical part in m (x ∈ [−0.15, 0.15], caps to ±0.2).
pub(crate) const LIMB_HALF_LENGTH: f64 = 0.15;
/// Limb vertices with x at or below −this are held, at or above it follow the bend (m).
pub(crate) const PIN_X: f64 = 0.13;
/// A point on the bend's axis (the z direction) (m).
pub(crate) const HINGE_PIVOT: [f64; 3] = [0.0, 0.075, 0.0];
/// The final bend angle (degrees).
pub(crate) const BEND_DEGREES: f64 = 90.0;
/// The time the bend takes (s).
pub(crate) const BEND_SECONDS: f64 = 1.0;
/// The loose sleeve's rest radius (m).
pub(crate) const SLEEVE_RADIUS: f64 = 0.051;
/// The sleeve's half length in m (x ∈ [−0.12, 0.12]).
pub(crate) const SLEEVE_HALF_LENGTH: f64 = 0.12;
/// The previews look at the bend (in the xy plane) from the front (+z), a little from the
/// right and above, so that the 90° elbow shows side-on with some depth.
pub(crate) const VIEW: [f64; 3] = [0.25, 0.2, 1.0];
/// The loose sleeve's Young's modulus (Pa).
pub(crate) const SLEEVE_E: f64 = 5e5;
/// The loose sleeve's Poisson ratio.
pub(crate) const SLEEVE_NU: f64 = 0.3;
/// The loose sleeve's thickness (m).
pub(crate) const SLEEVE_THICKNESS: f64 = 1e-3;
/// Default μ between sleeve and limb.
pub(crate) const DEFAULT_MU: f64 = 0.2;

/// The tube demo's sleeve (`--sleeve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SleeveFit {
    /// Cut smaller than the limb and stretched on: it presses on the skin ([`fitted_sleeve`]).
    Fitted,
    /// 1 mm oversize, pressed on only by its weight ([`loose_sleeve`]).
    Loose,
}

impl SleeveFit {
    /// The value of `--sleeve`.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "fitted" => Some(SleeveFit::Fitted),
            "loose" => Some(SleeveFit::Loose),
            _ => None,
        }
    }
}

/// Mesh resolution of the tube demo (`--res`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// For tests: about 700 tets (780), 20 × 12 quads.
    Tiny,
    /// About 5K tets, 48 × 31 quads (2976 triangles).
    Low,
    /// For the scaling benchmark: about 13K tets, 64 × 40 quads (5120 triangles).
    Medium,
    /// About 30K tets, 80 × 50 quads (8000 triangles).
    High,
}

impl Resolution {
    /// The value of `--res`.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "tiny" => Some(Resolution::Tiny),
            "low" => Some(Resolution::Low),
            "medium" => Some(Resolution::Medium),
            "high" => Some(Resolution::High),
            _ => None,
        }
    }

    /// The tet count aimed at.
    pub fn limb_tets(self) -> usize {
        match self {
            Resolution::Tiny => 700,
            Resolution::Low => 5_000,
            Resolution::Medium => 13_000,
            Resolution::High => 30_000,
        }
    }

    /// The sleeve's quads (around, along).
    pub fn sleeve_quads(self) -> (usize, usize) {
        match self {
            Resolution::Tiny => (20, 12),
            Resolution::Low => (48, 31),
            Resolution::Medium => (64, 40),
            Resolution::High => (80, 50),
        }
    }
}

/// Signed distance (m) to the limb: the capsule of radius `LIMB_RADIUS` around the segment
/// x ∈ [−`LIMB_HALF_LENGTH`, `LIMB_HALF_LENGTH`] of the x axis.
pub fn limb_sdf(p: [f64; 3]) -> f64 {
    let x = p[0].clamp(-LIMB_HALF_LENGTH, LIMB_HALF_LENGTH);
    ((p[0] - x).powi(2) + p[1] * p[1] + p[2] * p[2]).sqrt() - LIMB_RADIUS
}

/// Volume of the limb (m³): πr²·2L + 4/3 πr³.
pub fn limb_volume() -> f64 {
    PI * LIMB_RADIUS.powi(2) * 2.0 * LIMB_HALF_LENGTH + 4.0 / 3.0 * PI * LIMB_RADIUS.powi(3)
}

/// The limb's tet mesh with about `tets` tets: flat positions (m) and flat tets.
///
/// `cell_size_for_tet_count` gives the lattice spacing for the limb's volume; isosurface
/// stuffing then makes 5–25 % more tets (the cut tets at the surface are smaller), so the
/// spacing is corrected three times by (count / tets)^(1/3) and the mesh closest to `tets` is
/// kept. Deterministic: the same `tets` always gives the same mesh.
pub fn limb_mesh(tets: usize) -> Result<(Vec<f64>, Vec<u32>), String> {
    let pad = LIMB_RADIUS * 0.2;
    let (h, r) = (LIMB_HALF_LENGTH + LIMB_RADIUS + pad, LIMB_RADIUS + pad);
    let mut cell = cell_size_for_tet_count(limb_volume(), tets);
    let mut best: Option<grip::mesh::tetrahedralize::TetMesh> = None;
    for _ in 0..4 {
        let mesh = tetrahedralize_sdf(limb_sdf, [-h, -r, -r], [h, r, r], cell).map_err(|e| format!("limb: {e}"))?;
        let off = |m: &grip::mesh::tetrahedralize::TetMesh| (m.tets.len() as f64 / tets as f64).ln().abs();
        cell *= (mesh.tets.len() as f64 / tets as f64).cbrt();
        if best.as_ref().is_none_or(|b| off(&mesh) < off(b)) {
            best = Some(mesh);
        }
    }
    let mesh = best.ok_or("limb: no mesh")?;
    Ok((mesh.flat_positions(), mesh.flat_tets()))
}

/// The bend of the limb's right end: θ(t) = 90°·(3u² − 2u³), u = min(t / 1 s, 1), about z
/// through `HINGE_PIVOT`.
pub fn bend() -> Motion {
    Motion::Hinge {
        axis: [0.0, 0.0, 1.0],
        pivot: HINGE_PIVOT,
        angle_deg: BEND_DEGREES,
        start: 0.0,
        duration: BEND_SECONDS,
        ease: Ease::Smoothstep,
    }
}

/// The fitted sleeve of [`FittedSleeve::jersey`] (stretch jersey, E t = 60 N/m, cut with a rest
/// radius of the limb's divided by 1.2 and shortened by the free axial stretch), starting 1.5 mm
/// off the limb with the worn length: it shrinks onto the limb in the first frame.
pub fn fitted_sleeve(res: Resolution) -> SceneObject {
    let fit = FittedSleeve { quads: res.sleeve_quads(), ..FittedSleeve::jersey() };
    let (rest, initial, triangles) = fit.sleeve();
    let mut sleeve = SceneObject::new("sleeve", initial, Elements::Triangles(triangles), fit.material);
    sleeve.rest_positions = Some(rest);
    sleeve
}

/// The loose sleeve: rest radius 51 mm, 1 mm over the limb, so that only its weight presses it
/// on; E = 0.5 MPa, ν = 0.3, thickness 1 mm, ρ = 300 kg/m³, bending stiffness
/// D = E t³ / (12 (1 − ν²)) ≈ 4.6e-5 N·m, that of a plate of this membrane material.
pub fn loose_sleeve(res: Resolution) -> SceneObject {
    let (around, along) = res.sleeve_quads();
    let (positions, triangles) = open_cylinder(SLEEVE_RADIUS, -SLEEVE_HALF_LENGTH, SLEEVE_HALF_LENGTH, around, along);
    let cloth = Material {
        youngs_modulus: SLEEVE_E,
        poisson_ratio: SLEEVE_NU,
        thickness: SLEEVE_THICKNESS,
        density: 300.0,
        bending_stiffness: SLEEVE_E * SLEEVE_THICKNESS.powi(3) / (12.0 * (1.0 - SLEEVE_NU * SLEEVE_NU)),
        ..Material::default()
    };
    SceneObject::new("sleeve", positions, Elements::Triangles(triangles), cloth)
}

/// The scene at `options.resolution` (default low), `options.mu` (default 0.2) and
/// `options.sleeve` (default fitted).
pub fn tube_cloth_bend(options: &DemoOptions) -> Result<Scene, String> {
    let mu = options.mu.unwrap_or(DEFAULT_MU);
    if !(0.0..=100.0).contains(&mu) {
        return Err(format!("--mu must be in [0, 100], got {mu}"));
    }
    let fps = options.fps.unwrap_or(DEFAULT_FPS);
    let res = options.resolution.unwrap_or(Resolution::Low);
    let (positions, tets) = limb_mesh(res.limb_tets())?;
    let flesh = Material { youngs_modulus: 1e5, poisson_ratio: 0.45, density: 1000.0, ..Material::default() };
    let mut limb = SceneObject::new("limb", positions, Elements::Tets(tets), flesh);
    let inf = f64::INFINITY;
    limb.pin_groups = vec![
        PinGroup { selection: PinSelection::Box { min: [-inf; 3], max: [-PIN_X, inf, inf] }, motion: Motion::Fixed },
        PinGroup { selection: PinSelection::Box { min: [PIN_X, -inf, -inf], max: [inf; 3] }, motion: bend() },
    ];
    let mut sleeve = match options.sleeve.unwrap_or(SleeveFit::Fitted) {
        SleeveFit::Fitted => fitted_sleeve(res),
        SleeveFit::Loose => loose_sleeve(res),
    };
    sleeve.preview = PreviewStyle::Translucent;
    let params = SolverParams {
        time_step: 1.0 / 24.0,
        gravity: [0.0, -9.81, 0.0],
        default_friction: mu,
        contact_thickness: 1e-3,
        residual_tolerance: 1e-5,
        velocity_tolerance: 1e-5,
        max_newton_iterations: 60,
        // A substep whose Newton solve fails is redone in halves, down to h/256: with 6 halvings
        // (h/64) the low-res bend at μ = 0.2 failed at frame 19; with 8 both μ run 48 frames, the
        // hardest frame in 13 substeps (BENCHMARKS.md).
        max_substep_halvings: 8,
        // Friction's stick-slip velocity scale ε [m/s]: 1 mm/s (creep while sticking stays below
        // 1 mm/s × the time stuck); the default 0.1 mm/s makes Newton stall at μ = 0.8.
        friction_epsilon: 1e-3,
        // Inexact Newton (paper Algorithm 2): 3–5× faster than the direct solver here (BENCHMARKS.md).
        linear_solver: LinearSolverKind::Iterative,
        ..SolverParams::default()
    };
    let mut scene = Scene::new("tube-cloth-bend", params, vec![limb, sleeve]);
    scene.fps = fps;
    scene.friction = vec![FrictionPair { a: "sleeve".into(), b: "limb".into(), mu }];
    scene.slip = vec![SlipPair { object: "sleeve".into(), on: "limb".into() }];
    scene.view = Some(VIEW);
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tube_scene_is_as_specified() {
        let o = DemoOptions { mu: Some(0.8), resolution: Some(Resolution::Tiny), ..Default::default() };
        let s = tube_cloth_bend(&o).expect("scene");
        s.validate().expect("valid");
        assert_eq!((s.params.default_friction, s.friction[0].mu), (0.8, 0.8));
        assert_eq!((s.params.time_step, s.params.gravity, s.frames, s.fps), (1.0 / 24.0, [0.0, -9.81, 0.0], 48, 24.0));
        let limb = &s.objects[0];
        let groups = limb.pin_group_vertices(s.frames, s.fps).expect("pins");
        let x = |v: usize| limb.positions[3 * v];
        assert!(groups[0].iter().all(|&v| x(v) <= -PIN_X) && groups[1].iter().all(|&v| x(v) >= PIN_X));
        let pinned = groups[0].len() + groups[1].len();
        let should = (0..limb.positions.len() / 3).filter(|&v| x(v).abs() >= PIN_X).count();
        assert_eq!(pinned, should);
        assert!(groups[0].len() > 10 && groups[1].len() > 10);
        // Every limb vertex lies in the capsule; the fitted sleeve starts 1.5 mm outside it, with
        // a rest girth 1/1.2 of the limb's; the loose one is 1 mm outside, at rest.
        assert!(limb.positions.chunks(3).all(|p| limb_sdf([p[0], p[1], p[2]]) < 1e-9));
        let radius = |p: &[f64]| (p[1] * p[1] + p[2] * p[2]).sqrt();
        let sleeve = &s.objects[1];
        assert!(sleeve.positions.chunks(3).all(|p| (radius(p) - 0.0515).abs() < 1e-12));
        let rest = sleeve.rest_positions.as_ref().expect("fitted sleeve has a rest shape");
        assert!(rest.chunks(3).all(|p| (radius(p) - 0.05 / 1.2).abs() < 1e-12));
        let loose = tube_cloth_bend(&DemoOptions { sleeve: Some(SleeveFit::Loose), ..o.clone() }).expect("loose");
        assert!(loose.objects[1].positions.chunks(3).all(|p| (radius(p) - 0.051).abs() < 1e-12));
        assert_eq!(loose.objects[1].rest_positions, None);
        assert!(tube_cloth_bend(&DemoOptions { mu: Some(-0.1), ..o }).unwrap_err().contains("--mu"));
    }

    /// The low and high resolutions land within 10 % of 5K and 30K tets (tiny within 25 %: the
    /// count jumps by whole lattice layers there); the sleeves have the specified triangle counts.
    #[test]
    fn resolutions_land_near_their_tet_counts() {
        for res in [Resolution::Tiny, Resolution::Low, Resolution::High] {
            let (p, t) = limb_mesh(res.limb_tets()).expect("mesh");
            let n = t.len() / 4;
            eprintln!("{res:?}: {} vertices, {n} tets", p.len() / 3);
            let tolerance = if res == Resolution::Tiny { 0.25 } else { 0.1 };
            assert!((n as f64 / res.limb_tets() as f64 - 1.0).abs() < tolerance, "{res:?}: {n} tets");
        }
        assert_eq!(
            [Resolution::Low, Resolution::High].map(|r| 2 * r.sleeve_quads().0 * r.sleeve_quads().1),
            [2976, 8000]
        );
    }
}
