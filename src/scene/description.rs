//! The in-memory scene that both `grip demo` and `grip run` produce (objects, pins and their
//! motions, analytic colliders, friction pairs, slip metrics) and its checks. How it becomes a
//! solver and is driven frame by frame is in `build.rs`. Units are SI: m, kg, s, Pa.

pub use super::collider::SceneCollider;
pub use super::motion::{Ease, Motion};
pub use super::point_cache::PointCache;
use crate::energy::volume::VolumeKind;
use crate::model::ObjectSelfContact;
use crate::Material;
use crate::SolverParams;

/// Default frame rate of the output (frames/s).
///
/// cbindgen:ignore
pub const DEFAULT_FPS: f64 = 24.0;
/// Default number of output frames (after the initial frame 0).
///
/// cbindgen:ignore
pub const DEFAULT_FRAMES: usize = 48;
/// Largest number of frames one invocation may simulate.
///
/// cbindgen:ignore
pub const MAX_FRAMES: usize = 1_000_000;

/// The elements of one object, flat 0-based indices into its own vertices.
#[derive(Clone, Debug, PartialEq)]
pub enum Elements {
    /// A shell (cloth): 3 indices per triangle.
    Triangles(Vec<u32>),
    /// A solid: 4 indices per positively oriented tetrahedron.
    Tets(Vec<u32>),
    /// A kinematic collider mesh (`Solver::add_collider_mesh`): 3 indices per triangle; its
    /// vertices follow the object's [`SceneObject::motion`].
    ColliderMesh(Vec<u32>),
}

/// Which vertices a [`PinGroup`] holds.
#[derive(Clone, Debug, PartialEq)]
pub enum PinSelection {
    /// These vertex indices.
    Vertices(Vec<usize>),
    /// Every vertex with `min ≤ x ≤ max` in each coordinate in m (bounds may be infinite).
    Box {
        /// Lower corner (m).
        min: [f64; 3],
        /// Upper corner (m).
        max: [f64; 3],
    },
}

impl PinSelection {
    /// The selected vertex indices of an object at `positions` (flat), increasing; an index out
    /// of range, a NaN bound or an empty selection is an error.
    pub fn select(&self, positions: &[f64]) -> Result<Vec<usize>, String> {
        let n = positions.len() / 3;
        let chosen: Vec<usize> = match self {
            PinSelection::Vertices(v) => {
                if let Some(bad) = v.iter().find(|&&i| i >= n) {
                    return Err(format!("vertex {bad} does not exist ({n} vertices)"));
                }
                let mut v = v.clone();
                v.sort_unstable();
                v.dedup();
                v
            }
            PinSelection::Box { min, max } => {
                if min.iter().chain(max).any(|x| x.is_nan()) {
                    return Err(format!("box bounds must not be NaN: min {min:?}, max {max:?}"));
                }
                let inside = |p: &[f64]| (0..3).all(|k| min[k] <= p[k] && p[k] <= max[k]);
                positions.chunks_exact(3).enumerate().filter(|(_, p)| inside(p)).map(|(i, _)| i).collect()
            }
        };
        if chosen.is_empty() {
            return Err("selects no vertex".into());
        }
        Ok(chosen)
    }
}

/// Vertices pinned to a rigid motion of their rest positions: before each frame's advance their
/// targets are `motion`'s pose at the end of the frame applied to their initial positions.
#[derive(Clone, Debug, PartialEq)]
pub struct PinGroup {
    /// The vertices.
    pub selection: PinSelection,
    /// Their motion; its pose at frame 0 must be the identity ([`Motion::Fixed`] holds them).
    pub motion: Motion,
}

/// Opacity of [`PreviewStyle::Translucent`] objects in the previews.
///
/// cbindgen:ignore
pub const TRANSLUCENT_OPACITY: f64 = 0.45;

