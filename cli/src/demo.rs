//! Built-in demo scenes for `grip demo`; the default, `tube-cloth-bend`, is in `demo_tube.rs`,
//! the contact demos (`incline`, `pinch`) in `demo_contact.rs`, the integrator and volume demos
//! (`ball-squish`, `tennis-ball-drop`, `ball-in-box`, `soft-beam`) in `demo_dynamics.rs`, the
//! self-contact demos (`cloth-fold`, `twisted-cylinder`) in `demo_fold.rs` and `demo_twist.rs`,
//! the collider-mesh demos and their analytic twins in `demo_colliders.rs`, the skinned limbs in
//! `demo_limb_mesh.rs` and `demo_elbow.rs`.

use super::demo_colliders;
use super::demo_contact;
use super::demo_dynamics;
use super::demo_elbow;
use super::demo_fold;
use super::demo_limb_mesh;
use super::demo_tube::{self, Resolution, SleeveFit};
use super::demo_twist;
use grip::mesh::generate::{box_tets, grid_cloth, top_vertices};
use grip::scene::description::{Elements, Scene, SceneObject};
use grip::{FailurePolicy, Material, SolverParams};

/// The demo run when no name is given.
pub(crate) const DEFAULT_DEMO: &str = "tube-cloth-bend";

/// Every demo: (name, one-line description).
pub(crate) const DEMOS: [(&str, &str); 19] = [
    (
        "tube-cloth-bend",
        "fitted cloth sleeve (worn at 20 % hoop strain) on a soft capsule limb (r = 50 mm, 5K or 30K tets) bent \
         90 deg about an elbow in 1 s; stats.csv: slip, volume change [--res low|high --mu --sleeve fitted|loose]",
    ),
    ("hanging-cloth", "1 m x 1 m cloth (20x20 grid), horizontal, pinned at two corners: swings down and settles"),
    ("hanging-bar", "0.1 x 0.1 x 1 m rubber-like tet bar (E = 1 MPa, nu = 0) hanging from its top face"),
    (
        "incline",
        "stiff 0.1 m tet block sliding down a 10 deg plane at 0.1 m/s, mu = 0.177: stops after 0.77 m \
         [--angle --mu --v0 --h --coupling]",
    ),
    ("pinch", "soft 0.1 m tet block squeezed by two plates that lift it 0.1 m by friction alone [--mu --h --coupling]"),
    (
        "ball-squish",
        "0.1 m hollow rubber ball pressed to 70 % height between plates; air: quadratic volume penalty, 0.01/atm",
    ),
    ("tennis-ball-drop", "33 mm tennis ball (ideal gas, 1 atm over ambient) dropped from 2.54 m onto a floor, SDIRK2"),
    (
        "ball-in-box",
        "spinning solid rubber ball (1K tets) thrown inside an elastic box, mu = 0.1, trapezoidal rule at h = 0.01 s, 800 frames",
    ),
    ("soft-beam", "1 m soft neo-Hookean beam (E = 100 kPa) clamped at both ends, sagging under gravity, TR-BDF2"),
    (
        "cloth-fold",
        "0.4 m square cloth (30x30) dropped onto a rod (r = 10 mm): drapes and folds onto itself; self-contact on \
         (4 mm), stats.csv: intersecting_pairs",
    ),
    (
        "twisted-cylinder",
        "cloth cylinder (7128 vertices) whose end rings turn in opposite directions at 72 deg/s and close in \
         at 5 mm/s each (Codim-IPC's twist), self-contact on, 200 frames",
    ),
    (
        "cloth-on-proxy",
        "0.8 m cloth (33x33) dropped over a low-poly collider mesh: an octagonal prism (r = 0.15 m) with fanned caps",
    ),
    ("cloth-on-cylinder", "cloth-on-proxy's drop on an analytic cylinder of the proxy's circumradius"),
    (
        "sphere-and-floor",
        "1.6 m cloth (21x21) onto a UV-sphere mesh (32x16, r = 0.5 m) on a two-triangle floor mesh, 10 substeps a frame",
    ),
    ("sphere-and-floor-analytic", "sphere-and-floor with an analytic sphere and plane"),
    ("dense-collider", "0.8 m cloth (33x33) dropped onto a UV-sphere collider mesh of 101,760 triangles (r = 0.3 m)"),
    (
        "sleeve-on-limb-mesh",
        "tube-cloth-bend's loose sleeve on its limb as a skinned collider mesh (1490 triangles, a point cache per frame) \
         bent 90 deg in 1 s [--res --mu --coupling]",
    ),
    (
        "spike-bed",
        "0.4 m cloth (33x33) dropped on a bed of 5x5 sharp 12-sided cones (r = 20 mm, 100 mm high, 60 mm apart), \
         a collider mesh of 600 triangles, mu = 0.3",
    ),
    (
        "elbow-sleeve",
        "jersey sleeve (672 vertices) across an elbow: a skinned arm mesh (r = 50 mm, 800 triangles, a point cache \
         per frame) bent 90 deg over 20 frames, weights blended over +-12 cm, mu = 0.4 [--angle --blend --mu --coupling]",
    ),
];

