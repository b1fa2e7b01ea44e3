#!/usr/bin/env python3
"""Smoke test of grip's C API from Python through ctypes (standard library only).

Loads the library named by the environment variable GRIP_LIBRARY, checks the ABI version and
that the ctypes mirrors of the public structs have the library's sizes, simulates a small cloth
pinned at two corners, checks one error path, and prints "python smoke: N passed, M failed".
Exits nonzero if any check failed. Run by tests/python_smoke.rs.
"""

import ctypes
import math
import os
import sys

ABI_VERSION = 1  # GRIP_ABI_VERSION of the include/grip.h these mirrors follow

STATUS_OK = 0
STATUS_NULL_POINTER = 1
STATUS_INVALID_ARGUMENT = 2
STATUS_INVALID_MESH = 3
STATUS_UNKNOWN_OBJECT = 4

c_double_p = ctypes.POINTER(ctypes.c_double)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)


class GripSolverParams(ctypes.Structure):
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
        ("struct_tag", ctypes.c_uint32),
    ]


class GripMaterial(ctypes.Structure):
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


class GripStepReport(ctypes.Structure):
    _fields_ = [
        ("substeps", ctypes.c_uint32),
        ("newton_iterations", ctypes.c_uint32),
        ("max_substep_iterations", ctypes.c_uint32),
        ("line_search_backtracks", ctypes.c_uint32),
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
        ("kinetic_energy", ctypes.c_double),
        ("elastic_energy", ctypes.c_double),
    ]


class GripShape(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_uint32),
        ("inside", ctypes.c_uint32),
        ("center", ctypes.c_double * 3),
        ("axis", ctypes.c_double * 3),
        ("radius", ctypes.c_double),
        ("half_length", ctypes.c_double),
        ("struct_tag", ctypes.c_uint32),
    ]


SHAPE_PLANE = 0

passed = 0
failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}", flush=True)
    return condition


def declare(lib):
    """argtypes/restype of every function used here."""
    solver_p = ctypes.c_void_p
    sigs = {
        "grip_abi_version": (ctypes.c_uint32, []),
        "grip_version": (ctypes.c_char_p, []),
        "grip_last_error": (ctypes.c_char_p, []),
        "grip_sizeof_solver_params": (ctypes.c_size_t, []),
        "grip_sizeof_material": (ctypes.c_size_t, []),
        "grip_sizeof_step_report": (ctypes.c_size_t, []),
        "grip_sizeof_shape": (ctypes.c_size_t, []),
        "grip_shape_default": (GripShape, []),
        "grip_solver_add_collider_shape": (ctypes.c_uint32, [solver_p, ctypes.POINTER(GripShape), c_uint32_p]),
        "grip_solver_set_friction": (ctypes.c_uint32, [solver_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_double]),
        "grip_solver_params_default": (GripSolverParams, []),
        "grip_material_default": (GripMaterial, []),
        "grip_solver_create": (ctypes.c_uint32, [ctypes.POINTER(GripSolverParams), ctypes.POINTER(solver_p)]),
        "grip_solver_destroy": (None, [solver_p]),
        "grip_solver_add_shell": (
            ctypes.c_uint32,
            [solver_p, c_double_p, ctypes.c_size_t, c_uint32_p, ctypes.c_size_t, ctypes.POINTER(GripMaterial),
             c_uint32_p],
        ),
        "grip_solver_set_vertex_attribute": (
            ctypes.c_uint32,
            [solver_p, ctypes.c_uint32, ctypes.c_char_p, c_double_p, ctypes.c_size_t, ctypes.c_size_t],
        ),
        "grip_solver_advance": (ctypes.c_uint32, [solver_p, ctypes.c_double]),
        "grip_solver_vertex_count": (ctypes.c_uint32, [solver_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_size_t)]),
        "grip_solver_get_positions": (ctypes.c_uint32, [solver_p, ctypes.c_uint32, c_double_p, ctypes.c_size_t]),
        "grip_solver_get_report": (ctypes.c_uint32, [solver_p, ctypes.POINTER(GripStepReport)]),
    }
    for name, (restype, argtypes) in sigs.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes


def last_error(lib):
    return lib.grip_last_error().decode("utf-8", "replace")


def cloth_grid(n, size, z):
    """n×n vertices, size × size metres in the XY plane at height z; 2 triangles per quad."""
    xyz = []
    for j in range(n):
        for i in range(n):
            xyz += [size * i / (n - 1), size * j / (n - 1), z]
    tris = []
    for j in range(n - 1):
        for i in range(n - 1):
            a = j * n + i
            b, c = a + 1, a + n
            d = c + 1
            tris += [a, b, d, a, d, c]
    return xyz, tris


