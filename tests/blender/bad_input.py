"""Bad input gives a readable error and no crash: a Soft Body that is not a closed manifold
(a box missing a face; two boxes sharing only an edge) and a cloth with a degenerate triangle.
Each bake fails with a message naming the object and the problem, leaves no bake running and
no cache modifier, and Blender goes on to bake a valid scene."""

import os

import bpy  # first: bmesh needs it
import bmesh  # noqa: E402

import harness

checks = harness.Checks("bad_input")
args = harness.arguments()
harness.install_extension(checks, args.zip)
cache = os.path.join(args.out, "cache")


def open_box(bm):
    bmesh.ops.create_cube(bm, size=0.2)
    top = [f for f in bm.faces if f.normal.z > 0.9]
    bmesh.ops.delete(bm, geom=top, context="FACES_ONLY")


def boxes_sharing_an_edge(bm):
    bmesh.ops.create_cube(bm, size=0.2)
    other = bmesh.ops.create_cube(bm, size=0.2)["verts"]
    bmesh.ops.translate(bm, verts=other, vec=(0.2, 0.2, 0.0))
    bmesh.ops.remove_doubles(bm, verts=bm.verts[:], dist=1e-6)  # weld the shared vertical edge


def degenerate_triangle(bm):
    a, b, c, d = (bm.verts.new(p) for p in ((0, 0, 0), (0.2, 0, 0), (0.4, 0, 0), (0.2, 0.2, 0)))
    bm.faces.new((a, b, d))
    bm.faces.new((a, c, b))  # collinear corners: zero area


for name, build, role in (
        ("OpenBox", open_box, "SOFT_BODY"),
        ("EdgeBoxes", boxes_sharing_an_edge, "SOFT_BODY"),
        ("Sliver", degenerate_triangle, "CLOTH")):
    scene = harness.new_scene(1, 4, cache)
    obj = harness.add_mesh(name, build)
    obj.location.z = 0.5
    obj.grip.role = role
    result, _, status = harness.bake(checks)
    checks.check(result == {"ERROR"}, f"{name}: the bake fails ({result})")
    checks.check(status.startswith(f"grip bake failed: {name}: ") and len(status) > len(name) + 40
                 and "a newer library is needed" not in status,
                 f"{name}: the error names the object and the problem: {status!r}")
    checks.check(not scene.grip.is_baking and bpy.ops.grip.bake.poll(), f"{name}: no bake left running")
    checks.check(all(m.type != "MESH_CACHE" for m in obj.modifiers), f"{name}: no cache modifier")

scene = harness.new_scene(1, 4, cache)
good = harness.grid("Good", 0.3, 3, (0, 0, 0.5))
good.grip.role = "CLOTH"
result, _, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"Blender goes on: a valid bake works afterwards ({status})")
checks.finish()
