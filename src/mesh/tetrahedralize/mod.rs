//! Quality tetrahedral meshes of solids by *isosurface stuffing* (Labelle & Shewchuk 2007,
//! "Isosurface stuffing: fast tetrahedral meshes with good dihedral angles").
//!
//! The solid is given implicitly (a function negative inside, [`tetrahedralize_sdf`]) or by its
//! closed triangle surface ([`tetrahedralize_surface`], which builds the signed distance of the
//! surface). A body-centred cubic lattice of spacing `cell_size` covers it; lattice vertices
//! closer to the surface than a fixed fraction of an edge are *warped* onto it, and each lattice
//! tet crossed by the surface is replaced by a fixed *stencil* of one to three tets. For its
//! stencils and warp thresholds ([`ALPHA_LONG`], [`ALPHA_SHORT`]) the paper proves every
//! dihedral angle within [[`MIN_DIHEDRAL_DEGREES`], [`MAX_DIHEDRAL_DEGREES`]] whatever the
//! surface; tets away from the surface are the lattice's own (60° and 90°). This implementation
//! follows the paper's stencils and parity rule and warps inside vertices before outside ones;
//! the tests check the bounds on smooth and faceted solids (random polyhedra, tori, slabs,
//! spheres: measured extremes 11.5° and 155.5°). Functions whose sign changes on a scale finer
//! than the lattice (noise) have given angles down to 10.1° in stress runs. Boundary vertices lie
//! on the surface (to the root finder's 1e-12 of an edge), so the mesh boundary converges to the
//! surface as `cell_size` shrinks; features finer than `cell_size` (sharp edges, thin walls) are
//! rounded off or lost, and a solid thinner than a cell may come out pinched (boundary edges
//! shared by four boundary triangles).
//!
//! Output: vertices used by at least one tet, every tet positively oriented
//! (det[x1−x0, x2−x0, x3−x0] > 0, as `Solver::add_solid` expects), conforming (two tets share
//! a whole face or nothing), identical for any number of threads.

mod cuts;
mod lattice;
mod orientation;
mod self_intersection;
mod stencils;
mod stuffing;
mod surface_check;
mod surface_sdf;

pub use cuts::{ALPHA_LONG, ALPHA_SHORT};

use crate::error::{Error, Result};
use lattice::Lattice;

/// Lower bound (°) on the dihedral angles that the paper proves for [`ALPHA_LONG`] and
/// [`ALPHA_SHORT`] (see the module documentation for what is measured here).
///
/// cbindgen:ignore
pub const MIN_DIHEDRAL_DEGREES: f64 = 10.7;
/// Upper bound (°) on the dihedral angles that the paper proves.
///
/// cbindgen:ignore
pub const MAX_DIHEDRAL_DEGREES: f64 = 164.8;

/// Most lattice cubes accepted (2²², e.g. 161³): about 50 million lattice tets, a few GiB at
/// worst. A larger request is refused before anything is allocated.
///
/// cbindgen:ignore
pub const MAX_LATTICE_CELLS: usize = 1 << 22;

/// Largest coordinate magnitude accepted in m (as for solver meshes).
const MAX_COORDINATE: f64 = crate::mesh::validate::MAX_COORDINATE;

/// A tetrahedral mesh: positions (m) and positively oriented tets (indices into `positions`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TetMesh {
    /// Vertex positions (m); every vertex is used by some tet.
    pub positions: Vec<[f64; 3]>,
    /// Tets as four vertex indices, det[x1−x0, x2−x0, x3−x0] > 0.
    pub tets: Vec<[u32; 4]>,
}

impl TetMesh {
    /// Positions as a flat `x0 y0 z0 x1 …` array in m (the layout of `Solver::add_solid`).
    pub fn flat_positions(&self) -> Vec<f64> {
        self.positions.iter().flatten().copied().collect()
    }

    /// Tets as a flat index array (the layout of `Solver::add_solid`).
    pub fn flat_tets(&self) -> Vec<u32> {
        self.tets.iter().flatten().copied().collect()
    }

    /// Total volume in m³ (sum of the tet volumes).
    pub fn volume(&self) -> f64 {
        let p = |v: u32| self.positions[v as usize];
        self.tets.iter().map(|t| stuffing::orientation(t.map(p)) / 6.0).sum()
    }
}

/// Lattice spacing (m) that gives about `tets` tets for a solid of `volume` (m³). A BCC lattice
/// tet has volume L³/12, so L = (12·V/N)^(1/3). The count is approximate: the tets cut at the
/// surface are smaller than lattice tets, which typically adds 10–30 % for the sizes used in
/// simulation. NaN when `volume` is not positive and finite or `tets` is 0.
pub fn cell_size_for_tet_count(volume: f64, tets: usize) -> f64 {
    if !(volume > 0.0 && volume.is_finite()) || tets == 0 {
        return f64::NAN;
    }
    (12.0 * volume / tets as f64).cbrt()
}

