"""A garment workflow as a Blender user sets it up: a jersey sleeve on a skinned arm, baked, saved,
reopened and measured.

The arm is a closed cylinder collider (32 segments) along X, skinned to a two-bone armature
("upper", "fore", weights blended over 8 cm around the elbow at the origin) whose forearm bends
0 → 60° in the horizontal plane; its modifier stack is Armature → Corrective Smooth → Displace
(the surface grows outward by up to 6 mm over the bend), so the add-on must evaluate the whole
stack every frame. The sleeve is an open jersey cylinder around the forearm (from 2 cm past the
elbow joint, inside the weight blend, to 3 cm before the wrist), 1 cm wider than the arm, skinned
to the same rig the way a rigger dresses a garment (an Armature modifier with the same weights);
its vertex group "Cuff" (the two wrist rings) is the pin group, so the cuff follows the skinned
wrist while the rest of the sleeve is simulated under gravity with friction 0.45.

Checked: the distance code on analytic cases (a unit cube, a fine sphere), the rig and the stack
really deform the arm, the bake finishes and its cache plays; then, in the saved .blend reopened
in the same process, at every baked frame the exact signed distance of every sleeve vertex to the
evaluated arm (point–triangle distance over all triangles, inside by winding number) is never
below −contact thickness, the cuff sits on its skinned targets, the sleeve follows the bend,
positions are finite and the cache is a simulation (not the static or merely skinned sleeve).

The bend stays at 60°: from about 75° these narrow weights fold the skinned elbow into itself in
the crook, where it would pinch a sleeve. `elbow_sleeve.py` bakes a sleeve across an elbow bent
to 90° with weights blended wide enough that the skin does not fold."""

import math
import os

import bpy
import bmesh
import numpy as np

import exact_distance
import harness
import limb_rig

checks = harness.Checks("garment")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
os.makedirs(args.out, exist_ok=True)

FRAME_START, FRAME_END = 1, 30
BEND_START, BEND_END, BEND = 6, 26, 60.0  # frames, degrees
THICKNESS = 0.003  # scene contact thickness [m]
FRICTION = 0.45
ARM_R, ARM_SEGMENTS, ARM_X0, ARM_X1, ARM_RINGS = 0.04, 32, -0.20, 0.28, 25  # rings 2 cm apart
ELBOW_BLEND = 0.04  # half-width of the upper/fore weight blend around the elbow [m]
DISPLACE = 0.006  # the Displace modifier's final outward offset [m]
SLEEVE_R, SLEEVE_SEGMENTS, SLEEVE_X0, SLEEVE_X1, SLEEVE_RINGS = 0.05, 24, 0.02, 0.25, 18
CUFF_RINGS = 2
GAP = SLEEVE_R - ARM_R


# -- the distance code against analytic cases ------------------------------------------------
def unit_cube():
    """(positions, triangles) of the cube [0, 1]³, faces outward."""
    corner = lambda x, y, z: 4 * x + 2 * y + z  # noqa: E731
    positions = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
    quads = [(corner(0, 0, 0), corner(0, 0, 1), corner(0, 1, 1), corner(0, 1, 0)),
             (corner(1, 0, 0), corner(1, 1, 0), corner(1, 1, 1), corner(1, 0, 1)),
             (corner(0, 0, 0), corner(1, 0, 0), corner(1, 0, 1), corner(0, 0, 1)),
             (corner(0, 1, 0), corner(0, 1, 1), corner(1, 1, 1), corner(1, 1, 0)),
             (corner(0, 0, 0), corner(0, 1, 0), corner(1, 1, 0), corner(1, 0, 0)),
             (corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1))]
    triangles = np.array([t for q in quads for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))])
    return positions, triangles


