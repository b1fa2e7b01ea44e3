//! The `GRIP_*` codes of the enumerated choices in `GripSolverParams`, `GripMaterial` and
//! `grip_solver_set_volume_penalty`, and their conversions to and from the Rust enums. A code
//! the library does not know converts to `None`; the callers turn that into an error naming the
//! field. Scene files number `linear_solver` and `integrator` the same way
//! (`crate::scene::file::codes`; a test here keeps them equal).

use crate::contact::law::{FrictionCoupling, FrictionSmoothing};
use crate::contact::surface::Kernel;
use crate::energy::membrane::MembraneModel;
use crate::energy::volume::VolumeKind;
use crate::model::params::{ColliderMeshContact, FailurePolicy, Integrator};
use crate::solve::linear_solver::LinearSolverKind;
use crate::solve::preconditioner::PreconditionerKind;

/// Time integrator: backward Euler in velocity form (paper Eq. 23). First order, L-stable.
pub const GRIP_INTEGRATOR_BACKWARD_EULER: u32 = 0;
/// Time integrator: trapezoidal rule over the full force, contact and friction included (paper
/// Eq. 24; with lagged friction coupling Eq. 27). Second order, not L-stable.
pub const GRIP_INTEGRATOR_TRAPEZOIDAL: u32 = 1;
/// Time integrator: BDF2 (Ascher et al. 2022 Eq. 7, variable step), the first step by backward
/// Euler. Second order, L-stable.
pub const GRIP_INTEGRATOR_BDF2: u32 = 2;
/// Time integrator: TR-BDF2 (Ascher et al. 2022 Eq. 8): trapezoidal rule to t + h/2, then BDF2.
/// Second order, L-stable.
pub const GRIP_INTEGRATOR_TR_BDF2: u32 = 3;
/// Time integrator: SDIRK2 (Ascher et al. 2022 Eq. 9), γ = 2 − √2. Second order, L-stable.
pub const GRIP_INTEGRATOR_SDIRK2: u32 = 4;
/// Time integrator: semi-implicit backward Euler (Baraff–Witkin): one Newton iteration of the
/// BE stage, accepted without a convergence test. First order, heavily damping.
pub const GRIP_INTEGRATOR_SEMI_IMPLICIT: u32 = 5;
/// Time integrator: Newmark with `newmark_beta`, `newmark_gamma` (default the average
/// acceleration rule ¼, ½). Second order for γ = ½.
pub const GRIP_INTEGRATOR_NEWMARK: u32 = 6;
/// Time integrator: generalized-α (Chung–Hulbert) with high-frequency spectral radius
/// `spectral_radius`. Second order.
pub const GRIP_INTEGRATOR_GENERALIZED_ALPHA: u32 = 7;
/// Time integrator: exponential Rosenbrock–Euler (Ascher et al. 2022 Eq. 18), φ₁ products by
/// an adaptive Krylov method. No nonlinear solve, little artificial damping.
pub const GRIP_INTEGRATOR_EXPONENTIAL_EULER: u32 = 8;
/// Time integrator: SIERE (Ascher et al. 2022 Eq. 25): exponential Rosenbrock–Euler on the
/// `modal_count` lowest modes, semi-implicit Euler on the rest.
pub const GRIP_INTEGRATOR_SIERE: u32 = 9;
/// Linear solver: damped Newton with faer's sparse LU (paper Algorithm 1).
pub const GRIP_LINEAR_SOLVER_DIRECT_LU: u32 = 0;
/// Linear solver: inexact Newton with preconditioned BiCGSTAB and Eisenstat–Walker forcing
/// (paper Algorithm 2), J applied as the assembled sparse matrix.
pub const GRIP_LINEAR_SOLVER_ITERATIVE: u32 = 1;
/// Linear solver: as `GRIP_LINEAR_SOLVER_ITERATIVE`, with J x computed matrix-free by
/// forward-mode automatic differentiation of the residual (paper §4.3); the assembled
/// Jacobian only feeds the preconditioner.
pub const GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE: u32 = 2;

