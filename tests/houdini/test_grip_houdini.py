# SPDX-License-Identifier: MIT
"""Tests of the Houdini Python SOP's logic (plugins/houdini/python/grip_houdini.py) without
Houdini: object splitting, colliders, pins, friction, the reset/reuse/advance decision, the
registry, and cooks chained as a SOP Solver chains them, with physics against closed forms.
Run by tests/houdini_python.rs in the numpy-only venv."""

import unittest

import numpy as np

import grip
import grip_houdini as gh

NEVER = lambda fraction: False  # noqa: E731


def cloth(n, y):
    """An n x n grid of quads, 1 m square in the XZ plane at height y (Houdini is Y up); its quads
    are clockwise seen from +Y (Houdini's front faces up)."""
    xyz = np.array([[i / (n - 1), y, j / (n - 1)] for j in range(n) for i in range(n)], dtype=np.float64)
    prims = [(gh.POLYGON, [j * n + i, j * n + i + 1, j * n + i + 1 + n, j * n + i + n])
             for j in range(n - 1) for i in range(n - 1)]
    return gh.Geometry(xyz, prims)


def quads_and_tet():
    xyz = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 0, 1], [1, 0, 1], [2, 0, 1],
                    [5, 0, 0], [6, 0, 0], [5, 1, 0], [5, 0, 1]], dtype=np.float64)
    return gh.Geometry(xyz, [(gh.POLYGON, [0, 1, 4, 3]), (gh.POLYGON, [1, 2, 5, 4]),
                             (gh.TETRAHEDRON, [6, 8, 7, 9])])


def next_input(g, out):
    """A SOP Solver step: the output becomes the next input 0."""
    return gh.Geometry(out["positions"], g.primitives, dict(g.point_attributes, v=out["velocities"]),
                       g.primitive_strings, g.primitive_groups)


class Splitting(unittest.TestCase):
    def test_shells_and_solids(self):
        g = quads_and_tet()
        shell, solid = gh.split_objects(g, g.positions)
        self.assertEqual((shell.name, shell.kind, solid.name, solid.kind), ("shells", "shell", "solids", "solid"))
        self.assertEqual(shell.points.tolist(), [0, 1, 4, 3, 2, 5])
        self.assertEqual(shell.elements.tolist(), [[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]])
        x = g.positions[solid.points]
        a, b, c, d = (x[i] for i in solid.elements[0])
        self.assertAlmostEqual(np.dot(np.cross(b - a, c - a), d - a) / 6, 1 / 6, places=15)  # reoriented

    def test_errors_name_what_is_wrong(self):
        g = quads_and_tet()
        g.primitive_strings["grip_type"] = ["shell", "solid", "solid"]
        with self.assertRaisesRegex(gh.SopError, "primitive 1 is a polygon marked solid"):
            gh.split_objects(g, g.positions)
        g.primitive_strings = {"name": ["left", "right", "block"]}
        with self.assertRaisesRegex(gh.SopError, 'point 1 belongs to both "left" and "right"'):
            gh.split_objects(g, g.positions)
        g.primitive_strings = {}
        g.primitive_groups = {"shell": [0, 0, 1]}
        with self.assertRaisesRegex(gh.SopError, "tetrahedron marked shell"):
            gh.split_objects(g, g.positions)

    def test_colliders_are_rewound_counter_clockwise(self):
        g = cloth(2, 0.0)
        for clockwise, sign in ((True, 1), (False, -1)):
            (c,) = gh.split_colliders(g, clockwise=clockwise)
            x = g.positions[c.points]
            for a, b, d in c.elements:
                self.assertEqual(np.sign(np.cross(x[b] - x[a], x[d] - x[a])[1]), sign)

    def test_pins_and_friction(self):
        g = quads_and_tet()
        (shell, _) = gh.split_objects(g, g.positions)
        source = gh.Geometry(g.positions.copy(), g.primitives)
        source.point_attributes = {"pinned": np.eye(10)[0], "pintoanimation": np.eye(10)[2]}
        source.positions[2, 0] = 2.5
        warnings = []
        pinned, targets = gh.pin_plan(shell, source, g.positions[shell.points], warnings)
        self.assertEqual(pinned.tolist(), [1, 0, 0, 0, 1, 0])
        self.assertEqual(targets[4].tolist(), [2.5, 0, 0])
        self.assertEqual(targets[0].tolist(), g.positions[0].tolist())
        g.point_attributes["friction"] = np.array([0.5] * 9 + [1.3])
        self.assertEqual(gh.friction_multiplier(g, np.arange(6), "cloth", warnings), 0.5)
        self.assertAlmostEqual(gh.friction_multiplier(g, np.arange(6, 10), "block", warnings), 0.7)
        self.assertIn('friction varies over "block"', warnings[-1])


