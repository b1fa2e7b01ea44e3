# SPDX-License-Identifier: MIT
"""The table of tests/python/test_argument_checks.py: one row per public function or method of the
binding (how to call it, its valid arguments, the kind of each parameter), the bad values and
the other valid forms of each kind, and the :class:`World` whose solver every case must leave
as it was. Struct fields' kinds are read from include/grip.h."""

import ctypes
import os
import pathlib
import re
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "plugins", "python"))
import grip  # noqa: E402

LIB = os.environ["GRIP_LIBRARY"]
SCENE = os.path.join(ROOT, "tests", "scenes", "moving-parts.toml")
HEADER = open(os.path.join(ROOT, "include", "grip.h"), encoding="utf-8").read()
U32, U64 = 2**32, 2**64
SETTABLE = (grip.GripSolverParams, grip.GripMaterial, grip.GripShape)


def grid(n, size, z):
    i, j = np.meshgrid(np.arange(n), np.arange(n))
    xyz = np.stack([i.ravel() * size / (n - 1), j.ravel() * size / (n - 1), np.full(n * n, z)], 1)
    a = (j[:-1, :-1] * n + i[:-1, :-1]).ravel()
    return xyz, np.concatenate([np.stack([a, a + 1, a + n + 1], 1), np.stack([a, a + n + 1, a + n], 1)])


CLOTH_X, CLOTH_T = grid(3, 0.2, 1.0)                                       # 9 vertices
TET_X = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], dtype=np.float64)
TET_SURFACE = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], dtype=np.uint32)
TET = np.array([[0, 1, 2, 3]], dtype=np.uint32)                           # positively oriented
CUBE_X = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], dtype=np.float64)
CUBE_T = np.array([t for a, b, c, d in [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2),
                                        (1, 3, 7, 5)] for t in ((a, b, c), (a, c, d))], dtype=np.uint32)


def header_field_kinds():
    """(struct, field) -> kind of every settable field, read from include/grip.h: a double is
    "real" (an array of them "real3"), a uint32_t documented as "One of `GRIP_X_*`" is
    "enum:X_", one documented with "0 ... 1" choices is "flag", any other "u32"."""
    kinds = {}
    for m in re.finditer(r"typedef struct (\w+) \{(.*?)\} \1;", HEADER, flags=re.S):
        comment = ""
        for line in (x.strip() for x in m[2].splitlines()):
            if line.startswith("//"):
                comment += " " + line[2:]
                continue
            f = re.fullmatch(r"(\w+) (\w+)(\[\d+\])?;", line)
            if f and f[2] != "struct_tag":
                enum = re.search(r"one of `GRIP_(\w+?)_\*`", comment, flags=re.I)
                kinds[(m[1], f[2])] = (("real3" if f[3] else "real") if f[1] == "double" else
                                       f"enum:{enum[1]}_" if enum else
                                       "flag" if re.search(r"\b0(:| =) .*\b1(:| =) ", comment) else "u32")
            comment = ""
    return kinds


FIELD_KINDS = header_field_kinds()
TYPE_ERRORS_FOR_INTEGERS = [1.0, np.float64(1.0), "1", None, 1 + 0j, b"1", np.array([1])]


