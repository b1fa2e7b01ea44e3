//! The solver: a model, its state (positions, velocities, hard and soft pins, targets), the
//! attributes a host sets ([`VertexAttribute`]), checkpoints, and the time stepping (which
//! builds a call's context and state for `crate::integrate::call`).
//! This is the Rust API; `crate::capi` wraps it for C.
//!
//! Every mutating call validates first and changes nothing when it fails; a step works on copies
//! (of the state carried from call to call too, `crate::integrate::carried`) and commits them
//! whole only when every substep converged.

mod advance;
mod attributes;
mod checkpoint;
mod progress;
mod substeps;

pub use attributes::VertexAttribute;

use crate::contact::{Pose, Shape};
use crate::energy::volume::VolumeKind;
use crate::error::{Error, Result};
use crate::integrate::carried::CarriedState;
pub use crate::integrate::report;
pub use crate::integrate::{ProgressFn, StepReport, Warnings};
use crate::model::{Material, Model, Object, ObjectKind, SolverParams};

/// A cloth and soft-body solver.
pub struct Solver {
    params: SolverParams,
    model: Model,
    /// Positions (m), flat `x0 y0 z0 x1 …` over all objects.
    q: Vec<f64>,
    /// Velocities (m/s).
    v: Vec<f64>,
    /// Pinned flag per vertex.
    pinned: Vec<bool>,
    /// Where each pinned vertex must be at the end of the next step/advance (m).
    target: Vec<Option<[f64; 3]>>,
    /// Pose of each collider (same order as `model.colliders`).
    collider_pose: Vec<Pose>,
    /// Where each collider must be at the end of the next step/advance.
    collider_target: Vec<Option<Pose>>,
    /// What one call hands on to the next: the contact stiffnesses in use, the last substep's
    /// acceleration, BDF2's history, the system layout and its linear solver. A call works on
    /// a clone, committed whole when it succeeds.
    carried: CarriedState,
    report: StepReport,
    pool: std::sync::Arc<rayon::ThreadPool>,
    progress: Option<ProgressFn>,
}

static FAER_SEQUENTIAL: std::sync::Once = std::sync::Once::new();

impl Solver {
    /// A solver with validated `params` and no objects.
    pub fn new(params: &SolverParams) -> Result<Self> {
        params.validate()?;
        // faer's own threading is switched off: grip parallelises assembly on its own pool, and
        // sequential factorization keeps results independent of the thread count.
        FAER_SEQUENTIAL.call_once(|| faer::set_global_parallelism(faer::Par::Seq));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(params.worker_count as usize)
            .thread_name(|i| format!("grip-worker-{i}"))
            .build()
            .map_err(|e| Error::invalid(format!("cannot start {} worker threads: {e}", params.worker_count)))?;
        Ok(Self {
            params: *params,
            pool: std::sync::Arc::new(pool),
            model: Model::new(params.default_friction),
            q: Vec::new(),
            v: Vec::new(),
            pinned: Vec::new(),
            target: Vec::new(),
            collider_pose: Vec::new(),
            collider_target: Vec::new(),
            carried: CarriedState::default(),
            report: StepReport::default(),
            progress: None,
        })
    }

    /// The parameters given at creation.
    pub fn params(&self) -> &SolverParams {
        &self.params
    }

    /// The model (objects and elements).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Adds a tet solid at rest at `positions` (m); returns its id.
    pub fn add_solid(&mut self, positions: &[f64], tets: &[u32], material: &Material) -> Result<u32> {
        let mut model = self.model.clone();
        let id = model.add_solid(positions, tets, material)?;
        self.commit_object(model, positions);
        Ok(id)
    }

    /// Adds a triangle shell at rest at `positions` (m); returns its id.
    pub fn add_shell(&mut self, positions: &[f64], triangles: &[u32], material: &Material) -> Result<u32> {
        let mut model = self.model.clone();
        let id = model.add_shell(positions, triangles, material)?;
        self.commit_object(model, positions);
        Ok(id)
    }