/// Which preconditioner (`GripSolverParams::preconditioner`): sparse Cholesky of the
/// symmetrised element-pattern part of J.
pub const GRIP_PRECONDITIONER_CHOLESKY: u32 = 0;
/// Block Jacobi: each vertex's 3×3 diagonal block of J inverted.
pub const GRIP_PRECONDITIONER_BLOCK_JACOBI: u32 = 1;

/// Near-interpolating kernel (Larionov et al. 2021) made C² at the support radius: with
/// σ = (s/r)² and f(σ) = 1/(σ + ε)², w = c·(f(σ) − f(1) − f′(1)(σ − 1) − ½f″(1)(σ − 1)²) for
/// s < r, c normalising w(0) = 1, ε = 1e-5. The published form c·(f(σ) − f(1)) has a kink at
/// s = r (w′(r) ≠ 0), so the contact force jumps when a sample leaves the support and Newton
/// stalls; the subtracted Taylor terms remove the kink without changing the near-interpolating
/// s⁻⁴ fall-off (they are O(1) against f(0) = ε⁻²). w > 0 inside the support (f‴ < 0).
pub const GRIP_KERNEL_INTERPOLATING: u32 = 0;
/// Cubic kernel w(s) = 1 − 3(s/r)² + 2(s/r)³ for s < r (C¹ at the support radius): a smoother,
/// more averaging potential.
pub const GRIP_KERNEL_CUBIC: u32 = 1;

/// Collider-mesh contact (`GripSolverParams::collider_mesh_contact`): the exact signed distance
/// to the mesh's triangles.
pub const GRIP_COLLIDER_MESH_CONTACT_EXACT: u32 = 0;
/// Collider-mesh contact: the MLS implicit surface of the mesh, of kernel radius
/// `contact_radius_multiplier` × the triangle size and weight function `contact_kernel`.
pub const GRIP_COLLIDER_MESH_CONTACT_IMPLICIT: u32 = 1;

/// Friction smoothing s_a(x) = 2x/ε − x²/ε² below ε, 1 above (paper Eq. 14; C¹).
pub const GRIP_FRICTION_SMOOTHING_QUADRATIC: u32 = 0;
/// Friction smoothing s_b(x) = x/(x + ε) (paper Eq. 15; C∞, never quite reaches μλ).
pub const GRIP_FRICTION_SMOOTHING_RATIONAL: u32 = 1;
/// Sliding basis and contact force at the end of the step: fully implicit (paper Eq. 23).
pub const GRIP_FRICTION_COUPLING_IMPLICIT: u32 = 0;
/// Sliding basis and contact force at the start of the step: lagged, as IPC (paper Eq. 25–26).
pub const GRIP_FRICTION_COUPLING_LAGGED: u32 = 1;

/// Membrane model of a shell: rest-stable neo-Hookean.
pub const GRIP_MEMBRANE_NEO_HOOKEAN: u32 = 0;
/// Membrane model of a shell: St. Venant–Kirchhoff.
pub const GRIP_MEMBRANE_STVK: u32 = 1;

/// No volume penalty (removes one set earlier).
pub const GRIP_VOLUME_NONE: u32 = 0;
/// Quadratic volume penalty (paper Eq. 20/21).
pub const GRIP_VOLUME_QUADRATIC: u32 = 1;
/// Ideal gas enclosed (paper Eq. 18, Boyle's law).
pub const GRIP_VOLUME_IDEAL_GAS: u32 = 2;
/// Nearly incompressible fluid enclosed, constant κ_v (paper Eq. 19).
pub const GRIP_VOLUME_NEARLY_INCOMPRESSIBLE: u32 = 3;

