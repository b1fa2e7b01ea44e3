"""A cloth pinned along one edge to an animated object: bake 24 frames, the Mesh Cache plays the
PC2 samples, pinned vertices follow the animation exactly, the free edge swings down, units
convert at the boundary (scale_length 0.01 gives the same motion ×100 in Blender units), Free
Bake removes modifier and file, and the saved .blend is left for reopen.py."""

import os

import bpy
import numpy as np

import harness

checks = harness.Checks("pinned_cloth")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
os.makedirs(args.out, exist_ok=True)


def build(cache, scale_length=1.0):
    """The scene in Blender units such that, in metres, it is the same at any scale_length."""
    u = 1.0 / scale_length  # Blender units per metre
    scene = harness.new_scene(1, 24, cache)
    scene.unit_settings.scale_length = scale_length
    scene.gravity = (0.0, 0.0, -9.81 * u)
    scene.grip.contact_thickness = 0.003 * u
    cloth = harness.grid("Cloth", 0.5 * u, 10, (0.0, 0.0, 1.0 * u))
    cloth.grip.role = "CLOTH"
    cloth.grip.preset = "COTTON"  # thickness set from metres to Blender units by the preset
    co = np.array([v.co[:] for v in cloth.data.vertices])
    pins = cloth.vertex_groups.new(name="pins")
    edge = np.where(co[:, 1] < co[:, 1].min() + 1e-6)[0]
    pins.add([int(i) for i in edge], 1.0, "REPLACE")
    light = np.where(np.abs(co[:, 1] - co[:, 1].min() - 0.05 * u) < 1e-6)[0]  # next row: weight 0.3
    pins.add([int(i) for i in light], 0.3, "REPLACE")
    cloth.grip.pin_group = "pins"
    for frame, loc in ((1, (0.0, 0.0, 1.0)), (24, (0.3, 0.0, 1.2))):
        cloth.location = tuple(c * u for c in loc)
        cloth.keyframe_insert("location", frame=frame)
    return scene, cloth, co, edge, light


# -- scale_length 1 ---------------------------------------------------------------------------
cache = os.path.join(args.out, "cache_m")
scene, cloth, rest, edge, light = build(cache)
checks.check(abs(cloth.grip.thickness / 5e-4 - 1) < 1e-6, f"cotton preset thickness {cloth.grip.thickness}")
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"} and "baked" in status, f"bake finished ({seconds:.1f} s): {status}")
samples = harness.check_cache_plays(checks, cloth, range(1, 25))
if samples is not None:
    checks.check(samples.shape == (24, len(rest), 3), f"24 samples of {len(rest)} vertices: {samples.shape}")
    pin_error = float(np.abs(samples[:, edge] - rest[edge]).max())
    checks.check(pin_error < 1e-5, f"pinned vertices keep their local rest position (max {pin_error:.1e})")
    scene.frame_set(24)
    world = harness.evaluated_world(cloth)
    m = np.array(cloth.matrix_world)
    expected = rest[edge] @ m[:3, :3].T + m[:3, 3]
    follow = float(np.abs(world[edge] - expected).max())
    checks.check(follow < 1e-5 and abs(m[0, 3] - 0.3) < 1e-6, f"pins follow the animation to x = 0.3 (err {follow:.1e})")
    checks.check(float(np.abs(samples[-1, light] - rest[light]).max()) > 0.01,
                 "weight 0.3 vertices are not pinned (they moved)")
    far = np.where(rest[:, 1] > rest[:, 1].max() - 1e-6)[0]
    drop = float(world[edge, 2].mean() - world[far, 2].mean())
    checks.check(drop > 0.2, f"the free edge hangs {drop:.3f} m below the pinned edge")
    stretch = np.linalg.norm(world[far].mean(0) - world[edge].mean(0))
    checks.check(0.45 < stretch < 0.56, f"cloth length {stretch:.3f} m (0.5 m at rest, cotton barely stretches)")
    checks.check(scene.frame_current == 24, "frame set by the test")
