#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""grip.bake: a scene file baked from Python into an output directory, as ``grip run`` bakes it.
A bake resumed from its checkpoint, and one stopped by its frame callback and resumed, write the
same bytes as one uninterrupted bake; overrides given as a mapping and as strings bake the same;
failures raise the GripError of their status with grip's message and a summary. Run by
tests/python_binding.rs."""

import csv
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "plugins", "python"))
import grip  # noqa: E402

SCENE = os.path.join(ROOT, "tests", "scenes", "moving-parts.toml")


def frame_files(out):
    """OBJ file name -> bytes, for every frame file in ``out``."""
    return {p.name: p.read_bytes() for p in sorted(pathlib.Path(out).glob("*.obj"))}


class Bake(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="grip-bake-test-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def out(self, name):
        return os.path.join(self.dir, name)

    def test_resumed_and_stopped_bakes_equal_one_bake(self):
        seen = []
        whole = grip.bake(SCENE, self.out("whole"), on_frame=lambda f, last, s: seen.append((f, last, s >= 0)))
        self.assertEqual(whole.frames, 3)
        self.assertEqual([f for f, _, _ in seen], [1, 2, 3])
        self.assertTrue(all(last == 3 and ok for _, last, ok in seen))
        self.assertGreater(whole.newton_iterations, 0)
        self.assertIsNone(grip.run_checkpoint_frame(self.out("whole")))
        files = frame_files(self.out("whole"))
        self.assertEqual(sorted(files), [f"cloth_{k:04}.obj" for k in range(4)])

        part = grip.bake(SCENE, self.out("resumed"), frames=1, checkpoint=True)
        self.assertEqual((part.frames, grip.run_checkpoint_frame(self.out("resumed"))), (1, 1))
        rest = grip.bake(SCENE, self.out("resumed"), checkpoint=True, resume=True)
        self.assertEqual((rest.frames, grip.run_checkpoint_frame(self.out("resumed"))), (3, 3))
        self.assertEqual(frame_files(self.out("resumed")), files)

        with self.assertRaises(grip.CancelledError) as stopped:
            grip.bake(SCENE, self.out("stopped"), checkpoint=True, on_frame=lambda f, last, s: f == 2)
        self.assertIn("after frame 2", stopped.exception.message)
        self.assertEqual(stopped.exception.summary.frames, 2)
        self.assertEqual(grip.run_checkpoint_frame(self.out("stopped")), 2)
        grip.bake(SCENE, self.out("stopped"), resume=True)
        self.assertEqual(frame_files(self.out("stopped")), files)

    def test_an_exception_in_the_callback_stops_the_bake_and_is_raised(self):
        def fail(frame, last, seconds):
            raise KeyError("from the callback")

        with self.assertRaises(KeyError):
            grip.bake(SCENE, self.out("raised"), checkpoint=True, on_frame=fail)
        self.assertEqual(grip.run_checkpoint_frame(self.out("raised")), 1)
        # Raised after the last frame: the bake is complete, and the exception still reaches
        # the caller.
        with self.assertRaises(KeyError):
            grip.bake(SCENE, self.out("last"), frames=1, checkpoint=True, on_frame=fail)
        self.assertEqual(grip.run_checkpoint_frame(self.out("last")), 1)

    def test_overrides_as_mapping_and_as_strings(self):
        mapping = {"output.frames": 2, "solver.gravity": [0, 0, -5.0], "object.cloth.density": 200}
        strings = grip.override_strings(mapping)
        self.assertEqual(strings, ["output.frames=2", "solver.gravity=[0, 0, -5.0]", "object.cloth.density=200"])
        self.assertEqual(grip.override_strings({"solver.friction_coupling": "lag\"ged", "x": True, "y": float("inf")}),
                         ['solver.friction_coupling="lag\\"ged"', "x=true", "y=inf"])
        a = grip.bake(SCENE, self.out("mapping"), overrides=mapping)
        b = grip.bake(SCENE, self.out("strings"), overrides=strings)
        self.assertEqual((a.frames, b.frames), (2, 2))
        self.assertEqual(frame_files(self.out("mapping")), frame_files(self.out("strings")))
        grip.bake(SCENE, self.out("plain"), frames=2)
        self.assertNotEqual(frame_files(self.out("mapping")), frame_files(self.out("plain")))
        with grip.SceneSolver(SCENE, overrides={"output.frames": 9}) as scene:
            self.assertEqual(scene.frame_count, 9)

    def test_failures_carry_grips_message_and_a_summary(self):
        with self.assertRaises(grip.InvalidArgumentError) as bad:
            grip.bake(SCENE, self.out("bad"), overrides={"object.shirt.density": 1})
        self.assertIn('no [[object]] is named "shirt"', bad.exception.message)
        self.assertEqual(bad.exception.summary.frames, 0)
        with self.assertRaises(grip.InvalidArgumentError) as unknown:
            grip.SceneSolver(SCENE, overrides=["solver.no_such_key=1"])
        self.assertIn("no_such_key", unknown.exception.message)
        with self.assertRaises(grip.InvalidArgumentError) as missing:
            grip.bake(SCENE, self.out("nothing"), resume=True)
        self.assertIn("cannot resume", missing.exception.message)
        # One Newton iteration per substep, no halving and a residual it cannot reach: with the
        # strict policy frame 1 fails.
        hopeless = {"solver.max_newton_iterations": 1, "solver.max_substep_halvings": 0,
                    "solver.residual_tolerance": 1e-15, "solver.velocity_tolerance": 0}
        with self.assertRaises(grip.NotConvergedError) as failed:
            grip.bake(SCENE, self.out("hopeless"), overrides=dict(hopeless, **{"solver.failure_policy": "strict"}))
        self.assertIn("solver failed at frame 1", failed.exception.message)
        self.assertEqual(failed.exception.summary.frames, 0)
        self.assertTrue(os.path.exists(os.path.join(self.out("hopeless"), "cloth_0000.obj")))
        # A scene file's default policy goes on, the substeps that fail taken at their best
        # iterate (without friction lagged or dropped first: they fail in one iteration too),
        # counted in stats.csv, which names the object and the place.
        done = grip.bake(SCENE, self.out("going-on"), overrides=hopeless, frames=2)
        self.assertEqual(done.frames, 2)
        with open(os.path.join(self.out("going-on"), "stats.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        best = [int(r["fallbacks_best_iterate"]) for r in rows]
        self.assertTrue(best[0] == 0 and best[1] >= 1 and all(b <= int(r["substeps"]) for b, r in zip(best, rows)),
                        rows)
        self.assertTrue(all(r["fallbacks_lagged"] == r["fallbacks_frictionless"] == "0" for r in rows), rows)
        self.assertEqual([r["fallback_object"] for r in rows], ["", "cloth", "cloth"], rows)
        place = [[float(r[f"fallback_{c}"]) for c in "xyz"] for r in rows]
        self.assertTrue(all(x != x for x in place[0]) and all(abs(x) < 10 for p in place[1:] for x in p), place)

    def test_checkpoint_frame_of_a_foreign_file_is_refused(self):
        os.makedirs(self.out("foreign"))
        with open(os.path.join(self.out("foreign"), "checkpoint.grip"), "wb") as f:
            f.write(b"not a checkpoint at all, but long enough")
        with self.assertRaises(ValueError):
            grip.run_checkpoint_frame(self.out("foreign"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
