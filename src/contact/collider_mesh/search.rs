//! Candidate triangles of a collider mesh near a point: a bounding-volume hierarchy over each
//! triangle's box swept over the substep (its box at the start united with its box at the
//! stage's end, so it holds the triangle wherever the stage puts it). A moving mesh keeps its
//! tree and refits the boxes; the tree is built again when the refitted root has grown to twice
//! the surface area it had when built (the motion has scrambled the split).

use super::geometry::{ClosestFeature, MeshGeometry};
use super::topology::MeshTopology;
use crate::mesh::bvh::{Aabb, Bvh};

/// The search structure of one collider mesh.
#[derive(Clone)]
pub struct MeshSearch {
    bvh: Bvh,
    boxes: Vec<Aabb>,
    /// Surface area of the root box (m²) when the tree was built.
    built_area: f64,
    /// How many times the tree was built (the first build included).
    pub builds: u32,
}

/// The swept box of every triangle between corner positions `start` and `end` (m).
fn swept_boxes(topology: &MeshTopology, start: &MeshGeometry, end: &MeshGeometry) -> Vec<Aabb> {
    (0..topology.triangles.len() as u32)
        .map(|t| {
            let mut b = start.triangle_box(topology, t);
            b.add_box(&end.triangle_box(topology, t));
            b
        })
        .collect()
}

impl MeshSearch {
    /// The tree over the triangles swept from `start` to `end`.
    pub fn new(topology: &MeshTopology, start: &MeshGeometry, end: &MeshGeometry) -> Self {
        let boxes = swept_boxes(topology, start, end);
        let bvh = Bvh::new(&boxes);
        let built_area = bvh.bounds().area();
        Self { bvh, boxes, built_area, builds: 1 }
    }

    /// Moves the tree to the triangles swept from `start` to `end`.
    pub fn update(&mut self, topology: &MeshTopology, start: &MeshGeometry, end: &MeshGeometry) {
        self.boxes = swept_boxes(topology, start, end);
        self.bvh.refit(&self.boxes);
        if self.bvh.bounds().area() > 2.0 * self.built_area {
            self.bvh = Bvh::new(&self.boxes);
            self.built_area = self.bvh.bounds().area();
            self.builds += 1;
        }
    }

    /// The triangles within `reach` (m) of `p` in `geometry` (which the swept boxes must hold),
    /// in increasing order: their swept boxes come within `reach` of `p`, and the exact distance
    /// confirms it.
    pub fn within(&self, topology: &MeshTopology, geometry: &MeshGeometry, p: [f64; 3], reach: f64) -> Vec<u32> {
        let query = Aabb { min: p, max: p }.inflated(reach);
        let mut out = Vec::new();
        self.bvh.for_each_overlap(&self.boxes, &query, |t| {
            if geometry.feature_of(topology, p, t).is_some_and(|c| c.distance2 <= reach * reach) {
                out.push(t);
            }
        });
        out.sort_unstable();
        out
    }

    /// The feature of the whole mesh closest to `p` in `geometry` (which the swept boxes must
    /// hold); `None` for a mesh without triangles.
    pub fn closest(&self, topology: &MeshTopology, geometry: &MeshGeometry, p: [f64; 3]) -> Option<ClosestFeature> {
        let (t, _) =
            self.bvh.closest(p, |t| geometry.feature_of(topology, p, t).map_or(f64::INFINITY, |c| c.distance2))?;
        geometry.feature_of(topology, p, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wavy sheet of 2 × 20 × 20 triangles moved and bent: the refitted search finds the same
    /// candidates and closest features as brute force, at both ends of the motion.
    #[test]
    fn refitted_search_matches_brute_force() {
        let n = 20usize;
        let grid = |t: f64| -> Vec<[f64; 3]> {
            (0..(n + 1) * (n + 1))
                .map(|i| {
                    let (x, y) = ((i % (n + 1)) as f64 * 0.05, (i / (n + 1)) as f64 * 0.05);
                    [x + 0.2 * t, y, 0.03 * (7.0 * x).sin() + t * 0.3 * x * x]
                })
                .collect()
        };
        let mut tris = Vec::new();
        for j in 0..n as u32 {
            for i in 0..n as u32 {
                let a = j * (n as u32 + 1) + i;
                tris.push([a, a + 1, a + n as u32 + 2]);
                tris.push([a, a + n as u32 + 2, a + n as u32 + 1]);
            }
        }
        let topo = MeshTopology::new(&grid(0.0), &tris);
        let still = |t: f64| MeshGeometry::new(&topo, grid(t), vec![[0.0; 3]; grid(t).len()]);
        let (g0, g1, g2) = (still(0.0), still(0.5), still(1.0));
        let mut search = MeshSearch::new(&topo, &g0, &g0);
        search.update(&topo, &g1, &g2);
        let all: Vec<u32> = (0..tris.len() as u32).collect();
        for k in 0..80 {
            let p = [0.013 * k as f64 - 0.1, 0.011 * k as f64, 0.02 * ((k % 7) as f64 - 3.0)];
            for g in [&g1, &g2] {
                let reach = 0.04;
                let brute: Vec<u32> = all
                    .iter()
                    .copied()
                    .filter(|&t| g.closest(&topo, p, &[t]).unwrap().distance2 <= reach * reach)
                    .collect();
                assert_eq!(search.within(&topo, g, p, reach), brute);
                assert_eq!(search.closest(&topo, g, p), g.closest(&topo, p, &all));
            }
        }
    }
}
