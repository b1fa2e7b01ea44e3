//! Scenes (feature `scene`): what `grip run` and `grip demo` simulate, as a library that the C
//! API (`grip_scene_*`), the Python binding and the command line share.
//!
//! - [`description`]: the in-memory [`Scene`] (objects, pins and pin groups, analytic
//!   colliders, friction and slip pairs) and its checks.
//! - [`motion`], [`collider`]: rigid motions (a pose per output frame) of the kinematic parts.
//! - [`file`](mod@file): TOML scene files (`docs/scene-file.md`) and their export.
//! - [`build`]: a scene turned into a [`Solver`](crate::Solver), [`SceneSolver`], and driven
//!   one frame at a time ([`SceneSolver::advance_frame`]).
//! - [`run`]: the frame driver that writes a run's outputs ([`output`]: OBJ per object per
//!   frame, `stats.csv` with the [`metrics`] and [`slip`] columns, previews drawn with
//!   [`collider_mesh`]) and checkpoints ([`resume`]).
//! - [`usd`]: a run's OBJ frames gathered into one USD file (`<scene>.usda`).
//!
//! Units are SI: m, kg, s, Pa; frames are numbered from 0 (the initial state), frame k ends at
//! t = k / fps s.

pub mod build;
pub mod collider;
pub mod collider_mesh;
pub mod description;
pub mod file;
pub mod metrics;
pub mod motion;
pub mod output;
pub mod point_cache;
pub mod resume;
pub mod run;
pub mod slip;
pub mod usd;

pub use build::SceneSolver;
pub use collider::SceneCollider;
pub use description::{
    file_stem, Elements, FrictionPair, Named, PinGroup, PinSelection, PreviewStyle, Scene, SceneObject, SlipPair,
    VolumeSpec,
};
pub use motion::{Ease, Motion};
pub use point_cache::PointCache;
pub use run::{simulate, RunObserver, Summary};
