//! The physical model: objects, their elements in global vertex numbering, and lumped masses.
//! Building an object validates everything first and changes the model only when all is well.

use super::friction::FrictionTable;
use super::material::Material;
use super::self_contact::ObjectSelfContact;
use crate::contact::Shape;
use crate::energy::dihedral_bending::BendingHinge;
use crate::energy::membrane::MembraneTriangle;
use crate::energy::stable_neo_hookean::NeoHookeanTet;
use crate::error::{Error, Result};
use crate::mesh::{self, interior_hinges};

/// What an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A tetrahedral solid.
    Solid,
    /// A triangle shell (cloth).
    Shell,
    /// A host-animated triangle surface (a skinned character): kinematic, infinite mass, its
    /// vertices moved only by `grip_solver_set_collider_positions`.
    ColliderMesh,
}

/// One simulated object: a contiguous range of the model's vertices.
#[derive(Clone, Debug)]
pub struct Object {
    /// Host-visible id (never 0).
    pub id: u32,
    /// Solid or shell.
    pub kind: ObjectKind,
    /// First global vertex.
    pub first_vertex: usize,
    /// Number of vertices.
    pub vertex_count: usize,
    /// Material as given.
    pub material: Material,
    /// Surface triangles in object-local indices (the shell itself, the solid's boundary, or
    /// the collider mesh).
    pub surface: Vec<[u32; 3]>,
    /// A collider mesh's welded connectivity (exact-distance contact); `None` for others.
    pub mesh_topology: Option<std::sync::Arc<crate::contact::collider_mesh::MeshTopology>>,
    /// A shell's self-contact settings (`super::self_contact`; default for solids and collider
    /// meshes, which they do not apply to).
    pub self_contact: ObjectSelfContact,
}

/// A kinematic collider: a shape moved rigidly by the host (its pose is solver state).
#[derive(Clone, Debug)]
pub struct Collider {
    /// Host-visible id (never 0; shared numbering with objects).
    pub id: u32,
    /// The shape in its definition frame.
    pub shape: Shape,
}

/// Elements of one kind with the Rayleigh β (s) of each.
#[derive(Clone, Debug)]
pub struct ElementSet<E> {
    /// The elements.
    pub elements: Vec<E>,
    /// Rayleigh stiffness damping β (s) per element.
    pub beta: Vec<f64>,
}

impl<E> Default for ElementSet<E> {
    fn default() -> Self {
        Self { elements: Vec::new(), beta: Vec::new() }
    }
}

impl<E> ElementSet<E> {
    fn extend(&mut self, elements: Vec<E>, beta: f64) {
        self.beta.extend(std::iter::repeat_n(beta, elements.len()));
        self.elements.extend(elements);
    }
}

/// All objects and elements.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Objects in creation order.
    pub objects: Vec<Object>,
    /// Stable neo-Hookean tets.
    pub tets: ElementSet<NeoHookeanTet>,
    /// Shell membrane triangles.
    pub membranes: ElementSet<MembraneTriangle>,
    /// Shell bending hinges.
    pub hinges: ElementSet<BendingHinge>,
    /// Lumped mass per vertex (kg).
    pub mass: Vec<f64>,
    /// Rayleigh mass damping α (1/s) per vertex.
    pub alpha: Vec<f64>,
    /// Rest positions per vertex (m).
    pub rest: Vec<[f64; 3]>,
    /// Kinematic colliders in creation order.
    pub colliders: Vec<Collider>,
    /// μ of every pair of objects and colliders, resolved when the model changes.
    pub friction: FrictionTable,
    /// Volume-change penalties (paper §3.4), at most one per object.
    pub volumes: Vec<super::volume_penalty::VolumePenalty>,
    /// Soft pins: springs from vertices to anchors, in increasing vertex order.
    pub soft_pins: Vec<crate::energy::target_spring::TargetSpring>,
}

impl Model {
    /// An empty model whose friction pairs default to `default_friction` (μ, dimensionless; see
    /// [`FrictionTable`]).
    pub fn new(default_friction: f64) -> Self {
        Self { friction: FrictionTable::new(default_friction), ..Self::default() }
    }

