//! The soft beam of Ascher et al. 2022 (§4, Fig. 6) for `grip damping`: its scene, a run of it
//! with one integrator at a fixed step that records the energies and the mid-span deflection
//! every step, its static equilibrium, and the Euler–Bernoulli estimate of its first period.
//!
//! The beam: 1 m × 0.125 m × 0.125 m along x, centred on the origin, 32 × 4 × 4 cubes of
//! 31.25 mm split five tets each ([`box_tets_five`]: 2560 tets, 825 vertices; the paper's
//! 5·(32×4×4)), stable neo-Hookean with E = 1e5 Pa, ν = 0.4, ρ = 1000 kg/m³ and no Rayleigh
//! damping (α = β = 0), so that every loss of energy is the integrator's. Both end faces
//! (x = ±0.5 m) are pinned; it is released at rest, straight, under gravity g = −9.81 m/s² along z.
//! Linear (Euler–Bernoulli) estimates for these dimensions: a clamped–clamped first mode of
//! ω₁ = 22.37 √(EI/(ρAL⁴)) ≈ 8.07 rad/s (1.28 Hz, period 0.78 s) and a static mid-span sag
//! ρgAL⁴/(384 EI) ≈ 0.20 m. The mesh agrees with both at small amplitude (gravity scaled down
//! a hundredfold, its sag and period are within 3 % of them). Under full gravity the sag is
//! ≈ 0.13 m and the swing about it ≈ 0.13 m: the stretching of the clamped beam stiffens it,
//! so its first period is ≈ 0.54 s. The motion is large enough to see and to measure, small
//! enough that the solver takes every step at once.

use grip::mesh::generate::box_tets_five;
use grip::model::params::Integrator;
use grip::scene::description::{Elements, Scene, SceneObject};
use grip::{Material, Solver, SolverParams};

/// Beam length along x (m), between the pinned end faces.
pub const LENGTH: f64 = 1.0;
/// Side of the square cross-section (m).
pub const SIDE: f64 = 0.125;
/// Cubes along x, y, z.
pub const CELLS: [usize; 3] = [32, 4, 4];
/// Young's modulus (Pa).
pub const YOUNGS_MODULUS: f64 = 1e5;
/// Poisson's ratio.
pub const POISSON_RATIO: f64 = 0.4;
/// Density (kg/m³).
pub const DENSITY: f64 = 1000.0;
/// Gravitational acceleration along −z (m/s²).
pub const GRAVITY: f64 = 9.81;
/// The first root of cos(βL) cosh(βL) = 1, squared: ω₁ = (β₁L)² √(EI/(ρAL⁴)) for a beam
/// clamped at both ends (Euler–Bernoulli).
pub const CLAMPED_MODE_1: f64 = 22.373;

/// The beam's material: stable neo-Hookean, no Rayleigh damping.
pub fn material() -> Material {
    Material {
        youngs_modulus: YOUNGS_MODULUS,
        poisson_ratio: POISSON_RATIO,
        density: DENSITY,
        damping_alpha: 0.0,
        damping_beta: 0.0,
        ..Material::default()
    }
}

/// The beam as a scene with `integrator` and solver step `h` (s): one substep per `h`.
pub fn beam_scene(integrator: Integrator, h: f64) -> Scene {
    let (positions, tets) = box_tets_five([LENGTH, SIDE, SIDE], CELLS, [-0.5 * LENGTH, -0.5 * SIDE, -0.5 * SIDE]);
    let pinned = (0..positions.len() / 3).filter(|&i| positions[3 * i].abs() > 0.5 * LENGTH - 1e-9).collect();
    let mut beam = SceneObject::new("beam", positions, Elements::Tets(tets), material());
    beam.pinned = pinned;
    let params = SolverParams {
        time_step: h,
        integrator,
        gravity: [0.0, 0.0, -GRAVITY],
        max_newton_iterations: 100,
        ..SolverParams::default()
    };
    Scene::new("damping-beam", params, vec![beam])
}

/// Index of the vertex at the centre of the mid-span cross-section (at the origin at rest).
pub fn mid_vertex() -> usize {
    let [cx, cy, cz] = CELLS;
    ((cz / 2) * (cy + 1) + cy / 2) * (cx + 1) + cx / 2
}

/// Euler–Bernoulli first-mode period of the clamped–clamped beam (s):
/// T₁ = 2π / ω₁ with ω₁ = 22.37 √(EI/(ρAL⁴)), I = a⁴/12, A = a² for the square side a.
pub fn euler_bernoulli_period() -> f64 {
    let (area, inertia) = (SIDE * SIDE, SIDE.powi(4) / 12.0);
    let omega = CLAMPED_MODE_1 * (YOUNGS_MODULUS * inertia / (DENSITY * area * LENGTH.powi(4))).sqrt();
    2.0 * std::f64::consts::PI / omega
}

/// Potential energy (J): elastic W(q) plus gravitational −Σᵢ mᵢ g·qᵢ (zero for the beam at
/// rest on the x axis).
pub fn potential_energy(solver: &Solver) -> f64 {
    let g = solver.params().gravity;
    let model = solver.model();
    let mut u = solver.elastic_energy();
    for o in &model.objects {
        let x = solver.positions(o.id).unwrap_or(&[]);
        for (i, p) in x.chunks_exact(3).enumerate() {
            u -= model.mass[o.first_vertex + i] * (g[0] * p[0] + g[1] * p[1] + g[2] * p[2]);
        }
    }
    u
}

