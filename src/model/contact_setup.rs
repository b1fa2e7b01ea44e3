//! Which vertices can touch which deforming surfaces: every object's implicit contact
//! surface, and the (query vertex, surface) pairs. Shell vertices query solids and collider
//! meshes; solid boundary vertices query other solids, shells (from either side) and collider
//! meshes. Collider meshes only ever act as surfaces; shell–shell contact is not modelled here.

use super::objects::{Model, ObjectKind};
use crate::contact::surface::ImplicitSurface;

/// A potential contact between a vertex and another object's implicit surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceQuery {
    /// Global index of the query vertex.
    pub vertex: u32,
    /// Index of the surface (= index of its object in `Model::objects`).
    pub surface: u32,
    /// Friction coefficient μ of the pair.
    pub mu: f64,
    /// Offset added to the gap (m): the contact thickness for a solid's vertex against a shell
    /// (see `GapMeasure`), else 0.
    pub offset: f64,
    /// For a solid's vertex against a shell: the index of the solid's own surface, whose
    /// outward normal at the vertex tells which side of the shell it belongs on.
    pub own_surface: Option<u32>,
}

/// Whether vertices of a `query` object touch the surface of a `surface` object.
pub fn touches(query: ObjectKind, surface: ObjectKind) -> bool {
    use ObjectKind::*;
    matches!((query, surface), (Shell, Solid | ColliderMesh) | (Solid, Solid | Shell | ColliderMesh))
}

impl Model {
    /// The implicit surface of every object, in object order, with kernel radii
    /// `radius_multiplier` × sample spacing at rest and a far-field gap of twice the contact
    /// `thickness` in m (beyond the thickness, so no force, and close, so the blend to it at an
    /// open edge stays gentle). Shell surfaces are two-sided.
    pub fn implicit_surfaces(&self, radius_multiplier: f64, thickness: f64) -> Vec<ImplicitSurface> {
        self.objects
            .iter()
            .map(|o| {
                let base = o.first_vertex as u32;
                let triangles = o.surface.iter().map(|t| t.map(|v| v + base)).collect();
                let mut s =
                    ImplicitSurface::new(o.id, triangles, &self.rest, radius_multiplier, o.kind == ObjectKind::Shell);
                s.far = 2.0 * thickness;
                s
            })
            .collect()
    }

    /// Every (contact vertex, surface) pair that can touch, grouped by surface, vertices in
    /// increasing order; μ from the friction table ([`Model::friction`]). A solid's vertices against
    /// a shell get the contact `thickness` (m) as gap offset: the shell's own vertices keep the
    /// thickness from the solid, and a second layer the other way round would fight them (both
    /// surfaces are faceted, their sags differ by a fraction of the thickness), so this direction
    /// only stops solid vertices that reach the shell's mid-surface between its vertices.
    pub fn surface_queries(&self, thickness: f64) -> Vec<SurfaceQuery> {
        self.surface_queries_with(thickness, true)
    }

    /// [`Model::surface_queries`], against collider meshes only when `collider_meshes` (they
    /// may be met by exact distance instead, `crate::contact::collider_mesh`).
    pub fn surface_queries_with(&self, thickness: f64, collider_meshes: bool) -> Vec<SurfaceQuery> {
        let vertices = self.contact_vertices();
        let mut out = Vec::new();
        for (s, surface) in self.objects.iter().enumerate() {
            if surface.surface.is_empty() || (!collider_meshes && surface.kind == ObjectKind::ColliderMesh) {
                continue;
            }
            for &(vertex, owner) in &vertices {
                let Ok(query) = self.object(owner) else { continue };
                if owner != surface.id && touches(query.kind, surface.kind) {
                    let mu = self.friction.pair(owner, surface.id);
                    let reverse = query.kind == ObjectKind::Solid && surface.kind == ObjectKind::Shell;
                    let offset = if reverse { thickness } else { 0.0 };
                    let own_surface = reverse.then(|| self.objects.iter().position(|o| o.id == owner)).flatten();
                    out.push(SurfaceQuery {
                        vertex,
                        surface: s as u32,
                        mu,
                        offset,
                        own_surface: own_surface.map(|o| o as u32),
                    });
                }
            }
        }
        out
    }

    /// Whether any pair of objects can touch through implicit surfaces.
    pub fn has_surface_contact(&self) -> bool {
        self.objects.iter().any(|a| {
            a.kind != ObjectKind::ColliderMesh
                && self.objects.iter().any(|b| a.id != b.id && !b.surface.is_empty() && touches(a.kind, b.kind))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Material, Model};

    /// Every (vertex, surface) query carries the model's resolved μ of its two objects.
    #[test]
    fn queries_carry_the_resolved_friction() {
        let mut model = Model::new(0.3);
        let (p, t) = crate::mesh::generate::box_tets([0.1, 0.1, 0.1], [1, 1, 1], [0.0; 3]);
        let solid = model.add_solid(&p, &t, &Material::default()).unwrap();
        let square = [0.0, 0.0, 0.2, 0.1, 0.0, 0.2, 0.0, 0.1, 0.2, 0.1, 0.1, 0.2];
        let shell = model.add_shell(&square, &[0, 1, 2, 2, 1, 3], &Material::default()).unwrap();
        let floor = model.add_collider_mesh(&square.map(|x| x - 0.5), &[0, 1, 2, 2, 1, 3]).unwrap();
        let ids = [solid, shell, floor];
        let mu_of = |model: &Model| -> Vec<(u32, u32, f64)> {
            let owner_of =
                |v: u32| model.objects.iter().rev().find(|o| v as usize >= o.first_vertex).map(|o| o.id).unwrap();
            model.surface_queries(0.01).iter().map(|q| (owner_of(q.vertex), ids[q.surface as usize], q.mu)).collect()
        };
        assert!(mu_of(&model).iter().all(|&(_, _, mu)| mu == 0.3));
        model.set_own_friction(shell, 0.8).unwrap();
        model.set_own_friction(floor, 0.2).unwrap();
        model.set_friction(solid, floor, 0.05).unwrap();
        let queries = mu_of(&model);
        for (a, b) in [(shell, solid), (shell, floor), (solid, shell), (solid, floor)] {
            assert!(queries.iter().any(|&(x, y, _)| (x, y) == (a, b)), "no query of {a} against {b}");
        }
        for (a, b, mu) in queries {
            assert_eq!(mu, model.friction.pair(a, b));
            let expected = match (a.min(b), a.max(b)) {
                (1, 2) => (0.8f64 * 0.3).sqrt(),
                (2, 3) => (0.8f64 * 0.2).sqrt(),
                _ => 0.05,
            };
            assert_eq!(mu, expected, "pair ({a}, {b})");
        }
    }
}