    /// Adds a kinematic collider mesh at `positions` (m) (its vertices are prescribed: they move
    /// only by [`Solver::set_collider_positions`]); returns its id.
    pub fn add_collider_mesh(&mut self, positions: &[f64], triangles: &[u32]) -> Result<u32> {
        let mut model = self.model.clone();
        let id = model.add_collider_mesh(positions, triangles)?;
        let first = self.pinned.len();
        self.commit_object(model, positions);
        self.pinned[first..].iter_mut().for_each(|p| *p = true);
        Ok(id)
    }

    /// Sets where the vertices of collider mesh `id` are at the end of the next step/advance
    /// (`xyz` (m), 3 per vertex); over the substeps they move there linearly, and their
    /// velocity enters the friction of what touches them.
    pub fn set_collider_positions(&mut self, id: u32, xyz: &[f64]) -> Result<()> {
        let o = self.model.object(id).map_err(|_| {
            let what = if self.model.has_id(id) { "is not a collider mesh" } else { "does not exist" };
            Error::UnknownObject(format!("collider mesh {id} {what}"))
        })?;
        if o.kind != ObjectKind::ColliderMesh {
            return Err(Error::UnknownObject(format!("object {id} is not a collider mesh")));
        }
        if !xyz.len().is_multiple_of(3) {
            return Err(Error::invalid(format!("positions must hold 3 values per vertex, got {}", xyz.len())));
        }
        let range = self.object_range(id, xyz.len() / 3)?;
        if let Some(i) = xyz.iter().position(|x| !(x.abs() <= crate::mesh::validate::MAX_COORDINATE)) {
            return Err(Error::invalid(format!(
                "position of collider vertex {} must be finite and within ±{:e} m, got {}",
                i / 3,
                crate::mesh::validate::MAX_COORDINATE,
                xyz[i]
            )));
        }
        for (t, x) in self.target[range].iter_mut().zip(xyz.chunks_exact(3)) {
            *t = Some([x[0], x[1], x[2]]);
        }
        Ok(())
    }

    /// Adds a kinematic collider of the given shape at the identity pose; returns its id. The
    /// shape is validated ([`Shape::validated`]) and kept with a unit axis.
    pub fn add_collider_shape(&mut self, shape: &Shape) -> Result<u32> {
        let shape = shape.validated()?;
        let id = self.model.add_collider(shape);
        self.collider_pose.push(Pose::default());
        self.collider_target.push(None);
        Ok(id)
    }

    /// Sets the rigid pose (column-major 4×4, relative to the shape's definition) that collider
    /// `id` reaches at the end of the next step/advance; it moves there along the substeps.
    pub fn set_collider_transform(&mut self, id: u32, matrix: &[f64; 16]) -> Result<()> {
        let index = self.model.collider_index(id)?;
        let pose = Pose::from_column_major(matrix)?;
        self.collider_target[index] = Some(pose);
        Ok(())
    }

    /// The current pose of collider `id`.
    pub fn collider_pose(&self, id: u32) -> Result<Pose> {
        Ok(self.collider_pose[self.model.collider_index(id)?])
    }

    /// Sets (or with `None` removes) the volume-change penalty of object `id` (paper §3.4):
    /// `model` the pressure–volume law, compression coefficient κ_v (1/Pa), over-pressure at the
    /// rest volume (Pa); the rest volume is the current one. A tet solid's volume is the sum of
    /// its tets', a closed shell's the enclosed volume.
    pub fn set_volume_penalty(
        &mut self,
        id: u32,
        model: Option<VolumeKind>,
        compression: f64,
        pressure: f64,
    ) -> Result<()> {
        self.model.set_volume_penalty(id, model, compression, pressure, &self.q)
    }

    /// The volume (m³) object `id`'s penalty measures now (`None` without a penalty).
    pub fn penalty_volume(&self, id: u32) -> Option<f64> {
        self.model.volumes.iter().find(|p| p.object == id).map(|p| p.volume(&self.q))
    }

    /// Energy (J) stored in every volume penalty (W(V) of paper Eq. 18–20, zero at rest volume).
    pub fn volume_energy(&self) -> f64 {
        self.model.volumes.iter().map(|p| p.model.energy(p.volume(&self.q))).sum()
    }