def bad_values(kind, valid):
    """(bad value, expected exception) pairs for a parameter of ``kind`` whose valid value is
    ``valid``."""
    T, V = TypeError, ValueError
    arr = np.asarray(valid) if kind in ("vectors", "scalars", "mask", "values", "matrix", "out") else None
    if kind == "size?":
        return [c for c in bad_values("size", 1 if valid is None else valid) if c[0] is not None]
    if kind == "overrides":
        return [("solver.default_friction=0.3", T), (5, T), ([b"solver.x=1"], T), (["no-equals"], V),
                ({"": 1}, V), ({"a=b": 1}, V), ({b"solver.x": 1}, T), ({"solver.x": 1j}, T),
                ({"solver.x": object()}, T), ({"solver.x": "a\x00b"}, V), (["solver.x=a\x00b"], V), ([None], T)]
    if kind in ("u32", "id", "size", "flag") or kind.startswith("enum:"):
        cases = [(v, T) for v in TYPE_ERRORS_FOR_INTEGERS] + [(-1, V), (U64 + int(valid), V)]
        if kind != "flag":
            cases.append((True, T))
        if kind != "size":
            cases.append((U32 + int(valid), V))
        if kind == "flag":
            cases += [(2, V)]
        if kind.startswith("enum:"):
            cases += [(99, V)]
        return cases
    if kind == "real":
        return [("0.5", T), (None, T), (0.5 + 0j, T), (np.complex128(0.5), T), (True, T), (np.bool_(True), T),
                (b"1", T), (np.array([0.5]), T), (10**400, V)]
    if kind == "real3":
        return [("abc", T), ([0.0, 0.0], V), ([1j, 0, 0], T), ([None, 0, 0], T), (np.array(["1", "2", "3"]), T),
                (5.0, V), ([True, False, True], T), ([[1.0], [1.0, 2.0]], V), (None, T)]
    if kind in ("vectors", "scalars", "mask", "values", "matrix"):
        cases = [(arr.astype(np.complex128), T), (arr.astype(object), T), (arr.astype(str), T), (None, T),
                 (np.zeros(arr.shape, dtype="datetime64[s]"), T), (np.zeros(arr.shape, dtype=[("x", "f8")]), T),
                 (np.zeros(arr.shape + (2,)), V), ([[1.0], [1.0, 2.0]], V)]
        if kind != "mask":
            cases.append((arr.astype(bool), T))
        if kind == "vectors":
            cases += [(arr[:, :2], V), (np.zeros((0, 3)), V)]
        return cases
    if kind.startswith("indices"):
        arr = np.asarray(valid)
        return [(arr.astype(np.float64), T), (arr.astype(bool), T), (arr.astype(np.complex128), T),
                (arr.astype(object), T), (arr.astype(str), T), (None, T), (-arr.astype(np.int64) - 1, V),
                (arr.astype(np.int64) + U32, V), (arr.ravel()[:-1], V), ([[0, 1], [0, 1, 2]], V)]
    if kind == "out":
        return [(np.zeros(arr.shape, np.float32), T), (arr.tolist(), T), (np.zeros(arr.shape, complex), T),
                (np.empty((arr.shape[0] + 1, 3)), V), (np.empty((2 * arr.shape[0], 3))[::2], V)]
    if kind in ("callback", "frame_callback"):
        return [("progress", T), (5, T), (b"x", T)]
    if kind in ("text", "path", "path?", "library?"):
        cases = [(b"grip", T), (5, T), (1.5, T), ("x\x00junk", V), (pathlib.Path("x") if kind == "text" else [], T)]
        return cases + ([] if kind.endswith("?") else [(None, T)])
    if kind in ("struct", "report"):
        other = grip.GripShape() if isinstance(valid, grip.GripMaterial) else grip.GripMaterial()
        return [(other, T), ("struct", T), (b"\0" * ctypes.sizeof(valid), T), (5, T)]
    if kind == "library":
        return [(LIB, T), (None, T), (5, T)]
    if kind == "handle":
        return [(5, T), (None, T), (b"x", T)]
    if kind == "blob":
        return [(valid.decode("latin-1"), T), (None, T), (5, T), (list(valid[:8]), T),
                (memoryview(np.zeros(4)), T), (np.frombuffer(valid, dtype=np.uint8), T)]
    raise AssertionError(f"no bad values for kind {kind}")


