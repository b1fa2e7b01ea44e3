//! The pinch (cf. the paper's bowl grasp, §5.1.2): a soft tet block resting on a floor is
//! squeezed between two flat plates, which then lift it. Only friction holds it up: with enough
//! grip it rises with the plates, otherwise it slips out. The plates are half-spaces moved by host
//! transforms at every step.

use crate::contact::{FrictionCoupling, Shape, ShapeKind};
use crate::mesh::generate::box_tets;
use crate::solve::linear_solver::LinearSolverKind;
use crate::{Material, Result, Solver, SolverParams};

/// The pinch experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pinch {
    /// Linear solver of the solver (default: the direct LU).
    pub linear_solver: LinearSolverKind,
    /// Friction coefficient μ between the block and the plates (and the floor).
    pub mu: f64,
    /// Time step h (s).
    pub h: f64,
    /// Implicit or lagged friction.
    pub coupling: FrictionCoupling,
    /// Stick–slip velocity ε (m/s).
    pub epsilon: f64,
    /// How far each plate moves in past the block's faces (m).
    pub squeeze: f64,
    /// How high the plates lift (m).
    pub lift: f64,
    /// Duration of the squeeze, of the lift, and of the final hold (s).
    pub phases: [f64; 3],
    /// Newton's relative residual tolerance.
    pub residual_tolerance: f64,
}

impl Default for Pinch {
    fn default() -> Self {
        Self {
            mu: 0.5,
            h: 0.01,
            coupling: FrictionCoupling::Implicit,
            epsilon: 1e-4,
            squeeze: 0.004,
            lift: 0.1,
            phases: [0.3, 1.0, 0.5],
            residual_tolerance: 1e-6,
            linear_solver: LinearSolverKind::DirectLu,
        }
    }
}

/// One sample of the pinch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PinchSample {
    /// Time (s).
    pub t: f64,
    /// Rise of the block's centre of mass since t = 0 (m).
    pub block_rise: f64,
    /// Rise of the plates since t = 0 (m).
    pub plate_rise: f64,
    /// Smallest gap between the block and any collider at the end of the step (m).
    pub deepest_gap: f64,
}

/// Edge of the cubic block in m (1 kg at 1000 kg/m³).
///
/// cbindgen:ignore
pub const EDGE: f64 = 0.1;

/// 3u² − 2u³ for u clamped to [0, 1]: a motion that starts and ends at rest.
fn smoothstep(u: f64) -> f64 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

impl Pinch {
    /// Total simulated time (s).
    pub fn duration(&self) -> f64 {
        self.phases.iter().sum()
    }

    /// (inward travel of each plate, rise of the plates) at time `t` (m).
    pub fn plate_offsets(&self, t: f64) -> (f64, f64) {
        let [squeeze, lift, _] = self.phases;
        (self.squeeze * smoothstep(t / squeeze), self.lift * smoothstep((t - squeeze) / lift))
    }

    /// Column-major rigid transform of plate `side` (0: the plate at −x, 1: at +x) at time `t`.
    pub fn plate_transform(&self, side: usize, t: f64) -> [f64; 16] {
        let (inward, rise) = self.plate_offsets(t);
        let mut m = [0.0; 16];
        (m[0], m[5], m[10], m[15]) = (1.0, 1.0, 1.0, 1.0);
        m[12] = if side == 0 { inward } else { -inward };
        m[14] = rise;
        m
    }

    /// The plates' shapes at t = 0: half-spaces touching the block's ±x faces at gap δ/2, and the floor.
    pub fn colliders(&self, delta: f64) -> [Shape; 3] {
        let plate = |sign: f64| Shape {
            kind: ShapeKind::Plane,
            center: [sign * (0.5 * EDGE + 0.5 * delta), 0.0, 0.0],
            axis: [-sign, 0.0, 0.0],
            ..Shape::default()
        };
        [plate(-1.0), plate(1.0), Shape { kind: ShapeKind::Plane, ..Shape::default() }]
    }

    /// The block: a 0.1 m cube of 3×3×3 cells on the floor at gap δ/2, and its material
    /// (E = 200 kPa, ν = 0.3, 1000 kg/m³, light Rayleigh damping).
    pub fn block(&self, delta: f64) -> (Vec<f64>, Vec<u32>, Material) {
        let (x, t) = box_tets([EDGE; 3], [3, 3, 3], [-0.5 * EDGE, -0.5 * EDGE, 0.5 * delta]);
        let material = Material {
            density: 1000.0,
            youngs_modulus: 2e5,
            poisson_ratio: 0.3,
            damping_beta: 0.002,
            ..Material::default()
        };
        (x, t, material)
    }

    /// Builds the solver; returns it with the block's id and the collider ids.
    pub fn build(&self) -> Result<(Solver, u32, [u32; 3])> {
        let params = SolverParams {
            time_step: self.h,
            friction_epsilon: self.epsilon,
            friction_coupling: self.coupling,
            linear_solver: self.linear_solver,
            default_friction: self.mu,
            max_newton_iterations: 100,
            residual_tolerance: self.residual_tolerance,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(&params)?;
        let (x, t, material) = self.block(params.contact_thickness);
        let block = solver.add_solid(&x, &t, &material)?;
        let shapes = self.colliders(params.contact_thickness);
        let ids = [solver.add_collider_shape(&shapes[0])?, solver.add_collider_shape(&shapes[1])?, {
            solver.add_collider_shape(&shapes[2])?
        }];
        Ok((solver, block, ids))
    }

    /// Runs the pinch, one sample per step.
    pub fn run(&self) -> Result<Vec<PinchSample>> {
        let (mut solver, block, ids) = self.build()?;
        let centre_z = |s: &Solver| -> Result<f64> {
            let x = s.positions(block)?;
            Ok(x.chunks_exact(3).map(|p| p[2]).sum::<f64>() / (x.len() / 3) as f64)
        };
        let z0 = centre_z(&solver)?;
        let mut samples = vec![PinchSample { t: 0.0, block_rise: 0.0, plate_rise: 0.0, deepest_gap: f64::INFINITY }];
        let steps = (self.duration() / self.h).round() as usize;
        for k in 1..=steps {
            let t = k as f64 * self.h;
            for side in 0..2 {
                solver.set_collider_transform(ids[side], &self.plate_transform(side, t))?;
            }
            solver.step(self.h)?;
            samples.push(PinchSample {
                t,
                block_rise: centre_z(&solver)? - z0,
                plate_rise: self.plate_offsets(t).1,
                deepest_gap: solver.report().deepest_gap,
            });
        }
        Ok(samples)
    }
}
