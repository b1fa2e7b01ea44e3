"""Volume preservation: a closed jersey UV sphere (Cloth, radius 10 cm) on a floor collider,
pressed by a descending plate collider from 20 cm to PRESS_TO in frames 1–16, baked for 24
frames twice: without and with volume preservation (nearly incompressible, κ_v = 0.01 /atm).
Without it the ball loses more than VOLUME_LOST of its volume; with it the enclosed volume
(measured on the PC2 samples) stays within VOLUME_KEPT. Then an ideal gas at 0.01 atm
over-pressure inflates the free ball, and a Soft Body with volume preservation bakes."""

import os

import bpy  # first: bmesh needs it
import bmesh  # noqa: E402
import numpy as np

import harness

checks = harness.Checks("volume")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)

RADIUS, DROP, THICKNESS = 0.1, 0.005, 0.003
PRESS_TO = float(os.environ.get("GRIP_TEST_PRESS_TO", "0.15"))  # the plate's lowest height [m]
MATERIAL = os.environ.get("GRIP_TEST_MATERIAL", "JERSEY")
# Measured (jersey, plate to 0.15 m): -18.4 % without, -0.00 % with; +1.0 % for the ideal gas.
VOLUME_KEPT, VOLUME_LOST = 0.01, 0.10
scene = harness.new_scene(1, 24, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = THICKNESS
ball = harness.uv_sphere("Ball", RADIUS, 16, 8, (0.0, 0.0, RADIUS + DROP))
ball.grip.role = "CLOTH"
ball.grip.preset = MATERIAL
floor = harness.grid("Floor", 1.0, 4, (0.0, 0.0, 0.0))
floor.grip.role = "COLLIDER"
# A plate (faces down) pressing the ball from its top to PRESS_TO by frame 16, then holding.
plate = harness.grid("Plate", 0.6, 4, (0.0, 0.0, 2 * RADIUS + DROP + 2 * THICKNESS))
plate.rotation_euler = (np.pi, 0.0, 0.0)
plate.grip.role = "COLLIDER"
plate.keyframe_insert("location", frame=1)
plate.location.z = PRESS_TO
plate.keyframe_insert("location", frame=16)

g = ball.grip
checks.check(not g.volume_preservation and g.volume_model == "NEARLY_INCOMPRESSIBLE"
             and abs(g.volume_compressibility - 0.01) < 1e-9 and g.volume_pressure == 0.0,
             "defaults: off, nearly incompressible, 0.01 /atm, 0 atm")

ball.data.calc_loop_triangles()
tris = np.array([t.vertices[:] for t in ball.data.loop_triangles])


def volume(x):
    a, b, c = x[tris[:, 0]], x[tris[:, 1]], x[tris[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def bake_ball(preserve):
    g.volume_preservation = preserve
    result, seconds, status = harness.bake(checks)
    what = "with" if preserve else "without"
    checks.check(result == {"FINISHED"}, f"bake {what} volume preservation finished: {status}")
    samples = harness.check_cache_plays(checks, ball, range(1, 25))
    if samples is None:
        checks.finish()
    v = np.array([volume(s.astype(np.float64)) for s in samples])
    change = v / v[0] - 1.0
    worst = float(change[np.argmax(np.abs(change))])
    print(f"{what} volume preservation: {seconds:.2f} s, rest volume {v[0] * 1e6:.1f} cm³, volume change at "
          f"frame 24 {100 * change[-1]:+.3f} %, largest {100 * worst:+.3f} %, z "
          f"{samples[-1][:, 2].min() + ball.location.z:.4f}–{samples[-1][:, 2].max() + ball.location.z:.4f} m", flush=True)
    bpy.ops.grip.free_bake()
    return worst, samples


lost, _ = bake_ball(False)
kept, samples = bake_ball(True)
checks.check(abs(lost) > VOLUME_LOST, f"without: the volume changes by more than {100 * VOLUME_LOST:.0f} % "
             f"({100 * lost:+.2f} %)")
checks.check(abs(kept) < VOLUME_KEPT, f"with: the volume stays within {100 * VOLUME_KEPT:.0f} % ({100 * kept:+.2f} %)")
low = samples[-1][:, 2].min() + ball.location.z
top = samples[-1][:, 2].max() + ball.location.z
checks.check(-THICKNESS <= low <= THICKNESS and top <= PRESS_TO + THICKNESS,
             f"with: the ball is pressed between floor and plate (z {low:.4f}–{top:.4f} m)")

# -- a pressurised ideal gas inflates the ball ---------------------------------------------------
g.volume_model, g.volume_compressibility, g.volume_pressure = "IDEAL_GAS", 1.0, 0.01
g.volume_preservation = True
plate.grip.role = "NONE"
result, _, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"ideal-gas bake finished: {status}")
start, _, inflated = harness.read_pc2(bpy.path.abspath(ball.modifiers[0].filepath))
grow = volume(inflated[-1].astype(np.float64)) / volume(inflated[0].astype(np.float64)) - 1.0
print(f"ideal gas, 0.01 atm over-pressure: volume change at frame 24 {100 * grow:+.2f} %", flush=True)
checks.check(grow > 0.0025, f"0.01 atm over-pressure inflates the ball ({100 * grow:+.2f} %)")
bpy.ops.grip.free_bake()

# -- a soft body takes the setting too -----------------------------------------------------------
ball.grip.role = "NONE"


def cube_mesh(bm):
    bmesh.ops.create_cube(bm, size=0.2)


cube = harness.add_mesh("Cube", cube_mesh)
cube.location = (0.5, 0.0, 0.12)
cube.grip.role = "SOFT_BODY"
cube.grip.preset = "RUBBER"
cube.grip.tet_size = 0.1
cube.grip.volume_preservation = True
scene.grip.frame_end = 6
result, _, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"soft body with volume preservation bakes: {status}")
checks.finish()
