#!/usr/bin/env python3
"""Tests of the Python binding (plugins/python/grip) against the built library, outside Blender,
with only numpy installed. Run by tests/python_binding.rs with GRIP_LIBRARY set; prints unittest's
summary and exits nonzero on failure."""

import ctypes
import gc
import os
import shutil
import sys
import tempfile
import threading
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
import grip  # noqa: E402
from grip import _structs, arrays, library  # noqa: E402

LIB = os.environ["GRIP_LIBRARY"]
G = 9.81


def cloth_grid(n, size, z):
    """n×n vertices over size × size metres at height z, two triangles per quad."""
    i, j = np.meshgrid(np.arange(n), np.arange(n))
    xyz = np.stack([i.ravel() * size / (n - 1), j.ravel() * size / (n - 1), np.full(n * n, z)], axis=1)
    a = (j[:-1, :-1] * n + i[:-1, :-1]).ravel()
    tris = np.concatenate([np.stack([a, a + 1, a + n + 1], 1), np.stack([a, a + n + 1, a + n], 1)])
    return xyz.astype(np.float64), tris.astype(np.uint32)


def cube_surface(size):
    """Closed surface of an axis-aligned cube [0, size]³: 8 vertices, 12 outward triangles."""
    xyz = np.array([[x, y, z] for z in (0, size) for y in (0, size) for x in (0, size)], dtype=np.float64)
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return xyz, np.array(tris, dtype=np.uint32)


