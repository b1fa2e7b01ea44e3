# SPDX-License-Identifier: MIT
"""ctypes mirrors of the public structs and constants of ``include/grip.h``.

Field order, names and C types follow the header exactly; ``tests/python/test_header_mirror.py``
parses the header and fails (printing the code to paste here) when they drift. At load time the
library's ``grip_sizeof_*()`` must equal ``ctypes.sizeof`` of each mirror, and its
``grip_abi_version()`` must equal :data:`ABI_VERSION`.
"""

import ctypes

#: ``GRIP_ABI_VERSION`` of the header these mirrors follow.
ABI_VERSION = 8

# GripStatus (uint32): numbers are part of the ABI.
STATUS_OK = 0
STATUS_NULL_POINTER = 1
STATUS_INVALID_ARGUMENT = 2
STATUS_INVALID_MESH = 3
STATUS_UNKNOWN_OBJECT = 4
STATUS_NOT_CONVERGED = 5
STATUS_CANCELLED = 6
STATUS_PANIC = 7

KERNEL_INTERPOLATING = 0
KERNEL_CUBIC = 1
COLLIDER_MESH_CONTACT_EXACT = 0
COLLIDER_MESH_CONTACT_IMPLICIT = 1
FRICTION_SMOOTHING_QUADRATIC = 0
FRICTION_SMOOTHING_RATIONAL = 1
FRICTION_COUPLING_IMPLICIT = 0
FRICTION_COUPLING_LAGGED = 1
SHAPE_PLANE = 0
SHAPE_SPHERE = 1
SHAPE_CAPSULE = 2
SHAPE_CYLINDER = 3
SHAPE_TAG = 1196577585
MEMBRANE_NEO_HOOKEAN = 0
MEMBRANE_STVK = 1
MATERIAL_TAG = 1196576049
RUN_CHECKPOINT = 1
RUN_RESUME = 2
RUN_USD = 4
LINEAR_SOLVER_DIRECT_LU = 0
LINEAR_SOLVER_ITERATIVE = 1
LINEAR_SOLVER_ITERATIVE_MATRIX_FREE = 2
PRECONDITIONER_CHOLESKY = 0
PRECONDITIONER_BLOCK_JACOBI = 1
INTEGRATOR_BACKWARD_EULER = 0
INTEGRATOR_TRAPEZOIDAL = 1
INTEGRATOR_BDF2 = 2
INTEGRATOR_TR_BDF2 = 3
INTEGRATOR_SDIRK2 = 4
INTEGRATOR_SEMI_IMPLICIT = 5
INTEGRATOR_NEWMARK = 6
INTEGRATOR_GENERALIZED_ALPHA = 7
INTEGRATOR_EXPONENTIAL_EULER = 8
INTEGRATOR_SIERE = 9
VOLUME_NONE = 0
VOLUME_QUADRATIC = 1
VOLUME_IDEAL_GAS = 2
VOLUME_NEARLY_INCOMPRESSIBLE = 3
SOLVER_PARAMS_TAG = 1196576817
WARNING_INITIAL_PENETRATION = 1
WARNING_PENETRATION_REMAINS = 2
WARNING_SUBSTEP_HALVED = 4
WARNING_CONTACT_RETRY = 8
WARNING_PINNED_IN_COLLIDER = 16
WARNING_PIN_CONFLICT = 32
WARNING_FALLBACK = 64
WARNING_PINCH = 128
FALLBACK_NONE = 0
FALLBACK_LAGGED_FRICTION = 1
FALLBACK_FRICTIONLESS = 2
FALLBACK_BEST_ITERATE = 3
FAILURE_POLICY_STRICT = 0
FAILURE_POLICY_CONTINUE = 1
NEWTON_FAILURE_NONE = 0
NEWTON_FAILURE_ITERATION_LIMIT = 1
NEWTON_FAILURE_LINE_SEARCH_STALL = 2
NEWTON_FAILURE_NON_FINITE = 3
NEWTON_FAILURE_LINEAR_SOLVE = 4


class GripShape(ctypes.Structure):
    """A kinematic collider's analytic shape (``GripShape``); lengths in metres."""

    _fields_ = [
        ("kind", ctypes.c_uint32),
        ("inside", ctypes.c_uint32),
        ("center", ctypes.c_double * 3),
        ("axis", ctypes.c_double * 3),
        ("radius", ctypes.c_double),
        ("half_length", ctypes.c_double),
        ("struct_tag", ctypes.c_uint32),
    ]