def main():
    path = os.environ.get("GRIP_LIBRARY")
    if not path:
        print("GRIP_LIBRARY is not set", file=sys.stderr)
        return 2
    lib = ctypes.CDLL(path)
    declare(lib)

    # Versions and struct layouts.
    abi = lib.grip_abi_version()
    if not check(abi == ABI_VERSION, f"grip_abi_version() = {abi}, these bindings follow {ABI_VERSION}"):
        print(f"python smoke: {passed} passed, {failed} failed")
        return 1
    check(len(lib.grip_version()) > 0, "grip_version() is empty")
    layouts_match = True
    for struct, fn in [
        (GripSolverParams, lib.grip_sizeof_solver_params),
        (GripMaterial, lib.grip_sizeof_material),
        (GripStepReport, lib.grip_sizeof_step_report),
        (GripShape, lib.grip_sizeof_shape),
    ]:
        layouts_match &= check(ctypes.sizeof(struct) == fn(),
                               f"sizeof {struct.__name__}: ctypes {ctypes.sizeof(struct)}, library {fn()}")
    if not layouts_match:
        # Structs returned by value into a too-small buffer would corrupt memory: stop here.
        print(f"python smoke: {passed} passed, {failed} failed")
        return 1
    params = lib.grip_solver_params_default()
    material = lib.grip_material_default()
    check(abs(params.time_step - 1.0 / 240.0) < 1e-15, f"default time_step {params.time_step}")
    check(list(params.gravity) == [0.0, 0.0, -9.81], f"default gravity {list(params.gravity)}")
    check(material.density > 0 and material.thickness > 0, "default material")

    # A 5×5 cloth, 0.4 m square at z = 1, pinned at the corners (0, 0) and (0.4, 0).
    n = 5
    nv = n * n
    xyz, tris = cloth_grid(n, 0.4, 1.0)
    positions = (ctypes.c_double * (3 * nv))(*xyz)
    triangles = (ctypes.c_uint32 * len(tris))(*tris)
    solver = ctypes.c_void_p()
    st = lib.grip_solver_create(ctypes.byref(params), ctypes.byref(solver))
    if not check(st == STATUS_OK and solver.value, f"grip_solver_create: {st} {last_error(lib)}"):
        print(f"python smoke: {passed} passed, {failed} failed")
        return 1
    cloth = ctypes.c_uint32(0)
    st = lib.grip_solver_add_shell(solver, positions, nv, triangles, len(tris) // 3, ctypes.byref(material),
                                   ctypes.byref(cloth))
    check(st == STATUS_OK and cloth.value != 0, f"grip_solver_add_shell: {st} {last_error(lib)}")
    check(last_error(lib) == "", "grip_last_error() is not empty after a successful call")
    count = ctypes.c_size_t(0)
    st = lib.grip_solver_vertex_count(solver, cloth, ctypes.byref(count))
    check(st == STATUS_OK and count.value == nv, f"vertex_count: {st}, {count.value}")

    pins = (0, n - 1)
    pinned = (ctypes.c_double * nv)(*[1.0 if v in pins else 0.0 for v in range(nv)])
    st = lib.grip_solver_set_vertex_attribute(solver, cloth, b"pinned", pinned, nv, 1)
    check(st == STATUS_OK, f"set pinned: {st} {last_error(lib)}")

    st = lib.grip_solver_advance(solver, 0.1)
    check(st == STATUS_OK, f"grip_solver_advance: {st} {last_error(lib)}")
    out = (ctypes.c_double * (3 * nv))()
    st = lib.grip_solver_get_positions(solver, cloth, out, nv)
    check(st == STATUS_OK, f"grip_solver_get_positions: {st} {last_error(lib)}")
    check(all(math.isfinite(x) for x in out), "positions are not finite")
    for v in range(nv):
        now, was = out[3 * v:3 * v + 3], xyz[3 * v:3 * v + 3]
        if v in pins:
            check(all(abs(a - b) <= 1e-9 for a, b in zip(now, was)), f"pinned vertex {v} moved: {was} -> {now}")
        else:
            check(now[2] < was[2], f"free vertex {v} did not move down: z {was[2]} -> {now[2]}")

    report = GripStepReport()
    st = lib.grip_solver_get_report(solver, ctypes.byref(report))
    check(st == STATUS_OK, f"grip_solver_get_report: {st}")
    expected_substeps = math.ceil(0.1 / params.time_step - 1e-9)
    check(report.substeps == expected_substeps, f"report.substeps {report.substeps}, expected {expected_substeps}")
    check(report.converged == 1, "report.converged")
    check(report.pinned_vertices == 2, f"report.pinned_vertices {report.pinned_vertices}")
    check(abs(report.simulated_time - 0.1) < 1e-12, f"report.simulated_time {report.simulated_time}, expected 0.1")

    # A floor 2 cm below the lowest vertex: the cloth lands on it and stays above it.
    floor_z = min(out[3 * v + 2] for v in range(nv)) - 0.02
    shape = lib.grip_shape_default()
    shape.kind = SHAPE_PLANE
    shape.center[2] = floor_z
    floor = ctypes.c_uint32(0)
    st = lib.grip_solver_add_collider_shape(solver, ctypes.byref(shape), ctypes.byref(floor))
    check(st == STATUS_OK and floor.value not in (0, cloth.value), f"add_collider_shape: {st} {last_error(lib)}")
    st = lib.grip_solver_set_friction(solver, cloth, floor, 0.5)
    check(st == STATUS_OK, f"set_friction: {st} {last_error(lib)}")
    st = lib.grip_solver_advance(solver, 0.3)
    check(st == STATUS_OK, f"advance onto the floor: {st} {last_error(lib)}")
    lib.grip_solver_get_positions(solver, cloth, out, nv)
    lowest = min(out[3 * v + 2] for v in range(nv))
    check(lowest >= floor_z - 1e-9, f"a vertex is below the floor: {lowest} < {floor_z}")
    lib.grip_solver_get_report(solver, ctypes.byref(report))
    check(report.active_contacts > 0 and report.deepest_gap >= 0.0,
          f"contacts {report.active_contacts}, deepest gap {report.deepest_gap}")
    st = lib.grip_solver_set_friction(solver, cloth, floor, -1.0)
    check(st == STATUS_INVALID_ARGUMENT, f"negative friction: status {st}")

    # One error path: an unknown object id.
    st = lib.grip_solver_get_positions(solver, 999, out, nv)
    message = last_error(lib)
    check(st == STATUS_UNKNOWN_OBJECT, f"get_positions of object 999: status {st}, expected {STATUS_UNKNOWN_OBJECT}")
    check(message != "", "grip_last_error() is empty after a failed call")
    check("999" in message, f"message does not name the id: {message!r}")

    lib.grip_solver_destroy(solver)
    print(f"python smoke: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