class Loading(unittest.TestCase):
    def test_load_checks_version_and_sizes(self):
        lib = grip.load(LIB)
        self.assertEqual(lib.abi_version, grip.ABI_VERSION)
        self.assertTrue(lib.version)
        self.assertIs(grip.load(LIB), lib, "a library file is loaded once")
        for struct, fn in _structs.SIZEOF_FUNCTIONS.items():
            self.assertEqual(ctypes.sizeof(struct), lib.call(fn))

    def test_path_argument_directory_and_environment(self):
        self.assertEqual(grip.find_library(LIB), os.path.abspath(LIB))
        self.assertEqual(grip.find_library(os.path.dirname(LIB)), os.path.abspath(LIB))
        old = os.environ.get("GRIP_LIBRARY")
        try:
            os.environ["GRIP_LIBRARY"] = LIB
            self.assertEqual(grip.find_library(), os.path.abspath(LIB))
        finally:
            os.environ["GRIP_LIBRARY"] = old

    def test_library_next_to_the_package(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.dirname(grip.__file__), os.path.join(tmp, "grip"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copy(LIB, os.path.join(tmp, grip.library_file_name()))
            env = {k: v for k, v in os.environ.items() if k != "GRIP_LIBRARY"}
            env["PYTHONPATH"] = tmp
            import subprocess
            out = subprocess.run([sys.executable, "-c", "import grip; print(grip.load().path)"],
                                 env=env, capture_output=True, text=True, cwd=tmp)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(os.path.realpath(out.stdout.strip()),
                             os.path.realpath(os.path.join(tmp, grip.library_file_name())))

    def test_missing_library_is_a_readable_error(self):
        with self.assertRaises(grip.LibraryError) as cm:
            grip.find_library("/nonexistent/libgrip.so")
        self.assertIn("/nonexistent/libgrip.so", str(cm.exception))
        with tempfile.NamedTemporaryFile(suffix=".so") as f:
            with self.assertRaises(grip.LibraryError):
                grip.Library(f.name)  # not a shared library

    def test_refuses_other_abi_version(self):
        saved = _structs.ABI_VERSION
        try:
            _structs.ABI_VERSION = saved + 1
            with self.assertRaises(grip.LibraryError) as cm:
                grip.Library(LIB)
            self.assertIn("ABI version", str(cm.exception))
        finally:
            _structs.ABI_VERSION = saved

    def test_refuses_struct_size_mismatch(self):
        class Shorter(ctypes.Structure):
            _fields_ = [("x", ctypes.c_double)]

        saved = dict(_structs.SIZEOF_FUNCTIONS)
        try:
            _structs.SIZEOF_FUNCTIONS[Shorter] = "grip_sizeof_material"
            with self.assertRaises(grip.LibraryError) as cm:
                grip.Library(LIB)
            self.assertIn("Shorter", str(cm.exception))
        finally:
            _structs.SIZEOF_FUNCTIONS.clear()
            _structs.SIZEOF_FUNCTIONS.update(saved)

    def test_defaults(self):
        lib = grip.load(LIB)
        params, material = lib.solver_params(), lib.material()
        self.assertAlmostEqual(params.time_step, 1.0 / 240.0, places=15)
        self.assertEqual(list(params.gravity), [0.0, 0.0, -9.81])
        self.assertEqual(params.struct_tag, grip.GripSolverParams.from_buffer_copy(params).struct_tag)
        self.assertEqual(params.collider_mesh_contact, grip.COLLIDER_MESH_CONTACT_EXACT)
        self.assertTrue(material.density > 0 and material.thickness > 0)
        self.assertEqual(lib.shape().kind, grip.SHAPE_PLANE)

    def test_unknown_struct_field_is_refused(self):
        lib = grip.load(LIB)
        with self.assertRaises(TypeError):
            lib.material(densty=100.0)
        with self.assertRaises(TypeError):
            lib.solver_params(struct_tag=0)
        params = lib.solver_params(gravity=(0, 0, -1), contact_thickness=0.002,
                                   collider_mesh_contact=grip.COLLIDER_MESH_CONTACT_EXACT)
        self.assertEqual(list(params.gravity), [0, 0, -1])
        self.assertEqual(params.contact_thickness, 0.002)
        self.assertEqual(params.collider_mesh_contact, grip.COLLIDER_MESH_CONTACT_EXACT)


class Errors(unittest.TestCase):
    def setUp(self):
        self.solver = grip.Solver(library=LIB)
        xyz, tris = cloth_grid(4, 0.3, 1.0)
        self.xyz, self.tris = xyz, tris
        self.cloth = self.solver.add_shell(xyz, tris)

    def tearDown(self):
        self.solver.close()

    def test_status_becomes_exception_with_last_error(self):
        with self.assertRaises(grip.UnknownObjectError) as cm:
            self.solver.positions(999)
        e = cm.exception
        self.assertEqual(e.status, _structs.STATUS_UNKNOWN_OBJECT)
        self.assertIn("999", e.message)
        self.assertEqual(e.function, "grip_solver_vertex_count")
        with self.assertRaises(grip.InvalidArgumentError):
            self.solver.set_friction(self.cloth, self.cloth, -1.0)
        with self.assertRaises(grip.InvalidArgumentError):
            grip.Solver(library=LIB, time_step=-1.0)
        self.solver.vertex_count(self.cloth)
        self.assertEqual(grip.load(LIB).last_error(), "", "a successful call clears the message")

    def test_object_friction_combines_by_geometric_mean(self):
        floor = self.solver.add_collider_shape(kind=grip.SHAPE_PLANE)
        s = self.solver
        self.assertEqual((s.friction(self.cloth, floor), s.friction(self.cloth, self.cloth)),
                         (s.params.default_friction, 0.0))
        s.set_object_friction(self.cloth, 0.4)
        s.set_object_friction(floor, 0.9)
        self.assertAlmostEqual(s.friction(floor, self.cloth), 0.6, delta=1e-15)
        self.assertEqual(s.friction(self.cloth, self.cloth), 0.4)
        s.set_friction(self.cloth, floor, 0.25)
        self.assertEqual(s.friction(self.cloth, floor), 0.25)
        with self.assertRaises(grip.InvalidArgumentError) as cm:
            s.set_object_friction(self.cloth, float("nan"))
        self.assertEqual(cm.exception.function, "grip_solver_set_object_friction")
        with self.assertRaises(grip.UnknownObjectError):
            s.set_object_friction(999, 0.5)
        with self.assertRaises(grip.UnknownObjectError):
            s.friction(self.cloth, 999)
        self.assertEqual(s.friction(self.cloth, self.cloth), 0.4)

    def test_volume_penalty_needs_a_closed_surface(self):
        with self.assertRaises(grip.InvalidArgumentError) as cm:
            self.solver.set_volume_penalty(self.cloth, grip.VOLUME_QUADRATIC, 1e-5, 0.0)
        self.assertIn("closed", cm.exception.message)
        self.assertEqual(cm.exception.function, "grip_solver_set_volume_penalty")
        # A closed tetrahedron surface encloses a volume; removing the penalty always succeeds.
        xyz = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], dtype=np.float64)
        tris = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], dtype=np.uint32)
        closed = self.solver.add_shell(xyz, tris)
        self.solver.set_volume_penalty(closed, grip.VOLUME_IDEAL_GAS, 1.0 / 202650.0, 101325.0)
        # An unknown model is refused by the binding (it knows the VOLUME_* codes) and, called
        # directly, by the library.
        with self.assertRaisesRegex(ValueError, "model"):
            self.solver.set_volume_penalty(closed, 7, 1e-5, 0.0)
        with self.assertRaises(grip.InvalidArgumentError):
            grip.load(LIB).call("grip_solver_set_volume_penalty", self.solver._handle, closed, 7, 1e-5, 0.0)
        self.solver.set_volume_penalty(closed, grip.VOLUME_NONE)

    def test_bad_mesh_raises_and_changes_nothing(self):
        bad = self.tris.copy()
        bad[0, 0] = 10_000
        with self.assertRaises(grip.InvalidMeshError) as cm:
            self.solver.add_shell(self.xyz, bad)
        self.assertIn("10000", cm.exception.message)
        with self.assertRaises(ValueError):
            self.solver.add_shell(self.xyz, -np.ones((2, 3), dtype=np.int64))
        np.testing.assert_array_equal(self.solver.positions(self.cloth), self.xyz)

    def test_closed_solver_refuses_calls(self):
        self.solver.close()
        self.assertTrue(self.solver.closed)
        self.solver.close()  # twice is fine
        with self.assertRaises(grip.GripError):
            self.solver.advance(0.01)


