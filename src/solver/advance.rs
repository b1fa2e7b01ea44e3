//! Time stepping: `step` (one implicit step) and `advance` (substeps of at most
//! `params.time_step`, pin targets interpolated linearly over the substeps). Works on copies of
//! the state, the carried state included (`crate::integrate::carried`), and commits them only
//! when every substep converged.
//!
//! The report has one writer per phase of a call: its start here (the initial state, the
//! separation of vertices that started inside colliders), its substeps in the retry loop
//! (`crate::integrate::retries`), and its end in the commit here.

use super::substeps::CallStart;
use super::{progress, ProgressFn, Solver, StepReport};
use crate::assemble::contact::collider_vertex::ContactPair;
use crate::assemble::element_terms;
use crate::contact::surface::{ImplicitSurface, Kernel};
use crate::error::{Error, Result};
use crate::integrate::call::CallEnd;
use crate::integrate::carried::CarriedState;
use crate::integrate::report::Warnings;
use crate::integrate::separation;
use crate::integrate::warnings;
use crate::model::{ColliderMeshContact, FailurePolicy, SolverParams};
use crate::model::{Model, ObjectKind};
use std::time::Instant;

/// Most substeps one `advance` may take.
pub(crate) const MAX_SUBSTEPS: usize = 1_000_000;

/// ½ vᵀMv (J).
pub fn kinetic_energy(model: &Model, v: &[f64]) -> f64 {
    model.mass.iter().zip(v.chunks_exact(3)).map(|(m, v)| 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])).sum()
}

/// W(q) (J): elastic energy of every element.
pub fn elastic_energy(model: &Model, q: &[f64]) -> f64 {
    element_terms::energy(&model.tets.elements, q)
        + element_terms::energy(&model.membranes.elements, q)
        + element_terms::energy(&model.hinges.elements, q)
}

/// Every (contact vertex, collider) pair with its friction coefficient, vertex-major.
fn contact_pairs(model: &Model) -> Vec<ContactPair> {
    if model.colliders.is_empty() {
        return Vec::new();
    }
    let mut pairs = Vec::new();
    for (vertex, object) in model.contact_vertices() {
        for (i, c) in model.colliders.iter().enumerate() {
            pairs.push(ContactPair { vertex, collider: i as u32, mu: model.friction.pair(object, c.id) });
        }
    }
    pairs
}

/// κ₀ (N/m²) of collider and surface contact: [`SolverParams::initial_stiffness`] over the
/// vertices that can touch colliders.
fn initial_contact_stiffness(model: &Model, params: &SolverParams) -> f64 {
    let vertices = model.contact_vertices().into_iter().map(|(v, _)| v);
    params.initial_stiffness(&model.mass, vertices, params.contact_thickness)
}

/// Padding (m) of the candidate search of deforming-surface contacts: a quarter of the mean
/// kernel radius of the surfaces that can be touched, and at least the contact thickness. Newton
/// iterates may move this far before candidates are searched again.
fn search_padding(surfaces: &[ImplicitSurface], queries: &[crate::model::SurfaceQuery], thickness: f64) -> f64 {
    let mut used = vec![false; surfaces.len()];
    queries.iter().for_each(|q| used[q.surface as usize] = true);
    let radii: Vec<f64> =
        surfaces.iter().zip(&used).filter(|(_, u)| **u).flat_map(|(s, _)| s.radius.iter().copied()).collect();
    let mean = radii.iter().sum::<f64>() / radii.len().max(1) as f64;
    (0.25 * mean).max(thickness)
}

