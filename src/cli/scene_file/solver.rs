//! The `[solver]` table of scene files: every field of `GripSolverParams`, enums by name.

use crate::contact::law::{
    GRIP_FRICTION_COUPLING_IMPLICIT, GRIP_FRICTION_COUPLING_LAGGED, GRIP_FRICTION_SMOOTHING_QUADRATIC,
    GRIP_FRICTION_SMOOTHING_RATIONAL,
};
use crate::contact::surface::kernel::{GRIP_KERNEL_CUBIC, GRIP_KERNEL_INTERPOLATING};
use crate::solve::preconditioner::{GRIP_PRECONDITIONER_BLOCK_JACOBI, GRIP_PRECONDITIONER_CHOLESKY};
use crate::GripSolverParams;
use serde::Deserialize;

/// `[solver]`: absent keys keep `GripSolverParams::default()`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct SolverToml {
    time_step: Option<f64>,
    gravity: Option<[f64; 3]>,
    max_newton_iterations: Option<u32>,
    max_line_search_steps: Option<u32>,
    residual_tolerance: Option<f64>,
    velocity_tolerance: Option<f64>,
    linear_solver: Option<u32>,
    integrator: Option<u32>,
    worker_count: Option<u32>,
    max_substep_halvings: Option<u32>,
    contact_thickness: Option<f64>,
    contact_stiffness: Option<f64>,
    friction_epsilon: Option<f64>,
    default_friction: Option<f64>,
    friction_smoothing: Option<Smoothing>,
    friction_coupling: Option<Coupling>,
    max_contact_retries: Option<u32>,
    contact_radius_multiplier: Option<f64>,
    contact_kernel: Option<Kernel>,
    preconditioner: Option<Preconditioner>,
    max_linear_iterations: Option<u32>,
    forcing_max: Option<f64>,
    self_contact: Option<bool>,
    self_contact_thickness: Option<f64>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Preconditioner {
    Cholesky,
    BlockJacobi,
}

/// The scene-file name of `GRIP_PRECONDITIONER_*` `code`.
pub(super) fn preconditioner_name(code: u32) -> &'static str {
    if code == GRIP_PRECONDITIONER_BLOCK_JACOBI {
        "block_jacobi"
    } else {
        "cholesky"
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Smoothing {
    Quadratic,
    Rational,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Coupling {
    Implicit,
    Lagged,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kernel {
    Interpolating,
    Cubic,
}

/// The scene-file name of `GRIP_FRICTION_SMOOTHING_*` `code`.
pub(super) fn smoothing_name(code: u32) -> &'static str {
    if code == GRIP_FRICTION_SMOOTHING_RATIONAL {
        "rational"
    } else {
        "quadratic"
    }
}

/// The scene-file name of `GRIP_FRICTION_COUPLING_*` `code`.
pub(super) fn coupling_name(code: u32) -> &'static str {
    if code == GRIP_FRICTION_COUPLING_LAGGED {
        "lagged"
    } else {
        "implicit"
    }
}

/// The scene-file name of `GRIP_KERNEL_*` `code`.
pub(super) fn kernel_name(code: u32) -> &'static str {
    if code == GRIP_KERNEL_CUBIC {
        "cubic"
    } else {
        "interpolating"
    }
}

/// The validated parameters; the error names the field.
pub(super) fn params(s: &SolverToml) -> Result<GripSolverParams, String> {
    let d = GripSolverParams::default();
    let params = GripSolverParams {
        time_step: s.time_step.unwrap_or(d.time_step),
        gravity: s.gravity.unwrap_or(d.gravity),
        max_newton_iterations: s.max_newton_iterations.unwrap_or(d.max_newton_iterations),
        max_line_search_steps: s.max_line_search_steps.unwrap_or(d.max_line_search_steps),
        residual_tolerance: s.residual_tolerance.unwrap_or(d.residual_tolerance),
        velocity_tolerance: s.velocity_tolerance.unwrap_or(d.velocity_tolerance),
        linear_solver: s.linear_solver.unwrap_or(d.linear_solver),
        integrator: s.integrator.unwrap_or(d.integrator),
        worker_count: s.worker_count.unwrap_or(d.worker_count),
        max_substep_halvings: s.max_substep_halvings.unwrap_or(d.max_substep_halvings),
        contact_thickness: s.contact_thickness.unwrap_or(d.contact_thickness),
        contact_stiffness: s.contact_stiffness.unwrap_or(d.contact_stiffness),
        friction_epsilon: s.friction_epsilon.unwrap_or(d.friction_epsilon),
        default_friction: s.default_friction.unwrap_or(d.default_friction),
        friction_smoothing: match s.friction_smoothing {
            None => d.friction_smoothing,
            Some(Smoothing::Quadratic) => GRIP_FRICTION_SMOOTHING_QUADRATIC,
            Some(Smoothing::Rational) => GRIP_FRICTION_SMOOTHING_RATIONAL,
        },
        friction_coupling: match s.friction_coupling {
            None => d.friction_coupling,
            Some(Coupling::Implicit) => GRIP_FRICTION_COUPLING_IMPLICIT,
            Some(Coupling::Lagged) => GRIP_FRICTION_COUPLING_LAGGED,
        },
        max_contact_retries: s.max_contact_retries.unwrap_or(d.max_contact_retries),
        contact_radius_multiplier: s.contact_radius_multiplier.unwrap_or(d.contact_radius_multiplier),
        contact_kernel: match s.contact_kernel {
            None => d.contact_kernel,
            Some(Kernel::Interpolating) => GRIP_KERNEL_INTERPOLATING,
            Some(Kernel::Cubic) => GRIP_KERNEL_CUBIC,
        },
        preconditioner: match s.preconditioner {
            None => d.preconditioner,
            Some(Preconditioner::Cholesky) => GRIP_PRECONDITIONER_CHOLESKY,
            Some(Preconditioner::BlockJacobi) => GRIP_PRECONDITIONER_BLOCK_JACOBI,
        },
        max_linear_iterations: s.max_linear_iterations.unwrap_or(d.max_linear_iterations),
        forcing_max: s.forcing_max.unwrap_or(d.forcing_max),
        self_contact: s.self_contact.map_or(d.self_contact, u32::from),
        self_contact_thickness: s.self_contact_thickness.unwrap_or(d.self_contact_thickness),
        ..d
    };
    params.validate().map_err(|e| format!("[solver]: {e}"))?;
    Ok(params)
}
