//! A [`Scene`] turned into a [`Solver`] and driven frame by frame: before each frame's advance the
//! analytic colliders get their pose (`set_collider_transform`), collider meshes their vertex
//! positions (`set_collider_positions`) and pin groups their targets (the `"target"` vertex
//! attribute), all from their [`Motion`]s at the end of the frame.

use super::description::{Elements, Scene};
use super::motion::{apply_flat, Motion};
use crate::solver::Solver;
use crate::solver::VertexAttribute;

/// A solver built from a scene, with the ids of its parts.
pub struct SceneSolver {
    /// A copy of the scene it was built from.
    pub scene: Scene,
    /// The solver.
    pub solver: Solver,
    /// Solver id of each object, in scene order.
    pub objects: Vec<u32>,
    /// Solver id of each analytic collider, in scene order.
    pub colliders: Vec<u32>,
    /// Per object, the vertices of each of its pin groups.
    pin_groups: Vec<Vec<Vec<usize>>>,
}

impl Scene {
    /// Builds a solver holding every object (solids and shells built on their rest shape and
    /// then moved to their initial positions; collider meshes at their frame-0 pose or the first
    /// frame of their point cache), with pins, pin groups, initial velocities and shells'
    /// self-contact settings set, every analytic collider at its frame-0 pose with
    /// its μ against every solid and shell, then the friction pairs. Errors name the object,
    /// collider or pair.
    pub fn build_solver(&self) -> Result<SceneSolver, String> {
        let mut solver = Solver::new(&self.params).map_err(|e| format!("solver parameters: {e}"))?;
        let mut ids = Vec::with_capacity(self.objects.len());
        let mut pin_groups = Vec::with_capacity(self.objects.len());
        for o in &self.objects {
            let fail = |e: crate::Error| format!("object \"{}\": {e}", o.name);
            let rest = o.rest_positions.as_deref().unwrap_or(&o.positions);
            let id = match &o.elements {
                Elements::Triangles(t) => solver.add_shell(rest, t, &o.material),
                Elements::Tets(t) => solver.add_solid(rest, t, &o.material),
                Elements::ColliderMesh(t) => match &o.point_cache {
                    Some(cache) => solver.add_collider_mesh(cache.positions(0), t),
                    None => solver.add_collider_mesh(&apply_flat(&o.motion.transform(0, self.fps), &o.positions), t),
                },
            }
            .map_err(fail)?;
            ids.push(id);
            if o.is_collider_mesh() {
                pin_groups.push(Vec::new());
                continue;
            }
            let groups =
                o.pin_group_vertices(self.frames, self.fps).map_err(|m| format!("object \"{}\": {m}", o.name))?;
            if o.rest_positions.is_some() {
                solver.set_vertex_attribute(id, VertexAttribute::Position, &o.positions).map_err(fail)?;
            }
            let n = o.positions.len() / 3;
            let mut pinned = vec![0.0; n];
            for &p in o.pinned.iter().chain(groups.iter().flatten()) {
                let slot = pinned
                    .get_mut(p)
                    .ok_or_else(|| format!("object \"{}\": pinned vertex {p} does not exist ({n} vertices)", o.name))?;
                *slot = 1.0;
            }
            solver.set_vertex_attribute(id, VertexAttribute::Pinned, &pinned).map_err(fail)?;
            if o.velocity != [0.0; 3] || o.angular_velocity != [0.0; 3] {
                let c = centroid(&o.positions);
                let w = o.angular_velocity;
                let v: Vec<f64> = (0..n)
                    .flat_map(|i| {
                        if pinned[i] != 0.0 {
                            return [0.0; 3];
                        }
                        let r = [0, 1, 2].map(|k| o.positions[3 * i + k] - c[k]);
                        let spin = [w[1] * r[2] - w[2] * r[1], w[2] * r[0] - w[0] * r[2], w[0] * r[1] - w[1] * r[0]];
                        [0, 1, 2].map(|k| o.velocity[k] + spin[k])
                    })
                    .collect();
                solver.set_vertex_attribute(id, VertexAttribute::Velocity, &v).map_err(fail)?;
            }
            if o.self_contact != crate::model::ObjectSelfContact::default() {
                let sc = o.self_contact;
                solver.set_object_self_contact(id, sc.enabled, sc.thickness).map_err(fail)?;
            }
            if let Some(vol) = o.volume {
                solver.set_volume_penalty(id, Some(vol.model), vol.compression, vol.pressure).map_err(fail)?;
            }
            pin_groups.push(groups);
        }
        let mut colliders = Vec::with_capacity(self.colliders.len());
        for c in &self.colliders {
            let fail = |e: crate::Error| format!("collider \"{}\": {e}", c.name);
            let id = solver.add_collider_shape(&c.initial_shape(self.fps)).map_err(fail)?;
            for (&object, o) in ids.iter().zip(&self.objects) {
                if !o.is_collider_mesh() {
                    solver.set_friction(object, id, c.mu).map_err(fail)?;
                }
            }
            colliders.push(id);
        }
        let mut built = SceneSolver { scene: self.clone(), solver, objects: ids, colliders, pin_groups };
        for p in &self.friction {
            let fail = |e: String| format!("friction pair (\"{}\", \"{}\"): {e}", p.a, p.b);
            let (a, b) = (built.id(&p.a).map_err(fail)?, built.id(&p.b).map_err(fail)?);
            built.solver.set_friction(a, b, p.mu).map_err(|e| fail(e.to_string()))?;
        }
        Ok(built)
    }
}