impl Solver {
    /// One implicit step of `dt` seconds (split in halves if Newton fails, see `params`).
    pub fn step(&mut self, dt: f64) -> Result<()> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::invalid(format!("dt must be finite and > 0 s, got {dt}")));
        }
        self.run(1, dt)
    }

    /// Advances by `duration` seconds in equal substeps of at most `params.time_step`.
    pub fn advance(&mut self, duration: f64) -> Result<()> {
        if !(duration.is_finite() && duration > 0.0) {
            return Err(Error::invalid(format!("duration must be finite and > 0 s, got {duration}")));
        }
        let n = (duration / self.params.time_step * (1.0 - 1e-12)).ceil().max(1.0);
        if n > MAX_SUBSTEPS as f64 {
            return Err(Error::invalid(format!(
                "duration {duration} s needs {n} substeps of {} s (limit {MAX_SUBSTEPS})",
                self.params.time_step
            )));
        }
        self.run(n as usize, duration / n)
    }

    fn run(&mut self, substeps: usize, h: f64) -> Result<()> {
        let started = Instant::now();
        let kinematic: usize =
            self.model.objects.iter().filter(|o| o.kind == ObjectKind::ColliderMesh).map(|o| o.vertex_count).sum();
        let pinned = self.pinned.iter().filter(|p| **p).count() - kinematic;
        let mut report = StepReport { pinned_vertices: pinned as u32, ..Default::default() };
        let pool = self.pool.clone();
        // The host's callback stays on this thread while the work runs on the pool; it is put
        // back however the call ends, a panic included.
        let mut host_progress = self.progress.take();
        // Soft pins pull toward their targets for the whole call; put back if it fails.
        let anchors = self.model.move_pin_anchors(&self.target);
        // The call only reads the solver, but goes to the pool with it as `&mut`: the solver is
        // `Send`, not `Sync` (a host's callback need not be `Sync`).
        let carried = self.carried.for_call();
        let (solver, report_ref) = (&mut *self, &mut report);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            progress::on_pool(&pool, host_progress.as_mut(), move |progress| {
                solver.run_on_pool(carried, substeps, h, progress, report_ref)
            })
        }));
        self.progress = host_progress;
        let result = result.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let result = result.and_then(|(end, carried)| {
            if end.pinned_in_collider {
                report.warnings |= Warnings::PINNED_IN_COLLIDER;
            }
            // Last line of defence: a non-finite state is never committed (nor reaches a host's cache).
            if end.q.iter().chain(&end.v).all(|x| x.is_finite()) {
                Ok((end, carried))
            } else {
                report.converged = false;
                report.last_failure = Some(crate::solve::NewtonFailure::NonFinite);
                Err(Error::NotConverged("the step produced non-finite positions or velocities".into()))
            }
        });
        let outcome = match result {
            Ok((end, mut carried)) => {
                let contact = !self.model.colliders.is_empty() || self.model.has_surface_contact();
                report.contact_stiffness = carried.contact_stiffness.filter(|_| contact).unwrap_or(0.0);
                // §4.4: κ is never lowered while contacts are active; once none is, it restarts.
                if report.active_contacts == 0 {
                    carried.contact_stiffness = None;
                }
                self.carried = carried;
                self.q = end.q;
                self.v = end.v;
                self.target.iter_mut().for_each(|t| *t = None);
                for (pose, target) in self.collider_pose.iter_mut().zip(&mut self.collider_target) {
                    if let Some(t) = target.take() {
                        *pose = t;
                    }
                }
                // A substep that took its best unconverged iterate did not converge.
                report.converged = report.fallbacks_best_iterate == 0;
                if report.deepest_gap < 0.0 {
                    report.warnings |= Warnings::PENETRATION_REMAINS;
                }
                Ok(())
            }
            Err(e) => {
                self.model.restore_pin_anchors(&anchors);
                Err(e)
            }
        };
        report.kinetic_energy = kinetic_energy(&self.model, &self.v);
        report.elastic_energy = self.pool.install(|| elastic_energy(&self.model, &self.q));
        report.seconds_total = started.elapsed().as_secs_f64();
        self.report = report;
        outcome.map_err(|e| match e {
            Error::NotConverged(m) => Error::NotConverged(format!("{m}; the solver is unchanged")),
            other => other,
        })
    }

    /// The work of a call, on a worker of the solver's pool: the substeps on copies of the state
    /// and on `carried` (the call's copy of the carried state, [`CarriedState::for_call`]),
    /// ending with what the call commits (`carried` among them). `progress` forwards to the host's callback.
    fn run_on_pool(
        &self,
        mut carried: CarriedState,
        substeps: usize,
        h: f64,
        progress: Option<&mut ProgressFn>,
        report: &mut StepReport,
    ) -> Result<(CallEnd, CarriedState)> {
        if carried.system.is_none() {
            let t = Instant::now();
            carried.ensure_system(&self.model, &self.params)?;
            report.seconds_factorization += t.elapsed().as_secs_f64();
        }
        let pairs = contact_pairs(&self.model);
        let surfaces =
            self.model.implicit_surfaces(self.params.contact_radius_multiplier, self.params.contact_thickness);
        let exact_meshes = self.params.collider_mesh_contact == ColliderMeshContact::Exact;
        let queries = self.model.surface_queries_with(self.params.contact_thickness, !exact_meshes);
        let padding = search_padding(&surfaces, &queries, self.params.contact_thickness);
        let kappa = match carried.contact_stiffness {
            Some(k) => k,
            None => initial_contact_stiffness(&self.model, &self.params),
        };
        let kernel = self.params.contact_kernel;
        report_initial_state(self, report, &pairs, &surfaces, &queries, kappa, kernel, padding);
        let (mut q_start, mut v_start) = (self.q.clone(), self.v.clone());
        let mut out_of_meshes = 0;
        if report.initial_penetrations > 0 || exact_meshes {
            let shapes: Vec<_> = self.model.colliders.iter().map(|c| c.shape).collect();
            let moved = separation::separate(
                &self.model,
                &shapes,
                &self.collider_pose,
                exact_meshes,
                &self.pinned,
                self.params.contact_thickness,
                padding,
                &mut q_start,
                &mut v_start,
            );
            out_of_meshes = moved.out_of_meshes;
            if moved.vertices > 0 {
                report.warnings |= Warnings::INITIAL_PENETRATION;
                report.initial_penetrations = report.initial_penetrations.max(moved.vertices);
                report.initial_deepest_gap = report.initial_deepest_gap.min(moved.deepest);
                log::warn!(
                    "{} vertices started inside a collider (deepest {:.3e} m): moved out to {} contact thicknesses",
                    moved.vertices,
                    moved.deepest,
                    separation::CLEARANCE
                );
            }
        }
        let start = CallStart {
            pairs,
            surfaces,
            queries,
            kernel,
            padding,
            kappa,
            exact_meshes,
            q: q_start,
            v: v_start,
            inside: report.initial_deepest_gap < 0.0,
            out_of_meshes: out_of_meshes > 0,
        };
        let mut progress = progress;
        let first = self.substeps(&start, false, &mut carried, substeps, h, progress.as_deref_mut(), report);
        // Under strict a pinch fails the call at once: the meshes meeting vertices only would
        // meet it again.
        let pinched = self.params.failure_policy == FailurePolicy::Strict && report.pinch_site.is_some();
        match first {
            // Vertices moved out of a mesh that swallowed them may leave the edges between them
            // passing through it: the call is taken again with the meshes meeting vertices only.
            // It starts again from the carried state the call started with, but keeps the system
            // layout of the first attempt, whose pattern covers the contacts met so far.
            Err(Error::NotConverged(m)) if out_of_meshes > 0 && !pinched => {
                log::warn!("{m}: the call is taken again with collider meshes meeting only the vertices");
                let mut again = CarriedState { system: carried.system, layout: carried.layout, ..self.carried.clone() };
                let end =
                    self.substeps(&start, true, &mut again, substeps, h, progress, report).map_err(|e| match e {
                        Error::NotConverged(m) => Error::NotConverged(format!(
                            "{m}; {out_of_meshes} vertices started inside a collider mesh and were moved out, but the \
                         cloth may still pass through it: move the collider mesh or the object apart"
                        )),
                        other => other,
                    })?;
                Ok((end, again))
            }
            other => other.map(|end| (end, carried)),
        }
    }
}

