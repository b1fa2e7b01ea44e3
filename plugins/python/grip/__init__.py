# SPDX-License-Identifier: MIT
"""grip: cloth and soft-body solver with fully implicit frictional contact, from Python.

Pure Python over the C API (ctypes) with numpy arrays; SI units throughout (m, kg, s, Pa)::

    import numpy as np, grip
    with grip.Solver(time_step=1 / 240) as solver:          # library: GRIP_LIBRARY or beside grip/
        cloth = solver.add_shell(xyz, triangles, **grip.preset_fields("cotton"))
        solver.set_pinned(cloth, pinned_mask)
        for frame in range(48):
            solver.advance(1 / 24)
            xyz = solver.positions(cloth)

A TOML scene file runs as ``grip run`` runs it through :class:`SceneSolver`::

    with grip.SceneSolver("examples/scenes/cloth-on-sphere.toml") as scene:
        for frame in range(1, scene.frame_count + 1):
            scene.advance_frame(frame)
            xyz = scene.positions(scene.objects["cloth"])

A scene file bakes into an output directory as ``grip run`` bakes it (OBJ frames, stats.csv,
checkpoints, USD) with :func:`bake`; ``grip.batch`` runs many such bakes on Dask.

Every failing call raises a :class:`GripError` subclass carrying ``grip_last_error()``.
"""

from ._structs import (
    ABI_VERSION,
    COLLIDER_MESH_CONTACT_EXACT,
    COLLIDER_MESH_CONTACT_IMPLICIT,
    FAILURE_POLICY_CONTINUE,
    FAILURE_POLICY_STRICT,
    FALLBACK_BEST_ITERATE,
    FALLBACK_FRICTIONLESS,
    FALLBACK_LAGGED_FRICTION,
    FALLBACK_NONE,
    FRICTION_COUPLING_IMPLICIT,
    FRICTION_COUPLING_LAGGED,
    FRICTION_SMOOTHING_QUADRATIC,
    FRICTION_SMOOTHING_RATIONAL,
    INTEGRATOR_BACKWARD_EULER,
    INTEGRATOR_BDF2,
    INTEGRATOR_EXPONENTIAL_EULER,
    INTEGRATOR_GENERALIZED_ALPHA,
    INTEGRATOR_NEWMARK,
    INTEGRATOR_SDIRK2,
    INTEGRATOR_SEMI_IMPLICIT,
    INTEGRATOR_SIERE,
    INTEGRATOR_TR_BDF2,
    INTEGRATOR_TRAPEZOIDAL,
    KERNEL_CUBIC,
    KERNEL_INTERPOLATING,
    LINEAR_SOLVER_DIRECT_LU,
    MEMBRANE_NEO_HOOKEAN,
    MEMBRANE_STVK,
    SHAPE_CAPSULE,
    SHAPE_CYLINDER,
    SHAPE_PLANE,
    SHAPE_SPHERE,
    VOLUME_IDEAL_GAS,
    VOLUME_NEARLY_INCOMPRESSIBLE,
    VOLUME_NONE,
    VOLUME_QUADRATIC,
    GripMaterial,
    GripShape,
    GripSolverParams,
    GripStepReport,
)
from .bake import BakeSummary, bake, override_strings, run_checkpoint_frame
from .errors import (
    CancelledError,
    GripError,
    InternalError,
    InvalidArgumentError,
    InvalidMeshError,
    LibraryError,
    NotConvergedError,
    NullPointerError,
    UnknownObjectError,
)
from .fallbacks import fallback_count, fallback_message
from .library import Library, find_library, library_file_name, load
from .pinches import pinch_message
from .presets import MATERIAL_PRESETS, preset_fields
from .scene import SceneSolver
from .solver import Solver
from .tet_mesh import TetMesh, tetrahedralize

__all__ = [
    "ABI_VERSION", "COLLIDER_MESH_CONTACT_EXACT", "COLLIDER_MESH_CONTACT_IMPLICIT",
    "FAILURE_POLICY_CONTINUE", "FAILURE_POLICY_STRICT", "FALLBACK_BEST_ITERATE",
    "FALLBACK_FRICTIONLESS", "FALLBACK_LAGGED_FRICTION", "FALLBACK_NONE",
    "FRICTION_COUPLING_IMPLICIT", "FRICTION_COUPLING_LAGGED",
    "FRICTION_SMOOTHING_QUADRATIC", "FRICTION_SMOOTHING_RATIONAL", "INTEGRATOR_BACKWARD_EULER",
    "INTEGRATOR_BDF2", "INTEGRATOR_EXPONENTIAL_EULER", "INTEGRATOR_GENERALIZED_ALPHA",
    "INTEGRATOR_NEWMARK", "INTEGRATOR_SDIRK2", "INTEGRATOR_SEMI_IMPLICIT", "INTEGRATOR_SIERE",
    "INTEGRATOR_TR_BDF2", "INTEGRATOR_TRAPEZOIDAL",
    "KERNEL_CUBIC", "KERNEL_INTERPOLATING",
    "LINEAR_SOLVER_DIRECT_LU", "MEMBRANE_NEO_HOOKEAN", "MEMBRANE_STVK", "SHAPE_CAPSULE",
    "SHAPE_CYLINDER", "SHAPE_PLANE", "SHAPE_SPHERE", "VOLUME_IDEAL_GAS",
    "VOLUME_NEARLY_INCOMPRESSIBLE", "VOLUME_NONE", "VOLUME_QUADRATIC", "GripMaterial", "GripShape",
    "GripSolverParams", "GripStepReport", "CancelledError", "GripError", "InternalError",
    "InvalidArgumentError", "InvalidMeshError", "LibraryError", "NotConvergedError",
    "NullPointerError", "UnknownObjectError", "Library", "find_library", "library_file_name",
    "load", "MATERIAL_PRESETS", "preset_fields", "SceneSolver", "Solver", "TetMesh",
    "tetrahedralize", "BakeSummary", "bake", "override_strings", "run_checkpoint_frame",
    "fallback_count", "fallback_message", "pinch_message",
]
