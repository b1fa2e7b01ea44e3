//! A stiff tet block on a plane tilted by θ about the y axis (paper §5.1.1 "block slide"): it
//! starts at the contact equilibrium with speed v₀ down the slope, and the run records how far
//! and how fast it travels along the slope. The plane may also slide along the slope (a conveyor
//! belt, cf. the paper's Appendix A), moved by host transforms every step.

use crate::contact::{FrictionCoupling, Shape, ShapeKind};
use crate::mesh::generate::box_tets;
use crate::solve::linear_solver::LinearSolverKind;
use crate::solver::VertexAttribute;
use crate::{ColliderMeshContact, Integrator, Material, Result, Solver, SolverParams};

/// Standard gravity used by the analytic cases (m/s²).
///
/// cbindgen:ignore
pub const G: f64 = 9.81;

/// What the block slides on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InclineSurface {
    /// An analytic plane collider.
    #[default]
    Plane,
    /// A collider mesh of two triangles, 4 m × 2 m, whose shared diagonal crosses the block's
    /// path 0.3 m down the slope (contact by exact distance, `ColliderMeshContact::Exact`).
    TwoTriangles,
}

/// The block-on-plane experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Incline {
    /// Linear solver of the solver (default: the direct LU).
    pub linear_solver: LinearSolverKind,
    /// Slope angle θ (degrees).
    pub angle_deg: f64,
    /// Friction coefficient μ between block and plane.
    pub mu: f64,
    /// Initial speed of the block down the slope (m/s).
    pub v0: f64,
    /// Speed of the plane's surface down the slope in m/s (0: a fixed plane).
    pub belt_speed: f64,
    /// Time step h (s).
    pub h: f64,
    /// Implicit or lagged friction.
    pub coupling: FrictionCoupling,
    /// Stick–slip velocity ε (m/s).
    pub epsilon: f64,
    /// Simulated duration (s).
    pub duration: f64,
    /// Height of the block's base above the contact equilibrium at the start in m (0: resting).
    pub lift: f64,
    /// Time the block first rests on the still plane (no initial speed) so the contact bounce
    /// dies out before t = 0 (s).
    pub settle: f64,
    /// An analytic plane or a collider mesh.
    pub surface: InclineSurface,
    /// Time integrator (default backward Euler).
    pub integrator: Integrator,
}

impl Default for Incline {
    fn default() -> Self {
        Self {
            angle_deg: 10.0,
            mu: 0.177,
            v0: 0.1,
            belt_speed: 0.0,
            h: 0.01,
            coupling: FrictionCoupling::Implicit,
            epsilon: 1e-5,
            duration: 20.0,
            lift: 0.0,
            settle: 0.0,
            surface: InclineSurface::Plane,
            linear_solver: LinearSolverKind::DirectLu,
            integrator: Integrator::BackwardEuler,
        }
    }
}

/// One sample of the block's motion.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InclineSample {
    /// Time (s).
    pub t: f64,
    /// Displacement of the block's centre of mass down the slope since t = 0 (m).
    pub distance: f64,
    /// Velocity of the centre of mass down the slope (m/s).
    pub speed: f64,
    /// Smallest gap between the block and the plane at the end of the step (m).
    pub deepest_gap: f64,
    /// Substeps redone with a stiffer penalty during the step.
    pub contact_retries: u32,
}

/// Edge of the cubic block in m (1 kg at 1000 kg/m³).
const EDGE: f64 = 0.1;

/// Unit vector down the slope and the plane's unit normal for slope angle θ.
fn frame(angle_deg: f64) -> ([f64; 3], [f64; 3]) {
    let (s, c) = angle_deg.to_radians().sin_cos();
    ([c, 0.0, -s], [s, 0.0, c])
}

impl Incline {
    /// Builds the solver: the plane through the origin and a 0.1 m block of 2×2×2 cubes
    /// (E = 10 MPa, ν = 0.3, 1000 kg/m³) whose base sits at gap δ/2; after `settle` seconds at
    /// rest it is given v₀ down the slope.
    pub fn build(&self) -> Result<(Solver, u32, u32)> {
        self.build_with(&SolverParams::default())
    }

    /// As [`Incline::build`], the solver's other parameters from `base` (e.g. an integrator's own).
    pub fn build_with(&self, base: &SolverParams) -> Result<(Solver, u32, u32)> {
        let params = SolverParams {
            time_step: self.h,
            friction_epsilon: self.epsilon,
            friction_coupling: self.coupling,
            linear_solver: self.linear_solver,
            integrator: self.integrator,
            max_newton_iterations: 100,
            collider_mesh_contact: ColliderMeshContact::Exact,
            ..*base
        };
        let mut solver = Solver::new(&params)?;
        let (down, normal) = frame(self.angle_deg);
        let plane = match self.surface {
            InclineSurface::Plane => {
                solver.add_collider_shape(&Shape { kind: ShapeKind::Plane, axis: normal, ..Shape::default() })?
            }
            InclineSurface::TwoTriangles => {
                solver.add_collider_mesh(&two_triangles(self.angle_deg, 0.0), &[0, 1, 2, 0, 2, 3])?
            }
        };
        let (local, tets) =
            box_tets([EDGE; 3], [2, 2, 2], [-0.5 * EDGE, -0.5 * EDGE, 0.5 * params.contact_thickness + self.lift]);
        // Local (x along the slope, y across, z along the normal) to world.
        let world: Vec<f64> = local
            .chunks_exact(3)
            .flat_map(|p| [0, 1, 2].map(|k| p[0] * down[k] + p[1] * [0.0, 1.0, 0.0][k] + p[2] * normal[k]))
            .collect();
        let material = Material { density: 1000.0, youngs_modulus: 1e7, poisson_ratio: 0.3, ..Material::default() };
        let block = solver.add_solid(&world, &tets, &material)?;
        solver.set_friction(block, plane, self.mu)?;
        if self.settle > 0.0 {
            solver.advance(self.settle)?;
        }
        let v: Vec<f64> = solver
            .velocities(block)?
            .chunks_exact(3)
            .flat_map(|v| [0, 1, 2].map(|k| v[k] + down[k] * self.v0))
            .collect();
        solver.set_vertex_attribute(block, VertexAttribute::Velocity, &v)?;
        Ok((solver, block, plane))
    }

