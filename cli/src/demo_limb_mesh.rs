//! `sleeve-on-limb-mesh`: the tube cloth bend's sleeve on the limb as a host would hand it
//! over, a skinned surface mesh that moves and deforms (a kinematic collider mesh with a point
//! cache), met by exact-distance contact.
//!
//! - Limb: the boundary surface of the tube bend's tet limb (`--res`, default low: 1490
//!   triangles of isosurface stuffing, as irregular as a production mesh), deformed by linear
//!   blend skinning with two bones: the upper arm stays, the forearm turns about the z axis
//!   through `HINGE_PIVOT` by θ(t) = 90°·(3u² − 2u³), u = min(t / 1 s, 1), as in the tube bend;
//!   a vertex's forearm weight is w = S((x + 0.13 m) / 0.26 m), S(u) = 3u² − 2u³ on [0, 1], so
//!   the elbow blends over the tube bend's free middle. The positions at every frame are rounded
//!   to single precision, as the PC2 file that `--export` writes holds them.
//! - Sleeve: `tube-cloth-bend`'s loose sleeve (`--sleeve loose`), 1 mm over the limb. The fitted
//!   sleeve, snapping onto this mesh in the first frame, fails there with fully implicit friction
//!   (Newton does not converge even at h/256); with μ = 0 or lagged friction it runs.
//! - μ (`--mu`, default 0.2), time step and solver: those of `tube-cloth-bend`, friction
//!   fully implicit (`--coupling lagged`: sliding basis and normal force from the start of each
//!   step, as IPC). At low resolution both run the 48 frames and the sleeve slips 30.2 mm
//!   (implicit) and 30.3 mm (lagged) on the limb by frame 48, in 2997 and 3588 Newton
//!   iterations; `stats.csv` measures the slip.

use super::demo::DemoOptions;
use super::demo_tube::{
    limb_mesh, tube_cloth_bend, Resolution, SleeveFit, BEND_DEGREES, BEND_SECONDS, HINGE_PIVOT, PIN_X,
};
use grip::contact::FrictionCoupling;
use grip::mesh::boundary::boundary_triangles;
use grip::mesh::generate::without_unused_vertices;
use grip::scene::description::{Elements, PointCache, Scene, SceneObject, SlipPair};
use grip::{ColliderMeshContact, Material};

/// S(u) = 3u² − 2u³ on [0, 1], 0 below and 1 above.
pub(crate) fn smoothstep(u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

/// The skinned limb surface at time `t` (s): each rest point `p` blended between its place and
/// its place turned with the forearm, p' = (1 − w) p + w (R(θ(t)) (p − c) + c).
pub fn skinned(rest: &[f64], t: f64) -> Vec<f64> {
    let theta = BEND_DEGREES.to_radians() * smoothstep(t / BEND_SECONDS);
    let (s, co) = theta.sin_cos();
    let c = HINGE_PIVOT;
    rest.chunks_exact(3)
        .flat_map(|p| {
            let w = smoothstep((p[0] + PIN_X) / (2.0 * PIN_X));
            let (dx, dy) = (p[0] - c[0], p[1] - c[1]);
            let turned = [c[0] + co * dx - s * dy, c[1] + s * dx + co * dy, p[2]];
            [0, 1, 2].map(|k| (1.0 - w) * p[k] + w * turned[k])
        })
        .map(|x| f64::from(x as f32))
        .collect()
}

/// The scene at `options.resolution` (default low) and `options.mu` (default 0.2).
pub fn sleeve_on_limb_mesh(options: &DemoOptions) -> Result<Scene, String> {
    let mut scene = tube_cloth_bend(&DemoOptions { sleeve: Some(SleeveFit::Loose), ..options.clone() })?;
    let (positions, tets) = limb_mesh(options.resolution.unwrap_or(Resolution::Low).limb_tets())?;
    let tets: Vec<[u32; 4]> = tets.chunks_exact(4).map(|t| [t[0], t[1], t[2], t[3]]).collect();
    let surface = boundary_triangles(&tets);
    let flat: Vec<u32> = surface.iter().flatten().copied().collect();
    let (rest, triangles) = without_unused_vertices(&positions, &flat);
    let frames = (0..=scene.frames).map(|k| skinned(&rest, k as f64 / scene.fps)).collect::<Vec<_>>();
    let mut limb = SceneObject::new("limb", frames[0].clone(), Elements::ColliderMesh(triangles), Material::default());
    limb.point_cache = Some(PointCache::new(frames));
    scene.objects[0] = limb;
    scene.name = "sleeve-on-limb-mesh".into();
    scene.params.collider_mesh_contact = ColliderMeshContact::Exact;
    scene.params.friction_coupling = options.coupling.unwrap_or(FrictionCoupling::Implicit);
    scene.slip = vec![SlipPair { object: "sleeve".into(), on: "limb".into() }];
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skinning holds the upper arm, turns the forearm by 90° about the pivot by t = 1 s,
    /// and is the rest shape at t = 0.
    #[test]
    fn skinning_holds_the_upper_arm_and_turns_the_forearm() {
        let rest = [-0.18, 0.01, 0.02, 0.18, 0.0, 0.03, 0.0, -0.05, 0.0];
        let single = |x: f64| f64::from(x as f32);
        assert_eq!(skinned(&rest, 0.0), rest.map(single).to_vec());
        let bent = skinned(&rest, 1.0);
        assert_eq!(&bent[..3], &rest[..3].iter().map(|&x| single(x)).collect::<Vec<_>>()[..]);
        // Forearm point (0.18, 0, 0.03) − pivot (0, 0.075) = (0.18, −0.075) turned 90°: (0.075, 0.18).
        let want = [0.075, 0.075 + 0.18, 0.03];
        assert!(bent[3..6].iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-7), "{:?}", &bent[3..6]);
        assert_eq!(skinned(&rest, 1.0), skinned(&rest, 2.0));
    }

    #[test]
    fn scene_is_a_deforming_collider_mesh_under_the_sleeve() {
        let o = DemoOptions { resolution: Some(Resolution::Tiny), ..Default::default() };
        let s = sleeve_on_limb_mesh(&o).expect("scene");
        s.validate().expect("valid");
        let limb = &s.objects[0];
        assert!(limb.is_collider_mesh());
        let cache = limb.point_cache.as_ref().expect("cache");
        assert_eq!(cache.frames.len(), s.frames + 1);
        assert_eq!(cache.positions(0), &limb.positions[..]);
        assert_ne!(cache.positions(24), cache.positions(0));
    }
}