class Arrays(unittest.TestCase):
    def test_inputs_are_not_copied(self):
        x = np.zeros((5, 3))
        self.assertIs(arrays.vectors(x, "x"), x)
        flat = np.zeros(15)
        self.assertTrue(np.shares_memory(arrays.vectors(flat, "x"), flat))
        t = np.zeros((2, 3), dtype=np.uint32)
        self.assertIs(arrays.indices(t, "t", 3), t)
        self.assertEqual(arrays.double_ptr(x)[0], 0.0)
        self.assertEqual(ctypes.addressof(arrays.double_ptr(x).contents), x.ctypes.data)

    def test_outputs_are_written_in_place(self):
        xyz, tris = cloth_grid(3, 0.2, 0.5)
        with grip.Solver(library=LIB) as s:
            cloth = s.add_shell(xyz, tris)
            out = np.empty((9, 3))
            self.assertIs(s.positions(cloth, out=out), out)
            np.testing.assert_array_equal(out, xyz)
            with self.assertRaises(ValueError):
                s.positions(cloth, out=np.empty((8, 3)))
            with self.assertRaises(TypeError):
                s.positions(cloth, out=np.empty((9, 3), dtype=np.float32))


class Physics(unittest.TestCase):
    def test_free_fall_matches_backward_euler(self):
        # A rigidly translating shell has no elastic force: backward Euler with n substeps of h
        # gives v_n = n h g and x_n = x_0 + h² g n (n + 1) / 2 exactly.
        h, n = 1.0 / 200.0, 40
        xyz, tris = cloth_grid(4, 0.3, 2.0)
        with grip.Solver(library=LIB, time_step=h) as s:
            cloth = s.add_shell(xyz, tris)
            s.advance(n * h)
            drop = xyz[:, 2] - s.positions(cloth)[:, 2]
            expected = h * h * G * n * (n + 1) / 2
            np.testing.assert_allclose(drop, expected, rtol=1e-7)
            np.testing.assert_allclose(s.velocities(cloth)[:, 2], -n * h * G, rtol=1e-7)
            self.assertEqual(s.report().substeps, n)

    def test_pins_hold_and_follow_targets(self):
        xyz, tris = cloth_grid(5, 0.4, 1.0)
        pinned = np.zeros(len(xyz), dtype=bool)
        pinned[[0, 4]] = True
        with grip.Solver(library=LIB) as s:
            cloth = s.add_shell(xyz, tris, **grip.preset_fields("cotton"))
            s.set_pinned(cloth, pinned)
            s.advance(0.1)
            x = s.positions(cloth)
            np.testing.assert_allclose(x[pinned], xyz[pinned], atol=1e-12)
            self.assertTrue(np.all(x[~pinned, 2] < 1.0))
            report = s.report()
            self.assertEqual(report.pinned_vertices, 2)
            self.assertEqual(report.converged, 1)
            self.assertEqual(report.substeps, 24)  # ceil(0.1 s / (1/240 s))
            self.assertAlmostEqual(report.simulated_time, 0.1, places=12)
            target = x.copy()
            target[pinned] += [0.0, 0.0, 0.05]
            s.set_targets(cloth, target)
            s.advance(1.0 / 24.0)
            np.testing.assert_allclose(s.positions(cloth)[pinned], target[pinned], atol=1e-9)

    def test_soft_pins_hold_a_cloth_at_m_g_over_k_below_its_anchors(self):
        # Springs k_i = m_i g / sag: the cloth sags as one piece (no elastic force), by `sag`.
        xyz, tris = cloth_grid(4, 0.2, 1.0)
        sag = 0.01
        with grip.Solver(library=LIB, time_step=0.01) as s:
            cloth = s.add_shell(xyz, tris, density=200.0, thickness=1e-3)
            mass = np.zeros(len(xyz))
            for t in tris:  # lumped: a third of each triangle's mass (0.2² / 18 m² each)
                mass[t] += 200.0 * 1e-3 * (0.2 * 0.2 / 18) / 3
            s.set_pin_stiffness(cloth, mass * G / sag)
            s.advance(3.0)
            np.testing.assert_allclose(s.positions(cloth)[:, 2], xyz[:, 2] - sag, atol=1e-6)
            with self.assertRaises(grip.InvalidArgumentError):
                s.set_pin_stiffness(cloth, np.full(len(xyz), -1.0))

    def test_cloth_rests_above_analytic_floor(self):
        xyz, tris = cloth_grid(4, 0.3, 0.05)
        with grip.Solver(library=LIB) as s:
            cloth = s.add_shell(xyz, tris)
            floor = s.add_collider_shape(kind=grip.SHAPE_PLANE)
            s.set_friction(cloth, floor, 0.5)
            s.advance(0.3)
            self.assertGreaterEqual(s.positions(cloth)[:, 2].min(), 0.0)
            report = s.report()
            self.assertGreater(report.active_contacts, 0)
            s.set_collider_transform(floor, np.eye(4))
            with self.assertRaises(grip.InvalidArgumentError):
                s.set_collider_transform(floor, np.diag([2.0, 1.0, 1.0, 1.0]))


