//! Self-contact of shells over one call: the shells' triangles (and the solids'
//! boundary faces for the signed shell–solid pairs of `crate::contact::self_contact::shell_solid`, which
//! need no guard) and exclusion topology, the penalty law (a thickness per pair of objects
//! from their own, `crate::model::self_contact`, or `params.self_contact_thickness`; one
//! stiffness κ_s), the candidate padding, and the guard against tunnelling of shells through
//! shells (which leaves out the intersections of a shell whose self-contact is off with itself).
//!
//! The smallest thickness of the shells, δ_min, sets the scales shared by all pairs: κ_s,0 holds
//! the heaviest shell vertex's weight at δ_min/2 (`initial_stiffness`), so that under that
//! load every pair, whose δ is at least δ_min, keeps a gap of at least half its δ (a κ_s,0
//! made for the largest δ would let the thinnest pairs be pushed through to d = 0); and a
//! pair closer than `TOUCHING` δ_min counts as touching. The reach of the candidates, and
//! their padding, use the largest δ, so that no pair entering its own band is missed.
//!
//! The cubic penalty is finite at d = 0 (κ_s δ_s³), so a Newton step could carry a vertex
//! through a triangle, and beyond it the unsigned-distance penalty pushes it further through.
//! The exact triangle–triangle checker (`crate::mesh::intersection`) counts the shells'
//! intersecting pairs (but those holding a pair excluded for being within δ_s at rest) and guards at three
//! levels:
//! * Newton's guess: the predicted velocities, unless they make shells intersect (then the start
//!   velocities or rest, whichever intersects least; `Call::untangled_guess`);
//! * Newton's line search refuses a trial iterate with more intersecting pairs than the current
//!   one (`NonlinearSystem::intersections`);
//! * a substep that still ends with more than it started with, or whose Newton solve fails
//!   with a pair closer than `TOUCHING` δ_s (stalled at the distance's kink at d = 0, which
//!   the line search may not cross), is redone with κ_s four times stiffer (up to
//!   `params.max_contact_retries` times, paper §4.4's rule for colliders applied to
//!   self-contact) and then fails, so that it is split in halves. κ_s is kept for the
//!   following calls.
//!
//! The shell–solid pairs need no guard (their gap is signed), but their stiffness κ_b, made
//! for a shell vertex's weight like κ_s, can be far too weak for a cloth pulled taut over a
//! solid's edge: a substep that ends with more shell triangles crossing solids' faces than it
//! started with is redone with κ_b four times stiffer (the same §4.4 rule, up to
//! `params.max_contact_retries` times; then the substep stands and the signed pairs go on
//! pushing). κ_b is kept for the following calls (and in checkpoints).

use crate::assemble::contact::stage::SelfContactStage;
use crate::contact::self_contact::broad_phase;
use crate::contact::self_contact::contact_mesh::SelfContactMesh;
use crate::contact::self_contact::contact_mesh::{Crossings, PairThickness};
use crate::contact::self_contact::shell_solid::solid_law;
use crate::contact::ContactLaw;
use crate::model::self_contact::pair_thickness;
use crate::model::{Model, ObjectKind, SolverParams};

/// Factor by which κ_s (κ_b) grows when a substep ends with new intersections (crossings).
pub(crate) const STIFFER: f64 = 4.0;

/// Ceiling on κ_s and κ_b (N/m²).
const MAX_STIFFNESS: f64 = 1e30;

/// The self-contact of the shells over a call.
pub(crate) struct SelfContactOverCall<'a> {
    /// Shell triangles (and solids' boundary faces) and topology.
    pub mesh: &'a SelfContactMesh,
    /// Penalty law: the κ_s in use (raised on retries) and δ_min, the smallest shell thickness
    /// (each pair's own δ is the mesh's, [`SelfContactMesh::pair_delta`]).
    pub law: ContactLaw,
    /// Law of the shell–solid pairs: δ_b and the κ_b in use (raised on retries, and never
    /// below `shell_solid::solid_law(law)`).
    pub solid: ContactLaw,
    /// Candidate padding (m).
    pub padding: f64,
    /// The crossings at the end of the last accepted substep, which is where the next one
    /// starts (`None` before the first): counted once, not again at the next start.
    pub crossed: Option<Crossings>,
}

