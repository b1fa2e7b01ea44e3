//! Scene-dependent columns of `stats.csv`: per solid `<name>_volume_change_pct`, the change of
//! its volume (the sum of its signed tet volumes) from frame 0 in percent, and per slip pair
//! `<object>_slip_on_<base>` [m] (see `slip.rs`).

use super::scene::Elements;
use super::scene_solver::SceneSolver;
use super::slip::SlipEmbedding;
use crate::solver::Solver;

/// Signed volume [m³] of the tets `tets` (4 flat indices each) over `positions` (flat):
/// Σ det[x₁ − x₀, x₂ − x₀, x₃ − x₀] / 6, positive for positively oriented tets.
pub fn signed_volume(positions: &[f64], tets: &[u32]) -> f64 {
    let p = |i: u32| {
        let i = 3 * i as usize;
        [positions[i], positions[i + 1], positions[i + 2]]
    };
    tets.chunks_exact(4)
        .map(|t| {
            let x0 = p(t[0]);
            let [a, b, c] = [p(t[1]), p(t[2]), p(t[3])].map(|x| [x[0] - x0[0], x[1] - x0[1], x[2] - x0[2]]);
            (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]))
                / 6.0
        })
        .sum()
}

fn triples(flat: &[f64]) -> Vec<[f64; 3]> {
    flat.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect()
}

/// One solid's volume column.
struct Volume {
    id: u32,
    tets: Vec<u32>,
    /// Volume at frame 0 [m³].
    initial: f64,
}

/// One slip column.
struct Slip {
    object: u32,
    on: u32,
    embedding: SlipEmbedding,
}

/// The scene-dependent columns, set up at frame 0.
pub struct Metrics {
    header: Vec<String>,
    volumes: Vec<Volume>,
    slips: Vec<Slip>,
}

impl Metrics {
    /// The columns of `built`'s scene at its current (frame 0) state; `names` are the objects'
    /// unique file-name stems, used in the column names.
    pub fn new(built: &SceneSolver, names: &[String]) -> Result<Self, String> {
        let scene = built.scene;
        let mut header = Vec::new();
        let mut volumes = Vec::new();
        for ((o, &id), name) in scene.objects.iter().zip(&built.objects).zip(names) {
            if let Elements::Tets(tets) = &o.elements {
                let initial = signed_volume(built.solver.positions(id).map_err(|e| e.to_string())?, tets);
                header.push(format!("{name}_volume_change_pct"));
                volumes.push(Volume { id, tets: tets.clone(), initial });
            }
        }
        let mut slips = Vec::new();
        for p in &scene.slip {
            let index = |n: &str| match scene.find(n) {
                Ok(super::scene::Named::Object(i)) => Ok(i),
                Ok(_) => Err(format!("slip pair: \"{n}\" is not an object")),
                Err(m) => Err(format!("slip pair: {m}")),
            };
            let (a, b) = (index(&p.object)?, index(&p.on)?);
            let (object, on) = (built.objects[a], built.objects[b]);
            let positions = |id: u32| built.solver.positions(id).map(triples).map_err(|e| e.to_string());
            let surface = &built.solver.object(on).map_err(|e| e.to_string())?.surface;
            let embedding = SlipEmbedding::new(&positions(object)?, &positions(on)?, surface);
            header.push(format!("{}_slip_on_{}", names[a], names[b]));
            slips.push(Slip { object, on, embedding });
        }
        Ok(Self { header, volumes, slips })
    }

    /// Column names, in the order of [`Metrics::values`].
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// The columns' values for the solver's current state: volume changes [%], then slips [m]
    /// (NaN for a slip pair with no vertex within 5 mm at frame 0).
    pub fn values(&self, solver: &Solver) -> Result<Vec<f64>, String> {
        let positions = |id: u32| solver.positions(id).map_err(|e| e.to_string());
        let mut out = Vec::with_capacity(self.header.len());
        for v in &self.volumes {
            out.push(100.0 * (signed_volume(positions(v.id)?, &v.tets) - v.initial) / v.initial);
        }
        for s in &self.slips {
            out.push(s.embedding.slip(&triples(positions(s.object)?), &triples(positions(s.on)?)));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit right-angle tet has volume 1/6; scaled by 2 along x it doubles, mirrored it is
    /// negative.
    #[test]
    fn signed_volume_of_a_corner_tet() {
        let p = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        assert_eq!(signed_volume(&p, &[0, 1, 2, 3]), 1.0 / 6.0);
        let stretched: Vec<f64> = p.chunks(3).flat_map(|x| [2.0 * x[0], x[1], x[2]]).collect();
        assert_eq!(signed_volume(&stretched, &[0, 1, 2, 3]), 2.0 / 6.0);
        assert_eq!(signed_volume(&p, &[0, 2, 1, 3]), -1.0 / 6.0);
    }
}