/// How an object is drawn in the PNG previews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreviewStyle {
    /// Every triangle.
    #[default]
    Solid,
    /// Half transparent (`TRANSLUCENT_OPACITY`), blended over the objects behind it, so that
    /// what it wraps shows through (a sleeve around a limb).
    Translucent,
}

/// A volume-change penalty as `grip_solver_set_volume_penalty` takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VolumeSpec {
    /// The pressure–volume law.
    pub model: VolumeKind,
    /// Compression coefficient κ_v (1/Pa).
    pub compression: f64,
    /// Over-pressure at the rest volume (Pa).
    pub pressure: f64,
}

/// One object of a scene, in its initial (rest) state.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneObject {
    /// Name used for output files (`<name>_<frame>.obj`) and by friction and slip pairs.
    pub name: String,
    /// Initial positions (m), flat `x0 y0 z0 x1 …`; the rest shape too unless
    /// `rest_positions` is given.
    pub positions: Vec<f64>,
    /// The rest shape (m, flat, one point per vertex of `positions`) of a solid or shell that
    /// starts deformed: a garment cut smaller than the body it is put on starts stretched over
    /// it. `None`: `positions` is the rest shape.
    pub rest_positions: Option<Vec<f64>>,
    /// Triangles, tets, or a collider mesh.
    pub elements: Elements,
    /// Material (unused by collider meshes).
    pub material: Material,
    /// Indices of the vertices held in place.
    pub pinned: Vec<usize>,
    /// Pinned vertices that follow a motion (solids and shells).
    pub pin_groups: Vec<PinGroup>,
    /// Initial velocity of every unpinned vertex (m/s).
    pub velocity: [f64; 3],
    /// Initial spin (rad/s) about the object's centroid, added to `velocity` (unpinned vertices).
    pub angular_velocity: [f64; 3],
    /// Volume-change penalty (paper §3.4), if any.
    pub volume: Option<VolumeSpec>,
    /// The rigid motion of a collider mesh ([`Motion::Fixed`] for solids and shells).
    pub motion: Motion,
    /// The per-frame positions of a deforming collider mesh (its frame 0 is where it starts;
    /// `None` for solids, shells and rigid collider meshes).
    pub point_cache: Option<PointCache>,
    /// How the previews draw it.
    pub preview: PreviewStyle,
    /// A shell's self-contact: whether it meets itself, and its own thickness (m)
    /// (`crate::model::self_contact`); the default for solids and collider meshes, which it
    /// does not apply to.
    pub self_contact: ObjectSelfContact,
}

impl SceneObject {
    /// An object of `elements` at `positions` with `material`, no pins, at rest, fixed, drawn
    /// solid.
    pub fn new(name: &str, positions: Vec<f64>, elements: Elements, material: Material) -> Self {
        Self {
            name: name.into(),
            positions,
            rest_positions: None,
            elements,
            material,
            pinned: Vec::new(),
            pin_groups: Vec::new(),
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            volume: None,
            motion: Motion::Fixed,
            point_cache: None,
            preview: PreviewStyle::Solid,
            self_contact: ObjectSelfContact::default(),
        }
    }

    /// Whether it is a kinematic collider mesh.
    pub fn is_collider_mesh(&self) -> bool {
        matches!(self.elements, Elements::ColliderMesh(_))
    }

