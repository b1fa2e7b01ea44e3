//! `twisted-cylinder` (the cylinder-twist benchmark of Codim-IPC, Li et al. 2021): an
//! open cloth cylinder whose two end rings are turned in opposite directions about its axis at
//! 72°/s each and moved towards each other at 5 mm/s each. The middle wrings into a rope of
//! folds pressed against each other, the hardest self-contact case: `stats.csv`'s
//! `intersecting_pairs` must stay 0 in every frame. Gravity is off, so the folds come from the
//! twist alone.
//!
//! Cylinder: radius `RADIUS`, x ∈ [−`HALF_LENGTH`, `HALF_LENGTH`]; the built-in demo has
//! 88 × 80 quads (7128 vertices, 14080 triangles, ≈ 3.6 mm edges) and runs 200 frames (8.3 s:
//! each ring turns 600°, the rings end 83 mm closer).

use grip::mesh::shapes::open_cylinder;
use grip::scene::description::{Elements, PinGroup, PinSelection, Scene, SceneObject};
use grip::scene::motion::Motion;
use grip::solve::linear_solver::LinearSolverKind;
use grip::{Material, SolverParams};

/// Cylinder radius (m).
pub(crate) const RADIUS: f64 = 0.05;
/// Half the cylinder's length (m).
pub(crate) const HALF_LENGTH: f64 = 0.15;
/// Angular speed of each end ring about the axis in rad/s (72°/s).
pub(crate) const RING_SPIN: f64 = 72.0 * std::f64::consts::PI / 180.0;
/// Speed of each end ring towards the middle (m/s).
pub(crate) const RING_SPEED: f64 = 5e-3;
/// Self-contact thickness δ_s (m): below the edge length of every resolution used.
pub(crate) const SELF_CONTACT_THICKNESS: f64 = 1e-3;
/// Quads around and along the demo's cylinder (7128 vertices).
pub(crate) const DEMO_QUADS: (usize, usize) = (88, 80);
/// Frames of the demo (24 per second).
pub(crate) const DEMO_FRAMES: usize = 200;

/// A cotton-like cloth, 1 mm thick: 150 kg/m³ (0.15 kg/m²), E = 0.5 MPa, ν = 0.3, the plate
/// bending stiffness D = E t³ / (12 (1 − ν²)) ≈ 4.6e-5 N·m, light Rayleigh damping.
fn cloth() -> Material {
    let (e, nu, t) = (5e5, 0.3, 1e-3);
    Material {
        density: 150.0,
        youngs_modulus: e,
        poisson_ratio: nu,
        thickness: t,
        bending_stiffness: e * t * t * t / (12.0 * (1.0 - nu * nu)),
        damping_alpha: 0.1,
        damping_beta: 1e-3,
        ..Material::default()
    }
}

/// The scene with `around` × `along` quads, self-contact on or off, `frames` frames at 24 fps.
/// The rings (the vertices at x = ±`HALF_LENGTH`) follow steady motions: the left one turns
/// at +`RING_SPIN` about +x and moves +`RING_SPEED` along x, the right one the opposite.
pub fn twisted_cylinder(around: usize, along: usize, self_contact: bool, frames: usize) -> Scene {
    let (positions, triangles) = open_cylinder(RADIUS, -HALF_LENGTH, HALF_LENGTH, around, along);
    let mut sleeve = SceneObject::new("cylinder", positions, Elements::Triangles(triangles), cloth());
    let (inf, edge) = (f64::INFINITY, 1e-9);
    let ring = |sign: f64| Motion::Steady {
        velocity: [sign * RING_SPEED, 0.0, 0.0],
        angular_velocity: [sign * RING_SPIN, 0.0, 0.0],
        pivot: [0.0; 3],
    };
    sleeve.pin_groups = vec![
        PinGroup {
            selection: PinSelection::Box { min: [-inf; 3], max: [-HALF_LENGTH + edge, inf, inf] },
            motion: ring(1.0),
        },
        PinGroup {
            selection: PinSelection::Box { min: [HALF_LENGTH - edge, -inf, -inf], max: [inf; 3] },
            motion: ring(-1.0),
        },
    ];
    let params = SolverParams {
        time_step: 1.0 / 24.0,
        gravity: [0.0; 3],
        self_contact,
        self_contact_thickness: SELF_CONTACT_THICKNESS,
        max_substep_halvings: 8,
        // Inexact Newton: ≈ 10× faster than the sparse LU at 7128 vertices (BENCHMARKS.md);
        // both keep the test resolution's frames free of intersections (cli/tests/twisted_cylinder.rs).
        linear_solver: LinearSolverKind::Iterative,
        ..SolverParams::default()
    };
    let mut scene = Scene::new("twisted-cylinder", params, vec![sleeve]);
    scene.frames = frames;
    scene.view = Some([0.3, 0.4, 1.0]);
    scene
}

/// The built-in demo: 88 × 80 quads, self-contact on, 200 frames.
pub fn demo() -> Scene {
    twisted_cylinder(DEMO_QUADS.0, DEMO_QUADS.1, true, DEMO_FRAMES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rings are the first and last `around` vertices, pinned to opposite steady motions;
    /// the demo has ≈ 7K vertices.
    #[test]
    fn rings_are_pinned_to_opposite_motions() {
        let s = twisted_cylinder(12, 6, true, 10);
        s.validate().expect("valid");
        let groups = s.objects[0].pin_group_vertices(s.frames, s.fps).expect("pins");
        assert_eq!(groups[0], (0..12).collect::<Vec<_>>());
        assert_eq!(groups[1], (72..84).collect::<Vec<_>>());
        assert_eq!((s.params.self_contact, s.params.gravity, s.frames), (true, [0.0; 3], 10));
        assert_eq!(s.params.linear_solver, LinearSolverKind::Iterative);
        let (a, b) = DEMO_QUADS;
        assert_eq!(a * (b + 1), 7128);
    }
}