/// Fraction of δ_min below which a pair distance counts as touching: a substep whose Newton
/// solve fails with a pair that close is redone with a stiffer κ_s.
const TOUCHING: f64 = 0.1;

impl<'a> SelfContactOverCall<'a> {
    /// The self-contact of one stage: the mesh, the laws in use and the padding.
    pub fn stage(&self) -> SelfContactStage<'a> {
        SelfContactStage { mesh: self.mesh, law: self.law, solid: self.solid, padding: self.padding }
    }

    /// The intersecting pairs at `q` (m) between shell triangles (as [`Self::intersections`])
    /// and between shell triangles and solids' faces.
    pub fn crossings(&self, q: &[f64]) -> Crossings {
        self.mesh.crossings(q)
    }

    /// The crossings at a substep's start `q` (m): those the last accepted substep ended with
    /// (it ended at `q`), else counted.
    pub fn crossings_at_start(&self, q: &[f64]) -> Crossings {
        self.crossed.unwrap_or_else(|| self.crossings(q))
    }

    /// Number of intersecting triangle pairs of the shells at `q` (m) that self-contact acts on
    /// ([`SelfContactMesh::intersections`]).
    pub fn intersections(&self, q: &[f64]) -> usize {
        self.mesh.intersections(q)
    }

    /// Whether a pair distance `d` (m) is close enough to 0 to call for a stiffer κ_s.
    pub fn touching(&self, d: f64) -> bool {
        d < TOUCHING * self.law.delta
    }

    /// Raises κ_s after a substep that ended with new intersections; `false` at the ceiling.
    pub fn stiffen(&mut self) -> bool {
        if self.law.kappa >= MAX_STIFFNESS {
            return false;
        }
        self.law.kappa = (self.law.kappa * STIFFER).min(MAX_STIFFNESS);
        self.solid.kappa = self.solid.kappa.max(solid_law(self.law).kappa);
        true
    }

    /// Raises κ_b after a substep that ended with new crossings of shells and solids' faces;
    /// `false` at the ceiling.
    pub fn stiffen_solid(&mut self) -> bool {
        if self.solid.kappa >= MAX_STIFFNESS {
            return false;
        }
        self.solid.kappa = (self.solid.kappa * STIFFER).min(MAX_STIFFNESS);
        true
    }
}

/// Every shell triangle of `model` in global indices, then (with at least one shell) every
/// solid's boundary face for the shell–solid pairs of `crate::contact::self_contact::shell_solid`, with the
/// rest positions and the friction coefficient μ of every pair of these objects from the model's
/// friction table (`crate::model::friction`): between two shells (a shell with itself included)
/// 0 unless set — self-contact friction is opt-in, since `cloth-fold` (μ = 0.3, BENCHMARKS.md)
/// is the only self-contact scene measured with it on — and between a shell and a solid the μ of
/// their implicit-surface contact; and the thickness of every pair of them and which shells
/// meet themselves ([`thickness`]). `None` when self-contact is off or there is no shell.
pub(crate) fn mesh(model: &Model, params: &SolverParams) -> Option<SelfContactMesh> {
    if !params.self_contact {
        return None;
    }
    let global = |o: &crate::model::Object| -> Vec<[u32; 3]> {
        o.surface.iter().map(|t| t.map(|v| v + o.first_vertex as u32)).collect()
    };
    let shells: Vec<_> = model.objects.iter().filter(|o| o.kind == ObjectKind::Shell).collect();
    let solids: Vec<_> = model.objects.iter().filter(|o| o.kind == ObjectKind::Solid).collect();
    let triangles: Vec<[u32; 3]> = shells.iter().flat_map(|o| global(o)).collect();
    let faces: Vec<[u32; 3]> = solids.iter().flat_map(|o| global(o)).collect();
    let objects: Vec<_> = shells.iter().chain(&solids).collect();
    let mut row = vec![0u32; model.vertex_count()];
    for (i, o) in objects.iter().enumerate() {
        row[o.first_vertex..o.first_vertex + o.vertex_count].iter_mut().for_each(|s| *s = i as u32);
    }
    let mu: Vec<f64> = objects
        .iter()
        .flat_map(|a| {
            objects.iter().map(move |b| match (a.kind, b.kind) {
                (ObjectKind::Shell, _) | (_, ObjectKind::Shell) => model.friction.pair(a.id, b.id),
                _ => 0.0,
            })
        })
        .collect();
    let rest = model.rest.iter().flatten().copied().collect();
    let thickness = thickness(&objects, row.clone(), params);
    Some(SelfContactMesh::with_objects(triangles, &faces, rest, thickness)?.with_friction(row, mu))
}

