//! Collider-mesh demos, each beside the analytic collider of (nearly) the same shape, so that
//! `grip bench` shows what a mesh costs: `cloth-on-proxy` (a 33 × 33 cloth dropped over an
//! octagonal collision proxy with fanned caps) and `cloth-on-cylinder` (the same drop on an
//! analytic cylinder of the proxy's circumradius); `sphere-and-floor` (Blender's cloth test: a
//! 21 × 21 cloth onto a 32 × 16 UV-sphere mesh over a floor mesh, 10 substeps a frame) and
//! `sphere-and-floor-analytic` (analytic sphere and plane); `dense-collider` (the 33 × 33 cloth
//! onto a UV sphere of 102K triangles, where the contact search must stay a small part of the
//! step); `spike-bed` (a cloth dropped on a bed of sharp cones, asynchronous contact's draping on
//! spikes).

use grip::contact::collider::shape::ShapeKind;
use grip::contact::Shape;
use grip::mesh::generate::grid_cloth;
use grip::mesh::shapes::{cone, prism, uv_sphere};
use grip::scene::collider::{Motion, SceneCollider};
use grip::scene::description::{Elements, FrictionPair, Scene, SceneObject};
use grip::{ColliderMeshContact, Material, SolverParams};

/// Radius of the proxy's circumscribed circle and of its analytic twin (m).
const PROXY_RADIUS: f64 = 0.15;
/// Radius of the spheres of `sphere-and-floor` (m), centred at the origin.
const SPHERE_RADIUS: f64 = 0.5;
/// Height of the floor of `sphere-and-floor` (m): the sphere rests on it.
const FLOOR_Z: f64 = -SPHERE_RADIUS;

/// A cotton-like cloth (0.3 kg/m², E = 0.5 MPa) with light Rayleigh damping.
fn cloth_material() -> Material {
    Material {
        density: 300.0,
        youngs_modulus: 5e5,
        poisson_ratio: 0.3,
        thickness: 1e-3,
        bending_stiffness: 1e-5,
        damping_alpha: 0.5,
        damping_beta: 1e-3,
        ..Material::default()
    }
}

/// A horizontal cloth of `n` × `n` quads and side `size` (m), centred over the z axis at height
/// `z` (m).
fn flat_cloth(size: f64, n: usize, z: f64) -> SceneObject {
    let (vertical, triangles) = grid_cloth(size, size, n, n);
    let positions = vertical.chunks_exact(3).flat_map(|p| [p[0], p[2] + 0.5 * size, z]).collect();
    SceneObject::new("cloth", positions, Elements::Triangles(triangles), cloth_material())
}

/// A collider mesh object named `name`.
fn mesh(name: &str, (positions, triangles): (Vec<f64>, Vec<u32>)) -> SceneObject {
    SceneObject::new(name, positions, Elements::ColliderMesh(triangles), Material::default())
}

/// A fixed analytic collider.
fn analytic(name: &str, shape: Shape) -> SceneCollider {
    SceneCollider { name: name.into(), shape, mu: 0.0, motion: Motion::Fixed }
}

/// μ between the cloth and `other`.
fn friction(other: &str, mu: f64) -> FrictionPair {
    FrictionPair { a: "cloth".into(), b: other.into(), mu }
}

/// A 48-frame scene of the cloth and `objects` at 1/240 s substeps with a 2 mm contact layer,
/// collider meshes met by exact distance.
fn scene(name: &str, cloth: SceneObject, objects: Vec<SceneObject>) -> Scene {
    let params = SolverParams {
        time_step: 1.0 / 240.0,
        contact_thickness: 2e-3,
        collider_mesh_contact: ColliderMeshContact::Exact,
        ..SolverParams::default()
    };
    let mut all = objects;
    all.push(cloth);
    let mut s = Scene::new(name, params, all);
    s.frames = 48;
    s
}

