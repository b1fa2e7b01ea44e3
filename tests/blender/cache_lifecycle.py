"""The cache's life cycle, as with Blender's own point caches, on a cloth pinned along one edge
that swings onto a sphere collider:

- an unsaved file bakes into Blender's temporary folder, and saving the file moves the cache next
  to the .blend (the Mesh Cache modifier then stores a ``//`` path and plays after reopening);
- background bakes print one line per frame (frame, s/frame, Newton iterations, ETA);
- a cancelled bake resumes from its last frame, and Bake to Current Frame then Bake give the
  bytes of an uninterrupted bake, bit for bit;
- a setting, an input mesh or a collider change marks the cache outdated (playing frames and the
  bake's own edits do not), and the next Bake starts over;
- a bake that reaches the last frame already changes nothing.
"""

import contextlib
import io
import os
import shutil
import sys

import bpy
import numpy as np

import harness

checks = harness.Checks("cache_lifecycle")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
FRAMES, CANCEL_AT, CURRENT = 24, 9, 15


def build_scene():
    scene = harness.new_scene(1, FRAMES)  # the cache folder stays the default "//grip_cache/"
    cloth = harness.grid("Cloth", 0.5, 10, (0.0, 0.0, 0.6))
    cloth.grip.role = "CLOTH"
    cloth.grip.friction = 0.3
    co = np.array([v.co[:] for v in cloth.data.vertices])
    pins = cloth.vertex_groups.new(name="pins")
    pins.add([int(i) for i in np.where(co[:, 1] < co[:, 1].min() + 1e-6)[0]], 1.0, "REPLACE")
    cloth.grip.pin_group = "pins"
    ball = harness.uv_sphere("Ball", 0.15, 16, 8, (0.0, 0.1, 0.3))
    ball.grip.role = "COLLIDER"
    ball.grip.friction = 0.3
    return scene, cloth, ball


def pc2_bytes(obj):
    return open(bpy.path.abspath(obj.grip.cache_file), "rb").read()


def bake(**options):
    """The Bake operator, blocking; (result, status, the lines it printed)."""
    out = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, text):
            out.write(text)
            return sys.__stdout__.write(text)

        def flush(self):
            sys.__stdout__.flush()

    with contextlib.redirect_stdout(Tee()):
        try:
            result = bpy.ops.grip.bake(**options)
        except RuntimeError as e:
            print(f"bake raised: {e}")
            result = {"ERROR"}
    status = bpy.context.scene.grip.bake_status
    print(f"bake {options}: {result}: {status}", flush=True)
    return result, status, out.getvalue().splitlines()


scene, cloth, ball = build_scene()
checks.check(bpy.data.filepath == "", "the file is unsaved")

# -- an unsaved file bakes into the temporary folder, with a line per frame ------------------------
result, status, lines = bake()
checks.check(result == {"FINISHED"}, f"an unsaved file bakes: {status}")
temp = os.path.realpath(bpy.app.tempdir)
path = bpy.path.abspath(cloth.grip.cache_file)
checks.check(os.path.realpath(path).startswith(temp + os.sep) and os.path.isfile(path),
             f"the cache is in Blender's temporary folder: {path}")
summary = addon.panels.cache_summary(scene)
checks.check(summary is not None and "temporary" in summary[0], f"the panel says so: {summary}")
frame_lines = [l for l in lines if l.startswith("grip: frame ")]
numbers = [int(l.split()[2]) for l in frame_lines]
checks.check(numbers == list(range(2, FRAMES + 1)), f"one progress line per frame: frames {numbers[:3]}…{numbers[-1:]}")
checks.check(all(" s/frame, " in l and " Newton iterations in " in l and " substeps, ETA " in l for l in frame_lines),
             f"each names s/frame, Newton iterations and ETA: {frame_lines[0] if frame_lines else None!r}")
checks.check(frame_lines and frame_lines[-1].endswith("ETA 0:00"), "the ETA of the last frame is 0:00")
uninterrupted = pc2_bytes(cloth)
checks.check(len(uninterrupted) == 32 + FRAMES * len(cloth.data.vertices) * 12, "the cache holds every frame")

# -- saving moves the cache next to the .blend ---------------------------------------------------
blend = os.path.join(args.out, "lifecycle.blend")
bpy.ops.wm.save_as_mainfile(filepath=blend)
moved = os.path.join(args.out, "grip_cache", "Cloth.pc2")
mod = cloth.modifiers.get("grip Cache")
checks.check(os.path.isfile(moved) and not os.path.exists(path), f"saving moved the cache to {moved}")
checks.check(mod is not None and mod.filepath == "//grip_cache/Cloth.pc2", f"the modifier's path: {mod and mod.filepath}")
checks.check(open(moved, "rb").read() == uninterrupted, "the moved cache is the baked one")
state = [f for f in os.listdir(os.path.dirname(moved)) if f.endswith(".grip_state")]
checks.check(len(state) == 1, f"the resumable state moved with it: {state}")
checks.check(not scene.grip.cache_outdated, "the save did not mark the cache outdated")
bpy.ops.wm.open_mainfile(filepath=blend)
scene, cloth, ball = bpy.context.scene, bpy.data.objects["Cloth"], bpy.data.objects["Ball"]
harness.check_cache_plays(checks, cloth, [1, 12, FRAMES])
checks.check(not scene.grip.cache_outdated, "playing frames does not mark the cache outdated")