def check_distance_code():
    positions, triangles = unit_cube()
    # Points in every kind of region: inside near a face, an edge, a corner; outside facing a
    # face, an edge, a corner.
    cases = [((0.5, 0.5, 0.5), -0.5), ((0.9, 0.5, 0.5), -0.1), ((0.95, 0.5, 0.97), -0.03),
             ((0.02, 0.01, 0.03), -0.01), ((0.5, 0.5, 1.3), 0.3), ((1.3, 0.5, 1.4), 0.5),
             ((1.2, 1.3, 1.4), math.sqrt(0.29)), ((-0.2, -0.3, 1.6), 0.7), ((0.5, -0.25, 0.5), 0.25)]
    points = np.array([p for p, _ in cases])
    expected = np.array([d for _, d in cases])
    error = float(np.abs(exact_distance.signed_distances(points, positions, triangles) - expected).max())
    checks.check(error < 1e-12, f"distance code: signed distances to a unit cube exact (max error {error:.1e})")
    flipped = float(np.abs(exact_distance.signed_distances(points, positions, triangles[:, ::-1]) - expected).max())
    checks.check(flipped < 1e-12, f"distance code: the same with the cube's faces wound inward ({flipped:.1e})")
    bm = bmesh.new()
    bmesh.ops.create_icosphere(bm, subdivisions=5, radius=1.0)
    sphere = np.array([v.co[:] for v in bm.verts])
    sphere_tris = np.array([[v.index for v in f.verts] for f in bm.faces])
    bm.free()
    rng = np.random.default_rng(7)
    directions = rng.normal(size=(200, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    radii = rng.uniform(0.2, 1.8, size=200)
    exact = radii - 1.0
    # The mesh lies between the unit sphere and the sphere touching its faces' planes, so the
    # distance to it differs from |r - 1| by at most the deepest plane's sagitta.
    a, b, c = (sphere[sphere_tris[:, k]] for k in range(3))
    normals = np.cross(b - a, c - a)
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    sagitta = 1.0 - float(np.abs((normals * a).sum(axis=1)).min())
    measured = exact_distance.signed_distances(directions * radii[:, None], sphere, sphere_tris)
    error = float(np.abs(measured - exact).max())
    checks.check(error <= sagitta + 1e-9 and (np.sign(measured) == np.sign(exact)).all(),
                 f"distance code: 200 points vs an icosphere ({len(sphere_tris)} faces): max error "
                 f"{error:.1e} within the faces' sagitta {sagitta:.1e}, signs right")


check_distance_code()


# -- the scene --------------------------------------------------------------------------------
scene = harness.new_scene(FRAME_START, FRAME_END, os.path.join(args.out, "cache"))
scene.grip.contact_thickness = THICKNESS

rig = limb_rig.two_bone_rig(ARM_X0, ARM_X1, ((FRAME_START, 0.0), (BEND_START, 0.0), (BEND_END, BEND)))

arm = limb_rig.skinned_tube(rig, ELBOW_BLEND, "COLLIDER", FRICTION, "Arm", ARM_R, ARM_SEGMENTS, ARM_X0, ARM_X1,
                           ARM_RINGS, closed=True)
corrective = arm.modifiers.new("Corrective Smooth", "CORRECTIVE_SMOOTH")  # keeps the elbow's volume
corrective.rest_source = "ORCO"
grow = arm.modifiers.new("Grow", "DISPLACE")  # no texture: along the normals by (1 - mid_level) × strength
grow.direction, grow.mid_level = "NORMAL", 0.0
for frame, strength in ((BEND_START, 0.0), (BEND_END, DISPLACE)):
    grow.strength = strength
    grow.keyframe_insert("strength", frame=frame)

sleeve = limb_rig.skinned_tube(rig, ELBOW_BLEND, "CLOTH", FRICTION, "Sleeve", SLEEVE_R, SLEEVE_SEGMENTS, SLEEVE_X0,
                               SLEEVE_X1, SLEEVE_RINGS, closed=False)
sleeve.grip.preset = "JERSEY"
sleeve_rest = np.array([v.co[:] for v in sleeve.data.vertices])
cuff = np.arange((SLEEVE_RINGS - CUFF_RINGS) * SLEEVE_SEGMENTS, SLEEVE_RINGS * SLEEVE_SEGMENTS)
sleeve.vertex_groups.new(name="Cuff").add([int(i) for i in cuff], 1.0, "REPLACE")
sleeve.grip.pin_group = "Cuff"
jersey = addon.grip.preset_fields("JERSEY")
checks.check(all(abs(getattr(sleeve.grip, key) / jersey[key] - 1) < 1e-6
                 for key in ("thickness", "youngs_modulus", "density")),
             f"jersey preset set: thickness {sleeve.grip.thickness * 1000:.2f} mm, E {sleeve.grip.youngs_modulus:.3g} Pa")


def skinned(rest):
    """Linear blend skinning of rest positions (n, 3) by the rig at the current frame, computed
    here from the bones' matrices (world = rig space = object space in this scene)."""
    out = np.zeros_like(rest)
    for bone, weights in limb_rig.bone_weights(rest, ELBOW_BLEND).items():
        pose = rig.pose.bones[bone]
        m = np.array(rig.matrix_world @ pose.matrix @ pose.bone.matrix_local.inverted())
        out += weights[:, None] * (rest @ m[:3, :3].T + m[:3, 3])
    return out


def arm_surface():
    """(world positions, triangles) of the evaluated arm (its whole stack) at the current frame."""
    return limb_rig.evaluated_surface(arm)


def forearm_angle(arm_world):
    """Direction of the forearm (elbow at the origin → the wrist cap's centre) in the XY plane [°]."""
    tip = arm_world[-1]
    return math.degrees(math.atan2(tip[1], tip[0]))


# The rig and the stack deform the arm as intended; the sleeve's pin targets are known here.
scene.frame_set(FRAME_END)
arm_bent = harness.evaluated_world(arm)
bend_angle = forearm_angle(arm_bent)
checks.check(abs(abs(bend_angle) - BEND) < 0.5, f"the armature bends the arm collider: forearm at {bend_angle:.1f}°")
grow.show_viewport = corrective.show_viewport = False
arm_skinned_only = harness.evaluated_world(arm)
grow.show_viewport = corrective.show_viewport = True
stack_offset = np.linalg.norm(arm_bent - arm_skinned_only, axis=1)
checks.check(stack_offset.max() > 2 * THICKNESS,
             f"the modifiers after the Armature move the arm's surface by up to {stack_offset.max() * 1000:.1f} mm "
             f"at frame {FRAME_END} (more than twice the contact thickness; min {stack_offset.min() * 1000:.1f}, "
             f"median {np.median(stack_offset) * 1000:.1f} mm)")
formula = float(np.abs(skinned(sleeve_rest) - harness.evaluated_world(sleeve)).max())
checks.check(formula < 1e-6, f"the sleeve's Armature modifier (its pin targets) is the skinning computed here "
                             f"from the bone matrices ({formula:.1e} m)")
scene.frame_set(FRAME_START)

# -- bake -------------------------------------------------------------------------------------
result, seconds, status = harness.bake(checks)
checks.check(result == {"FINISHED"} and "baked" in status, f"bake finished: {status}")
print(f"timing: {FRAME_END - FRAME_START + 1} frames, substeps {scene.grip.substeps}, {len(sleeve.data.vertices)} "
      f"sleeve vertices, {len(arm_bent)} arm vertices: {seconds:.2f} s", flush=True)
frames = range(FRAME_START, FRAME_END + 1)
samples = harness.check_cache_plays(checks, sleeve, frames)

# -- save, reopen in the same process, measure ----------------------------------------------------
blend = os.path.join(args.out, "garment.blend")
checks.check(bpy.ops.wm.save_as_mainfile(filepath=blend) == {"FINISHED"} and os.path.isfile(blend),
             f"saved {blend}")
checks.check(bpy.ops.wm.open_mainfile(filepath=blend) == {"FINISHED"}, "reopened the saved .blend")
scene = bpy.context.scene
arm, sleeve, rig = bpy.data.objects["Arm"], bpy.data.objects["Sleeve"], bpy.data.objects["Rig"]
checks.check(harness.ADDON in bpy.context.preferences.addons and sleeve.grip.pin_group == "Cuff"
             and sleeve.grip.role == "CLOTH" and arm.grip.role == "COLLIDER",
             "after reopening: the add-on is still enabled and the grip settings were saved")
stack = [(mod.type, mod.show_viewport) for mod in arm.modifiers]
checks.check(stack == [("ARMATURE", True), ("CORRECTIVE_SMOOTH", True), ("DISPLACE", True)],
             f"the arm keeps its whole live stack: {stack}")
reopened_samples = harness.check_cache_plays(checks, sleeve, frames)
if reopened_samples is None or samples is None:
    checks.finish()
checks.check(reopened_samples.shape == (len(frames), len(sleeve_rest), 3),
             f"{len(frames)} samples of {len(sleeve_rest)} vertices: {reopened_samples.shape}")

closest = []  # per frame: the smallest signed distance of a sleeve vertex to the arm [m] (< 0: inside)
cuff_error = []  # per frame: the farthest cuff vertex from its skinned target [m]
finite = True
baked = frames[:len(reopened_samples)]  # a failed bake keeps the frames done: measure those
for frame in baked:
    scene.frame_set(frame)
    cloth = harness.evaluated_world(sleeve)
    finite &= bool(np.isfinite(cloth).all())
    signed = exact_distance.signed_distances(cloth, *arm_surface())
    closest.append(float(signed.min()))
    cuff_error.append(float(np.linalg.norm(cloth[cuff] - skinned(sleeve_rest[cuff]), axis=1).max()))
    ring = int(signed.argmin()) // SLEEVE_SEGMENTS
    print(f"frame {frame:2d}: closest sleeve vertex {closest[-1] * 1000:+.2f} mm from the arm's surface (ring {ring}, "
          f"0 = elbow end, {SLEEVE_RINGS - 1} = wrist; {int((signed < 0).sum())} vertices inside), cuff error "
          f"{cuff_error[-1] * 1000:.4f} mm", flush=True)

worst, last = int(np.argmin(closest)), baked[-1]
checks.check(closest[worst] > -THICKNESS,
             f"no sleeve vertex deeper inside the arm than the contact thickness {THICKNESS * 1000:.1f} mm at any "
             f"frame: smallest signed distance {closest[worst] * 1000:+.2f} mm (frame {baked[worst]}; < 0 is inside)")
checks.check(finite, "positions are finite at every frame")
checks.check(cuff_error[-1] < 1e-5 and max(cuff_error) < 1e-5,
             f"the pinned cuff sits on its skinned targets (frame {last}: {cuff_error[-1]:.1e} m, "
             f"worst {max(cuff_error):.1e} m)")

scene.frame_set(last)
cloth = harness.evaluated_world(sleeve)
arm_world, arm_triangles = arm_surface()
arm_angle = forearm_angle(arm_world)
centroid = cloth.mean(axis=0)
centroid_angle = math.degrees(math.atan2(centroid[1], centroid[0]))
print(f"frame {last}: sleeve centroid at {centroid_angle:.1f}°, forearm at {arm_angle:.1f}°", flush=True)
checks.check(abs(centroid_angle - arm_angle) < 5.0,
             f"the sleeve follows the bend: centroid at {centroid_angle:.1f}°, forearm at {arm_angle:.1f}°")
free = np.setdiff1d(np.arange(len(sleeve_rest)), cuff)
moved = np.linalg.norm(reopened_samples[-1][free] - reopened_samples[0][free], axis=1)
checks.check(moved.mean() > 0.02, f"the cache animates: the free sleeve vertices moved {moved.mean() * 1000:.1f} mm "
                                  f"on average (up to {moved.max() * 1000:.1f} mm) from the first to the last sample")
skinned_sleeve = skinned(sleeve_rest)  # what the sleeve's own Armature modifier alone would give
skinned_depth = -float(exact_distance.signed_distances(skinned_sleeve, arm_world, arm_triangles).min())
drape = float(np.linalg.norm(cloth - skinned_sleeve, axis=1).max())
print(f"frame {last}: the merely skinned sleeve would be {skinned_depth * 1000:.2f} mm inside the arm; the "
      f"simulated one is up to {drape * 1000:.1f} mm away from it", flush=True)
checks.check(drape > GAP / 2, f"the sleeve was simulated, not just skinned: it departs from its skinned shape by up "
                             f"to {drape * 1000:.1f} mm (more than half the {GAP * 1000:.0f} mm gap to the arm)")
print(f"summary: bake {seconds:.1f} s, smallest signed distance sleeve–arm {closest[worst] * 1000:+.2f} mm "
      f"(frame {baked[worst]}; < 0 is inside), "
      f"cuff error {max(cuff_error):.1e} m, centroid {centroid_angle:.1f}° vs forearm {arm_angle:.1f}°", flush=True)
checks.finish()
