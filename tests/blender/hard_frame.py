"""On a Hard Frame, in a real bake: a cloth landing on a floor collider with the solver made
unable to converge once contact starts (one Newton iteration, no substep halving, set by wrapping
the add-on's solver parameters; the panel offers neither). *Continue with a Fallback* (the
default) bakes every frame, prints a warning naming the cloth, the place and the frame after the
frame's line, and the bake's status counts the hard frames; *Stop* ends the bake at the first
hard frame with the solver's error, keeping the frames before it."""

import contextlib
import io
import os

import bpy
import numpy as np

import harness

checks = harness.Checks("hard_frame")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
session = addon.bake_session

addon_solver_params = session.solver_params


def unable_to_converge(scene, self_contact_on):
    """The add-on's parameters, with one Newton iteration and no halving: every substep with
    contact fails (a free fall is linear and converges in one)."""
    return dict(addon_solver_params(scene, self_contact_on), max_newton_iterations=1, max_substep_halvings=0)


session.solver_params = unable_to_converge
FRAMES = 6
scene = harness.new_scene(1, FRAMES, os.path.join(args.out, "cache"))
cloth = harness.grid("Cloth", 0.5, 6, (0.0, 0.0, 0.01))
cloth.grip.role = "CLOTH"
floor = harness.grid("Floor", 2.0, 2, (0.0, 0.0, 0.0))
floor.grip.role = "COLLIDER"
checks.check(scene.grip.on_hard_frame == "CONTINUE", "the default is Continue with a Fallback")

printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    result, _, status = harness.bake(checks)
print(printed.getvalue(), end="")
stats = session.LAST_STATS
checks.check(result == {"FINISHED"} and stats.get("frames") == FRAMES - 1, f"every frame baked: {result} {status}")
hard = [i + 2 for i, n in enumerate(stats.get("fallbacks", [])) if n > 0]
checks.check(bool(hard), f"frames with fallbacks: {hard}")
messages = [m for m in stats.get("fallback_messages", []) if m]
checks.check(len(messages) == len(hard) and all(
    m.startswith("Cloth failed to converge near (") and f"m at frame {f}; fallback: " in m
    for m, f in zip(messages, hard)), f"each hard frame names the cloth, the place and the frame: {messages}")
lines = printed.getvalue().splitlines()
warned = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line.startswith("grip: frame ")
          and lines[i + 1].startswith("grip: warning: Cloth failed to converge near (")]
checks.check(len(warned) == len(hard), f"the console line of each hard frame is followed by its warning: {warned}")
checks.check(f"{len(hard)} hard frame" in status and "continued with a fallback" in status,
             f"the status counts the hard frames: {status}")
samples = harness.check_cache_plays(checks, cloth, range(1, FRAMES + 1))
checks.check(samples is not None and len(samples) == FRAMES and np.isfinite(samples).all(),
             "the cache holds every frame, finite")
checks.check(samples is not None and samples[-1][:, 2].max() < 0.01, "the cloth came down onto the floor")

# Stop: the same bake ends at the first hard frame with the solver's error, keeping the frames
# before it.
checks.check(bpy.ops.grip.free_bake() == {"FINISHED"}, "Free Bake runs")
scene.grip.on_hard_frame = "STOP"
result, _, status = harness.bake(checks)
checks.check(result == {"ERROR"} and f"the solver failed at frame {hard[0] if hard else '?'}: " in status
             and "converge" in status and "Continue with a Fallback" in status,
             f"Stop ends the bake with the solver's error, naming the frame and the way on: {result} {status}")
checks.check(session.LAST_STATS.get("frames") == hard[0] - 2 if hard else False,
             f"the frames before the first hard frame ({hard[:1]}) are kept: {session.LAST_STATS.get('frames')}")
checks.finish()
