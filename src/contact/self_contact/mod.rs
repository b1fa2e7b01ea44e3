//! Self-contact of shells: the cubic penalty of every candidate vertex–triangle and edge–edge
//! pair ([`crate::contact::pair`]) of the cloth against itself or another shell, on the
//! unsigned distance, W_c = Σ b(d_i) (paper §3.2, the aggregate contact energy), and between a
//! shell and a solid's boundary faces on a signed gap ([`shell_solid`]).
//!
//! [`broad_phase`] gathers the candidate pairs, [`filter`] has the topological exclusion rule
//! (and a brute-force gather for tests), and [`contact_mesh`] holds the triangles, thicknesses
//! and friction of the objects that meet.

pub mod broad_phase;
pub mod contact_mesh;
pub mod filter;
pub mod shell_solid;