/// Tets filling the region where `sdf < 0` inside the box `lo`..`hi` (m), with lattice spacing
/// `cell_size` in m (the side of a lattice cube; lattice tets have volume `cell_size³/12`).
///
/// `sdf` (m) is negative inside; it need not be an exact distance, only continuous with the
/// surface at its zero set (it is evaluated at the lattice vertices and root-found along the
/// lattice edges that cross zero). Where the solid reaches the box, the box clips it. Refused:
/// non-finite or inverted box, `cell_size` not positive and finite, more than
/// [`MAX_LATTICE_CELLS`] lattice cubes, `sdf` returning NaN, an empty result.
pub fn tetrahedralize_sdf<F: Fn([f64; 3]) -> f64 + Sync>(
    sdf: F,
    lo: [f64; 3],
    hi: [f64; 3],
    cell_size: f64,
) -> Result<TetMesh> {
    for (name, corner) in [("lo", lo), ("hi", hi)] {
        if let Some(x) = corner.iter().find(|x| !(x.abs() <= MAX_COORDINATE)) {
            return Err(Error::invalid(format!(
                "box corner {name} has coordinate {x} (must be finite, |x| ≤ {MAX_COORDINATE:e} m)"
            )));
        }
    }
    if let Some(k) = (0..3).find(|&k| !(lo[k] < hi[k])) {
        return Err(Error::invalid(format!("box is empty along axis {k}: lo = {} m, hi = {} m", lo[k], hi[k])));
    }
    let lattice = lattice_over(lo, hi, cell_size)?;
    let inside_box = |p: [f64; 3]| (0..3).map(|k| (lo[k] - p[k]).max(p[k] - hi[k])).fold(f64::NEG_INFINITY, f64::max);
    let clipped = |p: [f64; 3]| {
        let s = sdf(p);
        // f64::max would hide a NaN from `sdf`.
        if s.is_nan() {
            s
        } else {
            s.max(inside_box(p))
        }
    };
    stuffing::stuff(&clipped, &lattice)
}

/// Tets filling the solid bounded by a closed triangle surface, with lattice spacing
/// `cell_size` (m). `positions` (m), `triangles` index them (unused vertices are ignored).
///
/// The surface must be closed (every edge in exactly two triangles), manifold (also at every
/// vertex), consistently oriented and free of self-intersections (exact predicates; touching
/// counts); each refusal names the offending edge, vertex, triangle or pair of triangles. A
/// surface facing inward as a whole is accepted and flipped. Several shells are accepted when
/// they bound one solid: separate bodies facing outward, cavities (shells inside a body) facing
/// into the cavity. Also refused: non-finite or huge coordinates, degenerate or duplicate
/// triangles, `cell_size` not positive and finite, more than [`MAX_LATTICE_CELLS`] lattice cubes
/// over the surface's bounding box, a solid thinner than the lattice.
pub fn tetrahedralize_surface(positions: &[[f64; 3]], triangles: &[[u32; 3]], cell_size: f64) -> Result<TetMesh> {
    check_cell_size(cell_size)?;
    for (v, p) in positions.iter().enumerate() {
        if let Some(x) = p.iter().find(|x| !x.is_finite()) {
            return Err(Error::mesh(format!("position of vertex {v} is not finite ({x})")));
        }
        if let Some(x) = p.iter().find(|x| x.abs() > MAX_COORDINATE) {
            return Err(Error::mesh(format!(
                "position of vertex {v} is {x} m, beyond the limit of {MAX_COORDINATE:e} m"
            )));
        }
    }
    surface_check::check_indices(positions.len(), triangles)?;
    let used: Vec<[f64; 3]> = triangles.iter().flatten().map(|&v| positions[v as usize]).collect();
    let bounds = crate::mesh::bvh::Aabb::of_points(&used);
    // The lattice (checked against the cell limit first: cheap) covers the bounding box.
    let lattice = lattice_over(bounds.min, bounds.max, cell_size)?;
    let mut surface = surface_check::check_topology(positions, triangles)?;
    if let Some((i, j)) = self_intersection::first_intersection(positions, triangles) {
        return Err(Error::mesh(format!(
            "the surface intersects itself: triangles {i} {:?} and {j} {:?} cross or touch",
            triangles[i], triangles[j]
        )));
    }
    orientation::orient_solid(positions, &mut surface)?;
    let sdf = surface_sdf::SurfaceSdf::new(positions, &surface);
    stuffing::stuff(&|p| sdf.signed_distance(p), &lattice)
}

/// `cell_size` in (0, `MAX_COORDINATE`]: beyond it lattice coordinates lose the precision the
/// cut points need (found by fuzzing: 1e300 m gave an internal error instead of a refusal).
fn check_cell_size(cell_size: f64) -> Result<()> {
    if !(cell_size > 0.0 && cell_size <= MAX_COORDINATE) {
        return Err(Error::invalid(format!(
            "cell_size must be positive, finite and at most {MAX_COORDINATE:e} m, got {cell_size} m"
        )));
    }
    Ok(())
}

/// The lattice over box `lo`..`hi` (lo ≤ hi) with one extra cube on every side, so its
/// outermost vertices are at least `cell_size` outside the box: cubes along axis k =
/// ⌈(hi − lo)/L⌉ + 2. Refused above [`MAX_LATTICE_CELLS`] cubes.
fn lattice_over(lo: [f64; 3], hi: [f64; 3], cell_size: f64) -> Result<Lattice> {
    check_cell_size(cell_size)?;
    let counts: [f64; 3] = std::array::from_fn(|k| ((hi[k] - lo[k]) / cell_size).ceil() + 2.0);
    let total: f64 = counts.iter().product();
    if !(total <= MAX_LATTICE_CELLS as f64) {
        return Err(Error::invalid(format!(
            "too many lattice cells: cell_size {cell_size} m over a {:.3e} × {:.3e} × {:.3e} m box needs {:.0} × {:.0} × \
             {:.0} = {total:.3e} cubes, more than the limit of {MAX_LATTICE_CELLS}; increase cell_size",
            hi[0] - lo[0],
            hi[1] - lo[1],
            hi[2] - lo[2],
            counts[0],
            counts[1],
            counts[2],
        )));
    }
    Ok(Lattice {
        origin: std::array::from_fn(|k| lo[k] - cell_size),
        spacing: cell_size,
        cells: counts.map(|c| c as usize),
    })
}
