//! The isosurface-stuffing pipeline on one BCC lattice: sample the implicit function at the
//! lattice vertices, cut the edges that cross the surface, warp the violated vertices, replace
//! every lattice tet that has an inside vertex by its stencil, orient, and keep only the vertices
//! the tets use. Every parallel stage writes its results in lattice order, so the mesh is the
//! same for any thread count.

use super::cuts::{self, Cuts, NOT_WARPED};
use super::lattice::Lattice;
use super::stencils::{self, Point};
use super::TetMesh;
use crate::error::{Error, Result};
use rayon::prelude::*;

/// Marks a stencil point whose cut could not be found (a bug; reported, never output).
const MISSING: u32 = u32::MAX;

/// det[b − a, c − a, d − a]: six times the signed volume of tet (a, b, c, d).
pub(super) fn orientation(p: [[f64; 3]; 4]) -> f64 {
    let e = |i: usize| [p[i][0] - p[0][0], p[i][1] - p[0][1], p[i][2] - p[0][2]];
    let (u, v, w) = (e(1), e(2), e(3));
    u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])
}

/// Meshes the region `f < 0` covered by `lattice` (whose outermost vertices must be outside,
/// `f > 0`). Vertex ids during the run: lattice vertex `v` is `v`, cut point `e` is
/// `vertex_count + e`.
pub(super) fn stuff(f: &(dyn Fn([f64; 3]) -> f64 + Sync), lattice: &Lattice) -> Result<TetMesh> {
    let nv = lattice.vertex_count();
    let values: Vec<f64> = (0..nv as u32).into_par_iter().map(|v| f(lattice.position(v))).collect();
    if let Some(v) = values.iter().position(|x| x.is_nan()) {
        let p = lattice.position(v as u32);
        return Err(Error::invalid(format!("the implicit function returned NaN at {p:?}")));
    }
    let signs: Vec<i8> = values.par_iter().map(|&x| if x < 0.0 { -1 } else { i8::from(x > 0.0) }).collect();
    // Lattice tets with an inside vertex: the only ones that can contribute.
    let candidates: Vec<[u32; 4]> = (0..lattice.red_count())
        .into_par_iter()
        .flat_map_iter(|cube| lattice.tets_of_cube(cube).filter(|t| t.iter().any(|&v| signs[v as usize] < 0)))
        .collect();
    let cuts = cuts::cut_edges(f, lattice, &values, &signs, &candidates)?;
    if nv + cuts.edges.len() >= MISSING as usize {
        return Err(Error::invalid("the mesh would have more than 2^32 vertices: increase cell_size"));
    }
    let target = cuts::warp(lattice, &signs, &cuts);
    let labels: Vec<i8> = signs.iter().zip(&target).map(|(&s, &t)| if t == NOT_WARPED { s } else { 0 }).collect();

    let before_warp = |id: u32| {
        let id = id as usize;
        if id < nv {
            lattice.position(id as u32)
        } else {
            cuts.positions[id - nv]
        }
    };
    let tets: Vec<[u32; 4]> = candidates
        .par_iter()
        .flat_map_iter(|t| {
            let mut local = Vec::with_capacity(3);
            stencils::stencil(t.map(|v| labels[v as usize]), &t.map(|v| lattice.doubled(v)), &mut local);
            local.into_iter().map(|points| {
                let mut ids = points.map(|p| global_id(p, t, nv, &cuts));
                // Orientation from the unwarped geometry, where every stencil tet is a proper
                // piece of its lattice tet; warping must keep it positive (checked below).
                if ids.iter().all(|&id| id != MISSING) && orientation(ids.map(before_warp)) < 0.0 {
                    ids.swap(2, 3);
                }
                ids
            })
        })
        .collect();
    if tets.is_empty() {
        return Err(Error::invalid(format!(
            "no tets: the inside region is empty or thinner than the lattice spacing ({} m)",
            lattice.spacing
        )));
    }

    let after_warp = |id: u32| {
        let id = id as usize;
        match target.get(id) {
            Some(&e) if e != NOT_WARPED => cuts.positions[e as usize],
            Some(_) => lattice.position(id as u32),
            None => cuts.positions[id - nv],
        }
    };
    let bad = tets
        .par_iter()
        .map(|t| t.contains(&MISSING) || !(orientation(t.map(after_warp)) > 0.0))
        .collect::<Vec<bool>>()
        .iter()
        .position(|&b| b);
    if let Some(i) = bad {
        return Err(Error::Panic(format!(
            "internal error in isosurface stuffing: output tet {i} is missing a cut point or is not positively oriented"
        )));
    }
    Ok(compact(&tets, nv + cuts.edges.len(), after_warp))
}

/// The run-time id of stencil point `p` of lattice tet `t`.
fn global_id(p: Point, t: &[u32; 4], nv: usize, cuts: &Cuts) -> u32 {
    match p {
        Point::Vertex(i) => t[i],
        Point::Cut(i, j) => cuts.find(t[i], t[j]).map_or(MISSING, |e| (nv + e) as u32),
    }
}

/// Renumbers the used vertices (lattice vertices in lattice order, then cut points in edge
/// order) and gathers their positions.
fn compact(tets: &[[u32; 4]], id_count: usize, position: impl Fn(u32) -> [f64; 3]) -> TetMesh {
    let mut used = vec![false; id_count];
    for t in tets {
        for &v in t {
            used[v as usize] = true;
        }
    }
    let mut index = vec![MISSING; id_count];
    let mut positions = Vec::new();
    for id in (0..id_count).filter(|&id| used[id]) {
        index[id] = positions.len() as u32;
        positions.push(position(id as u32));
    }
    let tets = tets.iter().map(|t| t.map(|v| index[v as usize])).collect();
    TetMesh { positions, tets }
}