def valid_forms(kind, valid):
    """Other valid spellings of ``valid`` for a parameter of ``kind``."""
    if kind in ("u32", "id", "size") or kind.startswith("enum:"):
        return [np.uint32(valid), np.int64(valid), np.array(valid)]
    if kind == "flag":
        return [bool(valid), np.bool_(valid), np.uint8(valid)]
    if kind == "real":
        return [np.float64(valid), np.float32(valid), np.array(valid)] + ([int(valid)] if valid == int(valid) else [])
    if kind in ("real3", "vectors", "scalars", "values", "matrix"):
        return [np.asarray(valid).tolist(), np.asarray(valid, dtype=np.float32)]
    if kind == "mask":
        return [np.asarray(valid, dtype=np.float64), np.asarray(valid).tolist()]
    if kind.startswith("indices"):
        return [np.asarray(valid, dtype=np.int64), np.asarray(valid).tolist()]
    if kind == "path":
        return [pathlib.Path(valid)]
    if kind == "path?":
        return [pathlib.Path(valid), None]
    if kind == "library?":
        return [pathlib.Path(valid), None, grip.load(LIB)]
    if kind == "callback":
        return [lambda fraction: False]
    if kind == "frame_callback":
        return [lambda frame, last_frame, seconds: False]
    if kind == "size?":
        return [np.uint32(valid), np.int64(valid), None] if valid is not None else [1]
    if kind == "overrides":
        return [{"solver.default_friction": 0.3, "output.name": "x", "solver.gravity": (0, 0, -9.8)},
                ["solver.default_friction=0.3"], ("solver.friction_coupling=lagged",), {}]
    if kind == "struct":
        return [None]  # the defaults
    if kind == "report":
        return []  # a step report is what a solver wrote: no other spelling, no default
    if kind == "blob":
        return [bytearray(valid), memoryview(valid)]
    return []


class World:
    """A solver holding a cloth, a plane, a collider mesh and a closed shell (or the scene file's
    solver), with what must not change: positions, velocities, report and the next object id."""

    def __init__(self, scene=False):
        self.lib = grip.load(LIB)
        self.handles = []
        if scene:
            s = self.solver = grip.SceneSolver(SCENE, library=LIB)
            self.bodies = list(s.objects.values())
        else:
            s = self.solver = grip.Solver(library=LIB, time_step=0.01)
            self.cloth = s.add_shell(CLOTH_X, CLOTH_T)
            self.floor = s.add_collider_shape(kind=grip.SHAPE_PLANE)
            self.mesh = s.add_collider_mesh(TET_X + [2.0, 0, 0], TET_SURFACE)
            self.balloon = s.add_shell(TET_X + [-2.0, 0, 1], TET_SURFACE)
            self.bodies = [self.cloth, self.mesh, self.balloon]
        self.next_id = 1
        while self._exists(self.next_id):
            self.next_id += 1
        self.before = self.snapshot()

    def _exists(self, object_id):
        try:
            self.solver.friction(object_id, object_id)
            return True
        except grip.UnknownObjectError:
            return False

    def snapshot(self):
        s = self.solver
        parts = [s.positions(b).tobytes() + s.velocities(b).tobytes() for b in self.bodies]
        return parts, bytes(s.report())

    def tet_handle(self):
        handle = ctypes.c_void_p()
        self.lib.call("grip_tetrahedralize", CUBE_X.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), 8,
                      CUBE_T.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)), 12, 0.5, ctypes.byref(handle))
        self.handles.append(handle)
        return handle

    def problem(self):
        """What changed in the solver, or None if it is as it was and still steps and adds (the
        state after that step and add is the one the next call compares with)."""
        if self.snapshot() != self.before:
            return "the solver changed"
        if self._exists(self.next_id):
            return "an object was added"
        self.solver.advance(1 / 240)
        if self.solver.add_collider_shape() != self.next_id:
            return "the next object id moved"
        self.next_id += 1
        self.before = self.snapshot()
        return None

    def close(self):
        self.solver.close()
        for handle in self.handles:
            self.lib.call("grip_tet_mesh_destroy", handle)  # a handle a TetMesh already freed is ignored


def row(name, call, valid, params=None, fields=None, scene=False):
    """A row: ``call(world, args)`` runs ``name`` with the ``args`` dict, ``valid(world)`` gives
    valid args, ``params`` maps each parameter to its kind, ``fields`` is the struct whose fields
    ``**kwargs`` set, ``scene`` runs it on a scene file's solver."""
    return dict(name=name, call=call, valid=valid, params=params or {}, fields=fields, scene=scene)


def S(method):  # noqa: N802 - a row's call of a Solver method
    return lambda w, a: getattr(w.solver, method)(**a)


