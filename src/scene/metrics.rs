//! Scene-dependent columns of `stats.csv`: per solid `<name>_volume_change_pct`, the change of
//! its volume (the sum of its signed tet volumes) from frame 0 in percent, per slip pair the
//! mean `<object>_slip_on_<base>` and the largest `<object>_max_slip_on_<base>` in m (see
//! `slip.rs`), and, in scenes with a shell, numbers of
//! pairs of intersecting triangles, exact ([`crate::mesh::intersection`]; touching counts):
//! `intersecting_pairs` of each shell with itself (neighbours sharing a vertex or an edge only
//! when they also overlap elsewhere) and of shells with each other, then, if the scene also has
//! a solid or a collider mesh, `intersecting_pairs_with_solids` of shells with the boundary
//! surfaces of solids and with collider meshes. The second is kept apart because the contact
//! model keeps shell *vertices* out of solids, so on coarse meshes solid edges can still poke
//! through shell faces by a fraction of a millimetre (the tube demo at `--res tiny` shows
//! hundreds of such pairs). Pairs between solids and collider meshes are not counted.

use super::build::SceneSolver;
use super::description::Elements;
use super::slip::SlipEmbedding;
use crate::mesh::intersection::intersecting_pairs_where;
use crate::mesh::triples;
use crate::solver::Solver;

/// Signed volume (m³) of the tets `tets` (4 flat indices each) over `positions` (flat):
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

/// One solid's volume column.
struct Volume {
    id: u32,
    tets: Vec<u32>,
    /// Volume at frame 0 (m³).
    initial: f64,
}

/// One slip column.
struct Slip {
    object: u32,
    on: u32,
    embedding: SlipEmbedding,
}

/// One surface checked for the `intersecting_pairs` column.
struct Surface {
    id: u32,
    triangles: Vec<[u32; 3]>,
    shell: bool,
}

/// The numbers of intersecting triangle pairs over `surfaces` at the solver's current positions
/// between shells (a shell with itself or another shell) and between a shell and another
/// surface: all surfaces are joined into one mesh (objects share no vertex, so only triangles of
/// one object can be neighbours) and checked at once.
fn intersecting_shell_pairs(solver: &Solver, surfaces: &[Surface]) -> Result<[usize; 2], String> {
    let (mut positions, mut triangles, mut shell) = (Vec::new(), Vec::new(), Vec::new());
    for s in surfaces {
        let offset = positions.len() as u32;
        positions.extend(triples(solver.positions(s.id).map_err(|e| e.to_string())?));
        triangles.extend(s.triangles.iter().map(|t| t.map(|v| v + offset)));
        shell.extend(std::iter::repeat_n(s.shell, s.triangles.len()));
    }
    let pairs = intersecting_pairs_where(&positions, &triangles, |i, j| shell[i as usize] || shell[j as usize]);
    let between_shells = pairs.iter().filter(|&&(i, j)| shell[i as usize] && shell[j as usize]).count();
    Ok([between_shells, pairs.len() - between_shells])
}

/// The scene-dependent columns, set up at frame 0.
pub struct Metrics {
    header: Vec<String>,
    volumes: Vec<Volume>,
    slips: Vec<Slip>,
    /// The surfaces of the `intersecting_pairs` column (empty: no column).
    surfaces: Vec<Surface>,
}

impl Metrics {
    /// The columns of `built`'s scene at its current (frame 0) state; `names` are the objects'
    /// unique file-name stems, used in the column names.
    pub fn new(built: &SceneSolver, names: &[String]) -> Result<Self, String> {
        let scene = &built.scene;
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
                Ok(super::description::Named::Object(i)) => Ok(i),
                Ok(_) => Err(format!("slip pair: \"{n}\" is not an object")),
                Err(m) => Err(format!("slip pair: {m}")),
            };
            let (a, b) = (index(&p.object)?, index(&p.on)?);
            let (object, on) = (built.objects[a], built.objects[b]);
            let positions = |id: u32| built.solver.positions(id).map(triples).map_err(|e| e.to_string());
            let surface = &built.solver.object(on).map_err(|e| e.to_string())?.surface;
            let embedding = SlipEmbedding::new(&positions(object)?, &positions(on)?, surface);
            header.push(format!("{}_slip_on_{}", names[a], names[b]));
            header.push(format!("{}_max_slip_on_{}", names[a], names[b]));
            slips.push(Slip { object, on, embedding });
        }
        let mut surfaces = Vec::new();
        if scene.objects.iter().any(|o| matches!(o.elements, Elements::Triangles(_))) {
            for (o, &id) in scene.objects.iter().zip(&built.objects) {
                let triangles = built.solver.object(id).map_err(|e| e.to_string())?.surface.clone();
                surfaces.push(Surface { id, triangles, shell: matches!(o.elements, Elements::Triangles(_)) });
            }
            header.push("intersecting_pairs".into());
            if surfaces.iter().any(|s| !s.shell) {
                header.push("intersecting_pairs_with_solids".into());
            }
        }
        Ok(Self { header, volumes, slips, surfaces })
    }

    /// Column names, in the order of [`Metrics::values`].
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// The columns' values for the solver's current state: volume changes (%), then per slip
    /// pair the mean and the largest slip (m) (NaN for a slip pair with no vertex within 5 mm at
    /// frame 0), then the numbers of
    /// intersecting triangle pairs between shells and between shells and other surfaces (see
    /// the module documentation for when each is there).
    pub fn values(&self, solver: &Solver) -> Result<Vec<f64>, String> {
        let positions = |id: u32| solver.positions(id).map_err(|e| e.to_string());
        let mut out = Vec::with_capacity(self.header.len());
        for v in &self.volumes {
            out.push(100.0 * (signed_volume(positions(v.id)?, &v.tets) - v.initial) / v.initial);
        }
        for s in &self.slips {
            let (mean, max) = s.embedding.mean_and_max(&triples(positions(s.object)?), &triples(positions(s.on)?));
            out.extend([mean, max]);
        }
        if !self.surfaces.is_empty() {
            let [shells, others] = intersecting_shell_pairs(solver, &self.surfaces)?;
            out.push(shells as f64);
            if self.surfaces.iter().any(|s| !s.shell) {
                out.push(others as f64);
            }
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