    /// Overrides the friction coefficient μ (0 ≤ μ ≤ 100, dimensionless) between objects or
    /// colliders `a` and `b` (either order; `a == b`: an object with itself), whatever their own
    /// μ (`crate::model::friction`).
    pub fn set_friction(&mut self, a: u32, b: u32, mu: f64) -> Result<()> {
        self.model.set_friction(a, b, mu)
    }

    /// Sets the own friction coefficient μ (0 ≤ μ ≤ 100, dimensionless) of object or collider
    /// `id`. A pair without override takes the geometric mean of its two bodies' μ, a body
    /// without its own μ counting as the pair's default: 0 between two shells,
    /// `params.default_friction` otherwise (`crate::model::friction`).
    pub fn set_object_friction(&mut self, id: u32, mu: f64) -> Result<()> {
        self.model.set_own_friction(id, mu)
    }

    /// Sets shell `id`'s self-contact (with `params.self_contact` on; `crate::model::self_contact`):
    /// `enabled` false leaves out the pairs of its primitives with each other (it still meets
    /// other shells and solids); `thickness` is its own δ in m (0 < δ ≤ 1e3), `None` the
    /// solver's `params.self_contact_thickness`. Pairs of shells A and B are δ_AB = (δ_A + δ_B)/2
    /// thick. Takes effect at the next step; an error (nothing changed) for an id that is not a
    /// shell or a thickness out of range.
    pub fn set_object_self_contact(&mut self, id: u32, enabled: bool, thickness: Option<f64>) -> Result<()> {
        self.model.set_object_self_contact(id, crate::model::ObjectSelfContact { enabled, thickness })
    }

    /// The friction coefficient μ (dimensionless) that contact between objects or colliders `a`
    /// and `b` uses (either order; `a == b`: an object with itself).
    pub fn friction(&self, a: u32, b: u32) -> Result<f64> {
        self.model.friction.checked_pair(a, b)
    }

    fn commit_object(&mut self, model: Model, positions: &[f64]) {
        let n = positions.len() / 3;
        self.model = model;
        self.q.extend_from_slice(positions);
        self.v.extend(std::iter::repeat_n(0.0, positions.len()));
        self.pinned.extend(std::iter::repeat_n(false, n));
        self.target.extend(std::iter::repeat_n(None, n));
        self.carried.model_changed();
    }

    /// The object `id`.
    pub fn object(&self, id: u32) -> Result<&Object> {
        self.model.object(id)
    }

    fn object_range(&self, id: u32, count: usize) -> Result<std::ops::Range<usize>> {
        let o = self.model.object(id)?;
        if count != o.vertex_count {
            return Err(Error::invalid(format!("object {id} has {} vertices, but {count} were given", o.vertex_count)));
        }
        Ok(o.first_vertex..o.first_vertex + o.vertex_count)
    }

    /// Positions (m) of object `id`, `3 × vertex_count` values.
    pub fn positions(&self, id: u32) -> Result<&[f64]> {
        let o = self.model.object(id)?;
        Ok(&self.q[3 * o.first_vertex..3 * (o.first_vertex + o.vertex_count)])
    }

    /// Velocities (m/s) of object `id`.
    pub fn velocities(&self, id: u32) -> Result<&[f64]> {
        let o = self.model.object(id)?;
        Ok(&self.v[3 * o.first_vertex..3 * (o.first_vertex + o.vertex_count)])
    }

    /// Report of the last step or advance.
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// Installs (or with `None` removes) the progress callback.
    pub fn set_progress(&mut self, progress: Option<ProgressFn>) {
        self.progress = progress;
    }

    /// Kinetic energy ½ vᵀMv (J) of the whole model.
    pub fn kinetic_energy(&self) -> f64 {
        advance::kinetic_energy(&self.model, &self.v)
    }

    /// Elastic energy W(q) (J) of the whole model.
    pub fn elastic_energy(&self) -> f64 {
        advance::elastic_energy(&self.model, &self.q)
    }
}
