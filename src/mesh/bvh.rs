//! A bounding-volume hierarchy over triangles (or any boxed items): closest-item queries for the
//! signed distance, overlap queries for broad phases. Built by median splits of the item
//! centroids along the longest axis; the build, the refit and every query are deterministic.
//! Moving items keep the tree and refit its boxes ([`Bvh::refit`]), which stays correct (every
//! node bounds its items) and only loses pruning as the motion scrambles the split.

/// An axis-aligned box (m); `min > max` on some axis means empty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Aabb {
    /// Lower corner (m).
    pub min: [f64; 3],
    /// Upper corner (m).
    pub max: [f64; 3],
}

impl Aabb {
    /// The empty box.
    pub fn empty() -> Self {
        Aabb { min: [f64::INFINITY; 3], max: [f64::NEG_INFINITY; 3] }
    }

    /// The smallest box holding `points` (exact: only min/max of the coordinates).
    pub fn of_points(points: &[[f64; 3]]) -> Self {
        let mut b = Self::empty();
        for p in points {
            b.add_point(*p);
        }
        b
    }

    /// Grows the box to hold `p`.
    pub fn add_point(&mut self, p: [f64; 3]) {
        self.add_box(&Aabb { min: p, max: p });
    }

    /// Grows the box to hold `other`.
    pub fn add_box(&mut self, other: &Aabb) {
        for k in 0..3 {
            self.min[k] = self.min[k].min(other.min[k]);
            self.max[k] = self.max[k].max(other.max[k]);
        }
    }

    /// Whether the closed boxes share a point (touching counts).
    pub fn overlaps(&self, other: &Aabb) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// Whether the closed box holds `p`.
    pub fn contains(&self, p: [f64; 3]) -> bool {
        (0..3).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// Squared distance (m²) from `p` to the box (0 inside).
    pub fn distance2(&self, p: [f64; 3]) -> f64 {
        (0..3).map(|k| (self.min[k] - p[k]).max(p[k] - self.max[k]).max(0.0).powi(2)).sum()
    }

    /// The box grown by `r` (m) on every side.
    pub fn inflated(&self, r: f64) -> Self {
        Aabb { min: self.min.map(|x| x - r), max: self.max.map(|x| x + r) }
    }

    /// Surface area (m²) of the box (0 when empty).
    pub fn area(&self) -> f64 {
        let e: [f64; 3] = std::array::from_fn(|k| (self.max[k] - self.min[k]).max(0.0));
        2.0 * (e[0] * e[1] + e[1] * e[2] + e[2] * e[0])
    }

    fn centre(&self) -> [f64; 3] {
        std::array::from_fn(|k| 0.5 * (self.min[k] + self.max[k]))
    }
}

/// Items per leaf at most.
const LEAF_SIZE: usize = 4;

/// A node: a leaf holds `items[first..first + count]`; an inner node (`count == 0`) has its two
/// children at `first` and `first + 1`.
#[derive(Clone, Copy, Debug)]
struct Node {
    bounds: Aabb,
    first: u32,
    count: u32,
}

/// The hierarchy over items `0..boxes.len()`.
#[derive(Clone, Debug)]
pub(crate) struct Bvh {
    nodes: Vec<Node>,
    items: Vec<u32>,
}

impl Bvh {
    /// Builds the hierarchy over the item boxes.
    pub fn new(boxes: &[Aabb]) -> Self {
        let centres: Vec<[f64; 3]> = boxes.iter().map(Aabb::centre).collect();
        let mut items: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes = vec![Node { bounds: Aabb::empty(), first: 0, count: 0 }];
        let mut stack = vec![(0usize, 0usize, items.len())];
        while let Some((node, start, end)) = stack.pop() {
            let mut bounds = Aabb::empty();
            let mut spread = Aabb::empty();
            for &i in &items[start..end] {
                bounds.add_box(&boxes[i as usize]);
                spread.add_point(centres[i as usize]);
            }
            if end - start <= LEAF_SIZE {
                nodes[node] = Node { bounds, first: start as u32, count: (end - start) as u32 };
                continue;
            }
            let axis = (0..3)
                .max_by(|&a, &b| (spread.max[a] - spread.min[a]).total_cmp(&(spread.max[b] - spread.min[b])))
                .unwrap_or(0);
            let mid = (end - start) / 2;
            items[start..end].select_nth_unstable_by(mid, |&a, &b| {
                centres[a as usize][axis].total_cmp(&centres[b as usize][axis]).then(a.cmp(&b))
            });
            let left = nodes.len();
            nodes.push(Node { bounds: Aabb::empty(), first: 0, count: 0 });
            nodes.push(Node { bounds: Aabb::empty(), first: 0, count: 0 });
            nodes[node] = Node { bounds, first: left as u32, count: 0 };
            stack.push((left, start, start + mid));
            stack.push((left + 1, start + mid, end));
        }
        Bvh { nodes, items }
    }

    /// Recomputes every node's box from new item boxes `boxes` (same items, same order as at
    /// the build), bottom-up: children are stored after their parent, so a reverse sweep sees
    /// them first.
    pub fn refit(&mut self, boxes: &[Aabb]) {
        for n in (0..self.nodes.len()).rev() {
            let node = self.nodes[n];
            let mut bounds = Aabb::empty();
            if node.count > 0 {
                let (first, count) = (node.first as usize, node.count as usize);
                for &item in &self.items[first..first + count] {
                    bounds.add_box(&boxes[item as usize]);
                }
            } else if !self.items.is_empty() {
                let a = node.first as usize;
                bounds = self.nodes[a].bounds;
                bounds.add_box(&self.nodes[a + 1].bounds);
            }
            self.nodes[n].bounds = bounds;
        }
    }