/// The `grip demo` options of the contact demos; `None` keeps the demo's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemoOptions {
    /// Slope angle in degrees (`--angle`).
    pub angle_deg: Option<f64>,
    /// Half the width of the elbow's skinning blend in m (`--blend`).
    pub blend: Option<f64>,
    /// Friction coefficient (`--mu`).
    pub mu: Option<f64>,
    /// Initial speed down the slope in m/s (`--v0`).
    pub v0: Option<f64>,
    /// Time step in s (`--h`).
    pub h: Option<f64>,
    /// Friction coupling (`--coupling`).
    pub coupling: Option<grip::contact::FrictionCoupling>,
    /// Output frame rate in frames/s (`--fps`), which timed collider motions need.
    pub fps: Option<f64>,
    /// Mesh resolution (`--res`).
    pub resolution: Option<Resolution>,
    /// The tube demos' sleeve (`--sleeve`).
    pub sleeve: Option<SleeveFit>,
}

impl DemoOptions {
    /// The contact options given, as (flag, value) with finite-number checks.
    fn given(&self) -> Vec<(&'static str, f64)> {
        let flags = [("angle", self.angle_deg), ("blend", self.blend), ("mu", self.mu), ("v0", self.v0), ("h", self.h)];
        let mut v: Vec<_> = flags.into_iter().filter_map(|(f, x)| x.map(|x| (f, x))).collect();
        v.extend(self.coupling.map(|_| ("coupling", 0.0)));
        v.extend(self.resolution.map(|_| ("res", 0.0)));
        v.extend(self.sleeve.map(|_| ("sleeve", 0.0)));
        v
    }
}

/// The contact options each demo uses.
fn accepted(name: &str) -> &'static [&'static str] {
    match name {
        "incline" => &["angle", "mu", "v0", "h", "coupling"],
        "pinch" => &["mu", "h", "coupling"],
        "tube-cloth-bend" => &["mu", "res", "sleeve"],
        "sleeve-on-limb-mesh" => &["mu", "res", "coupling"],
        "elbow-sleeve" => &["angle", "blend", "mu", "coupling"],
        _ => &[],
    }
}

/// Lines printed by `grip demo --list`: the name, padded to the longest name plus two spaces,
/// then the description.
pub fn list() -> String {
    let width = DEMOS.iter().map(|(n, _)| n.len()).max().unwrap_or(0) + 2;
    DEMOS.iter().map(|(n, d)| format!("{n:<width$}{d}\n")).collect()
}

/// The demo scene `name` with its default parameters; the error lists the known names.
pub fn scene(name: &str) -> Result<Scene, String> {
    scene_with(name, &DemoOptions::default())
}

/// The demo scene `name` with `options`; refuses options the demo does not use, and values out
/// of range, naming the flag.
pub fn scene_with(name: &str, options: &DemoOptions) -> Result<Scene, String> {
    if DEMOS.iter().any(|d| d.0 == name) {
        let ok = accepted(name);
        for (flag, x) in options.given() {
            if !ok.contains(&flag) {
                let uses =
                    if ok.is_empty() { "none of them".to_string() } else { format!("only --{}", ok.join(", --")) };
                return Err(format!(
                    "demo \"{name}\" does not use --{flag} (--angle, --mu, --v0, --h and --coupling apply to \
                     incline and pinch, --mu and --res to tube-cloth-bend and sleeve-on-limb-mesh, --sleeve to tube-cloth-bend, --coupling to \
                     sleeve-on-limb-mesh too, --angle, --blend, --mu and --coupling to elbow-sleeve; {name} takes {uses})"
                ));
            }
            if !x.is_finite() {
                return Err(format!("--{flag} must be finite, got {x}"));
            }
        }
    }
    let scene = match name {
        "tube-cloth-bend" => demo_tube::tube_cloth_bend(options),
        "hanging-cloth" => Ok(hanging_cloth()),
        "hanging-bar" => Ok(hanging_bar()),
        "incline" => demo_contact::incline(options),
        "pinch" => demo_contact::pinch(options),
        "cloth-fold" => Ok(demo_fold::demo()),
        "twisted-cylinder" => Ok(demo_twist::demo()),
        "cloth-on-proxy" => Ok(demo_colliders::cloth_on_proxy(true)),
        "cloth-on-cylinder" => Ok(demo_colliders::cloth_on_proxy(false)),
        "sphere-and-floor" => Ok(demo_colliders::sphere_and_floor(true)),
        "sphere-and-floor-analytic" => Ok(demo_colliders::sphere_and_floor(false)),
        "dense-collider" => Ok(demo_colliders::dense_collider()),
        "spike-bed" => Ok(demo_colliders::spike_bed()),
        "sleeve-on-limb-mesh" => demo_limb_mesh::sleeve_on_limb_mesh(options),
        "elbow-sleeve" => demo_elbow::elbow_sleeve(options),
        other => demo_dynamics::demo(other).ok_or_else(|| {
            let known: Vec<&str> = DEMOS.iter().map(|d| d.0).collect();
            format!("unknown demo \"{name}\" (known: {})", known.join(", "))
        }),
    };
    // A demo runs as a scene file without `failure_policy` does: it goes on past a substep that
    // fails after its halvings, reporting it.
    scene.map(|mut s| {
        s.params.failure_policy = FailurePolicy::Continue;
        s
    })
}

