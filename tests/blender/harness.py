"""Shared by the headless Blender tests (run by tests/blender.rs with the venv's Python and bpy).

Each test script: ``python tests/blender/<script>.py --zip <extension zip> --out <artifact dir>``.
The Rust side sets BLENDER_USER_RESOURCES to a fresh folder per script, so the extension is
installed there and never into the user's own Blender. A script prints one line per check and
ends with ``blender <name>: N passed, M failed``; its exit status is nonzero on any failure.
"""

import argparse
import math
import os
import struct
import sys
import time

import bpy  # first: bmesh needs it
import bmesh  # noqa: E402
import numpy as np

ADDON = "bl_ext.user_default.grip_physics"


class Checks:
    """Counts checks and prints the summary line."""

    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, condition, what):
        if condition:
            self.passed += 1
            print(f"ok: {what}", flush=True)
        else:
            self.failed += 1
            print(f"FAILED: {what}", flush=True)
        return bool(condition)

    def finish(self):
        print(f"blender {self.name}: {self.passed} passed, {self.failed} failed", flush=True)
        sys.exit(0 if self.failed == 0 and self.passed > 0 else 1)


def arguments():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zip", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--blend")
    ap.add_argument("--bend", type=float, help="elbow_sleeve.py: the elbow's bend (degrees)")
    ap.add_argument("--skin-blend", type=float, help="elbow_sleeve.py: half the width of the skinning blend (m)")
    return ap.parse_args()


def install_extension(checks, zip_path):
    """Installs and enables the extension from the built zip; checks it really registered (the
    install operator reports success even for a broken package)."""
    resources = os.environ.get("BLENDER_USER_RESOURCES", "")
    extensions = bpy.utils.user_resource("EXTENSIONS")
    checks.check(resources and os.path.realpath(extensions).startswith(os.path.realpath(resources)),
                 f"extensions install into the test's folder ({extensions})")
    result = bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default",
                                                      enable_on_install=True)
    checks.check(result == {"FINISHED"}, f"package_install_files: {result}")
    checks.check(ADDON in bpy.context.preferences.addons, f"{ADDON} is enabled")
    ok = all(op in dir(bpy.ops.grip) for op in ("bake", "cancel_bake", "free_bake"))
    checks.check(ok, "the grip operators exist")
    checks.check(hasattr(bpy.types.Object, "grip") and hasattr(bpy.types.Scene, "grip"), "grip properties exist")
    if not ok:
        checks.finish()
    return sys.modules[ADDON]


def new_scene(frame_start=1, frame_end=24, cache=None):
    """An empty scene at 24 fps with grip's frame range and cache folder set."""
    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = 24, 1.0
    scene.frame_start, scene.frame_end = frame_start, frame_end
    scene.grip.frame_start, scene.grip.frame_end = frame_start, frame_end
    if cache:
        scene.grip.cache_folder = cache
    return scene