# -- a bake that reaches the last frame already changes nothing ------------------------------------
result, status, _ = bake()
checks.check(result == {"FINISHED"} and "baked already" in status, f"Bake with a whole cache: {status}")
checks.check(pc2_bytes(cloth) == uninterrupted, "the cache is untouched")

# -- cancel, then resume: the bytes of the uninterrupted bake ------------------------------------
bpy.ops.grip.free_bake()
checks.check(scene.grip.cache_frame_end == 0 and not os.listdir(os.path.join(args.out, "grip_cache")),
             "Free Bake removes the PC2 file and the state")
with harness.CancelAt(CANCEL_AT):
    result, status, _ = bake()
kept = scene.grip.cache_frame_end
checks.check(result == {"CANCELLED"} and 2 <= kept < FRAMES, f"cancelled with frames 1–{kept} kept: {status}")
result, status, lines = bake()
checks.check(result == {"FINISHED"} and f"resumed after frame {kept}" in status, f"Bake resumes: {status}")
numbers = [int(l.split()[2]) for l in lines if l.startswith("grip: frame ")]
checks.check(numbers == list(range(kept + 1, FRAMES + 1)), f"it simulated frames {kept + 1}–{FRAMES} only")
checks.check(pc2_bytes(cloth) == uninterrupted, "the resumed bake equals the uninterrupted one bit for bit")

# -- bake to the current frame, then on to the end --------------------------------------------------
bpy.ops.grip.free_bake()
scene.frame_set(CURRENT)
result, status, _ = bake(to_current_frame=True)
n = len(cloth.data.vertices)
part = pc2_bytes(cloth)
checks.check(result == {"FINISHED"} and scene.grip.cache_frame_end == CURRENT, f"baked to frame {CURRENT}: {status}")
checks.check(part[32:] == uninterrupted[32:32 + CURRENT * n * 12], f"its {CURRENT} frames are the uninterrupted bake's")
summary = addon.panels.cache_summary(scene)
checks.check(summary and f"1–{CURRENT} of {FRAMES}" in summary[0], f"the panel shows the partial cache: {summary}")
result, status, _ = bake()
checks.check(result == {"FINISHED"} and f"resumed after frame {CURRENT}" in status, f"then Bake goes on: {status}")
checks.check(pc2_bytes(cloth) == uninterrupted, "bake to frame, then bake, equals the uninterrupted bake bit for bit")

# -- outdated ------------------------------------------------------------------------------------
checks.check(not scene.grip.cache_outdated, "a fresh cache is not outdated")
cloth.grip.friction = 0.5
checks.check(scene.grip.cache_outdated, "changing the cloth's friction marks the cache outdated")
summary = addon.panels.cache_summary(scene)
checks.check(summary and "outdated" in summary[0].lower() and summary[1] == "ERROR", f"the panel shows it: {summary}")
result, status, lines = bake()
checks.check(result == {"FINISHED"} and "resumed" not in status and len(lines) >= FRAMES - 1,
             f"Bake of an outdated cache starts over: {status}")
checks.check(not scene.grip.cache_outdated and pc2_bytes(cloth) != uninterrupted,
             "the new cache is current and differs (other friction)")
for change, what in ((lambda: setattr(scene.grip, "substeps", 12), "the scene's substeps"),
                     (lambda: setattr(ball.grip, "friction", 0.6), "the collider's friction")):
    bake()
    checks.check(not scene.grip.cache_outdated, "baked again")
    change()
    checks.check(scene.grip.cache_outdated, f"changing {what} marks the cache outdated")
for edit, what in (("Ball", "a collider's mesh"), ("Cloth", "the cloth's mesh")):
    bake()
    scene.frame_set(5)
    bpy.context.view_layer.update()
    checks.check(not scene.grip.cache_outdated, f"after a bake and frame changes the cache is current ({what})")
    mesh = bpy.data.objects[edit].data
    mesh.vertices[0].co.z += 0.01
    mesh.update()
    bpy.context.view_layer.update()
    checks.check(scene.grip.cache_outdated, f"editing {what} marks the cache outdated")
bake()
ball.location.x += 0.05
bpy.context.view_layer.update()
checks.check(scene.grip.cache_outdated, "moving the collider marks the cache outdated")
shutil.rmtree(os.path.join(args.out, "grip_cache"), ignore_errors=True)
checks.finish()
