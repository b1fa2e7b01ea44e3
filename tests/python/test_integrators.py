#!/usr/bin/env python3
"""The integrator choices through the Python binding: every ``grip.INTEGRATOR_*`` code and the
fields of the newer integrators (``newmark_beta``, ``newmark_gamma``, ``spectral_radius``,
``modal_count``, ``semi_implicit``) create a solver; out-of-range values are refused naming the
field, by the binding's checks where the C type cannot hold them and otherwise by the library
(``grip_last_error()``). Creation only: no step is taken. Run by tests/python_binding.rs with
GRIP_LIBRARY set."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
import grip  # noqa: E402

LIB = os.environ["GRIP_LIBRARY"]

NEW_INTEGRATORS = {
    "INTEGRATOR_SEMI_IMPLICIT": 5,
    "INTEGRATOR_NEWMARK": 6,
    "INTEGRATOR_GENERALIZED_ALPHA": 7,
    "INTEGRATOR_EXPONENTIAL_EULER": 8,
    "INTEGRATOR_SIERE": 9,
}

# Values at the edges of each field's range, all valid.
VALID_FIELDS = {
    "newmark_beta": [1e-9, 0.25, 0.3025, 1.0],
    "newmark_gamma": [0.5, 0.55, 1.0],
    "spectral_radius": [0.0, 0.6, 0.8, 1.0],
    "modal_count": [1, 10, 200],
    "semi_implicit": [0, 1, False, True],
}

# Values the C type holds but the library refuses.
LIBRARY_REFUSES = [
    ("newmark_beta", 0.0), ("newmark_beta", -0.25), ("newmark_beta", 1.5), ("newmark_beta", float("nan")),
    ("newmark_gamma", 0.4), ("newmark_gamma", 1.1), ("newmark_gamma", float("inf")),
    ("spectral_radius", 1.5), ("spectral_radius", -0.1), ("spectral_radius", float("nan")),
    ("modal_count", 0), ("modal_count", 201),
]

# Values the binding refuses before any C call: an enum code or switch grip.h does not define.
BINDING_REFUSES = [("integrator", 10), ("integrator", 2**32 - 1), ("semi_implicit", 2), ("modal_count", -1)]


class Codes(unittest.TestCase):
    def test_constants_are_exported(self):
        for name, code in NEW_INTEGRATORS.items():
            self.assertEqual(getattr(grip, name), code, name)
            self.assertIn(name, grip.__all__)

    def test_defaults(self):
        p = grip.load(LIB).solver_params()
        self.assertEqual((p.newmark_beta, p.newmark_gamma, p.spectral_radius, p.modal_count, p.semi_implicit),
                         (0.25, 0.5, 0.8, 10, 0))
        self.assertEqual(p.integrator, grip.INTEGRATOR_BACKWARD_EULER)

    def test_every_integrator_creates_a_solver(self):
        codes = {v for k, v in vars(grip).items() if k.startswith("INTEGRATOR_")}
        self.assertEqual(codes, set(range(10)))
        for code in sorted(codes):
            with self.subTest(integrator=code):
                with grip.Solver(library=LIB, integrator=code) as s:
                    self.assertEqual(s.params.integrator, code)


class Fields(unittest.TestCase):
    def test_valid_values_create_a_solver(self):
        for name, values in VALID_FIELDS.items():
            for value in values:
                with self.subTest(field=name, value=value):
                    with grip.Solver(library=LIB, integrator=grip.INTEGRATOR_NEWMARK, **{name: value}) as s:
                        self.assertEqual(getattr(s.params, name), value)

    def test_all_fields_together(self):
        fields = dict(integrator=grip.INTEGRATOR_GENERALIZED_ALPHA, newmark_beta=0.3, newmark_gamma=0.6,
                      spectral_radius=0.6, modal_count=12, semi_implicit=True)
        with grip.Solver(library=LIB, **fields) as s:
            for name, value in fields.items():
                self.assertEqual(getattr(s.params, name), value, name)

    def test_library_refuses_out_of_range_naming_the_field(self):
        lib = grip.load(LIB)
        for name, value in LIBRARY_REFUSES:
            with self.subTest(field=name, value=value):
                with self.assertRaises(grip.InvalidArgumentError) as cm:
                    grip.Solver(library=lib, **{name: value})
                self.assertIn(f"params.{name}", cm.exception.message)
                self.assertEqual(cm.exception.function, "grip_solver_create")
                self.assertIn(f"params.{name}", lib.last_error(), "the thread's last error names the field")

    def test_binding_refuses_codes_the_header_lacks(self):
        for name, value in BINDING_REFUSES:
            with self.subTest(field=name, value=value):
                with self.assertRaises(ValueError) as cm:
                    grip.Solver(library=LIB, **{name: value})
                self.assertTrue(str(cm.exception).startswith(name), str(cm.exception))

    def test_library_refuses_codes_set_on_the_struct(self):
        # Assigned on the ctypes struct, values skip the binding's checks and reach the library.
        lib = grip.load(LIB)
        for name, value in [("integrator", 10), ("semi_implicit", 2)]:
            with self.subTest(field=name, value=value):
                params = lib.solver_params()
                setattr(params, name, value)
                with self.assertRaises(grip.InvalidArgumentError) as cm:
                    grip.Solver(params, library=lib)
                self.assertIn(f"params.{name}", cm.exception.message)
                self.assertIn(f"params.{name}", lib.last_error())


if __name__ == "__main__":
    unittest.main(verbosity=2)