    /// Runs the experiment, one sample per step (t = 0 included).
    pub fn run(&self) -> Result<Vec<InclineSample>> {
        self.run_with(&SolverParams::default())
    }

    /// As [`Incline::run`], the solver's other parameters from `base`.
    pub fn run_with(&self, base: &SolverParams) -> Result<Vec<InclineSample>> {
        let (mut solver, block, plane) = self.build_with(base)?;
        let (down, _) = frame(self.angle_deg);
        let centre = |s: &Solver| -> Result<([f64; 3], f64)> {
            let (x, v) = (s.positions(block)?, s.velocities(block)?);
            let n = (x.len() / 3) as f64;
            let mean = |a: &[f64], k: usize| a.chunks_exact(3).map(|p| p[k]).sum::<f64>() / n;
            let c = [0, 1, 2].map(|k| mean(x, k));
            Ok((c, (0..3).map(|k| mean(v, k) * down[k]).sum()))
        };
        let (c0, speed0) = centre(&solver)?;
        let mut samples = vec![InclineSample {
            t: 0.0,
            distance: 0.0,
            speed: speed0,
            deepest_gap: f64::INFINITY,
            contact_retries: 0,
        }];
        let steps = (self.duration / self.h).round() as usize;
        for k in 1..=steps {
            let t = k as f64 * self.h;
            if self.belt_speed != 0.0 {
                let shift = self.belt_speed * t;
                match self.surface {
                    InclineSurface::Plane => {
                        let mut m = [0.0; 16];
                        (m[0], m[5], m[10], m[15]) = (1.0, 1.0, 1.0, 1.0);
                        m[12..15].copy_from_slice(&down.map(|d| d * shift));
                        solver.set_collider_transform(plane, &m)?;
                    }
                    InclineSurface::TwoTriangles => {
                        solver.set_collider_positions(plane, &two_triangles(self.angle_deg, shift))?
                    }
                }
            }
            solver.step(self.h)?;
            let (c, speed) = centre(&solver)?;
            let distance = (0..3).map(|i| (c[i] - c0[i]) * down[i]).sum();
            let r = solver.report();
            samples.push(InclineSample {
                t,
                distance,
                speed,
                deepest_gap: r.deepest_gap,
                contact_retries: r.contact_retries,
            });
        }
        Ok(samples)
    }

    /// Stopping distance x_T = v₀² / (2 g (μ cos θ − sin θ)) in m and time T = v₀ / (g (μ cos θ −
    /// sin θ)) in s of a rigid block under Coulomb friction (infinite when it never stops).
    pub fn analytic_stop(&self) -> (f64, f64) {
        let decel = self.deceleration();
        if decel <= 0.0 {
            return (f64::INFINITY, f64::INFINITY);
        }
        (self.v0 * self.v0 / (2.0 * decel), self.v0 / decel)
    }

    /// g (μ cos θ − sin θ) in m/s²: the Coulomb deceleration of a block sliding down the slope.
    pub fn deceleration(&self) -> f64 {
        let (s, c) = self.angle_deg.to_radians().sin_cos();
        G * (self.mu * c - s)
    }
}

/// Corners (flat, m) of the two-triangle incline [`InclineSurface::TwoTriangles`] moved `shift`
/// (m) down the slope: local x (down the slope) in [−1.7, 2.3] m, y in [−1, 1] m, so the diagonal
/// from (−1.7, −1) to (2.3, 1) crosses the block's path (y = 0) at x = 0.3 m.
fn two_triangles(angle_deg: f64, shift: f64) -> Vec<f64> {
    let (down, _) = frame(angle_deg);
    [(-1.7, -1.0), (2.3, -1.0), (2.3, 1.0), (-1.7, 1.0)]
        .into_iter()
        .flat_map(|(x, y)| [0, 1, 2].map(|k| (x + shift) * down[k] + y * [0.0, 1.0, 0.0][k]))
        .collect()
}

/// The first sample whose speed has fallen below `threshold` in m/s (the block has stopped), if any.
pub fn stop(samples: &[InclineSample], threshold: f64) -> Option<InclineSample> {
    samples.iter().skip(1).find(|s| s.speed.abs() < threshold).copied()
}
