"""Opens a .blend baked by pinned_cloth.py in a Blender where the add-on is NOT installed: the
Mesh Cache modifier alone plays the PC2 file at every frame."""

import os

import bpy

import harness

checks = harness.Checks("reopen")
args = harness.arguments()
checks.check(harness.ADDON not in bpy.context.preferences.addons, "the grip add-on is not installed")
bpy.ops.wm.open_mainfile(filepath=args.blend)
checks.check("bake" not in dir(bpy.ops.grip), "no grip operator exists")
cloth = bpy.data.objects["Cloth"]
samples = harness.check_cache_plays(checks, cloth, range(1, 25))
if samples is not None:
    checks.check(len(samples) == 24, f"24 samples: {len(samples)}")
    bpy.context.scene.frame_set(24)
    checks.check(float(abs(harness.evaluated_local(cloth) - samples[0]).max()) > 0.05,
                 "the last frame differs from the first (the cache animates)")
checks.check(os.path.isfile(args.blend), "blend exists")
checks.finish()