    /// Checks what the solver does not: pins, pin groups and motions; errors name the key.
    fn check(&self, frames: usize, fps: f64) -> Result<(), String> {
        let n = self.positions.len() / 3;
        if self.self_contact != ObjectSelfContact::default() && !matches!(self.elements, Elements::Triangles(_)) {
            return Err("self-contact settings apply to shells".into());
        }
        ObjectSelfContact::new(self.self_contact.enabled, self.self_contact.thickness).map_err(|e| e.to_string())?;
        if let Some(rest) = &self.rest_positions {
            if self.is_collider_mesh() {
                return Err("a collider mesh has no rest shape: rest positions apply to solids and shells".into());
            }
            if rest.len() != self.positions.len() {
                return Err(format!(
                    "the rest shape has {} points, the mesh {n}: they must be the same vertices",
                    rest.len() / 3
                ));
            }
            if let Some(x) = rest.iter().find(|x| !x.is_finite()) {
                return Err(format!("the rest shape has a non-finite coordinate {x}"));
            }
        }
        if self.is_collider_mesh() {
            if !self.pinned.is_empty() || !self.pin_groups.is_empty() || self.velocity != [0.0; 3] {
                return Err("a collider mesh moves by its motion only: no pins, pin groups or velocity".into());
            }
            if let Some(cache) = &self.point_cache {
                if self.motion != Motion::Fixed {
                    return Err("a collider mesh has a motion or a point cache, not both".into());
                }
                return cache.check(n);
            }
            return self.motion.check(frames, fps).map_err(|m| format!("motion: {m}"));
        }
        if self.motion != Motion::Fixed || self.point_cache.is_some() {
            return Err(
                "only collider meshes have a motion or a point cache; pin vertices to a motion with a pin group".into(),
            );
        }
        if let Some(bad) = self.pinned.iter().find(|&&p| p >= n) {
            return Err(format!("pinned vertex {bad} does not exist ({n} vertices)"));
        }
        if self.velocity.iter().any(|v| !v.is_finite()) {
            return Err(format!("velocity must be finite, got {:?}", self.velocity));
        }
        self.pin_group_vertices(frames, fps).map(|_| ())
    }

    /// The vertices of each pin group, after checking that no vertex is in two groups and that
    /// every motion is valid and starts at the identity.
    pub fn pin_group_vertices(&self, frames: usize, fps: f64) -> Result<Vec<Vec<usize>>, String> {
        let mut owner = vec![usize::MAX; self.positions.len() / 3];
        let mut groups = Vec::with_capacity(self.pin_groups.len());
        for (g, group) in self.pin_groups.iter().enumerate() {
            let fail = |m: String| format!("pin group #{}: {m}", g + 1);
            let vertices = group.selection.select(&self.positions).map_err(fail)?;
            group.motion.check(frames, fps).map_err(|m| fail(format!("motion: {m}")))?;
            let first = group.motion.transform(0, fps);
            if first.iter().zip(super::motion::IDENTITY).any(|(a, b)| (a - b).abs() > 1e-12) {
                return Err(fail("motion: its pose at frame 0 must be the identity (pins start at rest)".into()));
            }
            for &v in &vertices {
                if owner[v] != usize::MAX {
                    return Err(fail(format!("vertex {v} is also in pin group #{}", owner[v] + 1)));
                }
                owner[v] = g;
            }
            groups.push(vertices);
        }
        Ok(groups)
    }
}

/// Friction coefficient between two named objects or colliders, overriding their defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionPair {
    /// One object's or collider's name.
    pub a: String,
    /// The other's name (may equal `a`: self-contact).
    pub b: String,
    /// μ (≥ 0).
    pub mu: f64,
}

/// A slip metric of `stats.csv`: how far the vertices of `object` slide over the surface of
/// `on` (see `slip.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct SlipPair {
    /// The sliding object's name.
    pub object: String,
    /// The base object's name (a solid, shell or collider mesh).
    pub on: String,
}

/// Something a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// `objects[i]`.
    Object(usize),
    /// `colliders[i]`.
    Collider(usize),
}

