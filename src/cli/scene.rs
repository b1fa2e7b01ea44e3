//! The in-memory scene that both `grip demo` and `grip run` produce, and how it becomes a
//! [`Solver`]. Units are SI: m, kg, s, Pa.

pub use super::collider::{Motion, SceneCollider};
use crate::solver::Solver;
use crate::{GripMaterial, GripSolverParams};

/// Default frame rate of the output [frames/s].
pub(crate) const DEFAULT_FPS: f64 = 24.0;
/// Default number of output frames (after the initial frame 0).
pub(crate) const DEFAULT_FRAMES: usize = 48;
/// Largest number of frames one invocation may simulate.
pub(crate) const MAX_FRAMES: usize = 1_000_000;

/// The elements of one object, flat 0-based indices into its own vertices.
#[derive(Clone, Debug, PartialEq)]
pub enum Elements {
    /// A shell (cloth): 3 indices per triangle.
    Triangles(Vec<u32>),
    /// A solid: 4 indices per positively oriented tetrahedron.
    Tets(Vec<u32>),
}

/// One object of a scene, in its initial (rest) state.
#[derive(Clone, Debug)]
pub struct SceneObject {
    /// Name used for output files (`<name>_<frame>.obj`); unique within the scene.
    pub name: String,
    /// Rest and initial positions [m], flat `x0 y0 z0 x1 …`.
    pub positions: Vec<f64>,
    /// Triangles or tets.
    pub elements: Elements,
    /// Material.
    pub material: GripMaterial,
    /// Indices of the vertices held in place.
    pub pinned: Vec<usize>,
    /// Initial velocity of every unpinned vertex [m/s].
    pub velocity: [f64; 3],
}

/// A complete scene: solver parameters, output timing, objects and kinematic colliders.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Scene name, used for the default output directory `out/<name>`.
    pub name: String,
    /// Solver parameters.
    pub params: GripSolverParams,
    /// Number of frames to simulate after frame 0.
    pub frames: usize,
    /// Output frame rate [frames/s]; each frame advances the solver by 1/fps s.
    pub fps: f64,
    /// The objects.
    pub objects: Vec<SceneObject>,
    /// Kinematic colliders, moved before every frame's advance.
    pub colliders: Vec<SceneCollider>,
}

impl Scene {
    /// Checks the output timing; the error names the offending option.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return Err(format!("fps must be finite and > 0, got {}", self.fps));
        }
        if self.frames > MAX_FRAMES {
            return Err(format!("frames must be at most {MAX_FRAMES}, got {}", self.frames));
        }
        if self.objects.is_empty() {
            return Err(format!("scene \"{}\" has no objects", self.name));
        }
        for c in &self.colliders {
            c.validate(self.frames, self.fps)?;
        }
        Ok(())
    }

    /// Builds a solver holding every object, with pins and initial velocities set, and every
    /// collider at its frame-0 pose with its friction against every object; returns it with the
    /// object ids and the collider ids in scene order. Errors name the object or collider.
    pub fn build_solver(&self) -> Result<(Solver, Vec<u32>, Vec<u32>), String> {
        let mut solver = Solver::new(&self.params).map_err(|e| format!("solver parameters: {e}"))?;
        let mut ids = Vec::with_capacity(self.objects.len());
        for o in &self.objects {
            let fail = |e: crate::Error| format!("object \"{}\": {e}", o.name);
            let id = match &o.elements {
                Elements::Triangles(t) => solver.add_shell(&o.positions, t, &o.material),
                Elements::Tets(t) => solver.add_solid(&o.positions, t, &o.material),
            }
            .map_err(fail)?;
            let n = o.positions.len() / 3;
            let mut pinned = vec![0.0; n];
            for &p in &o.pinned {
                let slot = pinned
                    .get_mut(p)
                    .ok_or_else(|| format!("object \"{}\": pinned vertex {p} does not exist ({n} vertices)", o.name))?;
                *slot = 1.0;
            }
            solver.set_vertex_attribute(id, "pinned", &pinned, 1).map_err(fail)?;
            if o.velocity != [0.0; 3] {
                let v: Vec<f64> = (0..n).flat_map(|i| if pinned[i] != 0.0 { [0.0; 3] } else { o.velocity }).collect();
                solver.set_vertex_attribute(id, "velocity", &v, 3).map_err(fail)?;
            }
            ids.push(id);
        }
        let mut colliders = Vec::with_capacity(self.colliders.len());
        for c in &self.colliders {
            let fail = |e: crate::Error| format!("collider \"{}\": {e}", c.name);
            let id = solver.add_collider_shape(&c.initial_shape(self.fps)).map_err(fail)?;
            for &object in &ids {
                solver.set_friction(object, id, c.mu).map_err(fail)?;
            }
            colliders.push(id);
        }
        Ok((solver, ids, colliders))
    }

    /// Gives every moving collider (ids `colliders` from [`Scene::build_solver`]) the pose it
    /// must reach at the end of `frame`; call before advancing into that frame.
    pub fn move_colliders(&self, solver: &mut Solver, colliders: &[u32], frame: usize) -> Result<(), String> {
        for (c, &id) in self.colliders.iter().zip(colliders) {
            if c.motion != Motion::Fixed {
                solver
                    .set_collider_transform(id, &c.solver_transform(frame, self.fps))
                    .map_err(|e| format!("collider \"{}\", frame {frame}: {e}", c.name))?;
            }
        }
        Ok(())
    }
}

/// Turns `name` into a safe file-name stem: ASCII letters, digits, `-` and `_` are kept, anything
/// else becomes `_`; an empty result becomes `"object"`.
pub fn file_stem(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if s.is_empty() {
        "object".into()
    } else {
        s
    }
}