/// The thickness table of self-contact's `objects` (shells, then solids; `row` per vertex) by
/// the rules of `crate::model::self_contact`: δ_AB = (δ_A + δ_B)/2 between shells, the shell's
/// δ between a shell and a solid, 0 (no pair) between solids; a shell with its self-contact off
/// does not meet itself.
fn thickness(objects: &[&&crate::model::Object], row: Vec<u32>, params: &SolverParams) -> PairThickness {
    let shell = |o: &crate::model::Object| o.kind == ObjectKind::Shell;
    let own = |o: &crate::model::Object| o.self_contact.thickness_or(params.self_contact_thickness);
    let delta = objects
        .iter()
        .flat_map(|a| {
            objects.iter().map(move |b| match (shell(a), shell(b)) {
                (true, true) => pair_thickness(own(a), own(b)),
                (true, false) => own(a),
                (false, true) => own(b),
                (false, false) => 0.0,
            })
        })
        .collect();
    let meets_itself = objects.iter().map(|o| !shell(o) || o.self_contact.enabled).collect();
    PairThickness { row, delta, meets_itself }
}

/// δ_min (m): the smallest thickness of the shells of `model` (their own or
/// `params.self_contact_thickness`).
pub(crate) fn smallest_thickness(model: &Model, params: &SolverParams) -> f64 {
    let shells = model.objects.iter().filter(|o| o.kind == ObjectKind::Shell);
    shells.map(|o| o.self_contact.thickness_or(params.self_contact_thickness)).fold(f64::INFINITY, f64::min)
}

/// κ_s,0 (N/m²): `params.contact_stiffness`, or when 0 the stiffness that holds the weight m g
/// of the heaviest shell vertex at d = δ_min/2 (the rule of every contact,
/// [`SolverParams::initial_stiffness`], at the smallest shell thickness, see the module's
/// documentation).
pub(crate) fn initial_stiffness(model: &Model, mesh: &SelfContactMesh, params: &SolverParams) -> f64 {
    let shells = mesh.shell_triangles().iter().flatten().copied();
    params.initial_stiffness(&model.mass, shells, smallest_thickness(model, params))
}

/// The law of the shell–solid pairs over a call: `shell_solid::solid_law` of the
/// self-contact law `law`, with κ_b raised to `kept` (N/m²), the κ_b a previous call ended with,
/// if that is stiffer.
pub(crate) fn solid(law: ContactLaw, kept: Option<f64>) -> ContactLaw {
    let derived = solid_law(law);
    ContactLaw { kappa: derived.kappa.max(kept.unwrap_or(0.0)), ..derived }
}

