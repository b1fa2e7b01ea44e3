//! The triangles of self-contact over one call: the shells' triangles, then the
//! solids' boundary faces for the shell–solid pairs of `super::shell_solid`, with their
//! exclusion topology, the friction and thickness tables of the objects and the guard's count of
//! intersecting shell triangles.

use super::shell_solid::edge_faces;
use crate::contact::self_contact::filter::{ExclusionFilter, MEETS_ITSELF};
use std::collections::HashMap;

/// Numbers of intersecting triangle pairs of self-contact's mesh ([`SelfContactMesh::crossings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Crossings {
    /// Pairs of shell triangles ([`SelfContactMesh::intersections`]).
    pub shells: usize,
    /// Pairs of a shell triangle and a solid's boundary face.
    pub with_solids: usize,
}

/// The thickness of the pairs of every two objects of self-contact's mesh, and which objects
/// meet themselves (the rules are `crate::model::self_contact`'s).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairThickness {
    /// Per vertex (global index): its object's row.
    pub row: Vec<u32>,
    /// δ (m) of the pairs between the objects of rows a and b at `a · k + b` of a k × k
    /// symmetric table; a shell with a solid: the shell's δ (the shell–solid pairs take
    /// `super::shell_solid::SOLID_THICKNESS_FRACTION` of it); 0 where no pair is formed.
    pub delta: Vec<f64>,
    /// Per row: whether the object's primitives form pairs with each other.
    pub meets_itself: Vec<bool>,
}

impl PairThickness {
    /// Number of rows k.
    fn rows(&self) -> usize {
        self.meets_itself.len()
    }

    /// δ (m) between the objects of vertices `a` and `b`.
    fn between(&self, a: u32, b: u32) -> f64 {
        let k = self.rows();
        self.delta[self.row[a as usize] as usize * k + self.row[b as usize] as usize]
    }
}

/// The triangles that take part in self-contact and their exclusion topology, built once per
/// call from the model's shells (and the solids' boundary faces, `super::shell_solid`).
#[derive(Clone, Debug)]
pub struct SelfContactMesh {
    /// Shell triangles, then the solids' outward boundary faces; global vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// How many of `triangles` are the shells'.
    pub shell_triangles: usize,
    /// Per global vertex: whether it is a solid's (empty without solids).
    pub solid: Vec<bool>,
    /// The faces (indices into `triangles`) on either side of each solid edge
    /// (`super::shell_solid::edge_faces`).
    pub solid_edge_faces: HashMap<[u32; 2], [u32; 2]>,
    /// Which pairs are never tested: incident ones, 1-ring ones within their object's δ at
    /// rest, and those of an object with itself whose self-contact is off.
    pub filter: ExclusionFilter,
    /// Per-object thickness (`None`: every pair takes the δ of its law).
    pub thickness: Option<PairThickness>,
    /// The largest δ of a pair (m): the δ given to [`Self::new`], or the largest of `thickness`.
    pub max_delta: f64,
    /// Rest positions (flat, 3 per vertex, in m): the edge–edge mollifier thresholds.
    pub rest: Vec<f64>,
    /// Vertices of `triangles`, sorted.
    pub vertices: Vec<u32>,
    /// Per vertex (global index): its object's row of `mu` (empty: no friction, paper Eq. 8
    /// with μ = 0).
    pub shell: Vec<u32>,
    /// Friction coefficient μ (paper Eq. 8) between the objects of rows a and b at
    /// `a · rows + b` (dimensionless).
    pub mu: Vec<f64>,
}

impl SelfContactMesh {
    /// The mesh of the shells' `triangles` (global indices) over `rest` (3 per vertex, in m), for
    /// thickness δ_s = `delta` in m (1-ring pairs within it at rest are excluded,
    /// `ExclusionFilter`); `None` without triangles.
    pub fn new(triangles: Vec<[u32; 3]>, rest: Vec<f64>, delta: f64) -> Option<Self> {
        Self::with_solids(triangles, &[], rest, delta)
    }

    /// As [`Self::new`], with the solids' outward boundary faces `faces` (global indices) after
    /// the shells' triangles for the shell–solid pairs (`super::shell_solid`); `None` without
    /// shell triangles.
    pub fn with_solids(triangles: Vec<[u32; 3]>, faces: &[[u32; 3]], rest: Vec<f64>, delta: f64) -> Option<Self> {
        let filter = |triangles: &[[u32; 3]], rest: &[f64]| ExclusionFilter::new(triangles, rest, delta);
        Self::build(triangles, faces, rest, filter, None, delta)
    }

    /// As [`Self::with_solids`], with a thickness per pair of objects and objects that do not
    /// meet themselves (`thickness`): each pair's δ is `thickness`'s for its two objects
    /// ([`Self::pair_delta`]), the 1-ring exclusion of an object uses its own δ, and the pairs of
    /// an object that does not meet itself are excluded.
    pub fn with_objects(
        triangles: Vec<[u32; 3]>,
        faces: &[[u32; 3]],
        rest: Vec<f64>,
        thickness: PairThickness,
    ) -> Option<Self> {
        let own = |v: u32| thickness.between(v, v);
        let apart = if thickness.meets_itself.iter().all(|&m| m) {
            Vec::new()
        } else {
            let tag = |&r: &u32| if thickness.meets_itself[r as usize] { MEETS_ITSELF } else { r };
            thickness.row.iter().map(tag).collect()
        };
        let filter = |triangles: &[[u32; 3]], rest: &[f64]| ExclusionFilter::with_objects(triangles, rest, own, apart);
        let max_delta = thickness.delta.iter().copied().fold(0.0, f64::max);
        Self::build(triangles, faces, rest, filter, Some(thickness.clone()), max_delta)
    }

