//! `elbow-sleeve`: a jersey sleeve across a bending elbow, the scene a Blender user rigs
//! (`tests/blender/elbow_sleeve.py` bakes the same one inside Blender), with the skinned arm
//! handed over as a collider mesh with a point cache.
//!
//! - Arm: a closed cylinder of radius 5 cm about the x axis from −0.3 m to 0.3 m, 16 segments ×
//!   25 rings with fanned end caps (402 vertices, 800 triangles), skinned to two bones that meet
//!   at the elbow, the origin: the upper arm (x < 0) stays and the forearm turns about the z
//!   axis by θ(u) = bend · (3u² − 2u³), u going from 0 to 1 over frames 1 to 21 (Blender's frames
//!   2 to 22). A rest point p is blended by linear blend skinning, p' = (1 − w) p + w R(θ) p,
//!   with the forearm weight w = clamp(1/2 + x / (2 b), 0, 1): the weights blend over ±b about
//!   the elbow, b = 12 cm by default (`--blend`), wide enough that the skin in the crook does not
//!   fold into itself up to 130°; with b = 5 cm (the Blender test's `--skin-blend 0.05`) it
//!   folds from 90°, closing on the sleeve. The positions of every frame are rounded to single
//!   precision, as a PC2 file holds them.
//! - Sleeve: an open tube of radius 5.6 cm (6 mm over the arm) from x = −0.10 m to 0.25 m,
//!   24 × 28 = 672 vertices, jersey (0.18 kg/m², E = 0.5 MPa, 0.6 mm, bending 2 µN·m), its
//!   shoulder ring pinned; the bend folds it into the crook.
//! - μ 0.4 (`--mu`), fully implicit friction (`--coupling lagged`: IPC's lagged friction), a
//!   3 mm contact layer, exact distance to the arm, 10 substeps a frame (the Blender add-on's
//!   defaults), 23 frames at 24 fps; `--angle` sets the bend (default 90°, at most 150°).

use super::demo::DemoOptions;
use super::demo_limb_mesh::smoothstep;
use grip::contact::FrictionCoupling;
use grip::mesh::shapes::open_cylinder;
use grip::scene::description::{Elements, FrictionPair, PointCache, Scene, SceneObject};
use grip::{ColliderMeshContact, Material, SolverParams};

/// The default bend of the elbow (degrees).
pub const BEND_DEGREES: f64 = 90.0;
/// Half the width over which the skinning weights blend about the elbow by default (m).
pub const BLEND_HALF_WIDTH: f64 = 0.12;
/// The narrowest and widest `--blend` (m): from a tenth of the arm's radius to half its length.
const BLEND_RANGE: (f64, f64) = (0.005, 0.3);
/// Frames after the initial one (24 fps): the bend runs over frames 1 to 21, then holds.
const FRAMES: usize = 23;
/// The frames over which the forearm turns (from, to).
const BEND_FRAMES: (f64, f64) = (1.0, 21.0);
/// The arm's radius (m), segments around and rings along, from x = `ARM_X.0` to `ARM_X.1` (m).
const ARM: (f64, usize, usize) = (0.05, 16, 25);
const ARM_X: (f64, f64) = (-0.30, 0.30);
/// The sleeve's radius (m), segments around and rings along, from x = `SLEEVE_X.0` to
/// `SLEEVE_X.1` (m).
const SLEEVE: (f64, usize, usize) = (0.056, 24, 28);
const SLEEVE_X: (f64, f64) = (-0.10, 0.25);

/// The forearm's turn (rad) at `frame` for a full bend of `bend` (rad).
fn turn_at(frame: usize, bend: f64) -> f64 {
    bend * smoothstep((frame as f64 - BEND_FRAMES.0) / (BEND_FRAMES.1 - BEND_FRAMES.0))
}