/// Fills the report's view of the state a call starts from: penetrating vertices (free ones:
/// pinned vertices stay where the host puts them) and incompatible pin targets.
#[allow(clippy::too_many_arguments)]
fn report_initial_state(
    s: &Solver,
    report: &mut StepReport,
    pairs: &[ContactPair],
    surfaces: &[ImplicitSurface],
    queries: &[crate::model::SurfaceQuery],
    kappa: f64,
    kernel: Kernel,
    padding: f64,
) {
    let shapes: Vec<_> = s.model.colliders.iter().map(|c| c.shape).collect();
    let (d_c, n_c) = warnings::collider_gaps(&shapes, &s.collider_pose, pairs, &s.q, |v| !s.pinned[v as usize]);
    let law = s.params.contact_law(kappa);
    let (d_s, n_s) = warnings::surface_gaps(law, kernel, surfaces, queries, &s.q, &s.pinned, padding);
    report.initial_deepest_gap = d_c.min(d_s);
    report.initial_penetrations = n_c + n_s;
    if report.initial_penetrations > 0 {
        report.warnings |= Warnings::INITIAL_PENETRATION;
    }
    if warnings::pin_conflict(&s.model, &s.q, &s.pinned, &s.target) {
        report.warnings |= Warnings::PIN_CONFLICT;
    }
}