    /// The box of the root (every item), empty without items.
    pub fn bounds(&self) -> Aabb {
        self.nodes[0].bounds
    }

    /// The item closest to `p` and its squared distance (m²), where `distance2(item)` is the
    /// exact squared distance from `p` to the item. `None` when there are no items.
    pub fn closest(&self, p: [f64; 3], mut distance2: impl FnMut(u32) -> f64) -> Option<(u32, f64)> {
        let mut best: Option<(u32, f64)> = None;
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            let bound = best.map_or(f64::INFINITY, |b| b.1);
            if node.bounds.distance2(p) > bound || (self.items.is_empty()) {
                continue;
            }
            if node.count > 0 {
                let (first, count) = (node.first as usize, node.count as usize);
                for &item in &self.items[first..first + count] {
                    let d2 = distance2(item);
                    if best.is_none_or(|(b, bd)| d2 < bd || (d2 == bd && item < b)) {
                        best = Some((item, d2));
                    }
                }
            } else {
                let (a, b) = (node.first as usize, node.first as usize + 1);
                let (da, db) = (self.nodes[a].bounds.distance2(p), self.nodes[b].bounds.distance2(p));
                // Visit the nearer child first (pushed last).
                if da <= db {
                    stack.extend([b, a]);
                } else {
                    stack.extend([a, b]);
                }
            }
        }
        best
    }

    /// Calls `visit` for every item whose box overlaps `query` (closed boxes).
    pub fn for_each_overlap(&self, boxes: &[Aabb], query: &Aabb, mut visit: impl FnMut(u32)) {
        if self.items.is_empty() {
            return;
        }
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if !node.bounds.overlaps(query) {
                continue;
            }
            if node.count > 0 {
                let (first, count) = (node.first as usize, node.count as usize);
                for &item in &self.items[first..first + count] {
                    if boxes[item as usize].overlaps(query) {
                        visit(item);
                    }
                }
            } else {
                stack.extend([node.first as usize, node.first as usize + 1]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_and_overlap_match_brute_force() {
        // Boxes around a jittered line of points.
        let boxes: Vec<Aabb> = (0..200)
            .map(|i| {
                let x = i as f64 * 0.1;
                let y = ((i * 37) % 11) as f64 * 0.05;
                Aabb { min: [x, y, 0.0], max: [x + 0.05, y + 0.02, 0.01 * (i % 3) as f64] }
            })
            .collect();
        let bvh = Bvh::new(&boxes);
        for q in 0..50 {
            let p = [q as f64 * 0.37 - 1.0, 0.3 * (q % 4) as f64, -0.2];
            let (item, d2) = bvh.closest(p, |i| boxes[i as usize].distance2(p)).unwrap();
            let brute =
                (0..200u32).map(|i| (boxes[i as usize].distance2(p), i)).min_by(|a, b| a.partial_cmp(b).unwrap());
            assert_eq!(Some((d2, item)), brute);
            let query = Aabb { min: [p[0], 0.0, -1.0], max: [p[0] + 0.5, 0.6, 1.0] };
            let mut got = Vec::new();
            bvh.for_each_overlap(&boxes, &query, |i| got.push(i));
            got.sort_unstable();
            let want: Vec<u32> = (0..200).filter(|&i| boxes[i as usize].overlaps(&query)).collect();
            assert_eq!(got, want);
        }
    }

    /// After the items move, a refitted tree answers as a rebuilt one and as brute force.
    #[test]
    fn refit_matches_a_rebuild() {
        let line = |i: usize, t: f64| {
            let x = i as f64 * 0.1 + t * ((i * 13) % 7) as f64 * 0.3;
            let y = ((i * 37) % 11) as f64 * 0.05 - t * ((i * 5) % 3) as f64;
            Aabb { min: [x, y, 0.0], max: [x + 0.05, y + 0.02, 0.01 * (i % 3) as f64 + t] }
        };
        let before: Vec<Aabb> = (0..300).map(|i| line(i, 0.0)).collect();
        let after: Vec<Aabb> = (0..300).map(|i| line(i, 1.0)).collect();
        let mut refitted = Bvh::new(&before);
        refitted.refit(&after);
        let rebuilt = Bvh::new(&after);
        let mut whole = Aabb::empty();
        after.iter().for_each(|b| whole.add_box(b));
        assert_eq!(refitted.bounds(), whole);
        for q in 0..60 {
            let p = [q as f64 * 0.53 - 2.0, 0.4 * (q % 5) as f64 - 1.0, 0.3];
            let closest = |t: &Bvh| t.closest(p, |i| after[i as usize].distance2(p));
            assert_eq!(closest(&refitted), closest(&rebuilt));
            let query = Aabb { min: [p[0], p[1], -1.0], max: [p[0] + 0.7, p[1] + 0.5, 1.0] };
            let mut got = Vec::new();
            refitted.for_each_overlap(&after, &query, |i| got.push(i));
            got.sort_unstable();
            let want: Vec<u32> = (0..300).filter(|&i| after[i as usize].overlaps(&query)).collect();
            assert_eq!(got, want);
        }
    }
}
