//! The connectivity of a collider mesh, built once when the mesh is added: which triangle lies
//! across each edge, and whether the mesh closes a volume. Hosts often split vertices along UV
//! or normal seams, so corners are welded by rest position first: a seam then joins its two
//! sides as it does on the surface, and a body exported with split normals still counts as
//! closed.

use std::collections::HashMap;

/// Rest positions closer than this fraction of the mesh's bounding-box diagonal weld into one
/// corner for the connectivity (1e-9: a seam's split copies, never two distinct vertices).
const WELD_FRACTION: f64 = 1e-9;

/// One triangle's use of a welded edge: the triangle, its edge slot k, and whether it runs
/// from the lower to the higher welded corner.
type EdgeUse = (u32, usize, bool);

/// Connectivity of one collider mesh, in object-local vertex numbering.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshTopology {
    /// The triangles (object-local corners), outward by their winding where the mesh is closed.
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex, its welded corner: the lowest-numbered vertex at the same rest position.
    pub welded: Vec<u32>,
    /// Per triangle and edge k (corners k → k + 1 mod 3), the triangle across it when exactly
    /// one other triangle shares the welded edge, else `None` (a boundary or non-manifold edge).
    pub neighbours: Vec<[Option<u32>; 3]>,
    /// Per vertex: on a boundary or non-manifold edge (an open mesh's rim).
    pub rim: Vec<bool>,
    /// Every welded edge has exactly two triangles that traverse it in opposite directions: the
    /// mesh bounds a volume and its winding orients every face the same way, so the
    /// pseudonormal sign tells inside from outside.
    pub closed: bool,
}

impl MeshTopology {
    /// The connectivity of `triangles` over vertices at rest positions `rest` (m). A closed
    /// mesh wound inwards (negative enclosed volume) has every triangle's winding reversed, so
    /// that its normals point out.
    pub fn new(rest: &[[f64; 3]], triangles: &[[u32; 3]]) -> Self {
        let topology = Self::as_wound(rest, triangles);
        if topology.closed && signed_volume(rest, triangles) < 0.0 {
            let flipped: Vec<[u32; 3]> = triangles.iter().map(|&[a, b, c]| [a, c, b]).collect();
            return Self::as_wound(rest, &flipped);
        }
        topology
    }

    /// The connectivity with the triangles' winding as given.
    fn as_wound(rest: &[[f64; 3]], triangles: &[[u32; 3]]) -> Self {
        let welded = weld(rest);
        let mut edges: HashMap<(u32, u32), Vec<EdgeUse>> = HashMap::new();
        for (t, tri) in triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (welded[tri[k] as usize], welded[tri[(k + 1) % 3] as usize]);
                let key = (a.min(b), a.max(b));
                edges.entry(key).or_default().push((t as u32, k, a < b));
            }
        }
        let mut neighbours = vec![[None; 3]; triangles.len()];
        let mut closed = !triangles.is_empty();
        for sides in edges.values() {
            if let [(t0, k0, up0), (t1, k1, up1)] = sides[..] {
                neighbours[t0 as usize][k0] = Some(t1);
                neighbours[t1 as usize][k1] = Some(t0);
                closed &= up0 != up1;
            } else {
                closed = false;
            }
        }
        let mut rim_welded = vec![false; rest.len()];
        for (t, tri) in triangles.iter().enumerate() {
            for k in (0..3).filter(|&k| neighbours[t][k].is_none()) {
                rim_welded[welded[tri[k] as usize] as usize] = true;
                rim_welded[welded[tri[(k + 1) % 3] as usize] as usize] = true;
            }
        }
        let rim = welded.iter().map(|&w| rim_welded[w as usize]).collect();
        Self { triangles: triangles.to_vec(), welded, neighbours, rim, closed }
    }
}

/// The volume (m³) the triangles enclose, positive when their normals point out: Σ a·(b × c)/6
/// (divergence theorem).
fn signed_volume(rest: &[[f64; 3]], triangles: &[[u32; 3]]) -> f64 {
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|v| rest[v as usize]);
            let bxc = [b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]];
            (a[0] * bxc[0] + a[1] * bxc[1] + a[2] * bxc[2]) / 6.0
        })
        .sum()
}

