//! Neighbour search for the implicit surfaces: a uniform hash grid over sample centroids. A query
//! returns, in increasing order, every sample whose kernel ball (radius rᵢ, grown by a padding)
//! contains the query point.

use std::collections::HashMap;

/// Sample centroids bucketed in cubic cells.
pub struct SampleGrid {
    cell: f64,
    buckets: HashMap<[i64; 3], Vec<u32>>,
    centroids: Vec<[f64; 3]>,
    reach: Vec<f64>,
}

impl SampleGrid {
    /// Buckets `centroids` (m); sample i reaches `reach[i]` in m (its kernel radius plus padding).
    /// The cell size is the largest reach, so a query looks at 27 cells at most.
    pub fn new(centroids: Vec<[f64; 3]>, reach: Vec<f64>) -> Self {
        let cell = reach.iter().copied().fold(0.0, f64::max).max(1e-9);
        let mut buckets: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
        for (i, p) in centroids.iter().enumerate() {
            buckets.entry(key(p, cell)).or_default().push(i as u32);
        }
        Self { cell, buckets, centroids, reach }
    }

    /// Samples whose reach contains `x` (m), in increasing order.
    pub fn query(&self, x: &[f64; 3]) -> Vec<u32> {
        let k = key(x, self.cell);
        let mut out = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(bucket) = self.buckets.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) else { continue };
                    for &i in bucket {
                        let p = &self.centroids[i as usize];
                        let d2 = (0..3).map(|m| (x[m] - p[m]).powi(2)).sum::<f64>();
                        let r = self.reach[i as usize];
                        if d2 < r * r {
                            out.push(i);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Cell of point `p`; coordinates beyond ±1e15 cells are clamped (finite inputs are checked
/// upstream; this only keeps the cast defined).
fn key(p: &[f64; 3], cell: f64) -> [i64; 3] {
    p.map(|x| (x / cell).floor().clamp(-1e15, 1e15) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_samples_in_reach() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let centroids: Vec<[f64; 3]> = (0..400).map(|_| [rnd(), rnd(), rnd()]).collect();
        let reach: Vec<f64> = (0..400).map(|_| 0.05 + 0.1 * rnd()).collect();
        let grid = SampleGrid::new(centroids.clone(), reach.clone());
        for _ in 0..50 {
            let x = [rnd(), rnd(), rnd()];
            let brute: Vec<u32> = (0..400u32)
                .filter(|&i| {
                    let p = &centroids[i as usize];
                    (0..3).map(|m| (x[m] - p[m]).powi(2)).sum::<f64>() < reach[i as usize].powi(2)
                })
                .collect();
            assert_eq!(grid.query(&x), brute);
        }
    }
}