class Progress(unittest.TestCase):
    def setUp(self):
        xyz, tris = cloth_grid(4, 0.3, 1.0)
        self.xyz = xyz
        self.solver = grip.Solver(library=LIB)
        self.cloth = self.solver.add_shell(xyz, tris)

    def tearDown(self):
        self.solver.close()

    def test_fractions_rise_to_one(self):
        seen = []
        self.solver.advance(0.05, progress=lambda f: seen.append(f) and False)
        self.assertTrue(seen)
        self.assertEqual(seen, sorted(seen))
        self.assertEqual(seen[-1], 1.0)

    def test_cancel_leaves_solver_unchanged(self):
        with self.assertRaises(grip.CancelledError):
            self.solver.advance(0.05, progress=lambda f: f > 0.5)
        np.testing.assert_array_equal(self.solver.positions(self.cloth), self.xyz)
        self.solver.advance(0.05)  # still usable, callback removed
        self.assertTrue(np.all(self.solver.positions(self.cloth)[:, 2] < 1.0))

    def test_exception_in_callback_propagates(self):
        def boom(_fraction):
            raise KeyError("from the callback")

        with self.assertRaises(KeyError):
            self.solver.advance(0.05, progress=boom)
        np.testing.assert_array_equal(self.solver.positions(self.cloth), self.xyz)

    def test_the_callback_runs_on_the_calling_thread(self):
        # include/grip.h: the callback runs on the thread that called step/advance, so a host
        # may use its thread-bound API in it when it steps from that thread, and a bake stepping
        # on a worker thread is never called back on the main thread.
        on_main = set()
        self.solver.advance(0.02, progress=lambda f: on_main.add(threading.get_ident()))
        self.assertEqual(on_main, {threading.main_thread().ident})
        on_worker, worker_ident = set(), []

        def bake():
            worker_ident.append(threading.get_ident())
            self.solver.advance(0.02, progress=lambda f: on_worker.add(threading.get_ident()))

        worker = threading.Thread(target=bake)
        worker.start()
        worker.join()
        self.assertEqual(on_worker, set(worker_ident))


class Lifetime(unittest.TestCase):
    def test_context_manager_frees_the_solver(self):
        with grip.Solver(library=LIB) as s:
            handle = s._handle.value
        self.assertTrue(s.closed)
        # The library refuses the destroyed handle: it is really gone.
        lib = grip.load(LIB)
        n = ctypes.c_size_t()
        with self.assertRaises(grip.InvalidArgumentError):
            lib.call("grip_solver_vertex_count", ctypes.c_void_p(handle), 1, ctypes.byref(n))

    def test_garbage_collection_frees_an_unclosed_solver(self):
        s = grip.Solver(library=LIB)
        handle = s._handle.value
        del s
        gc.collect()
        n = ctypes.c_size_t()
        with self.assertRaises(grip.InvalidArgumentError):
            grip.load(LIB).call("grip_solver_vertex_count", ctypes.c_void_p(handle), 1, ctypes.byref(n))