class GripStepReport(ctypes.Structure):
    """Outcome of the last step/advance (``GripStepReport``); times in seconds, gaps in metres."""

    _fields_ = [
        ("substeps", ctypes.c_uint32),
        ("newton_iterations", ctypes.c_uint32),
        ("max_substep_iterations", ctypes.c_uint32),
        ("line_search_backtracks", ctypes.c_uint32),
        ("linear_iterations", ctypes.c_uint32),
        ("converged", ctypes.c_uint32),
        ("pinned_vertices", ctypes.c_uint32),
        ("substep_halvings", ctypes.c_uint32),
        ("active_contacts", ctypes.c_uint32),
        ("contact_retries", ctypes.c_uint32),
        ("deepest_gap", ctypes.c_double),
        ("contact_stiffness", ctypes.c_double),
        ("residual", ctypes.c_double),
        ("residual_abs", ctypes.c_double),
        ("simulated_time", ctypes.c_double),
        ("seconds_total", ctypes.c_double),
        ("seconds_assembly", ctypes.c_double),
        ("seconds_factorization", ctypes.c_double),
        ("seconds_solve", ctypes.c_double),
        ("seconds_residual", ctypes.c_double),
        ("seconds_contact_search", ctypes.c_double),
        ("kinetic_energy", ctypes.c_double),
        ("elastic_energy", ctypes.c_double),
        ("warnings", ctypes.c_uint32),
        ("initial_penetrations", ctypes.c_uint32),
        ("last_failure", ctypes.c_uint32),
        ("failed_attempts", ctypes.c_uint32),
        ("initial_deepest_gap", ctypes.c_double),
        ("fallbacks_lagged", ctypes.c_uint32),
        ("fallbacks_frictionless", ctypes.c_uint32),
        ("fallbacks_best_iterate", ctypes.c_uint32),
        ("last_fallback", ctypes.c_uint32),
        ("fallback_object", ctypes.c_uint32),
        ("fallback_vertex", ctypes.c_uint32),
        ("fallback_position", ctypes.c_double * 3),
        ("pinch_position", ctypes.c_double * 3),
        ("pinch_separation", ctypes.c_double),
        ("pinched_vertices", ctypes.c_uint32),
        ("pinch_substeps", ctypes.c_uint32),
        ("pinch_object", ctypes.c_uint32),
        ("pinch_vertex", ctypes.c_uint32),
        ("pinch_colliders", ctypes.c_uint32 * 2),
    ]


class GripSolverParams(ctypes.Structure):
    """Solver parameters (``GripSolverParams``); see include/grip.h for each unit and default."""

    _fields_ = [
        ("time_step", ctypes.c_double),
        ("gravity", ctypes.c_double * 3),
        ("max_newton_iterations", ctypes.c_uint32),
        ("max_line_search_steps", ctypes.c_uint32),
        ("max_substep_halvings", ctypes.c_uint32),
        ("residual_tolerance", ctypes.c_double),
        ("velocity_tolerance", ctypes.c_double),
        ("linear_solver", ctypes.c_uint32),
        ("integrator", ctypes.c_uint32),
        ("worker_count", ctypes.c_uint32),
        ("contact_thickness", ctypes.c_double),
        ("contact_stiffness", ctypes.c_double),
        ("friction_epsilon", ctypes.c_double),
        ("default_friction", ctypes.c_double),
        ("friction_smoothing", ctypes.c_uint32),
        ("friction_coupling", ctypes.c_uint32),
        ("max_contact_retries", ctypes.c_uint32),
        ("contact_radius_multiplier", ctypes.c_double),
        ("contact_kernel", ctypes.c_uint32),
        ("collider_mesh_contact", ctypes.c_uint32),
        ("preconditioner", ctypes.c_uint32),
        ("max_linear_iterations", ctypes.c_uint32),
        ("forcing_max", ctypes.c_double),
        ("self_contact_thickness", ctypes.c_double),
        ("self_contact", ctypes.c_uint32),
        ("newmark_beta", ctypes.c_double),
        ("newmark_gamma", ctypes.c_double),
        ("spectral_radius", ctypes.c_double),
        ("modal_count", ctypes.c_uint32),
        ("semi_implicit", ctypes.c_uint32),
        ("failure_policy", ctypes.c_uint32),
        ("struct_tag", ctypes.c_uint32),
    ]


class GripMaterial(ctypes.Structure):
    """Material of one object (``GripMaterial``): density kg/m³, Young's modulus Pa, lengths m."""

    _fields_ = [
        ("density", ctypes.c_double),
        ("youngs_modulus", ctypes.c_double),
        ("poisson_ratio", ctypes.c_double),
        ("thickness", ctypes.c_double),
        ("bending_stiffness", ctypes.c_double),
        ("damping_alpha", ctypes.c_double),
        ("damping_beta", ctypes.c_double),
        ("membrane_model", ctypes.c_uint32),
        ("struct_tag", ctypes.c_uint32),
    ]


class GripRunSummary(ctypes.Structure):
    """What ``grip_scene_run`` did (``GripRunSummary``): the last frame reached, wall-clock
    seconds, substeps and Newton iterations of the call."""

    _fields_ = [
        ("frames", ctypes.c_size_t),
        ("seconds", ctypes.c_double),
        ("substeps", ctypes.c_size_t),
        ("newton_iterations", ctypes.c_size_t),
    ]


#: Mirrored struct → name of the library function returning its C size.
SIZEOF_FUNCTIONS = {
    GripSolverParams: "grip_sizeof_solver_params",
    GripMaterial: "grip_sizeof_material",
    GripStepReport: "grip_sizeof_step_report",
    GripShape: "grip_sizeof_shape",
    GripRunSummary: "grip_sizeof_run_summary",
}

#: Progress callback type ``GripProgressFn``: (user_data, fraction_done) -> nonzero to cancel.
GripProgressFn = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_double)

#: Frame callback type ``GripFrameFn`` of ``grip_scene_run``: (user_data, frame, last_frame,
#: seconds of that frame) -> nonzero to stop after that frame.
GripFrameFn = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_double)
