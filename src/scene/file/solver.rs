//! The `[solver]` table of scene files: every field of `SolverParams`, the linear solver and the
//! integrator by their C API codes (`GRIP_LINEAR_SOLVER_*`, `GRIP_INTEGRATOR_*`), the other
//! choices by name. Absent keys keep `SolverParams::default()` but `failure_policy`, which is
//! `"continue"`: a scene file is a run (`grip run`, batch jobs, `grip_scene_load`), and a run
//! goes on past a substep it cannot solve to the tolerance, reporting it.

use super::codes;
use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
use crate::contact::surface::kernel::Kernel as KernelKind;
use crate::solve::preconditioner::PreconditionerKind;
use crate::{ColliderMeshContact, FailurePolicy, SolverParams};
use serde::Deserialize;

/// `[solver]`: absent keys keep `SolverParams::default()` but `failure_policy`
/// (`SCENE_FAILURE_POLICY`).
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
    collider_mesh_contact: Option<MeshContact>,
    preconditioner: Option<Preconditioner>,
    max_linear_iterations: Option<u32>,
    forcing_max: Option<f64>,
    newmark_beta: Option<f64>,
    newmark_gamma: Option<f64>,
    spectral_radius: Option<f64>,
    modal_count: Option<u32>,
    semi_implicit: Option<bool>,
    self_contact: Option<bool>,
    self_contact_thickness: Option<f64>,
    failure_policy: Option<Policy>,
}

/// The failure policy of a scene file without `failure_policy`.
const SCENE_FAILURE_POLICY: FailurePolicy = FailurePolicy::Continue;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Policy {
    Strict,
    Continue,
}

/// The scene-file name of failure policy `policy`.
pub(super) fn failure_policy_name(policy: FailurePolicy) -> &'static str {
    match policy {
        FailurePolicy::Strict => "strict",
        FailurePolicy::Continue => "continue",
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Preconditioner {
    Cholesky,
    BlockJacobi,
}

/// The scene-file name of preconditioner `kind`.
pub(super) fn preconditioner_name(kind: PreconditionerKind) -> &'static str {
    if kind == PreconditionerKind::BlockJacobi {
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

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum MeshContact {
    Exact,
    Implicit,
}

/// The scene-file name of friction smoothing `smoothing`.
pub(super) fn smoothing_name(smoothing: FrictionSmoothing) -> &'static str {
    if smoothing == FrictionSmoothing::Rational {
        "rational"
    } else {
        "quadratic"
    }
}

/// The scene-file name of friction coupling `coupling`.
pub(super) fn coupling_name(coupling: FrictionCoupling) -> &'static str {
    if coupling == FrictionCoupling::Lagged {
        "lagged"
    } else {
        "implicit"
    }
}

/// The scene-file name of contact kernel `kernel`.
pub(super) fn kernel_name(kernel: KernelKind) -> &'static str {
    if kernel == KernelKind::Cubic {
        "cubic"
    } else {
        "interpolating"
    }
}

/// The scene-file name of collider-mesh contact `contact`.
pub(super) fn collider_mesh_contact_name(contact: ColliderMeshContact) -> &'static str {
    if contact == ColliderMeshContact::Implicit {
        "implicit"
    } else {
        "exact"
    }
}

/// The validated parameters; the error names the field.
pub(super) fn params(s: &SolverToml) -> Result<SolverParams, String> {
    let d = SolverParams::default();
    let unknown = |field: &str, code: u32| format!("[solver]: params.{field}: unknown value {code}");
    let linear_solver = match s.linear_solver {
        None => d.linear_solver,
        Some(code) => codes::linear_solver(code).ok_or_else(|| unknown("linear_solver", code))?,
    };
    let integrator = match s.integrator {
        None => d.integrator,
        Some(code) => codes::integrator(code).ok_or_else(|| unknown("integrator", code))?,
    };
    let params = SolverParams {
        time_step: s.time_step.unwrap_or(d.time_step),
        gravity: s.gravity.unwrap_or(d.gravity),
        max_newton_iterations: s.max_newton_iterations.unwrap_or(d.max_newton_iterations),
        max_line_search_steps: s.max_line_search_steps.unwrap_or(d.max_line_search_steps),
        residual_tolerance: s.residual_tolerance.unwrap_or(d.residual_tolerance),
        velocity_tolerance: s.velocity_tolerance.unwrap_or(d.velocity_tolerance),
        linear_solver,
        integrator,
        worker_count: s.worker_count.unwrap_or(d.worker_count),
        max_substep_halvings: s.max_substep_halvings.unwrap_or(d.max_substep_halvings),
        contact_thickness: s.contact_thickness.unwrap_or(d.contact_thickness),
        contact_stiffness: s.contact_stiffness.unwrap_or(d.contact_stiffness),
        friction_epsilon: s.friction_epsilon.unwrap_or(d.friction_epsilon),
        default_friction: s.default_friction.unwrap_or(d.default_friction),
        friction_smoothing: match s.friction_smoothing {
            None => d.friction_smoothing,
            Some(Smoothing::Quadratic) => FrictionSmoothing::Quadratic,
            Some(Smoothing::Rational) => FrictionSmoothing::Rational,
        },
        friction_coupling: match s.friction_coupling {
            None => d.friction_coupling,
            Some(Coupling::Implicit) => FrictionCoupling::Implicit,
            Some(Coupling::Lagged) => FrictionCoupling::Lagged,
        },
        max_contact_retries: s.max_contact_retries.unwrap_or(d.max_contact_retries),
        contact_radius_multiplier: s.contact_radius_multiplier.unwrap_or(d.contact_radius_multiplier),
        contact_kernel: match s.contact_kernel {
            None => d.contact_kernel,
            Some(Kernel::Interpolating) => KernelKind::Interpolating,
            Some(Kernel::Cubic) => KernelKind::Cubic,
        },
        collider_mesh_contact: match s.collider_mesh_contact {
            None => d.collider_mesh_contact,
            Some(MeshContact::Exact) => ColliderMeshContact::Exact,
            Some(MeshContact::Implicit) => ColliderMeshContact::Implicit,
        },
        preconditioner: match s.preconditioner {
            None => d.preconditioner,
            Some(Preconditioner::Cholesky) => PreconditionerKind::Cholesky,
            Some(Preconditioner::BlockJacobi) => PreconditionerKind::BlockJacobi,
        },
        max_linear_iterations: s.max_linear_iterations.unwrap_or(d.max_linear_iterations),
        forcing_max: s.forcing_max.unwrap_or(d.forcing_max),
        self_contact: s.self_contact.unwrap_or(d.self_contact),
        self_contact_thickness: s.self_contact_thickness.unwrap_or(d.self_contact_thickness),
        newmark_beta: s.newmark_beta.unwrap_or(d.newmark_beta),
        newmark_gamma: s.newmark_gamma.unwrap_or(d.newmark_gamma),
        spectral_radius: s.spectral_radius.unwrap_or(d.spectral_radius),
        modal_count: s.modal_count.unwrap_or(d.modal_count),
        semi_implicit: s.semi_implicit.unwrap_or(d.semi_implicit),
        failure_policy: match s.failure_policy {
            None => SCENE_FAILURE_POLICY,
            Some(Policy::Strict) => FailurePolicy::Strict,
            Some(Policy::Continue) => FailurePolicy::Continue,
        },
    };
    params.validate().map_err(|e| format!("[solver]: {e}"))?;
    Ok(params)
}
