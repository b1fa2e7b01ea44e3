//! Fuzz target (b): mesh inputs. The bytes give a small vertex cloud (a perturbed grid, with
//! occasional special values) and index lists, fed to `grip_solver_add_shell`,
//! `grip_solver_add_solid`, `grip_solver_add_collider_mesh` and `grip_tetrahedralize`; what is
//! accepted is stepped once. Any panic at the boundary, a silent failure or a non-finite state
//! after a successful step is a finding.

use super::bytes::Bytes;
use super::checks::{assert_finite, checked};
use grip::capi::collider_api::grip_solver_add_collider_mesh;
use grip::capi::handles::GripSolver;
use grip::capi::mesher_api::{grip_tet_mesh_destroy, grip_tet_mesh_sizes, grip_tetrahedralize, GripTetMesh};
use grip::capi::solver_api::{
    grip_solver_add_shell, grip_solver_add_solid, grip_solver_create, grip_solver_destroy, grip_solver_step,
};
use grip::capi::GripStatus;
use grip::capi::{GripMaterial, GripSolverParams};

/// Most vertices a fuzzed mesh has (keeps one input fast).
const MAX_VERTICES: usize = 24;
/// Most elements a fuzzed mesh has.
const MAX_ELEMENTS: usize = 32;

fn positions(b: &mut Bytes, n: usize) -> Vec<f64> {
    (0..3 * n)
        .map(|i| {
            let v = i / 3;
            let base = match i % 3 {
                0 => (v % 3) as f64 * 0.1,
                1 => ((v / 3) % 3) as f64 * 0.1,
                _ => (v / 9) as f64 * 0.1,
            };
            b.near(base)
        })
        .collect()
}

fn indices(b: &mut Bytes, count: usize, n: usize) -> Vec<u32> {
    (0..count)
        .map(|_| match b.u8() {
            0 => u32::MAX,
            1 => n as u32,
            x => (x as usize % n.max(1)) as u32,
        })
        .collect()
}

/// Runs one input.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let n = 1 + b.below(MAX_VERTICES);
    let elements = 1 + b.below(MAX_ELEMENTS);
    let x = positions(&mut b, n);
    let kind = b.u8() % 4;
    let per = if kind == 1 { 4 } else { 3 };
    let idx = indices(&mut b, per * elements, n);
    if kind == 3 {
        return tetrahedralize(&mut b, &x, n, &idx, elements);
    }
    let mut material = GripMaterial::default();
    if b.u8() < 16 {
        material.poisson_ratio = b.f64();
        material.density = b.near(material.density);
        material.youngs_modulus = b.near(material.youngs_modulus);
        material.thickness = b.near(material.thickness);
    }
    let params = GripSolverParams { max_substep_halvings: 1, max_newton_iterations: 20, ..Default::default() };
    let mut solver: *mut GripSolver = std::ptr::null_mut();
    // SAFETY: valid pointers to locals.
    assert_eq!(unsafe { grip_solver_create(&params, &mut solver) }, GripStatus::Ok);
    let mut id = 0u32;
    // SAFETY: `x` holds 3 n doubles and `idx` per × elements indices.
    let status = unsafe {
        match kind {
            0 => grip_solver_add_shell(solver, x.as_ptr(), n, idx.as_ptr(), elements, &material, &mut id),
            1 => grip_solver_add_solid(solver, x.as_ptr(), n, idx.as_ptr(), elements, &material, &mut id),
            _ => grip_solver_add_collider_mesh(solver, x.as_ptr(), n, idx.as_ptr(), elements, &mut id),
        }
    };
    if checked("add mesh", status) == GripStatus::Ok {
        // SAFETY: live handle.
        let step = checked("step", unsafe { grip_solver_step(solver, 1.0 / 240.0) });
        assert!(matches!(step, GripStatus::Ok | GripStatus::NotConverged), "step: {step:?}");
        assert_finite(solver, id);
    }
    grip_solver_destroy(solver);
}

fn tetrahedralize(b: &mut Bytes, x: &[f64], n: usize, idx: &[u32], triangles: usize) {
    let extent = x
        .chunks_exact(3)
        .flat_map(|p| p.iter().copied())
        .filter(|v| v.is_finite() && v.abs() < 10.0)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    // A lattice of at most about 8 cells per side keeps an input fast; now and then a bad size.
    let cell = match b.u8() {
        0 => b.f64(),
        c => (extent.max(0.05) / (1.0 + (c % 8) as f64)).max(1e-3),
    };
    let mut mesh: *mut GripTetMesh = std::ptr::null_mut();
    // SAFETY: arrays hold the stated counts.
    let status = unsafe { grip_tetrahedralize(x.as_ptr(), n, idx.as_ptr(), triangles, cell, &mut mesh) };
    if checked("tetrahedralize", status) == GripStatus::Ok {
        let (mut nv, mut nt) = (0usize, 0usize);
        // SAFETY: live mesh, valid out pointers.
        assert_eq!(unsafe { grip_tet_mesh_sizes(mesh, &mut nv, &mut nt) }, GripStatus::Ok);
        assert!(nv > 0 && nt > 0);
    } else {
        assert!(mesh.is_null(), "a failed grip_tetrahedralize left a handle");
    }
    grip_tet_mesh_destroy(mesh);
}
