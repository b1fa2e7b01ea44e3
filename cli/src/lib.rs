//! The `grip` command line: `grip demo` (built-in scenes) and `grip run` (TOML scene files).
//!
//! Both simulate frame by frame with the library's frame driver ([`grip::scene::run`]) and write,
//! into the output directory, `<object>_<frame:04>.obj` per object per frame (frame 0 is the
//! initial state), `stats.csv` (one row per frame, frame 0 included) and `preview_first.png` /
//! `preview_last.png`. `grip demo NAME --export DIR` writes the demo as a scene file instead
//! (`DIR/scene.toml` and its meshes), which `grip run` reproduces exactly.
//! `grip bench` times the demos without writing output; `grip accuracy` compares the friction
//! experiments with their closed-form answers and writes ACCURACY.md; `grip damping` measures
//! every integrator's numerical damping on a soft beam and writes DAMPING.md; `grip diff`
//! compares the frames of two runs.
//! Exit codes: 0 success, 1 simulation or input error, 2 usage error.
//!
//! This crate owns the terminal side (arguments, progress bar, PNG files, logging) and the
//! built-in demos; scenes, scene files, motions and the frame driver are the library's
//! [`grip::scene`].

#![warn(missing_docs)]
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod accuracy;
pub mod accuracy_order;
pub mod bench;
pub mod bench_csv;
pub mod bench_report;
pub mod bench_tables;
mod command;
pub mod damping;
pub mod damping_beam;
pub mod damping_fit;
pub mod damping_report;
pub mod demo;
pub mod demo_colliders;
pub mod demo_contact;
pub mod demo_dynamics;
pub mod demo_elbow;
pub mod demo_fold;
pub mod demo_limb_mesh;
pub mod demo_tube;
pub mod demo_twist;
pub mod diff;
pub mod logger;
pub mod plot;
pub mod png_file;
pub mod report;
pub mod slip_sweep;

pub use command::main;