/// Candidate padding (m): a quarter of the shells' mean rest edge length, at least `delta` (the
/// largest pair thickness, [`SelfContactMesh::max_delta`]). Newton iterates may move a vertex
/// half this far before the candidates are gathered again.
pub(crate) fn padding(mesh: &SelfContactMesh, delta: f64) -> f64 {
    let solid = |v: u32| mesh.solid.get(v as usize).copied().unwrap_or(false);
    let edges: Vec<[u32; 2]> = mesh.filter.edges().iter().copied().filter(|e| !solid(e[0])).collect();
    (0.25 * broad_phase::mean_edge(&mesh.rest, &edges)).max(delta)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Material;

    /// A model of two 0.1 m shell squares at heights 0.2 and 0.3 m over a 0.1 m tet box;
    /// returns it with the ids [lower square, upper square, box].
    fn two_squares_over_a_box(params: &SolverParams) -> (Model, [u32; 3]) {
        let mut model = Model::new(params.default_friction);
        let (p, t) = crate::mesh::generate::box_tets([0.1, 0.1, 0.1], [1, 1, 1], [0.0; 3]);
        let solid = model.add_solid(&p, &t, &Material::default()).unwrap();
        let square = |z: f64| [0.0, 0.0, z, 0.1, 0.0, z, 0.0, 0.1, z, 0.1, 0.1, z];
        let a = model.add_shell(&square(0.2), &[0, 1, 2, 2, 1, 3], &Material::default()).unwrap();
        let b = model.add_shell(&square(0.3), &[0, 1, 2, 2, 1, 3], &Material::default()).unwrap();
        (model, [a, b, solid])
    }

    /// The self-contact mesh's μ table holds the model's resolved μ of every pair of shells and
    /// of shells and solids, and 0 between solids (which meet no solid through it).
    #[test]
    fn the_friction_rows_are_the_models_pairs() {
        let params = SolverParams { self_contact: true, default_friction: 0.35, ..SolverParams::default() };
        let (mut model, [a, b, solid]) = two_squares_over_a_box(&params);
        let rows = [a, b, solid];
        let check = |model: &Model, expected: [[f64; 3]; 3]| {
            let mesh = mesh(model, &params).unwrap();
            for (i, &x) in rows.iter().enumerate() {
                let row = mesh.shell[model.object(x).unwrap().first_vertex] as usize;
                assert_eq!(row, i);
                for j in 0..3 {
                    assert_eq!(mesh.mu[i * 3 + j], expected[i][j], "rows {i}, {j}");
                }
            }
        };
        check(&model, [[0.0, 0.0, 0.35], [0.0, 0.0, 0.35], [0.35, 0.35, 0.0]]);
        model.set_own_friction(a, 0.5).unwrap();
        model.set_own_friction(solid, 0.2).unwrap();
        model.set_friction(b, b, 0.25).unwrap();
        let (ab, as_) = (0.0, (0.5f64 * 0.2).sqrt());
        check(&model, [[0.5, ab, as_], [ab, 0.25, (0.35f64 * 0.2).sqrt()], [as_, (0.35f64 * 0.2).sqrt(), 0.0]]);
    }

    /// The thickness table: the solver's δ for shells without their own; the mean between two
    /// shells, the shell's own δ with a solid, none between solids; a shell with self-contact
    /// off does not meet itself; δ_min is the smallest shell δ and the reach the largest pair's.
    #[test]
    fn the_thickness_rows_follow_the_objects_settings() {
        use crate::model::ObjectSelfContact;
        let params = SolverParams { self_contact: true, self_contact_thickness: 1e-3, ..SolverParams::default() };
        let (mut model, [a, b, solid]) = two_squares_over_a_box(&params);
        let table = |model: &Model| mesh(model, &params).unwrap().thickness.unwrap();
        let t = table(&model);
        assert_eq!(
            (t.delta, t.meets_itself),
            (vec![1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 0.0], vec![true; 3])
        );
        model.set_object_self_contact(a, ObjectSelfContact { enabled: false, thickness: Some(4e-3) }).unwrap();
        assert!(model.set_object_self_contact(solid, ObjectSelfContact::default()).is_err());
        let t = table(&model);
        assert_eq!(t.delta, vec![4e-3, 2.5e-3, 4e-3, 2.5e-3, 1e-3, 1e-3, 4e-3, 1e-3, 0.0]);
        assert_eq!(t.meets_itself, vec![false, true, true]);
        assert_eq!(t.row[model.object(b).unwrap().first_vertex], 1);
        assert_eq!((smallest_thickness(&model, &params), mesh(&model, &params).unwrap().max_delta), (1e-3, 4e-3));
    }
}
