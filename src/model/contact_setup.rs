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
    /// increasing order; μ from `set_friction` or `default_friction`. A solid's vertices against
    /// a shell get the contact `thickness` (m) as gap offset: the shell's own vertices keep the
    /// thickness from the solid, and a second layer the other way round would fight them (both
    /// surfaces are faceted, their sags differ by a fraction of the thickness), so this direction
    /// only stops solid vertices that reach the shell's mid-surface between its vertices.
    pub fn surface_queries(&self, default_friction: f64, thickness: f64) -> Vec<SurfaceQuery> {
        let vertices = self.contact_vertices();
        let mut out = Vec::new();
        for (s, surface) in self.objects.iter().enumerate() {
            if surface.surface.is_empty() {
                continue;
            }
            for &(vertex, owner) in &vertices {
                let Ok(query) = self.object(owner) else { continue };
                if owner != surface.id && touches(query.kind, surface.kind) {
                    let mu = self.friction(owner, surface.id, default_friction);
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