/// Failure policy (`GripSolverParams::failure_policy`): a substep that still fails after its
/// last halving fails the call with `GRIP_STATUS_NOT_CONVERGED`, and the solver is exactly as
/// before it. The library's default.
pub const GRIP_FAILURE_POLICY_STRICT: u32 = 0;
/// Failure policy: a substep that still fails after its last halving falls back to cheaper,
/// more robust steps (friction lagged, then no friction, then Newton's best iterate) and the
/// call goes on; `GripStepReport` counts each fallback (`fallbacks_*`), raises
/// `GRIP_WARNING_FALLBACK` and names where the failed solve was worst.
pub const GRIP_FAILURE_POLICY_CONTINUE: u32 = 1;

/// The failure policy with code `code` (`GRIP_FAILURE_POLICY_*`).
pub fn failure_policy(code: u32) -> Option<FailurePolicy> {
    match code {
        GRIP_FAILURE_POLICY_STRICT => Some(FailurePolicy::Strict),
        GRIP_FAILURE_POLICY_CONTINUE => Some(FailurePolicy::Continue),
        _ => None,
    }
}

/// The `GRIP_FAILURE_POLICY_*` code of `policy`.
pub fn failure_policy_code(policy: FailurePolicy) -> u32 {
    match policy {
        FailurePolicy::Strict => GRIP_FAILURE_POLICY_STRICT,
        FailurePolicy::Continue => GRIP_FAILURE_POLICY_CONTINUE,
    }
}

/// The integrator with code `code` (`GRIP_INTEGRATOR_*`).
pub fn integrator(code: u32) -> Option<Integrator> {
    match code {
        GRIP_INTEGRATOR_BACKWARD_EULER => Some(Integrator::BackwardEuler),
        GRIP_INTEGRATOR_TRAPEZOIDAL => Some(Integrator::Trapezoidal),
        GRIP_INTEGRATOR_BDF2 => Some(Integrator::Bdf2),
        GRIP_INTEGRATOR_TR_BDF2 => Some(Integrator::TrBdf2),
        GRIP_INTEGRATOR_SDIRK2 => Some(Integrator::Sdirk2),
        GRIP_INTEGRATOR_SEMI_IMPLICIT => Some(Integrator::SemiImplicit),
        GRIP_INTEGRATOR_NEWMARK => Some(Integrator::Newmark),
        GRIP_INTEGRATOR_GENERALIZED_ALPHA => Some(Integrator::GeneralizedAlpha),
        GRIP_INTEGRATOR_EXPONENTIAL_EULER => Some(Integrator::ExponentialEuler),
        GRIP_INTEGRATOR_SIERE => Some(Integrator::Siere),
        _ => None,
    }
}

/// The `GRIP_INTEGRATOR_*` code of `integrator`.
pub fn integrator_code(integrator: Integrator) -> u32 {
    match integrator {
        Integrator::BackwardEuler => GRIP_INTEGRATOR_BACKWARD_EULER,
        Integrator::Trapezoidal => GRIP_INTEGRATOR_TRAPEZOIDAL,
        Integrator::Bdf2 => GRIP_INTEGRATOR_BDF2,
        Integrator::TrBdf2 => GRIP_INTEGRATOR_TR_BDF2,
        Integrator::Sdirk2 => GRIP_INTEGRATOR_SDIRK2,
        Integrator::SemiImplicit => GRIP_INTEGRATOR_SEMI_IMPLICIT,
        Integrator::Newmark => GRIP_INTEGRATOR_NEWMARK,
        Integrator::GeneralizedAlpha => GRIP_INTEGRATOR_GENERALIZED_ALPHA,
        Integrator::ExponentialEuler => GRIP_INTEGRATOR_EXPONENTIAL_EULER,
        Integrator::Siere => GRIP_INTEGRATOR_SIERE,
    }
}