    /// The mesh of the shells' `triangles` then the solids' `faces` with the exclusion filter
    /// `filter` makes of all of them at `rest`.
    fn build(
        mut triangles: Vec<[u32; 3]>,
        faces: &[[u32; 3]],
        rest: Vec<f64>,
        filter: impl FnOnce(&[[u32; 3]], &[f64]) -> ExclusionFilter,
        thickness: Option<PairThickness>,
        max_delta: f64,
    ) -> Option<Self> {
        if triangles.is_empty() {
            return None;
        }
        let shell_triangles = triangles.len();
        let mut solid = Vec::new();
        let mut solid_edge_faces = HashMap::new();
        if !faces.is_empty() {
            solid = vec![false; rest.len() / 3];
            faces.iter().flatten().for_each(|&v| solid[v as usize] = true);
            solid_edge_faces = edge_faces(faces, shell_triangles);
            triangles.extend_from_slice(faces);
        }
        let filter = filter(&triangles, &rest);
        let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        Some(Self {
            triangles,
            shell_triangles,
            solid,
            solid_edge_faces,
            filter,
            thickness,
            max_delta,
            rest,
            vertices,
            shell: Vec::new(),
            mu: Vec::new(),
        })
    }

    /// The shells' triangles.
    pub fn shell_triangles(&self) -> &[[u32; 3]] {
        &self.triangles[..self.shell_triangles]
    }

    /// The solids' outward boundary faces (empty without solids).
    pub fn solid_faces(&self) -> &[[u32; 3]] {
        &self.triangles[self.shell_triangles..]
    }

    /// Sets the friction of the pairs (paper Eq. 8): `shell[v]` is the row of vertex v's object
    /// (every vertex, global indices), and μ between the objects of rows a and b is
    /// `mu[a · k + b]` of a k × k symmetric table (dimensionless).
    pub fn with_friction(mut self, shell: Vec<u32>, mu: Vec<f64>) -> Self {
        self.shell = shell;
        self.mu = mu;
        self
    }

    /// Number of intersecting pairs of shell triangles at `q` in m (exact checker,
    /// `crate::mesh::intersection`) that self-contact acts on: every pair but those holding a
    /// primitive pair excluded for being within δ at rest in the 1-ring or of an object whose
    /// self-contact is off (`ExclusionFilter::excuses`; none on a mesh whose rest clearance
    /// exceeds δ and every object meeting itself, where this is the `intersecting_pairs` of the
    /// stats).
    pub fn intersections(&self, q: &[f64]) -> usize {
        let positions = crate::mesh::triples(q);
        crate::mesh::intersecting_pairs(&positions, self.shell_triangles())
            .into_iter()
            .filter(|&(i, j)| !self.filter.excuses(self.triangles[i as usize], self.triangles[j as usize]))
            .count()
    }

    /// The intersecting triangle pairs at `q` (m) in one pass of the exact checker: those
    /// between shell triangles that [`Self::intersections`] counts, and those of a shell
    /// triangle and a solid's boundary face (none without solids): a shell edge through a
    /// solid's face or a solid's ridge or corner through a shell triangle, both of which the
    /// signed shell–solid pairs push back (the stats' `intersecting_pairs_with_solids` counts
    /// the same pairs, and collider meshes too).
    pub fn crossings(&self, q: &[f64]) -> Crossings {
        let positions = crate::mesh::triples(q);
        let shells = self.shell_triangles as u32;
        // Shell triangles come first, so a pair (i < j) has a shell triangle when i does.
        let pairs = crate::mesh::intersection::intersecting_pairs_where(&positions, &self.triangles, |i, _| i < shells);
        let (between_shells, with_solids): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|&(_, j)| j < shells);
        let shells = between_shells
            .into_iter()
            .filter(|&(i, j)| !self.filter.excuses(self.triangles[i as usize], self.triangles[j as usize]))
            .count();
        Crossings { shells, with_solids: with_solids.len() }
    }

    /// δ (m) of the pairs between the objects of vertices `a` and `b` (`None` without a
    /// thickness table: the law's).
    pub fn pair_delta(&self, a: u32, b: u32) -> Option<f64> {
        self.thickness.as_ref().map(|t| t.between(a, b))
    }

    /// μ (paper Eq. 8) between the objects of vertices `a` and `b` (0 without a table).
    pub fn pair_mu(&self, a: u32, b: u32) -> f64 {
        let k = (self.mu.len() as f64).sqrt() as usize;
        match (self.shell.get(a as usize), self.shell.get(b as usize)) {
            (Some(&i), Some(&j)) => self.mu.get(i as usize * k + j as usize).copied().unwrap_or(0.0),
            _ => 0.0,
        }
    }
}
