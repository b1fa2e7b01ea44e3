"""Cancelling a bake after a few frames keeps the frames already baked, and they play.

The cancel comes through the add-on's Cancel Bake operator, the same path as Esc in the modal
bake, called from a frame-change handler: background Blender has no event loop, so the Bake
operator runs blocking there and evaluates each frame's input with ``frame_set``, which runs the
handler."""

import os

import bpy
import numpy as np

import harness

checks = harness.Checks("cancel")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
CANCEL_AT = 6

scene = harness.new_scene(1, 48, os.path.join(args.out, "cache_cancel"))
cloth = harness.grid("Cloth", 0.5, 12, (0.0, 0.0, 1.0))
cloth.grip.role = "CLOTH"
co = np.array([v.co[:] for v in cloth.data.vertices])
pins = cloth.vertex_groups.new(name="pins")
pins.add([int(i) for i in np.where(co[:, 1] < co[:, 1].min() + 1e-6)[0]], 1.0, "REPLACE")
cloth.grip.pin_group = "pins"

with harness.CancelAt(CANCEL_AT) as cancel:
    result, seconds, status = harness.bake(checks)
calls = cancel.calls
checks.check(calls == [CANCEL_AT], f"Cancel Bake was called at frame {calls}")
checks.check(result == {"CANCELLED"} and "cancelled" in status, f"the bake reports the cancel: {result} {status}")
checks.check(not scene.grip.is_baking and not bpy.ops.grip.cancel_bake.poll(), "no bake is running afterwards")
samples = harness.check_cache_plays(checks, cloth, range(1, 49))
if samples is not None:
    kept = len(samples)
    checks.check(2 <= kept < 48, f"{kept} of 48 frames kept (cancelled at input frame {CANCEL_AT})")
    checks.check(f"1–{kept}" in status, f"the status names the frames kept: {status}")
    moving = [float(np.abs(samples[i] - samples[i - 1]).max()) for i in range(1, kept)]
    checks.check(all(m > 1e-4 for m in moving), f"every kept frame is simulated motion ({min(moving):.1e} m min)")
    scene.frame_set(40)
    late = float(np.abs(harness.evaluated_local(cloth) - samples[-1]).max())
    checks.check(late <= 1e-6, "frames after the last kept one hold its pose")
checks.check(bpy.ops.grip.bake.poll(), "a new bake can start")
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake again after the cancel: {status}")
samples = harness.check_cache_plays(checks, cloth, [1, 24, 48])
checks.check(samples is not None and len(samples) == 48, "the new bake replaced the cancelled one (48 frames)")
checks.finish()