/// Per vertex, the lowest-numbered vertex within `WELD_FRACTION` of the bounding-box diagonal
/// (positions rounded to a grid of that spacing; a pair straddling a grid line stays apart,
/// which only leaves a seam open).
fn weld(rest: &[[f64; 3]]) -> Vec<u32> {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in rest {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let diagonal = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    let cell = (WELD_FRACTION * diagonal).max(f64::MIN_POSITIVE);
    let mut first: HashMap<[i64; 3], u32> = HashMap::new();
    rest.iter()
        .enumerate()
        .map(|(v, p)| {
            let key = std::array::from_fn(|k| ((p[k] - lo[k]) / cell).round() as i64);
            *first.entry(key).or_insert(v as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit cube's outward boundary: twelve triangles of its five tets, eight corners.
    fn cube() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
        let (p, tets) = crate::mesh::generate::box_tets([1.0; 3], [1, 1, 1], [0.0; 3]);
        let tets: Vec<[u32; 4]> = tets.chunks(4).map(|t| [t[0], t[1], t[2], t[3]]).collect();
        (crate::mesh::triples(&p), crate::mesh::boundary_triangles(&tets))
    }

    /// A cube is closed; without a face it is open; with one face flipped it is not oriented.
    #[test]
    fn a_cube_is_closed_and_a_box_without_lid_is_not() {
        let (p, t) = cube();
        let topo = MeshTopology::new(&p, &t);
        assert!(topo.closed);
        assert!(topo.neighbours.iter().all(|n| n.iter().all(Option::is_some)));
        // Across each edge a→b lies the triangle that has b→a.
        for (i, tri) in t.iter().enumerate() {
            for k in 0..3 {
                let other = t[topo.neighbours[i][k].unwrap() as usize];
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                assert!((0..3).any(|m| other[m] == b && other[(m + 1) % 3] == a), "{tri:?} / {other:?}");
            }
        }
        assert!(topo.rim.iter().all(|r| !r));
        // Without its two x = 1 triangles: open, and the x = 1 corners form the rim.
        let lidless: Vec<[u32; 3]> =
            t.iter().copied().filter(|f| !f.iter().all(|&v| p[v as usize][0] == 1.0)).collect();
        assert_eq!(lidless.len(), 10);
        let open = MeshTopology::new(&p, &lidless);
        assert!(!open.closed);
        assert_eq!(open.rim, p.iter().map(|x| x[0] == 1.0).collect::<Vec<_>>());
        let mut flipped = t.clone();
        flipped[3] = [t[3][0], t[3][2], t[3][1]];
        assert!(!MeshTopology::new(&p, &flipped).closed);
    }

    /// The procedural proxies are closed: the prism with fanned caps, the UV sphere with its
    /// pole fans, the icosphere.
    #[test]
    fn procedural_shapes_are_closed() {
        use crate::mesh::shapes::{icosphere, prism, uv_sphere};
        for (name, (p, t)) in
            [("prism", prism(0.2, -0.5, 0.5, 8)), ("uv", uv_sphere(1.0, 32, 16)), ("ico", icosphere(1.0, 2))]
        {
            let tris: Vec<[u32; 3]> = t.chunks(3).map(|f| [f[0], f[1], f[2]]).collect();
            let topo = MeshTopology::new(&crate::mesh::triples(&p), &tris);
            assert!(topo.closed, "{name}");
            assert_eq!(topo.triangles, tris, "{name}: already outward");
        }
    }

    /// A cube wound inwards is turned outwards.
    #[test]
    fn an_inward_cube_is_turned_out() {
        let (p, t) = cube();
        let inward: Vec<[u32; 3]> = t.iter().map(|&[a, b, c]| [a, c, b]).collect();
        let topo = MeshTopology::new(&p, &inward);
        assert!(topo.closed);
        assert_eq!(topo.triangles, t);
        assert!(signed_volume(&p, &t) > 0.999 && signed_volume(&p, &t) < 1.001);
    }

    /// A cube whose faces each have their own four vertices (split normals) welds into a closed
    /// mesh with the same neighbours.
    #[test]
    fn split_seams_weld() {
        let (p, t) = cube();
        let mut split_p = Vec::new();
        let mut split_t = Vec::new();
        for tri in &t {
            let base = split_p.len() as u32;
            split_p.extend(tri.map(|v| p[v as usize]));
            split_t.push([base, base + 1, base + 2]);
        }
        let topo = MeshTopology::new(&split_p, &split_t);
        assert!(topo.closed);
        assert_eq!(topo.neighbours, MeshTopology::new(&p, &t).neighbours);
        // Triangle 4's first corner is cube vertex 0, first copied as triangle 0's corner 0.
        assert_eq!(topo.welded[12], 0);
    }
}