impl SceneSolver {
    /// The solver id of the object or collider called `name`.
    pub fn id(&self, name: &str) -> Result<u32, String> {
        Ok(match self.scene.find(name)? {
            super::description::Named::Object(i) => self.objects[i],
            super::description::Named::Collider(i) => self.colliders[i],
        })
    }

    /// Gives every moving part the place it must reach at the end of `frame`; call before
    /// advancing into that frame. Errors name the part and the frame.
    pub fn prepare_frame(&mut self, frame: usize) -> Result<(), String> {
        let scene = &self.scene;
        let fps = scene.fps;
        for (c, &id) in scene.colliders.iter().zip(&self.colliders) {
            if c.motion != Motion::Fixed {
                self.solver
                    .set_collider_transform(id, &c.solver_transform(frame, fps))
                    .map_err(|e| format!("collider \"{}\", frame {frame}: {e}", c.name))?;
            }
        }
        for ((o, &id), groups) in scene.objects.iter().zip(&self.objects).zip(&self.pin_groups) {
            let fail = |e: crate::Error| format!("object \"{}\", frame {frame}: {e}", o.name);
            if o.is_collider_mesh() {
                if let Some(cache) = &o.point_cache {
                    self.solver.set_collider_positions(id, cache.positions(frame)).map_err(fail)?;
                } else if o.motion != Motion::Fixed {
                    let xyz = apply_flat(&o.motion.transform(frame, fps), &o.positions);
                    self.solver.set_collider_positions(id, &xyz).map_err(fail)?;
                }
                continue;
            }
            if o.pin_groups.iter().all(|g| g.motion == Motion::Fixed) {
                continue; // pinned vertices without a target stay where they are
            }
            // Targets matter for pinned vertices only; the others get their current positions.
            let mut target = self.solver.positions(id).map_err(fail)?.to_vec();
            for (group, vertices) in o.pin_groups.iter().zip(groups) {
                let m = group.motion.transform(frame, fps);
                for &v in vertices {
                    let p = &o.positions[3 * v..3 * v + 3];
                    target[3 * v..3 * v + 3].copy_from_slice(&super::motion::apply(&m, [p[0], p[1], p[2]]));
                }
            }
            self.solver.set_vertex_attribute(id, VertexAttribute::Target, &target).map_err(fail)?;
        }
        Ok(())
    }

    /// Moves every part into `frame` ([`SceneSolver::prepare_frame`]) and advances the solver
    /// by 1/fps s; the error names the frame.
    pub fn advance_frame(&mut self, frame: usize) -> Result<(), String> {
        self.prepare_frame(frame)?;
        self.solver.advance(1.0 / self.scene.fps).map_err(|e| format!("solver failed at frame {frame}: {e}"))
    }
}

/// Mean of flat positions (m).
fn centroid(positions: &[f64]) -> [f64; 3] {
    let n = (positions.len() / 3).max(1) as f64;
    let mut c = [0.0; 3];
    for p in positions.chunks_exact(3) {
        (0..3).for_each(|k| c[k] += p[k] / n);
    }
    c
}
