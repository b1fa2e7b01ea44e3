//! Inexact Newton with preconditioned BiCGSTAB: reaches the direct solver's solution on
//! contact between deforming meshes with both preconditioners and matrix-free products, stops the
//! block slide with matrix-free products, and survives BDF2 with friction. The friction
//! and deforming-mesh contact tests run with BiCGSTAB too (tests/friction_analytic.rs,
//! tests/surface_contact_physics.rs).
//!
//! Run with `cargo test --release --test iterative_solver`.

use grip::analytic::incline::{stop, Incline};
use grip::mesh::generate::{box_tets, grid_cloth};
use grip::solve::linear_solver::LinearSolverKind;
use grip::solve::preconditioner::PreconditionerKind;
use grip::Integrator;
use grip::{Material, Solver, SolverParams};

mod common;
use common::scenes::cloth_thrown_on_slab;
use grip::solver::VertexAttribute;

/// A cloth falling onto a soft slab, 20 steps of 10 ms; returns all positions and the total
/// linear iterations.
fn cloth_on_slab(linear_solver: LinearSolverKind, preconditioner: PreconditionerKind) -> (Vec<f64>, u32) {
    let params = SolverParams {
        time_step: 0.01,
        linear_solver,
        preconditioner,
        residual_tolerance: 1e-8,
        velocity_tolerance: 0.0,
        ..Default::default()
    };
    let mut s = Solver::new(&params).unwrap();
    let (p, t) = box_tets([0.4, 0.4, 0.1], [6, 6, 2], [-0.2, -0.2, -0.1]);
    let slab = Material { youngs_modulus: 1e5, poisson_ratio: 0.3, density: 1000.0, ..Default::default() };
    let slab_id = s.add_solid(&p, &t, &slab).unwrap();
    let pinned: Vec<f64> = p.chunks(3).map(|x| if x[2] < -0.1 + 1e-9 { 1.0 } else { 0.0 }).collect();
    s.set_vertex_attribute(slab_id, VertexAttribute::Pinned, &pinned).unwrap();
    let (p, t) = grid_cloth(0.3, 0.3, 10, 10);
    let p: Vec<f64> = p.chunks(3).flat_map(|x| [x[0], x[2] + 0.15, 0.01]).collect();
    let cloth = Material {
        youngs_modulus: 5e5,
        thickness: 1e-3,
        density: 300.0,
        bending_stiffness: 1e-5,
        ..Default::default()
    };
    let cloth_id = s.add_shell(&p, &t, &cloth).unwrap();
    s.set_friction(slab_id, cloth_id, 0.3).unwrap();
    let mut linear = 0;
    for k in 0..20 {
        s.step(0.01).unwrap_or_else(|e| panic!("step {k}: {e}"));
        linear += s.report().linear_iterations;
    }
    let mut q = s.positions(slab_id).unwrap().to_vec();
    q.extend_from_slice(s.positions(cloth_id).unwrap());
    (q, linear)
}

#[test]
fn inexact_newton_reaches_the_direct_solution() {
    let (direct, lu_solves) = cloth_on_slab(LinearSolverKind::DirectLu, PreconditionerKind::Cholesky);
    for (solver, pre) in [
        (LinearSolverKind::Iterative, PreconditionerKind::Cholesky),
        (LinearSolverKind::Iterative, PreconditionerKind::BlockJacobi),
        (LinearSolverKind::IterativeMatrixFree, PreconditionerKind::Cholesky),
    ] {
        let (iterative, krylov) = cloth_on_slab(solver, pre);
        let diff = direct.iter().zip(&iterative).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!("solver {solver:?}, preconditioner {pre:?}: {krylov} BiCGSTAB iterations ({lu_solves} LU solves), largest position difference {diff:.2e} m");
        // Both stop within the Newton tolerance (1e-8 of the initial residual), not at the same
        // point: over 20 steps that leaves micrometres between them (the floor of this
        // tolerance is round-off, about 4e-9 here).
        assert!(diff < 5e-6, "solver {solver:?}, preconditioner {pre:?}: positions differ by {diff} m");
    }
}

/// The block slide with matrix-free products (the assembled-Jacobian BiCGSTAB runs every friction
/// experiment in tests/friction_analytic.rs).
#[test]
fn matrix_free_block_slide_stops_where_coulomb_says() {
    let case = Incline { linear_solver: LinearSolverKind::IterativeMatrixFree, ..Incline::default() };
    let (x_t, t_t) = case.analytic_stop();
    let s = stop(&case.run().expect("run"), 1e-4).expect("the block stops");
    let (e_x, e_t) = ((s.distance - x_t) / x_t, (s.t - t_t) / t_t);
    println!(
        "matrix-free: stopped after {:.4} m ({:+.2}%), at {:.2} s ({:+.2}%)",
        s.distance,
        100.0 * e_x,
        s.t,
        100.0 * e_t
    );
    assert!(e_x.abs() < 0.02 && e_t.abs() < 0.05);
}

/// The cloth thrown onto a slab (`cloth_thrown_on_slab`) with BDF2: 6 frames of 1/30 s;
/// returns all positions.
fn thrown_cloth_bdf2(linear_solver: LinearSolverKind) -> Vec<f64> {
    let params = SolverParams {
        linear_solver,
        integrator: Integrator::Bdf2,
        residual_tolerance: 1e-8,
        velocity_tolerance: 0.0,
        ..Default::default()
    };
    let (mut s, [slab, cloth]) = cloth_thrown_on_slab(&params, 6, 0.12);
    for frame in 1..=6 {
        s.advance(1.0 / 30.0).unwrap_or_else(|e| panic!("solver {linear_solver:?}, frame {frame}: {e}"));
    }
    let mut q = s.positions(slab).unwrap().to_vec();
    q.extend_from_slice(s.positions(cloth).unwrap());
    q
}

/// BDF2 with friction makes the symmetrised Jacobian indefinite beyond every diagonal shift at
/// the cloth's impact, even in Newton's modified (definite) mode; the Cholesky preconditioner
/// then gives way to block Jacobi for that solve. (Before that fallback this scene failed at
/// its first frame with "no positive definite preconditioner" at every substep size.)
#[test]
fn bdf2_with_friction_survives_a_preconditioner_that_cannot_be_made_definite() {
    let direct = thrown_cloth_bdf2(LinearSolverKind::DirectLu);
    let iterative = thrown_cloth_bdf2(LinearSolverKind::Iterative);
    let diff = direct.iter().zip(&iterative).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    println!("largest position difference {diff:.2e} m");
    assert!(diff < 5e-6, "positions differ by {diff} m");
}
