//! Tet meshing from C: `grip_tetrahedralize` fills a closed triangle surface with tets
//! (isosurface stuffing, `crate::mesh::tetrahedralize`) and returns a `GripTetMesh` handle; the
//! host asks its sizes, copies it out into arrays it owns (count-then-fill) and destroys it.
//!
//! Like solver handles, a `GripTetMesh *` is an opaque token, never an address: tokens are never
//! reused, so a destroyed or foreign handle is refused with a status instead of being
//! dereferenced. A mesh is immutable, so it may be read from several threads at once.

use super::guard::{self, call};
use super::GripStatus;
use crate::error::{Error, Result};
use crate::mesh::tetrahedralize::{tetrahedralize_surface, TetMesh};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A tet mesh made by `grip_tetrahedralize`. Opaque to C: only ever handled by pointer.
pub struct GripTetMesh {
    _opaque: [u8; 0],
}

static MESHES: Lazy<Mutex<HashMap<usize, Arc<TetMesh>>>> = Lazy::new(|| Mutex::new(HashMap::new()));
/// Next token; steps of 16 keep tokens looking like aligned pointers to debuggers.
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(0x746d_0000);

/// Most surface vertices accepted (2²⁸, as for solver objects).
const MAX_SURFACE_VERTICES: usize = 1 << 28;
/// Most surface triangles accepted (2²⁹).
const MAX_SURFACE_TRIANGLES: usize = 1 << 29;

fn meshes() -> MutexGuard<'static, HashMap<usize, Arc<TetMesh>>> {
    MESHES.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn lookup(handle: *const GripTetMesh) -> Result<Arc<TetMesh>> {
    if handle.is_null() {
        return Err(Error::NullPointer("mesh is NULL".into()));
    }
    meshes()
        .get(&(handle as usize))
        .cloned()
        .ok_or_else(|| Error::invalid("mesh is not a live handle (destroyed, or not from grip_tetrahedralize)"))
}

/// Fills the solid bounded by a closed triangle surface with tets: `vertex_count` positions
/// (`3 × vertex_count` doubles in m), `triangle_count` triangles (`3 × triangle_count` indices),
/// lattice spacing `cell_size` in m (tets have edges of about `cell_size`; a lattice tet has
/// volume `cell_size³/12`). The surface must be closed, manifold, consistently oriented (facing
/// inward as a whole is accepted and flipped) and free of self-intersections; a refusal names
/// the offending edge, vertex or triangle pair (`GRIP_STATUS_INVALID_MESH`). Every output tet is
/// positively oriented as `grip_solver_add_solid` expects, every vertex is used, boundary
/// vertices lie on the surface. On success `*out_mesh` owns a new mesh: read it with
/// `grip_tet_mesh_sizes` and `grip_tet_mesh_get`, free it with `grip_tet_mesh_destroy`. On
/// failure `*out_mesh` is set to NULL (when `out_mesh` is not NULL).
///
/// # Safety
/// `positions` and `triangles` must hold the stated number of elements; `out_mesh` must be
/// writable.
#[no_mangle]
pub unsafe extern "C" fn grip_tetrahedralize(
    positions: *const f64,
    vertex_count: usize,
    triangles: *const u32,
    triangle_count: usize,
    cell_size: f64,
    out_mesh: *mut *mut GripTetMesh,
) -> GripStatus {
    call(|| {
        if out_mesh.is_null() {
            return Err(Error::NullPointer("out_mesh is NULL".into()));
        }
        guard::write(out_mesh, std::ptr::null_mut(), "out_mesh")?;
        if vertex_count == 0 {
            return Err(Error::invalid("vertex_count is 0"));
        }
        if vertex_count > MAX_SURFACE_VERTICES {
            return Err(Error::invalid(format!(
                "vertex_count {vertex_count} is too large (at most {MAX_SURFACE_VERTICES})"
            )));
        }
        if triangle_count == 0 {
            return Err(Error::invalid("triangle_count is 0"));
        }
        if triangle_count > MAX_SURFACE_TRIANGLES {
            return Err(Error::invalid(format!(
                "triangle_count {triangle_count} is too large (at most {MAX_SURFACE_TRIANGLES})"
            )));
        }
        let xyz = guard::slice(positions, 3 * vertex_count, "positions")?;
        let indices = guard::slice(triangles, 3 * triangle_count, "triangles")?;
        let xyz: Vec<[f64; 3]> = xyz.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
        let tris: Vec<[u32; 3]> = indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        let mesh = tetrahedralize_surface(&xyz, &tris, cell_size)?;
        let token = NEXT_TOKEN.fetch_add(16, Ordering::Relaxed);
        meshes().insert(token, Arc::new(mesh));
        guard::write(out_mesh, token as *mut GripTetMesh, "out_mesh")
    })
}

/// Writes the mesh's vertex count to `*out_vertex_count` and its tet count to `*out_tet_count`.
///
/// # Safety
/// `out_vertex_count` and `out_tet_count` must be writable.
#[no_mangle]
pub unsafe extern "C" fn grip_tet_mesh_sizes(
    mesh: *const GripTetMesh,
    out_vertex_count: *mut usize,
    out_tet_count: *mut usize,
) -> GripStatus {
    call(|| {
        guard::check_out(out_vertex_count, "out_vertex_count")?;
        guard::check_out(out_tet_count, "out_tet_count")?;
        let mesh = lookup(mesh)?;
        guard::write(out_vertex_count, mesh.positions.len(), "out_vertex_count")?;
        guard::write(out_tet_count, mesh.tets.len(), "out_tet_count")
    })
}

/// Copies the mesh into host arrays: `out_positions` (`3 × vertex_count` doubles in m) and
/// `out_tets` (`4 × tet_count` indices, positively oriented: det[x1−x0, x2−x0, x3−x0] > 0).
/// `vertex_count` and `tet_count` must equal the counts from `grip_tet_mesh_sizes`; nothing is
/// written unless every argument is valid.
///
/// # Safety
/// `out_positions` must hold `3 × vertex_count` doubles and `out_tets` `4 × tet_count` indices.
#[no_mangle]
pub unsafe extern "C" fn grip_tet_mesh_get(
    mesh: *const GripTetMesh,
    out_positions: *mut f64,
    vertex_count: usize,
    out_tets: *mut u32,
    tet_count: usize,
) -> GripStatus {
    call(|| {
        let mesh = lookup(mesh)?;
        let (nv, nt) = (mesh.positions.len(), mesh.tets.len());
        if vertex_count != nv {
            return Err(Error::invalid(format!("vertex_count is {vertex_count}, but the mesh has {nv} vertices")));
        }
        if tet_count != nt {
            return Err(Error::invalid(format!("tet_count is {tet_count}, but the mesh has {nt} tets")));
        }
        let positions = guard::slice_mut(out_positions, 3 * nv, "out_positions")?;
        let tets = guard::slice_mut(out_tets, 4 * nt, "out_tets")?;
        for (out, p) in positions.chunks_exact_mut(3).zip(&mesh.positions) {
            out.copy_from_slice(p);
        }
        for (out, t) in tets.chunks_exact_mut(4).zip(&mesh.tets) {
            out.copy_from_slice(t);
        }
        Ok(())
    })
}

/// Destroys a mesh made by `grip_tetrahedralize`. NULL is fine; a handle that was already
/// destroyed, or never created, is ignored (handles are never reused).
#[no_mangle]
pub extern "C" fn grip_tet_mesh_destroy(mesh: *mut GripTetMesh) {
    let _ = call(|| {
        if !mesh.is_null() {
            meshes().remove(&(mesh as usize));
        }
        Ok(())
    });
}