def add_mesh(name, build):
    """A mesh object made by ``build(bm)`` (a bmesh), linked to the scene."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    build(bm)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def grid(name, size, cuts, location):
    """A size × size plane in XY with (cuts + 1)² vertices (Blender's grid)."""
    obj = add_mesh(name, lambda bm: bmesh.ops.create_grid(bm, x_segments=cuts, y_segments=cuts, size=size / 2))
    obj.location = location
    return obj


def uv_sphere(name, radius, segments, rings, location):
    obj = add_mesh(name, lambda bm: bmesh.ops.create_uvsphere(bm, u_segments=segments, v_segments=rings,
                                                               radius=radius))
    obj.location = location
    return obj


def read_pc2(path):
    """(start, sampling, samples (count, n, 3)) read with the format's spec, independently of the
    add-on's own reader."""
    with open(path, "rb") as f:
        sig, version, n, start, sampling, count = struct.unpack("<12siiffi", f.read(32))
        assert sig == b"POINTCACHE2\0" and version == 1, (sig, version)
        data = np.frombuffer(f.read(), dtype="<f4")
    assert data.size == count * n * 3, (data.size, count, n)
    return start, sampling, data.reshape(count, n, 3)


def evaluated_local(obj):
    """Evaluated vertex coordinates (object local) at the current frame."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    ob = obj.evaluated_get(depsgraph)
    mesh = ob.to_mesh()
    co = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", co)
    ob.to_mesh_clear()
    return co.reshape(-1, 3)


def evaluated_world(obj):
    """Evaluated vertex coordinates in world space (Blender units) at the current frame."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    m = np.array(obj.evaluated_get(depsgraph).matrix_world)
    return evaluated_local(obj) @ m[:3, :3].T + m[:3, 3]


def check_cache_plays(checks, obj, frames):
    """The Mesh Cache modifier (first in the stack) plays the PC2 samples at scene ``frames``."""
    mod = obj.modifiers[0] if len(obj.modifiers) else None
    checks.check(mod is not None and mod.type == "MESH_CACHE" and mod.cache_format == "PC2",
                 f"{obj.name}: a PC2 Mesh Cache modifier is first in the stack")
    if mod is None or mod.type != "MESH_CACHE":
        return None
    path = bpy.path.abspath(mod.filepath)
    checks.check(os.path.isfile(path), f"{obj.name}: PC2 file exists ({path})")
    start, _, samples = read_pc2(path)
    worst = 0.0
    for f in frames:
        bpy.context.scene.frame_set(f)
        index = min(max(f - int(mod.frame_start), 0), len(samples) - 1)
        worst = max(worst, float(np.abs(evaluated_local(obj) - samples[index]).max()))
    checks.check(worst <= 1e-6, f"{obj.name}: evaluated positions equal the PC2 samples (max diff {worst:.2e})")
    return samples


def bake(checks):
    """Runs the Bake operator (blocking in background Blender); returns (result, seconds, status).
    An operator that reports an error raises RuntimeError in Python: the result is then {"ERROR"}."""
    t0 = time.perf_counter()
    try:
        result = bpy.ops.grip.bake("INVOKE_DEFAULT")
    except RuntimeError as e:
        print(f"bake raised: {e}", flush=True)
        result = {"ERROR"}
    seconds = time.perf_counter() - t0
    status = bpy.context.scene.grip.bake_status
    print(f"bake: {result} in {seconds:.2f} s: {status}", flush=True)
    stats = sys.modules[ADDON].bake_session.LAST_STATS
    if stats.get("frames"):
        newton = stats["newton_iterations"]
        print(f"bake stats: {stats['frames']} frames, {sum(stats['substeps'])} substeps, "
              f"{sum(newton)} Newton iterations (max {max(newton)} per frame), "
              f"slowest frame {max(stats['frame_seconds']):.2f} s, contacts at the end "
              f"{stats['active_contacts'][-1]}", flush=True)
    return result, seconds, status


class CancelAt:
    """Context manager: while inside, Cancel Bake is called (the path of Esc in the modal bake)
    once a bake evaluates ``frame`` or later — from a frame-change handler, since background
    Blender has no event loop. ``calls`` lists the frames it was called at."""

    def __init__(self, frame):
        self.frame, self.calls = frame, []

    def _handler(self, scene, _depsgraph=None):
        if scene.frame_current >= self.frame and not self.calls and bpy.ops.grip.cancel_bake.poll():
            self.calls.append(scene.frame_current)
            bpy.ops.grip.cancel_bake()

    def __enter__(self):
        bpy.app.handlers.frame_change_post.append(self._handler)
        return self

    def __exit__(self, *exc):
        bpy.app.handlers.frame_change_post.remove(self._handler)
        return False


def render_png(path, camera_location, target):
    """Renders the current frame at 160×120 with Workbench (Cycles if Workbench fails) to
    ``path``; returns (engine, pixel standard deviation)."""
    scene = bpy.context.scene
    cam = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(cam)
    cam.location = camera_location
    direction = np.array(target, dtype=float) - np.array(camera_location, dtype=float)
    cam.rotation_euler = (math.atan2(math.hypot(direction[0], direction[1]), -direction[2]), 0.0,
                          math.atan2(direction[1], direction[0]) - math.pi / 2)
    scene.camera = cam
    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    scene.collection.objects.link(sun)
    sun.rotation_euler = (0.6, 0.3, 0.0)
    scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 160, 120, 100
    scene.render.filepath = path
    engine = "BLENDER_WORKBENCH"
    for engine in ("BLENDER_WORKBENCH", "CYCLES"):
        scene.render.engine = engine
        if engine == "CYCLES":
            scene.cycles.samples = 8
        try:
            bpy.ops.render.render(write_still=True)
        except RuntimeError as e:
            print(f"{engine} render failed: {e}", flush=True)
            continue
        if os.path.isfile(path):
            break
    image = bpy.data.images.load(path)
    pixels = np.array(image.pixels[:]).reshape(-1, 4)[:, :3]
    return engine, float(pixels.std())