/// A complete scene: solver parameters, output timing, objects and kinematic colliders.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Scene name, used for the default output directory `out/<name>`.
    pub name: String,
    /// Solver parameters.
    pub params: SolverParams,
    /// Number of frames to simulate after frame 0.
    pub frames: usize,
    /// Output frame rate (frames/s); each frame advances the solver by 1/fps s.
    pub fps: f64,
    /// The objects.
    pub objects: Vec<SceneObject>,
    /// Kinematic analytic colliders, moved before every frame's advance.
    pub colliders: Vec<SceneCollider>,
    /// Friction coefficients of named pairs, set after the colliders' own `mu`.
    pub friction: Vec<FrictionPair>,
    /// Slip metrics written to `stats.csv`.
    pub slip: Vec<SlipPair>,
    /// Direction from the scene towards the viewer of the PNG previews (any length); `None`:
    /// 35° off the scene's thinnest horizontal axis, 20° above.
    pub view: Option<[f64; 3]>,
}

impl Scene {
    /// A scene of `objects` with `params`, 48 frames at 24 frames/s, no colliders or pairs.
    pub fn new(name: &str, params: SolverParams, objects: Vec<SceneObject>) -> Self {
        Self {
            name: name.into(),
            params,
            frames: DEFAULT_FRAMES,
            fps: DEFAULT_FPS,
            objects,
            colliders: Vec::new(),
            friction: Vec::new(),
            slip: Vec::new(),
            view: None,
        }
    }

    /// Checks the output timing, the objects' pins and motions, the colliders, and the names of
    /// friction and slip pairs; the error names the offending option, object or pair.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.fps.is_finite() && self.fps > 0.0) {
            return Err(format!("fps must be finite and > 0, got {}", self.fps));
        }
        if self.frames > MAX_FRAMES {
            return Err(format!("frames must be at most {MAX_FRAMES}, got {}", self.frames));
        }
        if let Some(v) = self.view {
            if !(v.iter().all(|x| x.is_finite()) && v.iter().any(|x| *x != 0.0)) {
                return Err(format!("view must be finite and nonzero, got {v:?}"));
            }
        }
        if self.objects.iter().all(|o| o.is_collider_mesh()) {
            return Err(format!("scene \"{}\" has no solid or shell", self.name));
        }
        for o in &self.objects {
            o.check(self.frames, self.fps).map_err(|m| format!("object \"{}\": {m}", o.name))?;
        }
        for c in &self.colliders {
            c.validate(self.frames, self.fps)?;
        }
        for (i, p) in self.friction.iter().enumerate() {
            let fail = |m: String| format!("friction pair #{} (\"{}\", \"{}\"): {m}", i + 1, p.a, p.b);
            self.find(&p.a).and(self.find(&p.b)).map_err(fail)?;
            if !(p.mu >= 0.0 && p.mu <= 100.0) {
                return Err(fail(format!("mu must be in [0, 100], got {}", p.mu)));
            }
        }
        for (i, p) in self.slip.iter().enumerate() {
            let fail = |m: String| format!("slip pair #{} (\"{}\" on \"{}\"): {m}", i + 1, p.object, p.on);
            for name in [&p.object, &p.on] {
                if let Named::Collider(_) = self.find(name).map_err(fail)? {
                    return Err(fail(format!("\"{name}\" is an analytic collider; slip is measured between objects")));
                }
            }
        }
        Ok(())
    }

    /// The object or collider called `name`; an error when there is none or more than one.
    pub fn find(&self, name: &str) -> Result<Named, String> {
        let objects = self.objects.iter().enumerate().filter(|(_, o)| o.name == name).map(|(i, _)| Named::Object(i));
        let colliders =
            self.colliders.iter().enumerate().filter(|(_, c)| c.name == name).map(|(i, _)| Named::Collider(i));
        let found: Vec<Named> = objects.chain(colliders).collect();
        match found[..] {
            [one] => Ok(one),
            [] => {
                let known: Vec<&str> = self
                    .objects
                    .iter()
                    .map(|o| &o.name[..])
                    .chain(self.colliders.iter().map(|c| &c.name[..]))
                    .collect();
                Err(format!("no object or collider is called \"{name}\" (known: {})", known.join(", ")))
            }
            _ => Err(format!("{} objects and colliders are called \"{name}\"; names must be unique", found.len())),
        }
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
