//! `cloth-fold`: a square cloth dropped onto a thin fixed horizontal rod. It drapes
//! over the rod and its two halves swing in under it towards each other, so the cloth folds
//! onto itself; self-contact (vertex–triangle and edge–edge cubic penalty, paper §3.2 applied
//! to the shell against itself) keeps the halves apart. `stats.csv`'s `intersecting_pairs` is
//! the check: 0 in every frame with self-contact on.

use grip::contact::collider::shape::ShapeKind;
use grip::contact::Shape;
use grip::mesh::generate::grid_cloth;
use grip::scene::collider::{Motion, SceneCollider};
use grip::scene::description::{Elements, Scene, SceneObject};
use grip::{Material, SolverParams};

/// Side of the square cloth (m).
pub(crate) const SIDE: f64 = 0.4;
/// Radius of the rod (m).
pub(crate) const ROD_RADIUS: f64 = 0.01;
/// Height of the cloth above the rod's axis at the start (m).
pub(crate) const DROP: f64 = 0.03;
/// Self-contact thickness δ_s (m): below √2 × the edge of the coarsest mesh used (the flat
/// cloth then has no self-contact force).
pub(crate) const SELF_CONTACT_THICKNESS: f64 = 0.004;
/// Vertices along each side of the built-in demo's cloth.
pub(crate) const DEMO_VERTICES: usize = 30;

/// A cotton-like cloth: 1 mm thick, 150 kg/m³ (0.15 kg/m²), E = 0.5 MPa, ν = 0.3, soft
/// bending, light Rayleigh damping.
fn cotton() -> Material {
    Material {
        density: 150.0,
        youngs_modulus: 5e5,
        poisson_ratio: 0.3,
        thickness: 1e-3,
        bending_stiffness: 3e-4,
        damping_alpha: 0.1,
        damping_beta: 1e-3,
        ..Material::default()
    }
}

/// The cloth-fold scene: `vertices` × `vertices` vertices (≥ 2) on the 0.4 m square, held
/// horizontally `DROP` above a fixed rod (a cylinder of radius `ROD_RADIUS` along y),
/// the column of vertices at (or just past) the middle of the cloth right over the rod's axis (contact acts on
/// vertices, so the rod must not fit between two columns), μ = 0.5 so the halves do not slip off;
/// self-contact on or off. Frames at 24 frames/s.
pub fn cloth_fold(vertices: usize, self_contact: bool, frames: usize) -> Scene {
    let n = vertices.max(2) - 1;
    let (vertical, triangles) = grid_cloth(SIDE, SIDE, n, n);
    // grid_cloth lies in the x–z plane (z from 0 down to −side): lay it flat at z = DROP with
    // column k over the rod.
    let k = (0.5 * n as f64).ceil();
    let shift = 0.5 * SIDE - k * SIDE / n as f64;
    let positions: Vec<f64> = vertical.chunks_exact(3).flat_map(|p| [p[0] + shift, -p[2] - 0.5 * SIDE, DROP]).collect();
    let cloth = SceneObject::new("cloth", positions, Elements::Triangles(triangles), cotton());
    let params = SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: 2e-3,
        self_contact,
        self_contact_thickness: SELF_CONTACT_THICKNESS,
        ..SolverParams::default()
    };
    let mut scene = Scene::new("cloth-fold", params, vec![cloth]);
    scene.frames = frames;
    let rod = Shape {
        kind: ShapeKind::Cylinder,
        center: [0.0; 3],
        axis: [0.0, 1.0, 0.0],
        radius: ROD_RADIUS,
        half_length: 0.3,
        ..Shape::default()
    };
    scene.colliders = vec![SceneCollider { name: "rod".into(), shape: rod, mu: 0.5, motion: Motion::Fixed }];
    scene.view = Some([0.0, -1.0, 0.1]);
    scene
}

/// The built-in demo: 30 × 30 vertices, self-contact on, 48 frames (2 s).
pub fn demo() -> Scene {
    cloth_fold(DEMO_VERTICES, true, 48)
}