    /// Total number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.mass.len()
    }

    /// The object with `id`.
    pub fn object(&self, id: u32) -> Result<&Object> {
        self.objects.iter().find(|o| o.id == id).ok_or_else(|| Error::UnknownObject(format!("no object with id {id}")))
    }

    fn next_id(&self) -> u32 {
        (self.objects.len() + self.colliders.len()) as u32 + 1
    }

    /// Adds a kinematic collider; returns its id.
    pub fn add_collider(&mut self, shape: Shape) -> u32 {
        let id = self.next_id();
        self.colliders.push(Collider { id, shape });
        self.friction.add_body(false);
        id
    }

    /// Index of collider `id` in `colliders`.
    pub fn collider_index(&self, id: u32) -> Result<usize> {
        self.colliders.iter().position(|c| c.id == id).ok_or_else(|| {
            let what = if self.objects.iter().any(|o| o.id == id) { "is not a collider" } else { "does not exist" };
            Error::UnknownObject(format!("collider {id} {what}"))
        })
    }

    /// Whether `id` names an object or a collider.
    pub fn has_id(&self, id: u32) -> bool {
        self.objects.iter().any(|o| o.id == id) || self.colliders.iter().any(|c| c.id == id)
    }

    /// Overrides μ (0 ≤ μ ≤ 100, dimensionless) between ids `a` and `b` (either order; `a == b`
    /// is the self-contact of one object), whatever their own μ ([`FrictionTable::set_pair`]).
    pub fn set_friction(&mut self, a: u32, b: u32, mu: f64) -> Result<()> {
        self.friction.set_pair(a, b, mu)
    }

    /// Sets the own μ (0 ≤ μ ≤ 100, dimensionless) of object or collider `id`, which its pairs
    /// without override combine ([`FrictionTable::set_own`]).
    pub fn set_own_friction(&mut self, id: u32, mu: f64) -> Result<()> {
        self.friction.set_own(id, mu)
    }

    /// Vertices that can touch colliders, in increasing order, with their object's id: every
    /// vertex of a shell, the boundary vertices of a solid (collider meshes touch, but are not
    /// touched as query points).
    pub fn contact_vertices(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for o in self.objects.iter().filter(|o| o.kind != ObjectKind::ColliderMesh) {
            let mut on_surface = vec![o.kind == ObjectKind::Shell; o.vertex_count];
            for t in &o.surface {
                for &v in t {
                    on_surface[v as usize] = true;
                }
            }
            let first = o.first_vertex as u32;
            out.extend(on_surface.iter().enumerate().filter(|(_, s)| **s).map(|(v, _)| (first + v as u32, o.id)));
        }
        out
    }

    /// Adds a tet solid; returns its id. Rejects inverted tets and tets thinner than
    /// [`MIN_ELEMENT_THICKNESS`](mesh::validate::MIN_ELEMENT_THICKNESS), by index.
    pub fn add_solid(&mut self, positions: &[f64], tets: &[u32], material: &Material) -> Result<u32> {
        material.validate(false)?;
        let rest = mesh::validate_positions(positions)?;
        let local = mesh::validate_tets(tets, rest.len())?;
        let base = self.vertex_count() as u32;
        let mut elements = Vec::with_capacity(local.len());
        let mut mass = vec![0.0; rest.len()];
        for (e, t) in local.iter().enumerate() {
            let x = t.map(|v| rest[v as usize]);
            thick_enough("tet", e, t, mesh::validate::tet_thickness(x))?;
            let el = NeoHookeanTet::new(t.map(|v| v + base), x, material.youngs_modulus, material.poisson_ratio)
                .ok_or_else(|| Error::mesh(format!("tet {e} {t:?} is inverted or has (near-)zero volume")))?;
            for &v in t {
                mass[v as usize] += material.density * el.rest_volume / 4.0;
            }
            elements.push(el);
        }
        let surface = mesh::boundary_triangles(&local);
        self.push_object(ObjectKind::Solid, rest, mass, material, surface);
        self.tets.extend(elements, material.damping_beta);
        Ok(self.objects.last().map(|o| o.id).unwrap_or(0))
    }

    /// Adds a triangle shell; returns its id. Rejects triangles thinner than
    /// [`MIN_ELEMENT_THICKNESS`](mesh::validate::MIN_ELEMENT_THICKNESS), by index.
    pub fn add_shell(&mut self, positions: &[f64], triangles: &[u32], material: &Material) -> Result<u32> {
        material.validate(true)?;
        let model = material.membrane_model;
        let rest = mesh::validate_positions(positions)?;
        let local = mesh::validate_triangles(triangles, rest.len())?;
        let base = self.vertex_count() as u32;
        let mut membranes = Vec::with_capacity(local.len());
        let mut mass = vec![0.0; rest.len()];
        for (e, t) in local.iter().enumerate() {
            let x = t.map(|v| rest[v as usize]);
            thick_enough("triangle", e, t, mesh::validate::triangle_thickness(x))?;
            let el = MembraneTriangle::new(
                t.map(|v| v + base),
                x,
                material.youngs_modulus,
                material.poisson_ratio,
                material.thickness,
                model,
            )
            .ok_or_else(|| Error::mesh(format!("triangle {e} {t:?} has (near-)zero area")))?;
            for &v in t {
                mass[v as usize] += material.density * el.rest_volume / 3.0;
            }
            membranes.push(el);
        }
        let mut hinges = Vec::new();
        if material.bending_stiffness > 0.0 {
            for h in interior_hinges(&local) {
                let x = h.map(|v| rest[v as usize]);
                // Hinges over a zero-area pair were already refused above; a folded rest pair is kept.
                if let Some(el) = BendingHinge::new(h.map(|v| v + base), x, material.bending_stiffness) {
                    hinges.push(el);
                }
            }
        }
        self.push_object(ObjectKind::Shell, rest, mass, material, local);
        self.membranes.extend(membranes, material.damping_beta);
        self.hinges.extend(hinges, material.damping_beta);
        Ok(self.objects.last().map(|o| o.id).unwrap_or(0))
    }

    /// Adds a kinematic collider mesh (vertices of zero mass, always prescribed); returns its id.
    /// Rejects bad indices and zero-area triangles by index.
    pub fn add_collider_mesh(&mut self, positions: &[f64], triangles: &[u32]) -> Result<u32> {
        let rest = mesh::validate_positions(positions)?;
        let local = mesh::validate_triangles(triangles, rest.len())?;
        for (e, t) in local.iter().enumerate() {
            let p = t.map(|v| rest[v as usize]);
            if crate::contact::surface::sample::is_degenerate(&p[0], &p[1], &p[2]) {
                return Err(Error::mesh(format!("collider triangle {e} {t:?} has (near-)zero area")));
            }
        }
        // A closed mesh wound inwards is turned outwards here, for the implicit surface too.
        let topology = crate::contact::collider_mesh::MeshTopology::new(&rest, &local);
        let object = Object {
            id: self.next_id(),
            kind: ObjectKind::ColliderMesh,
            first_vertex: self.vertex_count(),
            vertex_count: rest.len(),
            material: Material::default(),
            surface: topology.triangles.clone(),
            mesh_topology: Some(std::sync::Arc::new(topology)),
            self_contact: ObjectSelfContact::default(),
        };
        self.alpha.extend(std::iter::repeat_n(0.0, rest.len()));
        self.mass.extend(std::iter::repeat_n(0.0, rest.len()));
        self.rest.extend(rest);
        self.objects.push(object);
        self.friction.add_body(false);
        Ok(self.objects.last().map(|o| o.id).unwrap_or(0))
    }

    fn push_object(
        &mut self,
        kind: ObjectKind,
        rest: Vec<[f64; 3]>,
        mut mass: Vec<f64>,
        material: &Material,
        surface: Vec<[u32; 3]>,
    ) {
        // Vertices used by no element move as free particles with the object's mean vertex mass.
        let used: Vec<f64> = mass.iter().copied().filter(|&m| m > 0.0).collect();
        let mean = used.iter().sum::<f64>() / used.len().max(1) as f64;
        for m in mass.iter_mut().filter(|m| !(**m > 0.0)) {
            *m = mean;
        }
        let object = Object {
            id: self.next_id(),
            kind,
            first_vertex: self.vertex_count(),
            vertex_count: rest.len(),
            material: *material,
            surface,
            mesh_topology: None,
            self_contact: ObjectSelfContact::default(),
        };
        self.alpha.extend(std::iter::repeat_n(material.damping_alpha, rest.len()));
        self.mass.extend(mass);
        self.rest.extend(rest);
        self.objects.push(object);
        self.friction.add_body(kind == ObjectKind::Shell);
    }
}

/// Refuses element `e` (`kind` "triangle" or "tet") whose smallest height over longest edge,
/// `thickness`, is below [`mesh::validate::MIN_ELEMENT_THICKNESS`]: its stiffness, growing as
/// 1/thickness, would make every later step of the whole solver fail.
fn thick_enough<const N: usize>(kind: &str, e: usize, t: &[u32; N], thickness: f64) -> Result<()> {
    let min = mesh::validate::MIN_ELEMENT_THICKNESS;
    if thickness >= min {
        return Ok(());
    }
    let measure = if N == 4 { "volume" } else { "area" };
    Err(Error::mesh(format!(
        "{kind} {e} {t:?} is a sliver of (near-)zero {measure}: its smallest height is {thickness:.3e} of its longest edge, below the \
         accepted {min:e} (remove or merge it, e.g. Blender's Merge by Distance or Degenerate Dissolve)"
    )))
}
