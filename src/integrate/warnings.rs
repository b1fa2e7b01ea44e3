//! Imperfect input the solver recovers from, detected for the report: vertices that start a call
//! inside a collider or a mesh, pinned vertices left inside a collider, and pins whose targets
//! are incompatible with the elements between them. None of these fails a call: they raise
//! [`super::Warnings`] in `StepReport::warnings`.

use crate::assemble::contact::collider_vertex::ContactPair;
use crate::assemble::contact::stage::{ContactStage, SurfaceStage};
use crate::assemble::contact::surface_query::SurfaceQueries;
use crate::assemble::contact::ContactTerm;
use crate::contact::collider::vertex::{ColliderMotion, GapField};
use crate::contact::surface::{ImplicitSurface, Kernel};
use crate::contact::{ContactLaw, Pose, Shape};
use crate::model::{Model, ObjectKind, SurfaceQuery};

/// Pinned targets farther apart than this multiple of their rest distance (or closer than its
/// inverse) are incompatible with the element joining them.
const PIN_CONFLICT_RATIO: f64 = 2.0;

fn position(q: &[f64], v: u32) -> [f64; 3] {
    let i = 3 * v as usize;
    [q[i], q[i + 1], q[i + 2]]
}

/// Gap of every (vertex, collider) pair at `q` with the colliders at `poses`, vertices where
/// `select` holds: (smallest gap, count of negative gaps); (+∞, 0) without pairs.
pub fn collider_gaps(
    shapes: &[Shape],
    poses: &[Pose],
    pairs: &[ContactPair],
    q: &[f64],
    select: impl Fn(u32) -> bool,
) -> (f64, u32) {
    let motions: Vec<ColliderMotion> =
        shapes.iter().zip(poses).map(|(s, p)| ColliderMotion::new(*s, *p, *p, 1.0)).collect();
    pairs.iter().filter(|p| select(p.vertex)).fold((f64::INFINITY, 0), |(deepest, n), p| {
        let d = motions[p.collider as usize].gap(position(q, p.vertex)).0;
        (deepest.min(d), n + u32::from(d < 0.0))
    })
}

/// Deforming-surface contacts at `q` (free vertices only): (smallest gap, count of negative gaps).
pub fn surface_gaps(
    law: ContactLaw,
    kernel: Kernel,
    surfaces: &[ImplicitSurface],
    queries: &[SurfaceQuery],
    q: &[f64],
    pinned: &[bool],
    padding: f64,
) -> (f64, u32) {
    if queries.is_empty() {
        return (f64::INFINITY, 0);
    }
    // With a vanishing thickness the summary counts the contacts with a negative gap.
    let law = ContactLaw { delta: f64::MIN_POSITIVE, ..law };
    let stage = ContactStage {
        surfaces: Some(SurfaceStage { surfaces, queries, kernel, padding }),
        ..ContactStage::none(law, pinned, q)
    };
    match SurfaceQueries::of(&stage) {
        Some(kind) => ContactTerm::new(kind, q, q).gap_summary(q, pinned),
        None => (f64::INFINITY, 0),
    }
}

/// True if two pinned vertices joined by a surface edge of a shell or solid have targets (their
/// current positions when they have none) more than `PIN_CONFLICT_RATIO` times farther apart,
/// or closer, than at rest.
pub fn pin_conflict(model: &Model, q: &[f64], pinned: &[bool], target: &[Option<[f64; 3]>]) -> bool {
    let goal = |v: usize| target[v].unwrap_or_else(|| position(q, v as u32));
    let dist = |a: [f64; 3], b: [f64; 3]| (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
    model.objects.iter().filter(|o| o.kind != ObjectKind::ColliderMesh).any(|o| {
        o.surface.iter().any(|t| {
            (0..3).any(|k| {
                let (a, b) = (o.first_vertex + t[k] as usize, o.first_vertex + t[(k + 1) % 3] as usize);
                if !(pinned[a] && pinned[b]) || (target[a].is_none() && target[b].is_none()) {
                    return false;
                }
                let ratio = dist(goal(a), goal(b)) / dist(model.rest[a], model.rest[b]);
                !(ratio <= PIN_CONFLICT_RATIO && ratio >= 1.0 / PIN_CONFLICT_RATIO)
            })
        })
    })
}