/// `cloth-on-proxy` (`mesh`) or `cloth-on-cylinder`: a 0.8 m cloth of 33 × 33 vertices dropped
/// from 2 cm over an octagonal prism 1 m long (circumradius 0.15 m, fanned caps), μ = 0.3.
pub fn cloth_on_proxy(as_mesh: bool) -> Scene {
    let cloth = flat_cloth(0.8, 32, PROXY_RADIUS + 0.02);
    if as_mesh {
        let mut s = scene("cloth-on-proxy", cloth, vec![mesh("proxy", prism(PROXY_RADIUS, -0.5, 0.5, 8))]);
        s.friction = vec![friction("proxy", 0.3)];
        return s;
    }
    let mut s = scene("cloth-on-cylinder", cloth, Vec::new());
    let rod = Shape {
        kind: ShapeKind::Cylinder,
        axis: [1.0, 0.0, 0.0],
        radius: PROXY_RADIUS,
        half_length: 0.5,
        ..Shape::default()
    };
    s.colliders = vec![analytic("cylinder", rod)];
    s.friction = vec![friction("cylinder", 0.3)];
    s
}

/// `sphere-and-floor` (`mesh`) or `sphere-and-floor-analytic`: a 1.6 m cloth of 21 × 21
/// vertices (441) dropped from 0.1 m over a 0.5 m sphere resting on a floor, 10 substeps per
/// frame, μ = 0.4 on the sphere and 0.6 on the floor. The meshes are Blender's defaults: a
/// UV sphere of 32 segments and 16 rings, and a floor of two triangles (4 m square).
pub fn sphere_and_floor(as_mesh: bool) -> Scene {
    let cloth = flat_cloth(1.6, 20, SPHERE_RADIUS + 0.1);
    let mut s = if as_mesh {
        let floor = (
            vec![-2.0, -2.0, FLOOR_Z, 2.0, -2.0, FLOOR_Z, 2.0, 2.0, FLOOR_Z, -2.0, 2.0, FLOOR_Z],
            vec![0, 1, 2, 0, 2, 3],
        );
        let objects = vec![mesh("sphere", uv_sphere(SPHERE_RADIUS, 32, 16)), mesh("floor", floor)];
        scene("sphere-and-floor", cloth, objects)
    } else {
        let mut s = scene("sphere-and-floor-analytic", cloth, Vec::new());
        let ball = Shape { kind: ShapeKind::Sphere, radius: SPHERE_RADIUS, ..Shape::default() };
        let floor = Shape { kind: ShapeKind::Plane, center: [0.0, 0.0, FLOOR_Z], ..Shape::default() };
        s.colliders = vec![analytic("sphere", ball), analytic("floor", floor)];
        s
    };
    s.friction = vec![friction("sphere", 0.4), friction("floor", 0.6)];
    s
}

/// `dense-collider`: the 0.8 m cloth of 33 × 33 vertices dropped from 2 cm onto a 0.3 m UV
/// sphere of 320 segments and 160 rings (101,760 triangles), μ = 0.3, 24 frames.
pub fn dense_collider() -> Scene {
    let cloth = flat_cloth(0.8, 32, 0.32);
    let mut s = scene("dense-collider", cloth, vec![mesh("sphere", uv_sphere(0.3, 320, 160))]);
    s.friction = vec![friction("sphere", 0.3)];
    s.frames = 24;
    s
}

/// The spikes of `spike-bed`: 5 × 5 twelve-sided cones of radius 2 cm and height 10 cm (half-angle
/// 11.3°), 6 cm apart, centred on the origin, as one mesh (350 vertices, 600 triangles).
pub fn spike_bed_mesh() -> (Vec<f64>, Vec<u32>) {
    let (p, t) = cone(0.02, 0.1, 12);
    let (mut points, mut triangles) = (Vec::new(), Vec::new());
    for i in 0..5 {
        for j in 0..5 {
            let first = (points.len() / 3) as u32;
            let (x, y) = (0.06 * (i as f64 - 2.0), 0.06 * (j as f64 - 2.0));
            points.extend(p.chunks_exact(3).flat_map(|c| [c[0] + x, c[1] + y, c[2]]));
            triangles.extend(t.iter().map(|&v| v + first));
        }
    }
    (points, triangles)
}

/// `spike-bed`: a 0.4 m cloth of 33 × 33 vertices (1089) dropped from 1 cm over the tips of
/// [`spike_bed_mesh`], μ = 0.3, 24 frames: the draping-on-spikes example of asynchronous
/// contact (Harmon et al. 2009), where every cone's apex and ridges hold the cloth.
pub fn spike_bed() -> Scene {
    let cloth = flat_cloth(0.4, 32, 0.11);
    let mut s = scene("spike-bed", cloth, vec![mesh("spikes", spike_bed_mesh())]);
    s.friction = vec![friction("spikes", 0.3)];
    s.frames = 24;
    s
}
