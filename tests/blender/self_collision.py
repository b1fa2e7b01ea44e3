"""Per-cloth self-collision from the Physics tab: two cotton squares dropped one above the other
onto a floor collider come to rest one on the other at the gap their self-collision settings
give, or fall through each other when self-collision is off.

The upper square settles on the lower one under its weight; with the cubic penalty the gap ends
a little inside the pair's thickness δ_AB = (δ_A + δ_B)/2 (the scene's *Self Contact Thickness*
where a cloth's own thickness is 0). Checked, per setting:

- the scene's Self Contact off and both cloths on Scene Default: no cloth–cloth contact, the
  squares end in one plane on the floor;
- both On with their own thicknesses 4 mm and 12 mm: the gap is near the mean, 8 mm;
- both On with thickness 0 and the scene's thickness 5 mm: near 5 mm;
- the scene's Self Contact on, the lower cloth Off: the two still meet (Off only stops a cloth
  meeting itself), at the pair's mean thickness.
"""

import os

import bpy
import numpy as np

import harness

checks = harness.Checks("self_collision")
args = harness.arguments()
harness.install_extension(checks, args.zip)
FRAMES = 36

scene = harness.new_scene(1, FRAMES, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = 0.002
floor = harness.grid("Floor", 2.0, 1, (0.0, 0.0, 0.0))
floor.grip.role = "COLLIDER"
lower = harness.grid("Lower", 0.3, 10, (0.0, 0.0, 0.01))
upper = harness.grid("Upper", 0.3, 10, (0.0, 0.0, 0.04))
for cloth in (lower, upper):
    cloth.grip.role = "CLOTH"
    cloth.grip.preset = "COTTON"
    cloth.grip.friction = 0.3


def settle(scene_on, scene_thickness, settings):
    """Bakes with the scene's Self Contact ``scene_on`` at ``scene_thickness`` (m) and
    ``settings`` {cloth: (mode, thickness m)}; returns the mean gap (m) between the squares at
    the last frame. Checks that the lower square rests in the outer half of the floor's contact
    layer, as the Contact Thickness tooltip says."""
    scene.grip.self_contact, scene.grip.self_contact_thickness = scene_on, scene_thickness
    for cloth, (mode, thickness) in settings.items():
        cloth.grip.self_collision, cloth.grip.self_collision_thickness = mode, thickness
    bpy.ops.grip.free_bake()
    result, _, status = harness.bake(checks)
    checks.check(result == {"FINISHED"}, f"bake finished: {status}")
    scene.frame_set(FRAMES)
    a, b = harness.evaluated_world(lower), harness.evaluated_world(upper)
    inner = (np.abs(a[:, 0]) < 0.1) & (np.abs(a[:, 1]) < 0.1)  # away from the squares' edges
    gap = float((b[inner, 2] - a[inner, 2]).mean())
    print(f"self contact {scene_on} ({scene_thickness * 1e3:.0f} mm), "
          f"{ {c.name: s for c, s in settings.items()} }: gap {gap * 1e3:.2f} mm, "
          f"lower square on the floor at {a[inner, 2].mean() * 1e3:.2f} mm", flush=True)
    delta = scene.grip.contact_thickness
    height = float(a[inner, 2].mean())
    checks.check(delta / 2 < height < delta, f"the lower square rests in the outer half of the floor's "
                 f"{delta * 1e3:.0f} mm contact layer: {height * 1e3:.2f} mm")
    return gap


gap = settle(False, 0.004, {lower: ("SCENE", 0.0), upper: ("SCENE", 0.0)})
checks.check(abs(gap) < 0.5e-3, f"self contact off: the squares end in one plane ({gap * 1e3:.2f} mm apart)")
gap = settle(False, 0.004, {lower: ("ON", 0.004), upper: ("ON", 0.012)})
checks.check(0.006 < gap <= 0.0081, f"own thicknesses 4 and 12 mm: gap {gap * 1e3:.2f} mm near the mean 8 mm")
gap = settle(False, 0.005, {lower: ("ON", 0.0), upper: ("ON", 0.0)})
checks.check(0.0035 < gap <= 0.0051, f"thickness 0 takes the scene's 5 mm: gap {gap * 1e3:.2f} mm")
gap = settle(True, 0.004, {lower: ("OFF", 0.004), upper: ("SCENE", 0.0)})
checks.check(0.003 < gap <= 0.0041, f"a cloth with self-collision off still meets another: gap {gap * 1e3:.2f} mm")
checks.finish()