metres = samples

# -- the same scene with scale_length 0.01 (1 Blender unit = 1 cm) ------------------------------
cache_cm = os.path.join(args.out, "cache_cm")
scene, cloth, rest, edge, light = build(cache_cm, scale_length=0.01)
checks.check(abs(cloth.grip.thickness / 0.05 - 1) < 1e-6, f"cotton thickness in cm units: {cloth.grip.thickness}")
result, seconds, status = harness.bake(checks)
samples_cm = harness.check_cache_plays(checks, cloth, [1, 12, 24])
if metres is not None and samples_cm is not None:
    diff = float(np.abs(samples_cm / 100.0 - metres).max())
    checks.check(diff < 1e-5, f"scale_length 0.01: same motion in metres (max diff {diff:.1e} m)")

# -- Free Bake --------------------------------------------------------------------------------
path = bpy.path.abspath(cloth.modifiers[0].filepath)
checks.check(bpy.ops.grip.free_bake() == {"FINISHED"}, "Free Bake runs")
checks.check(all(m.type != "MESH_CACHE" for m in cloth.modifiers), "Free Bake removed the Mesh Cache modifier")
checks.check(not os.path.exists(path), "Free Bake deleted the PC2 file")
scene.frame_set(24)
checks.check(np.allclose(harness.evaluated_local(cloth), rest), "after Free Bake the mesh is its own again")

# -- pins following a deforming modifier; the stack around the cache ---------------------------
scene, cloth, rest, edge, light = build(os.path.join(args.out, "cache_stack"))
cloth.animation_data_clear()  # this cloth stays in place
cloth.location = (0.0, 0.0, 1.0)
lift = cloth.modifiers.new("Lift", "DISPLACE")  # no texture: moves along the normal by strength / 2
lift.mid_level = 0.5
for frame, strength in ((1, 0.0), (24, 0.4)):
    lift.strength = strength
    lift.keyframe_insert("strength", frame=frame)
smooth = cloth.modifiers.new("Smooth", "SUBSURF")
smooth.levels = 1
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake with Displace + Subdivision: {status}")
stack = [(m.name, m.type, m.show_viewport, m.show_render) for m in cloth.modifiers]
checks.check(stack == [("grip Cache", "MESH_CACHE", True, True), ("Lift", "DISPLACE", False, False),
                       ("Smooth", "SUBSURF", True, True)],
             f"cache first, the deforming modifier muted, Subdivision still on top: {stack}")
_, _, samples = harness.read_pc2(bpy.path.abspath(cloth.modifiers[0].filepath))
normal_z = float(np.sign(cloth.data.polygons[0].normal.z))
lifted = float(np.abs(samples[-1][edge] - (rest[edge] + [0.0, 0.0, 0.2 * normal_z])).max())
checks.check(lifted < 1e-5, f"pinned vertices followed the animated Displace by 0.2 m (err {lifted:.1e})")
smooth.show_viewport = False
scene.frame_set(24)
played = float(np.abs(harness.evaluated_local(cloth) - samples[-1]).max())
checks.check(played < 1e-6, f"the muted Displace does not deform the cache again (diff {played:.1e})")
smooth.show_viewport = True
bpy.ops.grip.free_bake()
stack = [(m.name, m.show_viewport, m.show_render) for m in cloth.modifiers]
checks.check(stack == [("Lift", True, True), ("Smooth", True, True)], f"Free Bake restores the stack: {stack}")

# -- a saved file for reopen.py (relative cache path) ------------------------------------------
blend = os.path.join(args.out, "pinned_cloth.blend")
scene, cloth, rest, edge, light = build("//cache_rel/")
bpy.ops.wm.save_as_mainfile(filepath=blend)
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake with a relative cache folder: {status}")
checks.check(cloth.modifiers[0].filepath.startswith("//"), f"the modifier keeps the relative path {cloth.modifiers[0].filepath}")
bpy.ops.wm.save_as_mainfile(filepath=blend)
checks.finish()
