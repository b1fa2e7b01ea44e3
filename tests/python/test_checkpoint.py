#!/usr/bin/env python3
"""Checkpoints through the Python binding: ``Solver.checkpoint()`` and ``Solver.restore()``
against the built library (GRIP_LIBRARY). Run by tests/python_binding.rs; prints unittest's
summary and exits nonzero on failure."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
sys.path.insert(0, os.path.dirname(__file__))
import grip  # noqa: E402
from test_binding import cloth_grid  # noqa: E402

LIB = os.environ["GRIP_LIBRARY"]


class Checkpoint(unittest.TestCase):
    """A cloth falling onto a moving collider mesh, checkpointed in the middle: a second solver
    built the same way and restored from the bytes ends bit for bit where the first one ends."""

    FLOOR = np.array([[-1, -1, 0], [2, -1, 0], [2, 2, 0], [-1, 2, 0]], dtype=np.float64)
    FLOOR_T = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)

    def build(self):
        xyz, tris = cloth_grid(5, 0.3, 0.03)
        s = grip.Solver(library=LIB, time_step=1 / 240)
        cloth = s.add_shell(xyz, tris)
        floor = s.add_collider_mesh(self.FLOOR, self.FLOOR_T)
        s.set_object_friction(cloth, 0.1)
        s.set_object_friction(floor, 0.1)
        return s, cloth, floor

    def frame(self, s, floor, k):
        s.set_collider_positions(floor, self.FLOOR + [0.01 * k, 0.0, 0.0])  # the floor slides along x
        s.advance(1 / 24)

    def test_restored_solver_continues_bit_for_bit(self):
        a, cloth, floor = self.build()
        with a:
            for k in range(1, 4):
                self.frame(a, floor, k)
            state = a.checkpoint()
            self.assertGreater(a.report().active_contacts, 0, "the cloth touches the floor when checkpointed")
            for k in range(4, 7):
                self.frame(a, floor, k)
            expected = a.positions(cloth).tobytes() + a.velocities(cloth).tobytes()
            b, cloth_b, floor_b = self.build()
            with b:
                b.restore(state)
                self.assertEqual(b.checkpoint(), state)
                for k in range(4, 7):
                    self.frame(b, floor_b, k)
                got = b.positions(cloth_b).tobytes() + b.velocities(cloth_b).tobytes()
        self.assertEqual(got, expected)

    def test_damaged_or_foreign_bytes_change_nothing(self):
        a, cloth, floor = self.build()
        with a:
            self.frame(a, floor, 1)
            state = a.checkpoint()
            before = a.positions(cloth).tobytes()
            with self.assertRaises(grip.InvalidArgumentError):
                a.restore(state[:-5])
            with self.assertRaises(grip.InvalidArgumentError):
                a.restore(b"not a checkpoint")
            with grip.Solver(library=LIB) as other:
                other.add_shell(*cloth_grid(4, 0.3, 0.03))
                with self.assertRaises(grip.InvalidArgumentError):
                    other.restore(state)
            self.assertEqual(a.positions(cloth).tobytes(), before)
            a.restore(bytearray(state))
            self.assertEqual(a.positions(cloth).tobytes(), before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