P, M, SH = grip.GripSolverParams, grip.GripMaterial, grip.GripShape
ROWS = [
    row("find_library", lambda w, a: grip.find_library(**a), lambda w: dict(path=LIB), {"path": "path?"}),
    row("load", lambda w, a: grip.load(**a), lambda w: dict(path=LIB), {"path": "path?"}),
    row("preset_fields", lambda w, a: grip.preset_fields(**a), lambda w: dict(name="cotton"), {"name": "text"}),
    row("tetrahedralize", lambda w, a: grip.tetrahedralize(**a).close(),
        lambda w: dict(positions=CUBE_X, triangles=CUBE_T, cell_size=0.5, library=LIB),
        {"positions": "vectors", "triangles": "indices3", "cell_size": "real", "library": "library?"}),
    row("TetMesh.__init__", lambda w, a: grip.TetMesh(**a).close(),
        lambda w: dict(library=w.lib, handle=w.tet_handle()), {"library": "library", "handle": "handle"}),
    row("Library.__init__", lambda w, a: grip.Library(**a), lambda w: dict(path=LIB), {"path": "path"}),
    row("Library.has", lambda w, a: w.lib.has(**a), lambda w: dict(name="grip_version"), {"name": "text"}),
    row("Library.function", lambda w, a: w.lib.function(**a), lambda w: dict(name="grip_version"),
        {"name": "text"}),
    row("Library.call",
        lambda w, a: w.lib.call(a["name"], w.solver._handle, w.cloth, ctypes.byref(ctypes.c_size_t())),
        lambda w: dict(name="grip_solver_vertex_count"), {"name": "text"}),
    row("Library.solver_params", lambda w, a: w.lib.solver_params(**a), lambda w: {}, fields=P),
    row("Library.material", lambda w, a: w.lib.material(**a), lambda w: {}, fields=M),
    row("Library.shape", lambda w, a: w.lib.shape(**a), lambda w: {}, fields=SH),
    row("Solver.__init__", lambda w, a: grip.Solver(**a).close(),
        lambda w: dict(params=w.lib.solver_params(), library=LIB), {"params": "struct", "library": "library?"},
        fields=P),
    row("Solver.add_shell", S("add_shell"),
        lambda w: dict(positions=CLOTH_X + [0, 0, 1], triangles=CLOTH_T, material=w.lib.material()),
        {"positions": "vectors", "triangles": "indices3", "material": "struct"}, fields=M),
    row("Solver.add_solid", S("add_solid"),
        lambda w: dict(positions=TET_X + [4.0, 0, 1], tets=TET, material=w.lib.material()),
        {"positions": "vectors", "tets": "indices4", "material": "struct"}, fields=M),
    row("Solver.add_collider_shape", S("add_collider_shape"), lambda w: dict(shape=w.lib.shape()),
        {"shape": "struct"}, fields=SH),
    row("Solver.set_collider_transform", S("set_collider_transform"),
        lambda w: dict(collider=w.floor, matrix=np.eye(4)), {"collider": "id", "matrix": "matrix"}),
    row("Solver.add_collider_mesh", S("add_collider_mesh"),
        lambda w: dict(positions=TET_X + [6.0, 0, 0], triangles=TET_SURFACE),
        {"positions": "vectors", "triangles": "indices3"}),
    row("Solver.set_collider_positions", S("set_collider_positions"),
        lambda w: dict(collider=w.mesh, positions=TET_X + [2.0, 0, 0.01]), {"collider": "id", "positions": "vectors"}),
    row("Solver.set_object_friction", S("set_object_friction"), lambda w: dict(body=w.cloth, mu=0.4),
        {"body": "id", "mu": "real"}),
    row("Solver.set_friction", S("set_friction"), lambda w: dict(a=w.cloth, b=w.floor, mu=0.4),
        {"a": "id", "b": "id", "mu": "real"}),
    row("Solver.set_object_self_contact", S("set_object_self_contact"),
        lambda w: dict(body=w.cloth, enabled=False, thickness=0.002), {"body": "id", "enabled": "flag", "thickness": "real"}),
    row("Solver.friction", S("friction"), lambda w: dict(a=w.cloth, b=w.floor), {"a": "id", "b": "id"}),
    row("Solver.set_volume_penalty", S("set_volume_penalty"),
        lambda w: dict(obj=w.balloon, model=grip.VOLUME_IDEAL_GAS, compression_coefficient=1 / 202650,
                       pressure=101325.0),
        {"obj": "id", "model": "enum:VOLUME_", "compression_coefficient": "real", "pressure": "real"}),
    row("Solver.set_vertex_attribute", S("set_vertex_attribute"),
        lambda w: dict(obj=w.cloth, name="velocity", values=np.ones((9, 3))),
        {"obj": "id", "name": "text", "values": "values"}),
    row("Solver.set_pinned", S("set_pinned"), lambda w: dict(obj=w.cloth, pinned=np.arange(9) < 3),
        {"obj": "id", "pinned": "mask"}),
    row("Solver.set_targets", S("set_targets"), lambda w: dict(obj=w.cloth, positions=CLOTH_X + 0.01),
        {"obj": "id", "positions": "vectors"}),
    row("Solver.set_pin_stiffness", S("set_pin_stiffness"), lambda w: dict(obj=w.cloth, stiffness=np.full(9, 10.0)),
        {"obj": "id", "stiffness": "scalars"}),
    row("Solver.step", S("step"), lambda w: dict(dt=0.01, progress=None), {"dt": "real", "progress": "callback"}),
    row("Solver.advance", S("advance"), lambda w: dict(duration=0.01, progress=None),
        {"duration": "real", "progress": "callback"}),
    row("Solver.vertex_count", S("vertex_count"), lambda w: dict(obj=w.cloth), {"obj": "id"}),
    row("Solver.positions", S("positions"), lambda w: dict(obj=w.cloth, out=np.zeros((9, 3))),
        {"obj": "id", "out": "out"}),
    row("Solver.velocities", S("velocities"), lambda w: dict(obj=w.cloth, out=np.zeros((9, 3))),
        {"obj": "id", "out": "out"}),
    row("Solver.checkpoint", S("checkpoint"), lambda w: {}),
    row("Solver.restore", S("restore"), lambda w: dict(state=w.solver.checkpoint()), {"state": "blob"}),
    row("SceneSolver.__init__", lambda w, a: grip.SceneSolver(**a).close(),
        lambda w: dict(path=SCENE, overrides=None, library=LIB),
        {"path": "path", "overrides": "overrides", "library": "library?"}),
    row("bake", lambda w, a: grip.bake(**a),
        lambda w: dict(scene=SCENE, out=tempfile.mkdtemp(prefix="grip-bake-"), overrides=None, frames=1,
                       checkpoint=0, resume=0, usd=0, on_frame=None, library=LIB),
        {"scene": "path", "out": "path", "overrides": "overrides", "frames": "size?", "checkpoint": "flag",
         "resume": "flag", "usd": "flag", "on_frame": "frame_callback", "library": "library?"}),
    row("override_strings", lambda w, a: grip.override_strings(**a), lambda w: dict(overrides=None),
        {"overrides": "overrides"}),
    row("run_checkpoint_frame", lambda w, a: grip.run_checkpoint_frame(**a), lambda w: dict(out=ROOT),
        {"out": "path"}),
    row("SceneSolver.advance_frame", S("advance_frame"), lambda w: dict(frame=1, progress=None),
        {"frame": "size", "progress": "callback"}, scene=True),
    row("fallback_count", lambda w, a: grip.fallback_count(**a), lambda w: dict(report=w.solver.report()),
        {"report": "report"}),
    row("fallback_message", lambda w, a: grip.fallback_message(**a),
        lambda w: dict(report=w.solver.report(), object_name=None, when="at frame 1"),
        {"report": "report", "object_name": "callback", "when": "text"}),
    row("pinch_message", lambda w, a: grip.pinch_message(**a),
        lambda w: dict(report=w.solver.report(), thickness=1e-3, object_name=None, when="at frame 1"),
        {"report": "report", "thickness": "real", "object_name": "callback", "when": "text"}),
]




#: Public callables whose ``*args`` go to ctypes as given: :meth:`RawCalls` covers them.
RAW_ARGUMENTS = {"Library.call"}
DEFAULTS = {grip.GripSolverParams: "solver_params", grip.GripMaterial: "material", grip.GripShape: "shape"}

#: Public callables whose ``*args`` go to ctypes as given: test_argument_checks.RawCalls covers them.
RAW_ARGUMENTS = {"Library.call"}
#: Settable struct -> the Library method returning its defaults.
DEFAULTS = {grip.GripSolverParams: "solver_params", grip.GripMaterial: "material", grip.GripShape: "shape"}
