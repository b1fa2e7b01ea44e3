#!/usr/bin/env python3
"""The bad-input matrix through the Python binding: every case of
tests/bad_input/cases.txt (the table tests/bad_input.rs runs through the C API) is one call
through the binding's Library with one set of bad arguments. It must raise the GripError
subclass of the expected status with a message naming the problem; afterwards the scene is
bit-identical, holds no new object, and still advances. Run by tests/python_binding.rs."""

import ctypes
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
import grip  # noqa: E402
from grip import _structs, errors  # noqa: E402

LIB = os.environ["GRIP_LIBRARY"]
TABLE = os.path.join(os.path.dirname(__file__), "..", "bad_input", "cases.txt")
SIZE_MAX = 2**64 - 1
U32_MAX = 2**32 - 1
F64 = ctypes.POINTER(ctypes.c_double)
U32 = ctypes.POINTER(ctypes.c_uint32)


def cases():
    out = []
    with open(TABLE, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            call, mutations, status, substring = [x.strip() for x in line.split("|")]
            out.append((number, call, mutations.split(), getattr(_structs, "STATUS_" + status), substring.lower()))
    return out


def cloth():
    x = np.array([[0.1 * (v % 3), 0.1 * (v // 3), 0.5] for v in range(9)]).ravel()
    t = []
    for j in range(2):
        for i in range(2):
            a = 3 * j + i
            t += [a, a + 1, a + 4, a, a + 4, a + 3]
    return x, np.array(t, dtype=np.uint32)


def cube():
    x = np.array([[1 + 0.2 * (v & 1), 0.2 * ((v >> 1) & 1), 1 + 0.2 * (v >> 2)] for v in range(8)]).ravel()
    t = np.array([1, 2, 4, 7, 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7], dtype=np.uint32)
    p = x.reshape(-1, 3)
    for e in range(5):
        a, b, c, d = (p[i] for i in t[4 * e:4 * e + 4])
        if np.linalg.det(np.array([b - a, c - a, d - a])) < 0:
            t[4 * e + 2], t[4 * e + 3] = t[4 * e + 3], t[4 * e + 2]
    return x, t


def tetrahedron():
    x = np.array([-3, 0, 0, -2.9, 0, 0, -3, 0.1, 0, -3, 0, 0.1], dtype=np.float64)
    return x, np.array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], dtype=np.uint32)


def cube_surface():
    x = np.array([[0.2 * (v & 1), 0.2 * ((v >> 1) & 1), 0.2 * (v >> 2)] for v in range(8)]).ravel()
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    t = [v for a, b, c, d in quads for v in (a, b, c, a, c, d)]
    return x, np.array(t, dtype=np.uint32)


def number(v):
    return {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}.get(v) if v in ("nan", "inf", "-inf") \
        else float(v)


class Scene:
    def __init__(self, lib):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        p = lib.call("grip_solver_params_default")
        m = lib.call("grip_material_default")
        lib.call("grip_solver_create", ctypes.byref(p), ctypes.byref(self.handle))
        self.ids = {}
        out = ctypes.c_uint32()
        for name, (x, t), n, e, fn in [("cloth", cloth(), 9, 8, "grip_solver_add_shell"),
                                       ("cube", cube(), 8, 5, "grip_solver_add_solid")]:
            lib.call(fn, self.handle, x.ctypes.data_as(F64), n, t.ctypes.data_as(U32), e, ctypes.byref(m),
                     ctypes.byref(out))
            self.ids[name] = out.value
        shape = lib.call("grip_shape_default")
        lib.call("grip_solver_add_collider_shape", self.handle, ctypes.byref(shape), ctypes.byref(out))
        self.ids["plane"] = out.value
        x, t = tetrahedron()
        lib.call("grip_solver_add_collider_mesh", self.handle, x.ctypes.data_as(F64), 4, t.ctypes.data_as(U32), 4,
                 ctypes.byref(out))
        self.ids["collider_mesh"] = out.value
        self.stale = ctypes.c_void_p()
        lib.call("grip_solver_create", ctypes.byref(p), ctypes.byref(self.stale))
        lib.call("grip_solver_destroy", self.stale)
        lib.call("grip_solver_destroy", self.stale)  # destroying twice is guarded

    def snapshot(self):
        parts = []
        for name, n in (("cloth", 9), ("cube", 8)):
            for fn in ("grip_solver_get_positions", "grip_solver_get_velocities"):
                x = np.zeros(3 * n)
                self.lib.call(fn, self.handle, self.ids[name], x.ctypes.data_as(F64), n)
                parts.append(x.view(np.uint64).copy())
        report = _structs.GripStepReport()
        self.lib.call("grip_solver_get_report", self.handle, ctypes.byref(report))
        return np.concatenate(parts), bytes(report)


def base(call, scene):
    """The valid arguments of ``call`` for the scene, by name."""
    lib = scene.lib
    a = {"params": lib.call("grip_solver_params_default"), "material": lib.call("grip_material_default"),
         "shape": lib.call("grip_shape_default"), "name": "velocity", "solver": scene.handle, "nulls": set()}
    meshes = {"add_shell": (cloth(), 9, "triangles", 8, "triangle_count"),
              "add_solid": (cube(), 8, "tets", 5, "tet_count"),
              "add_collider_mesh": (tetrahedron(), 4, "triangles", 4, "triangle_count"),
              "tetrahedralize": (cube_surface(), 8, "triangles", 12, "triangle_count")}
    if call in meshes:
        (x, t), n, tn, e, en = meshes[call]
        a.update({"positions": x, tn: t, "vertex_count": n, en: e, "cell_size": 0.05})
    ids = scene.ids
    a.update({
        "set_collider_transform": {"id": ids["plane"], "matrix": np.eye(4).ravel()},
        "set_collider_positions": {"id": ids["collider_mesh"], "xyz": tetrahedron()[0], "vertex_count": 4},
        "set_friction": {"a": ids["cloth"], "b": ids["plane"], "mu": 0.3},
        "set_object_self_contact": {"id": ids["cloth"], "enabled": 1, "thickness": 0.002},
        "set_attr": {"id": ids["cloth"], "values": np.zeros(27), "vertex_count": 9, "components": 3},
        "get_positions": {"id": ids["cloth"], "vertex_count": 9},
        "get_velocities": {"id": ids["cloth"], "vertex_count": 9},
        "vertex_count": {"id": ids["cloth"]},
        "step": {"dt": 0.01},
        "advance": {"duration": 0.01},
    }.get(call, {}))
    return a


def split_key(key):
    index = None
    if "[" in key:
        key, rest = key.split("[", 1)
        index = int(rest[:-1])
    arg, _, field = key.partition(".")
    return arg, field or None, index


def apply(a, scene, m):
    if "<>" in m:
        (arr, _, i), (_, _, j) = (split_key(k) for k in m.split("<>"))
        a[arr] = a[arr].copy()
        a[arr][i], a[arr][j] = a[arr][j], a[arr][i]
        return
    if "+=" in m:
        arr, values = m.split("+=")
        a[arr] = np.concatenate([a[arr], np.array([int(v) for v in values.split(",")], dtype=np.uint32)])
        return
    key, v = m.split("=", 1)
    arg, field, index = split_key(key)
    if v == "null":
        a["nulls"].add(arg)
    elif field is not None:
        struct = a[arg]
        current = getattr(struct, field)
        is_int = isinstance(current, int)
        value = int(v) if is_int else number(v)
        if index is None:
            setattr(struct, field, value)
        else:
            current[index] = value
    elif arg == "solver":
        a["solver"] = scene.stale if v == "stale" else ctypes.c_void_p(0x12345670)
    elif arg == "name":
        a["name"] = v
    elif index is not None:
        arr = a[arg].copy()
        if arr.dtype == np.uint32:
            arr[index] = U32_MAX if v == "max" else int(v)
        else:
            arr[index] = number(v)
        a[arg] = arr
    elif v.startswith("@"):
        a[arg] = scene.ids[v[1:]]
    elif arg in ("vertex_count", "triangle_count", "tet_count", "components"):
        a[arg] = SIZE_MAX if v == "max" else int(v)
    elif arg in ("id", "a", "b", "enabled"):
        a[arg] = int(v)
    else:
        a[arg] = number(v)


def run(call, a, lib):
    """Calls the C function through the binding's Library (which raises on a failed status)."""
    def ptr(name, ctype):
        return None if name in a["nulls"] else a[name].ctypes.data_as(ctype)

    def ref(name):
        return None if name in a["nulls"] else ctypes.byref(a[name])

    def out(obj):
        return None if "out" in a["nulls"] else ctypes.byref(obj)

    s = None if "solver" in a["nulls"] else a["solver"]
    oid = ctypes.c_uint32()
    if call == "create":
        h = ctypes.c_void_p()
        try:
            lib.call("grip_solver_create", ref("params"), out(h))
        finally:
            if h.value:
                lib.call("grip_solver_destroy", h)
    elif call in ("add_shell", "add_solid", "add_collider_mesh"):
        elements = "tets" if call == "add_solid" else "triangles"
        count = "tet_count" if call == "add_solid" else "triangle_count"
        args = [s, ptr("positions", F64), a["vertex_count"], ptr(elements, U32), a[count]]
        if call != "add_collider_mesh":
            args.append(ref("material"))
        lib.call("grip_solver_" + call, *args, out(oid))
    elif call == "add_collider_shape":
        lib.call("grip_solver_add_collider_shape", s, ref("shape"), out(oid))
    elif call == "tetrahedralize":
        mesh = ctypes.c_void_p()
        try:
            lib.call("grip_tetrahedralize", ptr("positions", F64), a["vertex_count"], ptr("triangles", U32),
                     a["triangle_count"], a["cell_size"], out(mesh))
        finally:
            if mesh.value:
                lib.call("grip_tet_mesh_destroy", mesh)
    elif call == "set_collider_transform":
        lib.call("grip_solver_set_collider_transform", s, a["id"], ptr("matrix", F64))
    elif call == "set_collider_positions":
        lib.call("grip_solver_set_collider_positions", s, a["id"], ptr("xyz", F64), a["vertex_count"])
    elif call == "set_friction":
        lib.call("grip_solver_set_friction", s, a["a"], a["b"], a["mu"])
    elif call == "set_object_self_contact":
        lib.call("grip_solver_set_object_self_contact", s, a["id"], a["enabled"], a["thickness"])
    elif call == "set_attr":
        name = None if "name" in a["nulls"] else a["name"].encode()
        lib.call("grip_solver_set_vertex_attribute", s, a["id"], name, ptr("values", F64), a["vertex_count"],
                 a["components"])
    elif call in ("step", "advance"):
        lib.call("grip_solver_" + call, s, a["dt" if call == "step" else "duration"])
    elif call in ("get_positions", "get_velocities"):
        buf = np.zeros(64)
        lib.call("grip_solver_" + call, s, a["id"], None if "out" in a["nulls"] else buf.ctypes.data_as(F64),
                 a["vertex_count"])
    elif call == "get_report":
        r = _structs.GripStepReport()
        lib.call("grip_solver_get_report", s, out(r))
    elif call == "vertex_count":
        n = ctypes.c_size_t()
        lib.call("grip_solver_vertex_count", s, a["id"], out(n))
    else:
        raise AssertionError(f"unknown call {call}")


class BadInput(unittest.TestCase):
    def test_every_bad_input_is_refused_and_changes_nothing(self):
        lib = grip.load(LIB)
        table = cases()
        self.assertGreaterEqual(len(table), 40)
        scene = Scene(lib)
        failures = []
        try:
            for line, call, mutations, status, substring in table:
                what = f"line {line}: {call} {' '.join(mutations)}"
                a = base(call, scene)
                for m in mutations:
                    apply(a, scene, m)
                before = scene.snapshot()
                try:
                    run(call, a, lib)
                    failures.append(f"{what}: succeeded")
                    continue
                except grip.GripError as e:
                    cls = errors.error_for_status(status, "", "").__class__
                    if e.status != status or type(e) is not cls or substring not in e.message.lower():
                        failures.append(f"{what}: got {type(e).__name__} {e.status} {e.message!r}, want status "
                                        f"{status} containing {substring!r}")
                        continue
                after = scene.snapshot()
                if not np.array_equal(before[0], after[0]) or (call not in ("step", "advance")
                                                               and before[1] != after[1]):
                    failures.append(f"{what}: the scene changed")
                n = ctypes.c_size_t()
                with self.assertRaises(grip.UnknownObjectError, msg=f"{what}: added an object"):
                    lib.call("grip_solver_vertex_count", scene.handle, 5, ctypes.byref(n))
                lib.call("grip_solver_advance", scene.handle, 1 / 240)
        finally:
            lib.call("grip_solver_destroy", scene.handle)
        print(f"{len(table)} bad-input cases through the Python binding")
        self.assertEqual(failures, [], "\n".join(failures))


if __name__ == "__main__":
    unittest.main(verbosity=2)