/// The linear solver with code `code` (`GRIP_LINEAR_SOLVER_*`).
pub fn linear_solver(code: u32) -> Option<LinearSolverKind> {
    match code {
        GRIP_LINEAR_SOLVER_DIRECT_LU => Some(LinearSolverKind::DirectLu),
        GRIP_LINEAR_SOLVER_ITERATIVE => Some(LinearSolverKind::Iterative),
        GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE => Some(LinearSolverKind::IterativeMatrixFree),
        _ => None,
    }
}

/// The `GRIP_LINEAR_SOLVER_*` code of `kind`.
pub fn linear_solver_code(kind: LinearSolverKind) -> u32 {
    match kind {
        LinearSolverKind::DirectLu => GRIP_LINEAR_SOLVER_DIRECT_LU,
        LinearSolverKind::Iterative => GRIP_LINEAR_SOLVER_ITERATIVE,
        LinearSolverKind::IterativeMatrixFree => GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE,
    }
}

/// The preconditioner with code `code` (`GRIP_PRECONDITIONER_*`).
pub fn preconditioner(code: u32) -> Option<PreconditionerKind> {
    match code {
        GRIP_PRECONDITIONER_CHOLESKY => Some(PreconditionerKind::Cholesky),
        GRIP_PRECONDITIONER_BLOCK_JACOBI => Some(PreconditionerKind::BlockJacobi),
        _ => None,
    }
}

/// The `GRIP_PRECONDITIONER_*` code of `kind`.
pub fn preconditioner_code(kind: PreconditionerKind) -> u32 {
    match kind {
        PreconditionerKind::Cholesky => GRIP_PRECONDITIONER_CHOLESKY,
        PreconditionerKind::BlockJacobi => GRIP_PRECONDITIONER_BLOCK_JACOBI,
    }
}

/// The kernel with code `code` (`GRIP_KERNEL_*`).
pub fn kernel(code: u32) -> Option<Kernel> {
    match code {
        GRIP_KERNEL_INTERPOLATING => Some(Kernel::Interpolating),
        GRIP_KERNEL_CUBIC => Some(Kernel::Cubic),
        _ => None,
    }
}

/// The `GRIP_KERNEL_*` code of `kernel`.
pub fn kernel_code(kernel: Kernel) -> u32 {
    match kernel {
        Kernel::Interpolating => GRIP_KERNEL_INTERPOLATING,
        Kernel::Cubic => GRIP_KERNEL_CUBIC,
    }
}

/// The collider-mesh contact with code `code` (`GRIP_COLLIDER_MESH_CONTACT_*`).
pub fn collider_mesh_contact(code: u32) -> Option<ColliderMeshContact> {
    match code {
        GRIP_COLLIDER_MESH_CONTACT_EXACT => Some(ColliderMeshContact::Exact),
        GRIP_COLLIDER_MESH_CONTACT_IMPLICIT => Some(ColliderMeshContact::Implicit),
        _ => None,
    }
}

/// The `GRIP_COLLIDER_MESH_CONTACT_*` code of `contact`.
pub fn collider_mesh_contact_code(contact: ColliderMeshContact) -> u32 {
    match contact {
        ColliderMeshContact::Exact => GRIP_COLLIDER_MESH_CONTACT_EXACT,
        ColliderMeshContact::Implicit => GRIP_COLLIDER_MESH_CONTACT_IMPLICIT,
    }
}

/// The friction smoothing with code `code` (`GRIP_FRICTION_SMOOTHING_*`).
pub fn friction_smoothing(code: u32) -> Option<FrictionSmoothing> {
    match code {
        GRIP_FRICTION_SMOOTHING_QUADRATIC => Some(FrictionSmoothing::Quadratic),
        GRIP_FRICTION_SMOOTHING_RATIONAL => Some(FrictionSmoothing::Rational),
        _ => None,
    }
}