/// The skinned arm at a forearm turn of `theta` (rad): each rest point blended between its
/// place and its place turned about the z axis through the elbow, p' = (1 − w) p + w R(θ) p,
/// w = clamp(1/2 + x / (2 `blend`), 0, 1), `blend` (m) half the blend's width; rounded to
/// single precision.
pub fn skinned(rest: &[f64], theta: f64, blend: f64) -> Vec<f64> {
    let (s, c) = theta.sin_cos();
    rest.chunks_exact(3)
        .flat_map(|p| {
            let w = (0.5 + p[0] / (2.0 * blend)).clamp(0.0, 1.0);
            let turned = [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]];
            [0, 1, 2].map(|k| (1.0 - w) * p[k] + w * turned[k])
        })
        .map(|x| f64::from(x as f32))
        .collect()
}

/// A closed tube about the x axis: [`open_cylinder`] with `rings` rings from `x0` to `x1` (m)
/// and each end closed by a fan from a centre vertex on the axis; outward.
pub fn closed_tube(radius: f64, x0: f64, x1: f64, around: usize, rings: usize) -> (Vec<f64>, Vec<u32>) {
    let (mut positions, mut triangles) = open_cylinder(radius, x0, x1, around, rings - 1);
    let first = (positions.len() / 3) as u32;
    positions.extend_from_slice(&[x0, 0.0, 0.0, x1, 0.0, 0.0]);
    let (around, last) = (around as u32, ((rings - 1) * around) as u32);
    for i in 0..around {
        let j = (i + 1) % around;
        // The x0 cap faces −x, the x1 cap +x.
        triangles.extend_from_slice(&[first, j, i, first + 1, last + i, last + j]);
    }
    (positions, triangles)
}

