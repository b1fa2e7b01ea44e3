#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Argument checks of the Python binding, table-driven (the table: argument_table.py). Every
public function and method has a row (introspection fails the test when a public callable with
parameters has none, or a row misses one of its parameters); every parameter gets the bad values
of its kind: integers past uint32_t or size_t, negative, float, bool, str, None, bytes, complex;
strings that are bytes, None or hold a NUL; arrays of complex, object, string, bool, datetime or
structured dtype, or of the wrong shape. Each must raise the documented TypeError or ValueError,
whose message starts with the parameter's name, with no warning, and leave the solver
bit-identical, without a new object, able to step. Each row's valid call, and the other valid
forms of each kind (numpy integers, lists, bool masks, pathlib paths), must succeed. Also: the
raw ``Library.call`` and the original bugs (ids wrapping modulo 2^32, names cut at a NUL,
complex arrays truncated). Run by tests/python_binding.rs."""

import ctypes
import inspect
import os
import sys
import unittest
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from argument_table import (CLOTH_T, CLOTH_X, DEFAULTS, FIELD_KINDS, LIB, RAW_ARGUMENTS, ROWS, SCENE,  # noqa: E402
                            SETTABLE, U32, U64, World, bad_values, grip, valid_forms)


def public_callables():
    """Qualified name -> function, for every public function of grip and every public method
    (and constructor) of its classes, except exceptions and ctypes struct mirrors (data types
    whose constructors never reach the library)."""
    out = {}
    for name in grip.__all__:
        obj = getattr(grip, name)
        if inspect.isfunction(obj):
            out[name] = obj
        elif inspect.isclass(obj) and not issubclass(obj, (BaseException, ctypes.Structure)):
            for attr, fn in vars(obj).items():
                if inspect.isfunction(fn) and (attr == "__init__" or not attr.startswith("_")):
                    out[f"{name}.{attr}"] = fn
    return out


def parameters(qualname, fn):
    """The parameters of ``fn`` a caller passes (``self`` of a method left out)."""
    params = list(inspect.signature(fn).parameters.values())
    return params[1:] if "." in qualname else params


def replacing(r, param, value):
    """Args builder: the valid args of row ``r`` with ``param`` set to ``value``."""
    return lambda w: {**r["valid"](w), param: value}


def cases():
    """(row, what, args builder, expected exception or None for a success, parameter) of every
    row: its valid call, then per parameter (and struct field) its bad values and valid forms."""
    out = []
    probe = World()
    try:
        for r in ROWS:
            out.append((r, "valid", r["valid"], None, None))
            valid = r["valid"](probe)
            params = [(p, kind, valid[p]) for p, kind in r["params"].items()]
            if r["fields"] is not None:
                defaults = getattr(probe.lib, DEFAULTS[r["fields"]])()
                for f, ctype in r["fields"]._fields_:
                    if f != "struct_tag":
                        v = getattr(defaults, f)
                        v = list(v) if issubclass(ctype, ctypes.Array) else v
                        params.append((f, FIELD_KINDS[(r["fields"].__name__, f)], v))
            for p, kind, v in params:
                for value, exc in bad_values(kind, v):
                    out.append((r, f"{p}={value!r:.40}", replacing(r, p, value), exc, p))
                for value in valid_forms(kind, v):
                    out.append((r, f"{p}={value!r:.40} (valid)", replacing(r, p, value), None, p))
    finally:
        probe.close()
    return out


def run_case(r, what, build, exc, param):
    """None if the case behaves as documented, else what went wrong."""
    w = World(scene=r["scene"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nothing may be converted with only a warning
            try:
                r["call"](w, build(w))
                raised = None
            except Exception as e:  # noqa: BLE001 - every outcome is compared below
                raised = e
        if exc is None:
            return None if raised is None else f"raised {type(raised).__name__}: {raised}"
        if raised is None:
            return f"succeeded, {exc.__name__} expected"
        if not isinstance(raised, exc) or isinstance(raised, grip.GripError):
            return f"raised {type(raised).__name__}: {raised}; {exc.__name__} expected"
        if not str(raised).startswith(param):
            return f"the message does not start with {param!r}: {raised}"
        return w.problem()
    finally:
        w.close()


class ArgumentChecks(unittest.TestCase):
    def test_every_public_callable_has_a_row_covering_each_parameter(self):
        rows = {r["name"]: r for r in ROWS}
        callables = public_callables()
        with_parameters = {name for name, fn in callables.items() if parameters(name, fn)}
        self.assertEqual(sorted(with_parameters - set(rows)), [], "public callables without a row")
        self.assertEqual(sorted(set(rows) - set(callables)), [], "rows of no public callable")
        for name, r in rows.items():
            for p in parameters(name, callables[name]):
                if p.kind is p.VAR_KEYWORD:
                    self.assertIn(r["fields"], SETTABLE, f"{name}: **{p.name} needs the struct of its fields")
                elif p.kind is p.VAR_POSITIONAL:
                    self.assertIn(name, RAW_ARGUMENTS, f"{name}: *{p.name} needs cases of its own")
                else:
                    self.assertIn(p.name, r["params"], f"{name}: parameter {p.name} has no kind")
        for struct in SETTABLE:
            fields = {f for f, _ in struct._fields_} - {"struct_tag"}
            self.assertEqual({f for s, f in FIELD_KINDS if s == struct.__name__}, fields, struct.__name__)

    def test_the_table(self):
        table = cases()
        failures = [f"{r['name']} {what}: {problem}" for r, what, build, exc, param in table
                    for problem in [run_case(r, what, build, exc, param)] if problem]
        refused = sum(1 for case in table if case[3] is not None)
        print(f"\n{len(table)} argument-check cases ({refused} refused, {len(table) - refused} valid) over "
              f"{len(ROWS)} public callables")
        self.assertEqual(failures, [], "\n".join(failures))


class RawCalls(unittest.TestCase):
    """``Library.call(name, *args)`` passes ``args`` to ctypes as given; it still refuses an int
    that a uint32_t or size_t argument cannot hold, bytes with a NUL for a string, and turns
    ctypes' ArgumentError into TypeError, naming the argument's position."""

    def test_raw_arguments(self):
        w = World()
        try:
            h, n, mu = w.solver._handle, ctypes.c_size_t(), ctypes.c_double()
            ones = np.ones(9)
            bad = [(("grip_solver_vertex_count", h, U32 + w.cloth, ctypes.byref(n)), ValueError, 2),
                   (("grip_solver_get_friction", h, -1, w.cloth, ctypes.byref(mu)), ValueError, 2),
                   (("grip_solver_set_vertex_attribute", h, w.cloth, b"pinned\x00junk",
                     ones.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), 9, 1), ValueError, 3),
                   (("grip_solver_set_vertex_attribute", h, w.cloth, "pinned",
                     ones.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), 9, 1), TypeError, 3),
                   (("grip_solver_get_positions", h, w.cloth, None, U64 + 9), ValueError, 4),
                   (("grip_solver_step", h, "0.01"), TypeError, 2),
                   (("grip_solver_step", h, 0.01 + 0j), TypeError, 2)]
            for args, exc, position in bad:
                with self.subTest(args=args[0], position=position):
                    with self.assertRaisesRegex(exc, f"^{args[0]} argument {position}"):
                        w.lib.call(*args)
                    self.assertIsNone(w.problem())
            w.lib.call("grip_solver_vertex_count", h, w.cloth, ctypes.byref(n))
            self.assertEqual(n.value, 9)
        finally:
            w.close()


class OriginalBugs(unittest.TestCase):
    """What ctypes did with these arguments before the checks, and that it no longer happens."""

    def setUp(self):
        self.w = World()
        self.s = self.w.solver

    def tearDown(self):
        self.w.close()

    def test_an_id_past_2_32_no_longer_reads_another_object(self):
        self.assertEqual(ctypes.c_uint32(U32 + self.w.cloth).value, self.w.cloth, "what ctypes passes")
        with self.assertRaisesRegex(ValueError, r"^obj must be in 0\.\.4294967295, got 4294967297"):
            self.s.positions(U32 + self.w.cloth)
        with self.assertRaisesRegex(TypeError, "^obj"):
            self.s.positions(True)  # True == 1 == the cloth's id
        np.testing.assert_array_equal(self.s.positions(np.uint32(self.w.cloth)), CLOTH_X)

    def test_out_of_range_parameters_no_longer_become_small_ones(self):
        with self.assertRaisesRegex(ValueError, "^max_newton_iterations"):
            grip.Solver(library=LIB, max_newton_iterations=U32 + 1)
        with self.assertRaisesRegex(ValueError, "^integrator"):
            self.w.lib.solver_params(integrator=U32 + grip.INTEGRATOR_BDF2)
        with self.assertRaisesRegex(ValueError, "^model"):
            self.s.set_volume_penalty(self.w.balloon, U32 + grip.VOLUME_QUADRATIC, 1e-5)
        with grip.SceneSolver(SCENE, library=LIB) as scene:
            with self.assertRaisesRegex(ValueError, "^frame"):
                scene.advance_frame(U64 + 1)  # ctypes would run frame 1
            self.assertEqual(scene.report().substeps, 0)
        self.assertIsNone(self.w.problem())

    def test_a_nul_no_longer_ends_a_name_early(self):
        with self.assertRaisesRegex(ValueError, "^name must not contain a NUL"):
            self.s.set_vertex_attribute(self.w.cloth, "pinned\x00junk", np.ones(9))
        with self.assertRaisesRegex(ValueError, "^path must not contain a NUL"):
            grip.SceneSolver(SCENE + "\x00.junk", library=LIB)  # C would load SCENE
        self.assertIsNone(self.w.problem())
        self.assertEqual(self.s.report().pinned_vertices, 0)

    def test_bytes_and_none_for_a_name_raise_type_error(self):
        for value in (b"pinned", None):
            with self.assertRaisesRegex(TypeError, "^name must be a str"):
                self.s.set_vertex_attribute(self.w.cloth, value, np.ones(9))
        with self.assertRaisesRegex(TypeError, "^name must be a str"):
            grip.preset_fields(b"cotton")

    def test_complex_values_are_refused_not_truncated_with_a_warning(self):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            np.asarray(CLOTH_X + 1j, dtype=np.float64)
        self.assertTrue(any(issubclass(x.category, np.exceptions.ComplexWarning if hasattr(np, "exceptions")
                                       else np.ComplexWarning) for x in seen), "what numpy does")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with self.assertRaisesRegex(TypeError, "^positions must hold real numbers, got dtype complex128"):
                self.s.add_shell(CLOTH_X + 1j, CLOTH_T)
            with self.assertRaisesRegex(TypeError, "^mu must be a real number"):
                self.s.set_friction(self.w.cloth, self.w.floor, np.complex128(0.3 + 0.1j))
        self.assertIsNone(self.w.problem())

    def test_no_ctypes_argument_error_and_no_parsed_strings(self):
        with self.assertRaisesRegex(TypeError, "^mu must be a real number, got str"):
            self.s.set_friction(self.w.cloth, self.w.floor, "0.3")  # float("0.3") used to pass
        with self.assertRaisesRegex(TypeError, "^pinned must hold real numbers or bools"):
            self.s.set_pinned(self.w.cloth, ["1"] * 9)  # astype(float64) used to parse these
        with self.assertRaisesRegex(TypeError, "^grip_solver_step argument 2"):
            self.w.lib.call("grip_solver_step", self.s._handle, "0.01")
        self.assertIsNone(self.w.problem())

    def test_nan_and_unknown_objects_are_the_library_s_to_refuse(self):
        with self.assertRaises(grip.InvalidArgumentError) as cm:
            self.s.set_object_friction(self.w.cloth, float("nan"))
        self.assertEqual(cm.exception.function, "grip_solver_set_object_friction")
        for thickness in (float("nan"), -0.001, float("inf"), 2e3):
            with self.assertRaises(grip.InvalidArgumentError) as cm:
                self.s.set_object_self_contact(self.w.cloth, True, thickness)
            self.assertEqual(cm.exception.function, "grip_solver_set_object_self_contact")
        with self.assertRaisesRegex(grip.UnknownObjectError, "collider"):
            self.s.set_object_self_contact(self.w.floor, False)
        with self.assertRaisesRegex(grip.InvalidArgumentError, "collider mesh"):
            self.s.set_object_self_contact(self.w.mesh, False)
        with self.assertRaises(grip.InvalidArgumentError):
            grip.Solver(library=LIB, time_step=float("inf"))
        with self.assertRaises(grip.UnknownObjectError):
            self.s.positions(U32 - 1)
        self.assertIsNone(self.w.problem())


if __name__ == "__main__":
    unittest.main(verbosity=2)
