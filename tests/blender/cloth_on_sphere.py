"""A 1 m cotton square dropped from 0.3 m onto a sphere collider (a mesh, radius 0.3 m) met by
exact-distance contact (Collider Contact = Exact Distance), baked for 24 frames: the PC2 file exists, the Mesh Cache plays its samples exactly, the cloth has
draped (centre lowered onto the sphere, corners hanging below it), no vertex is inside the
sphere's polyhedron by more than the contact thickness and no sphere edge cuts the cloth between
its vertices (nor a cloth edge a sphere face). Renders the last frame to a PNG."""

import os

import bpy
import numpy as np

import crossings
import harness

checks = harness.Checks("cloth_on_sphere")
args = harness.arguments()
harness.install_extension(checks, args.zip)

RADIUS, DROP, THICKNESS = 0.3, 0.3, 0.003
scene = harness.new_scene(1, 24, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = THICKNESS
scene.grip.collider_contact = "EXACT"
cloth = harness.grid("Cloth", 1.0, 12, (0.0, 0.0, RADIUS + DROP))
cloth.grip.role = "CLOTH"
cloth.grip.preset = "COTTON"
sphere = harness.uv_sphere("Sphere", RADIUS, 32, 16, (0.0, 0.0, 0.0))
sphere.grip.role = "COLLIDER"
rest = harness.evaluated_world(cloth)

result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake finished: {status}")
print(f"timing: 24 frames, {len(rest)} cloth vertices, {len(sphere.data.polygons)} sphere faces: {seconds:.2f} s")
samples = harness.check_cache_plays(checks, cloth, range(1, 25))
checks.check(samples is not None and len(samples) == 24, "24 samples")

scene.frame_set(24)
x = harness.evaluated_world(cloth)
centre = int(np.argmin(np.linalg.norm(rest[:, :2], axis=1)))
corners = [int(i) for i in np.argsort(-np.linalg.norm(rest[:, :2], axis=1))[:4]]
top = RADIUS
print(f"draping: centre z {rest[centre, 2]:.4f} -> {x[centre, 2]:.4f} m, corners mean z {x[corners, 2].mean():.4f} m")
checks.check(rest[centre, 2] - x[centre, 2] > 0.25, "the cloth's centre came down onto the sphere")
checks.check(top - THICKNESS <= x[centre, 2] <= top + 2 * THICKNESS,
             f"the centre rests on the sphere top: z = {x[centre, 2]:.4f} (top {top})")
checks.check(x[corners, 2].mean() < top - 0.15, "the corners hang down below the sphere top (draped)")

# Depth inside the sphere's (convex) polyhedron: -max over faces of the signed plane distance.
depsgraph = bpy.context.evaluated_depsgraph_get()
mesh = sphere.evaluated_get(depsgraph).data
normals = np.array([p.normal[:] for p in mesh.polygons])
points = np.array([mesh.vertices[p.vertices[0]].co[:] for p in mesh.polygons])
offsets = (normals * points).sum(1)
checks.check(np.all(offsets > 0), "sphere faces point outward")
signed = (x @ normals.T - offsets).max(axis=1)  # > 0 outside, −depth inside
depth = float(-signed.min())
print(f"deepest vertex inside the sphere polyhedron: {depth * 1000:.3f} mm (contact thickness {THICKNESS * 1000} mm)")
checks.check(depth <= THICKNESS, f"no vertex inside the sphere by more than the contact thickness ({depth:.2e} m)")
checks.check(np.isfinite(x).all(), "positions are finite")
cloth_mesh = cloth.evaluated_get(depsgraph).data
cloth_mesh.calc_loop_triangles()
mesh.calc_loop_triangles()
cloth_tris = np.array([t.vertices[:] for t in cloth_mesh.loop_triangles])
sphere_points = np.array([(sphere.matrix_world @ v.co)[:] for v in mesh.vertices])
sphere_tris = np.array([t.vertices[:] for t in mesh.loop_triangles])
through = rest - [0.0, 0.0, rest[centre, 2] - 0.29]  # the flat cloth lowered through the sphere's top
checks.check(crossings.crossings(through, cloth_tris, sphere_points, sphere_tris) > 0,
             "the crossing check sees a flat cloth through the sphere's top")
cuts = crossings.crossings(x, cloth_tris, sphere_points, sphere_tris)
print(f"cloth–sphere edge–triangle crossings at frame 24: {cuts}")
checks.check(cuts == 0, f"no sphere edge through the cloth nor cloth edge through the sphere ({cuts} crossings)")

png = os.path.join(args.out, "cloth_on_sphere.png")
engine, spread = harness.render_png(png, (1.6, -1.6, 1.2), (0.0, 0.0, 0.1))
checks.check(os.path.isfile(png) and spread > 0.02, f"{engine} render of frame 24 saved to {png} (pixel std {spread:.3f})")
checks.finish()
