"""A 20 cm rubber cube (Soft Body, tet-meshed by grip) dropped 10 cm onto a floor collider (an
open mesh plane, faces up): after 24 frames it rests on the floor, upright, with its volume kept
within 5 %. The cache holds the cube's own (subdivided) surface vertices."""

import os

import bpy  # first: bmesh needs it
import bmesh  # noqa: E402
import numpy as np

import harness

checks = harness.Checks("soft_body")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)

SIZE, DROP, THICKNESS = 0.2, 0.1, 0.003
scene = harness.new_scene(1, 24, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = THICKNESS


def subdivided_cube(bm):
    bmesh.ops.create_cube(bm, size=SIZE)
    bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=2, use_grid_fill=True)


cube = harness.add_mesh("Cube", subdivided_cube)
cube.location = (0.0, 0.0, DROP + SIZE / 2)
cube.grip.role = "SOFT_BODY"
cube.grip.preset = "RUBBER"
cube.grip.tet_size = 0.05
floor = harness.grid("Floor", 2.0, 4, (0.0, 0.0, 0.0))
floor.grip.role = "COLLIDER"
checks.check(all(p.normal.z > 0.99 for p in floor.data.polygons), "the floor's faces point up")

cube.data.calc_loop_triangles()
tris = np.array([t.vertices[:] for t in cube.data.loop_triangles])
rest = harness.evaluated_world(cube)


def volume(x):
    a, b, c = x[tris[:, 0]], x[tris[:, 1]], x[tris[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


v0 = volume(rest)
checks.check(abs(v0 - SIZE ** 3) < 1e-9, f"rest volume {v0:.6f} m³")
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake finished: {status}")
print(f"timing: 24 frames, soft body with {len(rest)} surface vertices: {seconds:.2f} s")
samples = harness.check_cache_plays(checks, cube, range(1, 25))
checks.check(samples is not None and samples.shape[1] == len(rest), "the cache holds the cube's own vertices")

scene.frame_set(23)
before = harness.evaluated_world(cube)
scene.frame_set(24)
x = harness.evaluated_world(cube)
change = volume(x) / v0 - 1.0
speed = float(np.linalg.norm(x - before, axis=1).max()) * 24.0
print(f"soft body at frame 24: z {x[:, 2].min():.4f}–{x[:, 2].max():.4f} m, volume change {100 * change:+.2f} %, "
      f"fastest vertex {speed:.3f} m/s")
checks.check(-THICKNESS <= x[:, 2].min() <= THICKNESS, f"it rests on the floor (lowest z {x[:, 2].min():.4f} m)")
checks.check(abs(x[:, 2].max() - SIZE) < 0.02, f"upright, about {SIZE} m tall ({x[:, 2].max():.4f} m)")
checks.check(abs(change) < 0.05, f"volume kept within 5 % ({100 * change:+.2f} %)")
checks.check(speed < 0.1, f"at rest (fastest vertex {speed:.3f} m/s)")
checks.finish()