/// Solver parameters shared by the demos: Z up, 1/240 s substeps.
fn params() -> SolverParams {
    SolverParams { time_step: 1.0 / 240.0, ..SolverParams::default() }
}

/// A 1 m × 1 m cloth of 20 × 20 quads (default cotton-like material, 0.3 kg/m², plus Rayleigh
/// mass damping α = 1 1/s) starting horizontal in the XY plane at z = 0 and pinned at the two
/// corners of its y = 0 edge: it falls, swings down under the pins and settles, folding.
fn hanging_cloth() -> Scene {
    let (nx, ny) = (20, 20);
    let (vertical, triangles) = grid_cloth(1.0, 1.0, nx, ny);
    // Lay the curtain flat: (x, 0, z) ↦ (x, z, 0), so the pinned edge is y = 0.
    let positions: Vec<f64> = vertical.chunks_exact(3).flat_map(|p| [p[0], p[2], 0.0]).collect();
    let material = Material { damping_alpha: 1.0, ..Material::default() };
    let mut cloth = SceneObject::new("cloth", positions, Elements::Triangles(triangles), material);
    cloth.pinned = vec![0, nx];
    Scene::new("hanging-cloth", params(), vec![cloth])
}

/// A 0.1 × 0.1 × 1 m bar of 2 × 2 × 20 cubes (480 tets) along z from z = −1 m to z = 0, with
/// E = 1 MPa, ν = 0, ρ = 1000 kg/m³ (10 kg) and Rayleigh damping α = 2 1/s, β = 0.005 s,
/// hanging from its top face (z = 0). Statically it stretches by ρgL²/(2E) ≈ 4.9 mm.
fn hanging_bar() -> Scene {
    let (positions, tets) = box_tets([0.1, 0.1, 1.0], [2, 2, 20], [-0.05, -0.05, -1.0]);
    let material = Material {
        density: 1000.0,
        youngs_modulus: 1e6,
        poisson_ratio: 0.0,
        damping_alpha: 2.0,
        damping_beta: 0.005,
        ..Material::default()
    };
    let pinned = top_vertices(&positions, 2, 1e-9);
    let mut bar = SceneObject::new("bar", positions, Elements::Tets(tets), material);
    bar.pinned = pinned;
    Scene::new("hanging-bar", params(), vec![bar])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_demo_builds() {
        for (name, _) in DEMOS {
            let s = scene(name).expect("demo");
            s.validate().expect("valid");
            s.build_solver().expect("solver");
        }
        assert!(scene("nope").unwrap_err().contains("tube-cloth-bend"));
        assert!(list().contains("hanging-bar"));
        // Every name stands apart from its description.
        assert!(list().lines().all(|l| l.split_once("  ").is_some_and(|(n, _)| DEMOS.iter().any(|(d, _)| *d == n))));
        let angle = DemoOptions { angle_deg: Some(5.0), ..Default::default() };
        assert!(scene_with("incline", &angle).is_ok());
        assert!(scene_with("pinch", &angle).unwrap_err().contains("--angle"));
        assert!(scene_with("hanging-bar", &angle).unwrap_err().contains("--angle"));
        let res = DemoOptions { resolution: Some(Resolution::Tiny), ..Default::default() };
        assert!(scene_with("tube-cloth-bend", &res).is_ok());
        assert!(scene_with("incline", &res).unwrap_err().contains("--res"));
    }
}