/// The scene with `options.angle_deg` (the bend, default 90°), `options.blend` (half the skinning
/// blend's width, default [`BLEND_HALF_WIDTH`]), `options.mu` (default 0.4) and
/// `options.coupling` (default fully implicit).
pub fn elbow_sleeve(options: &DemoOptions) -> Result<Scene, String> {
    let bend = options.angle_deg.unwrap_or(BEND_DEGREES);
    if !(bend > 0.0 && bend <= 150.0) {
        return Err(format!("--angle (the elbow's bend) must be in (0, 150] degrees, got {bend}"));
    }
    let blend = options.blend.unwrap_or(BLEND_HALF_WIDTH);
    if !(blend >= BLEND_RANGE.0 && blend <= BLEND_RANGE.1) {
        return Err(format!(
            "--blend (half the width of the elbow's skinning blend) must be in [{}, {}] m, got {blend}",
            BLEND_RANGE.0, BLEND_RANGE.1
        ));
    }
    let mu = options.mu.unwrap_or(0.4);
    if !(0.0..=10.0).contains(&mu) {
        return Err(format!("--mu must be in [0, 10], got {mu}"));
    }
    let (rest, triangles) = closed_tube(ARM.0, ARM_X.0, ARM_X.1, ARM.1, ARM.2);
    let frames: Vec<Vec<f64>> = (0..=FRAMES).map(|k| skinned(&rest, turn_at(k, bend.to_radians()), blend)).collect();
    let mut arm = SceneObject::new("arm", frames[0].clone(), Elements::ColliderMesh(triangles), Material::default());
    arm.point_cache = Some(PointCache::new(frames));

    let (positions, triangles) = open_cylinder(SLEEVE.0, SLEEVE_X.0, SLEEVE_X.1, SLEEVE.1, SLEEVE.2 - 1);
    let jersey = Material {
        density: 300.0,
        youngs_modulus: 5e5,
        poisson_ratio: 0.3,
        thickness: 6e-4,
        bending_stiffness: 2e-6,
        damping_beta: 1e-3,
        ..Material::default()
    };
    let mut sleeve = SceneObject::new("sleeve", positions, Elements::Triangles(triangles), jersey);
    sleeve.pinned = (0..SLEEVE.1).collect();

    let params = SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: 3e-3,
        collider_mesh_contact: ColliderMeshContact::Exact,
        friction_coupling: options.coupling.unwrap_or(FrictionCoupling::Implicit),
        ..SolverParams::default()
    };
    let mut scene = Scene::new("elbow-sleeve", params, vec![arm, sleeve]);
    scene.frames = FRAMES;
    scene.fps = 24.0;
    scene.friction = vec![FrictionPair { a: "sleeve".into(), b: "arm".into(), mu }];
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arm is a closed, outward tube of 402 vertices and 800 triangles: every edge shared by
    /// two triangles, and its enclosed volume (divergence theorem) within 3 % of the cylinder's
    /// (the 16-gon's area is 97.4 % of the circle's).
    #[test]
    fn the_arm_is_a_closed_outward_tube() {
        let (p, t) = closed_tube(0.05, -0.3, 0.3, 16, 25);
        assert_eq!((p.len() / 3, t.len() / 3), (402, 800));
        let mut edges = std::collections::HashMap::new();
        for tri in t.chunks_exact(3) {
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        assert!(edges.values().all(|&n| n == 2), "closed");
        let at = |v: u32| [p[3 * v as usize], p[3 * v as usize + 1], p[3 * v as usize + 2]];
        let volume: f64 = t
            .chunks_exact(3)
            .map(|tri| {
                let [a, b, c] = [at(tri[0]), at(tri[1]), at(tri[2])];
                (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                    + a[2] * (b[0] * c[1] - b[1] * c[0]))
                    / 6.0
            })
            .sum();
        let cylinder = std::f64::consts::PI * 0.05 * 0.05 * 0.6;
        assert!((volume / cylinder - 1.0).abs() < 0.03, "volume {volume} against {cylinder}");
    }

    /// The skinning holds the upper arm beyond the blend, turns the forearm beyond it by the
    /// full bend, and blends half-way at the elbow; the bend runs over frames 1 to 21.
    #[test]
    fn skinning_holds_the_upper_arm_and_turns_the_forearm() {
        let rest = [-0.2, 0.05, 0.0, 0.2, 0.05, 0.01, 0.0, 0.05, 0.0];
        let bent = skinned(&rest, std::f64::consts::FRAC_PI_2, BLEND_HALF_WIDTH);
        let single = |x: f64| f64::from(x as f32);
        assert_eq!(&bent[..3], &rest[..3].iter().map(|&x| single(x)).collect::<Vec<_>>()[..]);
        // (0.2, 0.05) turned 90° about the origin: (−0.05, 0.2).
        assert!([-0.05, 0.2, 0.01].iter().zip(&bent[3..6]).all(|(a, b)| (a - b).abs() < 1e-7), "{bent:?}");
        // At the elbow, w = 1/2: the mean of (0, 0.05) and (−0.05, 0).
        assert!([-0.025, 0.025, 0.0].iter().zip(&bent[6..]).all(|(a, b)| (a - b).abs() < 1e-7), "{bent:?}");
        assert_eq!((turn_at(0, 1.0), turn_at(1, 1.0), turn_at(21, 1.0), turn_at(23, 1.0)), (0.0, 0.0, 1.0, 1.0));
        assert!((turn_at(11, 1.0) - 0.5).abs() < 1e-12);
        // A blend of ±5 cm: x = 2.5 cm has w = 3/4, x = 5 cm and beyond turns fully.
        let narrow = skinned(&[0.025, 0.0, 0.0, 0.06, 0.0, 0.0], std::f64::consts::FRAC_PI_2, 0.05);
        let expected = [0.25 * 0.025, 0.75 * 0.025, 0.0, 0.0, 0.06, 0.0];
        assert!(expected.iter().zip(&narrow).all(|(a, b)| (a - b).abs() < 1e-7), "{narrow:?}");
    }

    /// The skinned arm's self-intersecting triangle pairs at the last frame for a bend of
    /// `bend` (°) with the weights blended over ±`blend` (m).
    fn folds(bend: f64, blend: f64) -> usize {
        let s = elbow_sleeve(&DemoOptions { angle_deg: Some(bend), blend: Some(blend), ..Default::default() })
            .expect("scene");
        let Elements::ColliderMesh(triangles) = &s.objects[0].elements else { panic!("a collider mesh") };
        let bent = s.objects[0].point_cache.as_ref().expect("cache").positions(s.frames);
        let points: Vec<[f64; 3]> = bent.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
        let triangles: Vec<[u32; 3]> = triangles.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        grip::mesh::intersection::intersecting_pairs(&points, &triangles).len()
    }

    /// The default blend keeps the skin in the crook from folding into itself at 90° (and at
    /// 110°; it folds from 135°); a ±5 cm blend folds it at 110° (from 90°).
    #[test]
    fn the_default_blend_does_not_fold_the_skin() {
        assert_eq!(folds(90.0, BLEND_HALF_WIDTH), 0);
        assert_eq!(folds(110.0, BLEND_HALF_WIDTH), 0);
        assert!(folds(110.0, 0.05) > 0);
    }

    /// The scene: the arm a deforming collider mesh with a cache per frame that ends bent by
    /// `--angle`, the sleeve's shoulder ring pinned, μ between them; bends out of range refused.
    #[test]
    fn scene_bends_the_arm_under_the_sleeve() {
        let s = elbow_sleeve(&DemoOptions { angle_deg: Some(110.0), ..Default::default() }).expect("scene");
        s.validate().expect("valid");
        let arm = &s.objects[0];
        assert!(arm.is_collider_mesh());
        let cache = arm.point_cache.as_ref().expect("cache");
        assert_eq!(cache.frames.len(), s.frames + 1);
        assert_eq!(cache.positions(0), &arm.positions[..]);
        // The forearm's end cap centre (the last vertex, at x = 0.3 m) ends at 110°.
        let end = &cache.positions(s.frames)[cache.positions(0).len() - 3..];
        assert!((end[1].atan2(end[0]).to_degrees() - 110.0).abs() < 1e-4, "{end:?}");
        assert_eq!(s.objects[1].pinned, (0..24).collect::<Vec<_>>());
        assert_eq!(s.friction[0].mu, 0.4);
        for bad in [0.0, 151.0, f64::NAN] {
            assert!(elbow_sleeve(&DemoOptions { angle_deg: Some(bad), ..Default::default() }).is_err(), "{bad}");
        }
        // `--blend` narrows the forearm's weights: the arm's vertex at rest at (0.05, 0.05, 0),
        // bent 90°, turns fully with ±5 cm (w = 1, to (−0.05, 0.05)) and by w = 0.708 with the
        // default ±12 cm (to (0.05 (1 − 2w), 0.05)).
        let bent_at = |blend: Option<f64>| {
            let s = elbow_sleeve(&DemoOptions { blend, ..Default::default() }).expect("scene");
            let cache = s.objects[0].point_cache.as_ref().expect("cache");
            let rest = cache.positions(0);
            let i = (0..rest.len() / 3)
                .find(|&i| (rest[3 * i] - 0.05).abs() < 1e-6 && (rest[3 * i + 1] - 0.05).abs() < 1e-6)
                .expect("a vertex at (0.05, 0.05, 0)");
            cache.positions(s.frames)[3 * i..3 * i + 2].to_vec()
        };
        let w = 0.5 + 0.05 / 0.24;
        for (blend, expected) in [(Some(0.05), [-0.05, 0.05]), (None, [0.05 * (1.0 - 2.0 * w), 0.05])] {
            let p = bent_at(blend);
            assert!(expected.iter().zip(&p).all(|(a, b)| (a - b).abs() < 1e-6), "{blend:?}: {p:?}");
        }
        for bad in [0.0, 0.5, f64::INFINITY] {
            assert!(elbow_sleeve(&DemoOptions { blend: Some(bad), ..Default::default() }).is_err(), "{bad}");
        }
    }
}