/// The `GRIP_FRICTION_SMOOTHING_*` code of `smoothing`.
pub fn friction_smoothing_code(smoothing: FrictionSmoothing) -> u32 {
    match smoothing {
        FrictionSmoothing::Quadratic => GRIP_FRICTION_SMOOTHING_QUADRATIC,
        FrictionSmoothing::Rational => GRIP_FRICTION_SMOOTHING_RATIONAL,
    }
}

/// The friction coupling with code `code` (`GRIP_FRICTION_COUPLING_*`).
pub fn friction_coupling(code: u32) -> Option<FrictionCoupling> {
    match code {
        GRIP_FRICTION_COUPLING_IMPLICIT => Some(FrictionCoupling::Implicit),
        GRIP_FRICTION_COUPLING_LAGGED => Some(FrictionCoupling::Lagged),
        _ => None,
    }
}

/// The `GRIP_FRICTION_COUPLING_*` code of `coupling`.
pub fn friction_coupling_code(coupling: FrictionCoupling) -> u32 {
    match coupling {
        FrictionCoupling::Implicit => GRIP_FRICTION_COUPLING_IMPLICIT,
        FrictionCoupling::Lagged => GRIP_FRICTION_COUPLING_LAGGED,
    }
}

/// The membrane model with code `code` (`GRIP_MEMBRANE_*`).
pub fn membrane(code: u32) -> Option<MembraneModel> {
    match code {
        GRIP_MEMBRANE_NEO_HOOKEAN => Some(MembraneModel::NeoHookean),
        GRIP_MEMBRANE_STVK => Some(MembraneModel::StVenantKirchhoff),
        _ => None,
    }
}

/// The `GRIP_MEMBRANE_*` code of `model`.
pub fn membrane_code(model: MembraneModel) -> u32 {
    match model {
        MembraneModel::NeoHookean => GRIP_MEMBRANE_NEO_HOOKEAN,
        MembraneModel::StVenantKirchhoff => GRIP_MEMBRANE_STVK,
    }
}

/// The volume law with code `code` (`GRIP_VOLUME_*`): `Some(None)` for `GRIP_VOLUME_NONE`,
/// `None` for an unknown code.
pub fn volume(code: u32) -> Option<Option<VolumeKind>> {
    match code {
        GRIP_VOLUME_NONE => Some(None),
        GRIP_VOLUME_QUADRATIC => Some(Some(VolumeKind::Quadratic)),
        GRIP_VOLUME_IDEAL_GAS => Some(Some(VolumeKind::IdealGas)),
        GRIP_VOLUME_NEARLY_INCOMPRESSIBLE => Some(Some(VolumeKind::NearlyIncompressible)),
        _ => None,
    }
}

/// The `GRIP_VOLUME_*` code of `kind` (`GRIP_VOLUME_NONE` for `None`).
pub fn volume_code(kind: Option<VolumeKind>) -> u32 {
    match kind {
        None => GRIP_VOLUME_NONE,
        Some(VolumeKind::Quadratic) => GRIP_VOLUME_QUADRATIC,
        Some(VolumeKind::IdealGas) => GRIP_VOLUME_IDEAL_GAS,
        Some(VolumeKind::NearlyIncompressible) => GRIP_VOLUME_NEARLY_INCOMPRESSIBLE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scene files and C hosts number the integrators and linear solvers alike.
    #[cfg(feature = "scene")]
    #[test]
    fn scene_files_number_choices_as_the_c_api() {
        use crate::scene::file::codes as scene;
        for (code, integrator) in scene::INTEGRATORS {
            assert_eq!(super::integrator(code), Some(integrator));
            assert_eq!(integrator_code(integrator), code);
        }
        for (code, kind) in scene::LINEAR_SOLVERS {
            assert_eq!(linear_solver(code), Some(kind));
            assert_eq!(linear_solver_code(kind), code);
        }
        assert_eq!(super::integrator(scene::INTEGRATORS.len() as u32), None);
        assert_eq!(linear_solver(scene::LINEAR_SOLVERS.len() as u32), None);
    }
}
