"""A sleeve (an open cotton cylinder, hanging loosely) around the forearm of an arm: a closed cylinder collider
skinned to a two-bone armature whose forearm bends 60° in the horizontal plane between frames 8
and 24. The collider is evaluated with its modifier stack every frame; the sleeve must follow the
bend (stay around the bent forearm) without entering it."""

import math
import os

import bpy
import numpy as np

import harness
import limb_rig

checks = harness.Checks("sleeve")
args = harness.arguments()
harness.install_extension(checks, args.zip)

ARM_R, SLEEVE_R, SEGMENTS, THICKNESS, BEND = 0.08, 0.12, 16, 0.003, 60.0
scene = harness.new_scene(1, 24, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = THICKNESS


def tube(name, radius, x0, x1, rings, closed):
    """A cylinder along X: `rings` rings of SEGMENTS vertices, capped by fans if `closed`. Its
    faces point INWARD on purpose: the add-on must orient closed colliders outward itself (with
    the inward winding as given, the sleeve would start inside the arm)."""
    a = np.arange(SEGMENTS) * 2 * math.pi / SEGMENTS
    xs = np.linspace(x0, x1, rings)
    verts = [(x, radius * math.cos(t), radius * math.sin(t)) for x in xs for t in a]
    faces = []
    for r in range(rings - 1):
        for s in range(SEGMENTS):
            i, j = r * SEGMENTS + s, r * SEGMENTS + (s + 1) % SEGMENTS
            faces.append((i, i + SEGMENTS, j + SEGMENTS, j))
    if closed:
        c0, c1 = len(verts), len(verts) + 1
        verts += [(x0, 0.0, 0.0), (x1, 0.0, 0.0)]
        last = (rings - 1) * SEGMENTS
        for s in range(SEGMENTS):
            faces.append((c0, (s + 1) % SEGMENTS, s))
            faces.append((c1, last + s, last + (s + 1) % SEGMENTS))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    scene.collection.objects.link(obj)
    return obj


# The arm: a closed cylinder (faces inward, see tube()) from x = -0.5 to 0.5, skinned to bones "upper" and "fore".
arm = tube("Arm", ARM_R, -0.5, 0.5, 21, closed=True)
arm.grip.role = "COLLIDER"
arm.grip.friction = 0.5
rig = limb_rig.two_bone_rig(-0.5, 0.5, ((1, 0.0), (8, 0.0), (24, BEND)))
limb_rig.skin(arm, rig, 0.05)  # blended over |x| < 0.05 around the elbow

# The sleeve: an open cylinder over the forearm.
sleeve = tube("Sleeve", SLEEVE_R, 0.08, 0.42, 9, closed=False)
sleeve.grip.role = "CLOTH"
sleeve.grip.preset = "COTTON"
sleeve.grip.friction = 0.5

scene.frame_set(24)
bent = harness.evaluated_world(arm)
tip = bent[-1]  # the centre of the forearm's end cap
angle = math.degrees(math.atan2(tip[1], tip[0]))
checks.check(abs(abs(angle) - BEND) < 1.0, f"the armature bends the arm collider: forearm at {angle:.1f}°")
scene.frame_set(1)

result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"bake finished: {status}")
print(f"timing: 24 frames, {len(sleeve.data.vertices)} sleeve vertices, {len(arm.data.polygons)} arm faces: {seconds:.2f} s")
samples = harness.check_cache_plays(checks, sleeve, range(1, 25))

scene.frame_set(8)
before = harness.evaluated_world(sleeve).mean(axis=0)
before_angle = math.degrees(math.atan2(before[1], before[0]))
checks.check(abs(before_angle) < 3.0, f"before the bend (frame 8) the sleeve lies along x: {before_angle:.1f}°")
scene.frame_set(24)
x = harness.evaluated_world(sleeve)
axis = tip / np.linalg.norm(tip)  # the forearm's axis from the elbow at the origin
t = x @ axis
radial = np.linalg.norm(x - np.outer(t, axis), axis=1)
centroid = x.mean(axis=0)
centroid_angle = math.degrees(math.atan2(centroid[1], centroid[0]))
print(f"sleeve at frame 24: centroid at {centroid_angle:.1f}° (forearm {angle:.1f}°), "
      f"distance from the forearm axis {radial.min():.4f}–{radial.max():.4f} m")
checks.check(abs(centroid_angle - angle) < 12.0, "the sleeve follows the bend (centroid within 12° of the forearm)")
checks.check(radial.max() < 0.35 and (t > 0).all(), "the whole sleeve hangs around the bent forearm")
mid = (t > 0.15) & (t < 0.45)  # away from the elbow, where the arm is a straight cylinder
inner = ARM_R * math.cos(math.pi / SEGMENTS)  # the polygonal arm's inscribed radius
checks.check(mid.sum() > 20 and radial[mid].min() > inner - THICKNESS,
             f"no sleeve vertex inside the forearm (closest {radial[mid].min():.4f} m from the axis)")
checks.check(np.isfinite(x).all(), "positions are finite")
checks.finish()