class Decisions(unittest.TestCase):
    def test_decide(self):
        self.assertEqual(gh.decide(0.0, 0.0, None), ("reset", 0.0, ""))
        self.assertIn("Prev_Frame", gh.decide(0.5, 0.0, None)[2])
        live = (1 / 24, True, True)
        self.assertEqual(gh.decide(1 / 24, 0.0, live)[0], "reuse")
        action, dt, _ = gh.decide(2 / 24, 0.0, live)
        self.assertEqual(action, "advance")
        self.assertAlmostEqual(dt, 1 / 24, places=15)
        self.assertIn("time went back", gh.decide(0.02, 0.0, live)[2])
        self.assertIn("parameters changed", gh.decide(2 / 24, 0.0, (1 / 24, False, True))[2])


class Cooks(unittest.TestCase):
    def setUp(self):
        self.params = gh.default_parameters()
        self.registry = gh.Registry()

    def test_free_fall_is_backward_euler(self):
        g = cloth(4, 1.0)
        first = gh.cook([g, None, None], self.params, 0.0, 0, 7, self.registry)
        self.assertEqual((first["error"], first["action"]), ("", "reset"))
        g1 = next_input(g, first)
        second = gh.cook([g1, None, None], self.params, 1 / 24, first["key"], 7, self.registry)
        self.assertEqual((second["error"], second["action"], second["report"].substeps), ("", "advance", 4))
        h = 1 / 96  # 4 substeps from rest: drop = h^2 g n (n + 1) / 2, speed = n h g
        np.testing.assert_allclose(second["positions"][:, 1], 1 - h * h * 9.81 * 10, rtol=0, atol=1e-12)
        np.testing.assert_allclose(second["velocities"][:, 1], -4 * h * 9.81, rtol=0, atol=1e-12)
        again = gh.cook([g1, None, None], self.params, 1 / 24, first["key"], 7, self.registry)
        self.assertEqual(again["action"], "reuse")
        np.testing.assert_array_equal(again["positions"], second["positions"])
        reset = gh.cook([g, None, None], self.params, 0.0, first["key"], 7, self.registry)
        self.assertEqual(reset["action"], "reset")
        self.assertNotEqual(reset["key"], first["key"])
        self.assertTrue(0 < reset["key"] < 2**31)  # fits Houdini's 32-bit int attribute
        self.assertEqual(len(self.registry), 1)

    def test_pins_colliders_and_errors(self):
        self.params["contactthickness"] = 0.002
        g = cloth(5, 0.002)
        g.point_attributes = {"pinned": np.eye(25)[0], "pintoanimation": np.eye(25)[4]}
        ground = cloth(3, 0.0)
        ground.positions[:, [0, 2]] = 3 * ground.positions[:, [0, 2]] - 1
        start = gh.cook([g, None, ground], self.params, 0.0, 0, 3, self.registry)
        self.assertEqual(start["error"], "")
        source = gh.Geometry(g.positions.copy(), g.primitives, dict(g.point_attributes))
        source.positions[4, 0] += 0.05
        g1 = next_input(g, start)
        moved = gh.cook([g1, source, ground], self.params, 1 / 24, start["key"], 3, self.registry)
        self.assertEqual(moved["error"], "")
        self.assertEqual(moved["positions"][0].tolist(), g.positions[0].tolist())
        self.assertEqual(moved["positions"][4].tolist(), source.positions[4].tolist())
        self.assertTrue((moved["positions"][:, 1] > 0).all())
        self.assertGreater(moved["report"].active_contacts, 0)

        g2 = next_input(g1, moved)
        remeshed = gh.Geometry(ground.positions, ground.primitives[:-1])
        bad = gh.cook([g2, source, remeshed], self.params, 2 / 24, start["key"], 3, self.registry)
        self.assertIn("changed topology", bad["error"])
        np.testing.assert_array_equal(bad["positions"], g2.positions)
        stopped = gh.cook([g2, source, ground], self.params, 2 / 24 + 5, start["key"], 3, self.registry,
                          interrupted=lambda f: True)
        self.assertIn("interrupted", stopped["error"])
        resumed = gh.cook([g2, source, ground], self.params, 2 / 24, start["key"], 3, self.registry)
        self.assertEqual((resumed["error"], resumed["action"]), ("", "advance"))
        foreign = gh.cook([g2, source, ground], self.params, 3 / 24, start["key"], 4, self.registry)
        self.assertEqual(foreign["action"], "reset")
        self.assertTrue(foreign["warnings"])
        self.params["shell"] = dict(self.params["shell"], poisson_ratio=0.7)
        refused = gh.cook([g, None, None], self.params, 0.0, 0, 3, self.registry)
        self.assertIn('object "shells"', refused["error"])

    def test_friction_attribute_gives_a_body_its_own_mu(self):
        g = quads_and_tet()
        g.point_attributes["friction"] = np.array([0.5] * 6 + [1.0] * 4)
        ground = cloth(3, -1.0)
        ground.point_attributes = {"friction": np.full(9, 2.0)}
        self.params["friction"] = 0.4
        sim = gh._build([g, None, ground], self.params, 0.0, [], None)
        try:
            shell, block = (b.id for b in sim.objects)
            floor = sim.colliders[0].id
            mu = sim.solver.friction
            # Own μ: shell 0.4 × 0.5, floor 0.4 × 2; the block keeps the parameter (attribute 1).
            self.assertAlmostEqual(mu(shell, floor), np.sqrt(0.2 * 0.8), delta=1e-15)
            self.assertAlmostEqual(mu(block, floor), np.sqrt(0.4 * 0.8), delta=1e-15)
            self.assertAlmostEqual(mu(shell, block), np.sqrt(0.2 * 0.4), delta=1e-15)
            self.assertEqual((mu(shell, shell), mu(block, block)), (0.2, 0.4))
        finally:
            sim.solver.close()

    def test_parameters_follow_the_c_defaults(self):
        c, m = grip.load().solver_params(), grip.load().material()
        self.assertEqual(self.params["gravity"], (0.0, c.gravity[2], 0.0))
        self.assertEqual(self.params["contactthickness"], c.contact_thickness)
        self.assertEqual(self.params["shell"]["density"], m.density)
        self.assertEqual(gh.solver_params(self.params)["time_step"], 1 / 96)
        self.assertEqual((self.params["selfcontact"], self.params["selfcontactthickness"]),
                         (c.self_contact, c.self_contact_thickness))
        on = gh.solver_params(dict(self.params, selfcontact=1, selfcontactthickness=0.003))
        self.assertEqual((on["self_contact"], on["self_contact_thickness"]), (1, 0.003))
        with self.assertRaisesRegex(gh.SopError, "Substeps"):
            gh.solver_params(dict(self.params, substeps=0))

    def test_integrator_and_its_parameters_reach_the_solver(self):
        c = grip.load().solver_params()
        self.assertEqual([self.params[k] for k in ("integrator", "newmarkbeta", "newmarkgamma", "spectralradius",
                                                   "modalcount", "semiimplicit")],
                         [c.integrator, c.newmark_beta, c.newmark_gamma, c.spectral_radius, c.modal_count,
                          c.semi_implicit])
        changed = dict(self.params, integrator=grip.INTEGRATOR_GENERALIZED_ALPHA, newmarkbeta=0.3, newmarkgamma=0.6,
                       spectralradius=0.6, modalcount=12, semiimplicit=True)
        fields = gh.solver_params(changed)
        self.assertEqual([fields[k] for k in ("integrator", "newmark_beta", "newmark_gamma", "spectral_radius",
                                              "modal_count", "semi_implicit")],
                         [grip.INTEGRATOR_GENERALIZED_ALPHA, 0.3, 0.6, 0.6, 12, 1])
        for integrator in range(grip.INTEGRATOR_SEMI_IMPLICIT, grip.INTEGRATOR_SIERE + 1):
            start = gh.cook([cloth(3, 1.0), None, None], dict(changed, integrator=integrator), 0.0, 0, 5,
                            self.registry)  # the start frame builds the solver and takes no step
            self.assertEqual((start["error"], start["action"]), ("", "reset"), integrator)
        refused = gh.cook([cloth(3, 1.0), None, None], dict(self.params, newmarkgamma=0.4), 0.0, 0, 5, self.registry)
        self.assertIn("newmark_gamma", refused["error"])

    def test_collider_contact_menu_index_is_the_c_value(self):
        c = grip.load().solver_params()
        self.assertEqual(self.params["collidercontact"], c.collider_mesh_contact)
        self.assertEqual(gh.solver_params(self.params)["collider_mesh_contact"], grip.COLLIDER_MESH_CONTACT_EXACT)
        smooth = dict(self.params, collidercontact=1)  # menu item 1: "smooth"
        self.assertEqual(gh.solver_params(smooth)["collider_mesh_contact"], grip.COLLIDER_MESH_CONTACT_IMPLICIT)
        exact = dict(self.params, collidercontact=0, contactthickness=0.002)  # menu item 0: "exact"
        self.assertEqual(gh.solver_params(exact)["collider_mesh_contact"], grip.COLLIDER_MESH_CONTACT_EXACT)
        g, ground = cloth(5, 0.002), cloth(2, 0.0)  # the ground: one 3 m quad, two large flat triangles
        ground.positions[:, [0, 2]] = 3 * ground.positions[:, [0, 2]] - 1
        start = gh.cook([g, None, ground], exact, 0.0, 0, 5, self.registry)
        moved = gh.cook([next_input(g, start), None, ground], exact, 1 / 24, start["key"], 5, self.registry)
        self.assertEqual((start["error"], moved["error"]), ("", ""))
        self.assertTrue((moved["positions"][:, 1] > 0).all())
        self.assertGreater(moved["report"].active_contacts, 0)
        refused = gh.cook([g, None, ground], dict(exact, collidercontact=2), 0.0, 0, 6, self.registry)
        self.assertIn("collider_mesh_contact", refused["error"])

    def test_hard_frame_stops_or_continues_with_a_fallback(self):
        """One Newton iteration allowed, the cloth landing on the ground with friction: Stop (menu
        item 0) fails the cook, Continue (item 1, the default) takes the frame with fallbacks and
        a warning naming the cloth, as the compiled SOP does."""
        self.assertEqual(self.params["onhardframe"], grip.FAILURE_POLICY_CONTINUE)
        self.assertEqual(gh.solver_params(dict(self.params, onhardframe=0))["failure_policy"],
                         grip.FAILURE_POLICY_STRICT)
        self.assertEqual(gh.cook_moment(1 / 24, 1 / 24), "at frame 2")
        self.assertEqual(gh.cook_moment(1.5 / 24, 1 / 24), "at t = 0.0625 s")
        g, ground = cloth(5, 0.002), cloth(3, 0.0)
        ground.positions[:, [0, 2]] = 3 * ground.positions[:, [0, 2]] - 1
        for policy in (grip.FAILURE_POLICY_STRICT, grip.FAILURE_POLICY_CONTINUE):
            p = dict(self.params, contactthickness=0.002, friction=0.4, maxnewton=1, onhardframe=policy)
            start = gh.cook([g, None, ground], p, 0.0, 0, 9 + policy, self.registry)
            hard = gh.cook([next_input(g, start), None, ground], p, 1 / 24, start["key"], 9 + policy, self.registry)
            if policy == grip.FAILURE_POLICY_STRICT:
                self.assertIn("converge", hard["error"])
                self.assertIn("On a Hard Frame: Continue with a Fallback", hard["error"])
                continue
            self.assertEqual(hard["error"], "")
            self.assertGreater(grip.fallback_count(hard["report"]), 0)
            self.assertTrue(np.isfinite(hard["positions"]).all())
            warned = [w for w in hard["warnings"] if w.startswith("shells failed to converge near (")]
            self.assertTrue(warned and "at frame 2; fallback: " in warned[0], hard["warnings"])


if __name__ == "__main__":
    unittest.main()