/// One run of the beam, sampled after every step (and at t = 0).
#[derive(Clone, Debug, Default)]
pub struct BeamRun {
    /// Sample times (s).
    pub t: Vec<f64>,
    /// Potential energy (J), [`potential_energy`].
    pub pe: Vec<f64>,
    /// Kinetic energy ½ vᵀMv (J).
    pub ke: Vec<f64>,
    /// Vertical displacement of the mid-span centre vertex ([`mid_vertex`]) (m).
    pub mid_z: Vec<f64>,
    /// Newton iterations of each step (one fewer entry than the samples).
    pub newton_iterations: Vec<u32>,
    /// Solver time over all steps (s), as the solver reports it.
    pub seconds: f64,
    /// Every vertex's positions (flat, m) at samples 0, k, 2k, … for `k = positions_every`.
    pub positions: Vec<Vec<f64>>,
    /// The k of `positions` (0: none kept).
    pub positions_every: usize,
    /// Why the run stopped early: `failed: <solver error>`; the samples before it are kept.
    pub failure: Option<String>,
}

impl BeamRun {
    /// Mean Newton iterations per step.
    pub fn iterations_per_step(&self) -> f64 {
        self.newton_iterations.iter().map(|&n| f64::from(n)).sum::<f64>() / self.newton_iterations.len().max(1) as f64
    }

    /// Mean solver seconds per step.
    pub fn seconds_per_step(&self) -> f64 {
        self.seconds / self.newton_iterations.len().max(1) as f64
    }

    /// Appends the state of `solver` at time `t`.
    fn sample(&mut self, solver: &Solver, id: u32, t: f64) {
        let x = solver.positions(id).unwrap_or(&[]);
        let step = self.t.len();
        self.t.push(t);
        self.pe.push(potential_energy(solver));
        self.ke.push(solver.kinetic_energy());
        self.mid_z.push(x.get(3 * mid_vertex() + 2).copied().unwrap_or(f64::NAN));
        if self.positions_every > 0 && step.is_multiple_of(self.positions_every) {
            self.positions.push(x.to_vec());
        }
    }
}

/// Runs the beam with `integrator` for `duration` seconds in steps of `h` (one solver substep
/// each), keeping all positions every `positions_every` steps (0: none). A solver error ends
/// the run early and is recorded in [`BeamRun::failure`].
pub fn run_beam(integrator: Integrator, h: f64, duration: f64, positions_every: usize) -> BeamRun {
    let mut run = BeamRun { positions_every, ..BeamRun::default() };
    let mut built = match beam_scene(integrator, h).build_solver() {
        Ok(b) => b,
        Err(m) => {
            run.failure = Some(format!("failed: {m}"));
            return run;
        }
    };
    let (solver, id) = (&mut built.solver, built.objects[0]);
    run.sample(solver, id, 0.0);
    let steps = (duration / h).round() as usize;
    for k in 1..=steps {
        if let Err(e) = solver.advance(h) {
            run.failure = Some(format!("failed: {e}"));
            break;
        }
        run.newton_iterations.push(solver.report().newton_iterations);
        run.seconds += solver.report().seconds_total;
        run.sample(solver, id, k as f64 * h);
    }
    run
}

/// The static equilibrium under gravity: (potential energy (J), mid-span deflection (m)).
/// Backward Euler with 1 s steps (its numerical damping ≈ ωh/2 per radian of the first
/// mode, 4 at ω₁ h ≈ 8, kills the motion within a step or two) until the potential energy
/// changes by less than 1e-12 of its size, at most 200 steps.
pub fn static_equilibrium() -> Result<(f64, f64), String> {
    let h = 1.0;
    let mut built = beam_scene(Integrator::BackwardEuler, h).build_solver()?;
    let (solver, id) = (&mut built.solver, built.objects[0]);
    let mut last = potential_energy(solver);
    for _ in 0..200 {
        solver.advance(h).map_err(|e| format!("failed: {e}"))?;
        let pe = potential_energy(solver);
        let settled = (pe - last).abs() <= 1e-12 * pe.abs();
        last = pe;
        if settled {
            break;
        }
    }
    let z = solver.positions(id).map_err(|e| e.to_string())?[3 * mid_vertex() + 2];
    Ok((last, z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beam_has_five_tets_per_cube_and_its_centre_vertex_at_the_origin() {
        let scene = beam_scene(Integrator::BackwardEuler, 0.01);
        let beam = &scene.objects[0];
        let Elements::Tets(tets) = &beam.elements else { panic!("a solid") };
        assert_eq!(tets.len() / 4, 5 * 32 * 4 * 4);
        assert_eq!(beam.positions.len() / 3, 33 * 5 * 5);
        assert_eq!(&beam.positions[3 * mid_vertex()..3 * mid_vertex() + 3], &[0.0, 0.0, 0.0]);
        assert_eq!(beam.pinned.len(), 2 * 25);
        // 22.373 √(1e5 · 0.125⁴/12 / (1000 · 0.125² · 1)) = 8.072 rad/s.
        assert!((euler_bernoulli_period() - 0.7784).abs() < 1e-3, "{}", euler_bernoulli_period());
    }
}