@unittest.skipUnless(grip.load(LIB).has("grip_tetrahedralize"), "library has no grip_tetrahedralize yet")
class Tetrahedralize(unittest.TestCase):
    def test_unit_cube_is_filled(self):
        # Isosurface stuffing: boundary vertices on the surface, sharp edges rounded off, so the
        # volume approaches 1 m³ from below as the cell shrinks.
        xyz, tris = cube_surface(1.0)
        with grip.tetrahedralize(xyz, tris, 0.25, library=LIB) as mesh:
            p, t = mesh.positions, mesh.tets
            e = p[t[:, 1:]] - p[t[:, :1]]
            volumes = np.linalg.det(e) / 6.0
            self.assertTrue(np.all(volumes > 0), "every tet is positively oriented")
            self.assertTrue(np.all((p > -1e-9) & (p < 1.0 + 1e-9)), "every vertex is in the cube")
            self.assertLess(abs(volumes.sum() - 1.0), 0.05, f"volume {volumes.sum()}")
            self.assertEqual(len(np.unique(t)), len(p), "every vertex is used")
            with grip.Solver(library=LIB) as s:
                s.add_solid(p, t, **grip.preset_fields("rubber"))
        self.assertTrue(mesh.closed)

    def test_open_surface_is_an_invalid_mesh(self):
        xyz, tris = cube_surface(1.0)
        with self.assertRaises(grip.InvalidMeshError) as cm:
            grip.tetrahedralize(xyz, tris[:-1], 0.25, library=LIB)
        self.assertTrue(cm.exception.message)


@unittest.skipUnless(grip.load(LIB).has("grip_solver_add_collider_mesh"), "library has no collider meshes yet")
class ColliderMesh(unittest.TestCase):
    def test_cloth_rests_on_a_mesh_floor(self):
        xyz, tris = cloth_grid(4, 0.3, 0.05)
        floor_xyz = np.array([[-1, -1, 0], [2, -1, 0], [2, 2, 0], [-1, 2, 0]], dtype=np.float64)
        floor_tris = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)
        with grip.Solver(library=LIB) as s:
            cloth = s.add_shell(xyz, tris)
            floor = s.add_collider_mesh(floor_xyz, floor_tris)
            s.set_collider_positions(floor, floor_xyz)
            s.advance(0.3)
            self.assertGreaterEqual(s.positions(cloth)[:, 2].min(), 0.0)

    def test_plates_closing_on_a_cloth_report_the_pinch(self):
        """Two plates closing to half the contact thickness on a cloth: under continue the report
        names the pinch and grip.pinch_message says it; under strict the advance raises
        NotConvergedError naming it, the cloth unchanged."""
        delta = 2e-3
        plate = np.array([[-0.5, -0.5, 0], [1, -0.5, 0], [1, 1, 0], [-0.5, 1, 0]], dtype=np.float64)
        up = np.array([[0, 1, 2], [0, 2, 3]], dtype=np.uint32)
        down = np.array([[0, 2, 1], [0, 3, 2]], dtype=np.uint32)
        for policy in (grip.FAILURE_POLICY_CONTINUE, grip.FAILURE_POLICY_STRICT):
            with grip.Solver(library=LIB, contact_thickness=delta, failure_policy=policy, time_step=1 / 240,
                             collider_mesh_contact=grip.COLLIDER_MESH_CONTACT_EXACT) as s:
                floor = s.add_collider_mesh(plate, up)
                lid = s.add_collider_mesh(plate + [0, 0, 3 * delta], down)
                xyz, tris = cloth_grid(4, 0.3, 0.5 * delta)
                cloth = s.add_shell(xyz, tris)
                s.set_collider_positions(lid, plate + [0, 0, 0.5 * delta])
                if policy == grip.FAILURE_POLICY_STRICT:
                    before = s.positions(cloth).copy()
                    with self.assertRaises(grip.NotConvergedError) as cm:
                        s.advance(1 / 24)
                    self.assertIn(f"object {cloth} is pinched between collider", cm.exception.message)
                    np.testing.assert_array_equal(s.positions(cloth), before)
                    continue
                s.advance(1 / 24)
                r = s.report()
                self.assertTrue(r.warnings & _structs.WARNING_PINCH)
                self.assertGreater(r.pinched_vertices, 0)
                self.assertEqual(r.pinch_object, cloth)
                self.assertEqual(sorted(r.pinch_colliders), [floor, lid])
                self.assertTrue(0 < r.pinch_separation < delta)
                message = grip.pinch_message(r, delta, {floor: "floor", lid: "lid"}.get, "at frame 1")
                self.assertRegex(message, r"^object \d+ is pinched between (floor and lid|lid and floor) near \(")
                self.assertIn("at frame 1", message)
                self.assertIn("under the contact thickness 2.0 mm", message)


if __name__ == "__main__":
    unittest.main(verbosity=2)
