# SPDX-License-Identifier: MIT
"""The C signature of every grip function the binding calls, declared once on the loaded library.

``STATUS`` marks functions returning ``GripStatus``: the library attaches an ``errcheck`` that
raises :class:`grip.GripError` (with ``grip_last_error()``) on any status other than OK.
``tests/python/test_header_mirror.py`` checks this table against ``include/grip.h``.
"""

import ctypes

from ._structs import (
    GripFrameFn,
    GripMaterial,
    GripProgressFn,
    GripRunSummary,
    GripShape,
    GripSolverParams,
    GripStepReport,
)

#: Marker for a ``GripStatus`` (uint32) return value.
STATUS = "GripStatus"

_solver = ctypes.c_void_p  # GripSolver * (an opaque token)
_tet_mesh = ctypes.c_void_p  # GripTetMesh * (opaque)
_doubles = ctypes.POINTER(ctypes.c_double)
_u32s = ctypes.POINTER(ctypes.c_uint32)
_size = ctypes.c_size_t
_size_out = ctypes.POINTER(ctypes.c_size_t)
_id = ctypes.c_uint32

#: name -> (return type, argument types).
SIGNATURES = {
    "grip_abi_version": (ctypes.c_uint32, []),
    "grip_version": (ctypes.c_char_p, []),
    "grip_last_error": (ctypes.c_char_p, []),
    "grip_sizeof_solver_params": (_size, []),
    "grip_sizeof_material": (_size, []),
    "grip_sizeof_step_report": (_size, []),
    "grip_sizeof_shape": (_size, []),
    "grip_sizeof_run_summary": (_size, []),
    "grip_solver_params_default": (GripSolverParams, []),
    "grip_material_default": (GripMaterial, []),
    "grip_shape_default": (GripShape, []),
    "grip_solver_create": (STATUS, [ctypes.POINTER(GripSolverParams), ctypes.POINTER(_solver)]),
    "grip_solver_destroy": (None, [_solver]),
    "grip_solver_add_shell": (
        STATUS,
        [_solver, _doubles, _size, _u32s, _size, ctypes.POINTER(GripMaterial), _u32s],
    ),
    "grip_solver_add_solid": (
        STATUS,
        [_solver, _doubles, _size, _u32s, _size, ctypes.POINTER(GripMaterial), _u32s],
    ),
    "grip_solver_add_collider_shape": (STATUS, [_solver, ctypes.POINTER(GripShape), _u32s]),
    "grip_solver_set_collider_transform": (STATUS, [_solver, _id, _doubles]),
    "grip_solver_add_collider_mesh": (STATUS, [_solver, _doubles, _size, _u32s, _size, _u32s]),
    "grip_solver_set_collider_positions": (STATUS, [_solver, _id, _doubles, _size]),
    "grip_solver_set_object_friction": (STATUS, [_solver, _id, ctypes.c_double]),
    "grip_solver_set_friction": (STATUS, [_solver, _id, _id, ctypes.c_double]),
    "grip_solver_set_object_self_contact": (STATUS, [_solver, _id, ctypes.c_uint32, ctypes.c_double]),
    "grip_solver_set_volume_penalty": (STATUS, [_solver, _id, ctypes.c_uint32, ctypes.c_double, ctypes.c_double]),
    "grip_solver_set_vertex_attribute": (
        STATUS,
        [_solver, _id, ctypes.c_char_p, _doubles, _size, _size],
    ),
    "grip_solver_vertex_count": (STATUS, [_solver, _id, _size_out]),
    "grip_solver_get_friction": (STATUS, [_solver, _id, _id, _doubles]),
    "grip_solver_get_positions": (STATUS, [_solver, _id, _doubles, _size]),
    "grip_solver_get_velocities": (STATUS, [_solver, _id, _doubles, _size]),
    "grip_solver_get_report": (STATUS, [_solver, ctypes.POINTER(GripStepReport)]),
    "grip_solver_step": (STATUS, [_solver, ctypes.c_double]),
    "grip_solver_advance": (STATUS, [_solver, ctypes.c_double]),
    "grip_solver_set_progress_callback": (STATUS, [_solver, GripProgressFn, ctypes.c_void_p]),
    "grip_solver_checkpoint_size": (STATUS, [_solver, _size_out]),
    "grip_solver_checkpoint": (STATUS, [_solver, ctypes.POINTER(ctypes.c_uint8), _size, _size_out]),
    "grip_solver_restore": (STATUS, [_solver, ctypes.POINTER(ctypes.c_uint8), _size]),
    "grip_scene_load": (STATUS, [ctypes.c_char_p, ctypes.POINTER(_solver)]),
    "grip_scene_frame_count": (STATUS, [_solver, _size_out]),
    "grip_scene_fps": (STATUS, [_solver, _doubles]),
    "grip_scene_object_count": (STATUS, [_solver, _size_out]),
    "grip_scene_object_id": (STATUS, [_solver, _size, _u32s]),
    "grip_scene_object_name": (STATUS, [_solver, _size, ctypes.POINTER(ctypes.c_char_p)]),
    "grip_scene_advance_frame": (STATUS, [_solver, _size]),
    "grip_scene_load_overrides": (
        STATUS,
        [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), _size, ctypes.POINTER(_solver)],
    ),
    "grip_scene_run": (
        STATUS,
        [
            ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), _size, ctypes.c_char_p, ctypes.c_uint32,
            _size, GripFrameFn, ctypes.c_void_p, ctypes.POINTER(GripRunSummary),
        ],
    ),
    "grip_tetrahedralize": (
        STATUS,
        [_doubles, _size, _u32s, _size, ctypes.c_double, ctypes.POINTER(_tet_mesh)],
    ),
    "grip_tet_mesh_sizes": (STATUS, [_tet_mesh, _size_out, _size_out]),
    "grip_tet_mesh_get": (STATUS, [_tet_mesh, _doubles, _size, _u32s, _size]),
    "grip_tet_mesh_destroy": (None, [_tet_mesh]),
}

#: Functions announced for the next header revision. A library without them still loads; the
#: methods that need them raise :class:`grip.GripError` naming the missing function.
PENDING = set()
