"""A limb as a rigger builds one, shared by the skinned-arm scenes: cylinders along X, a
two-bone armature ("upper" up to the elbow at the origin, "fore" after it) whose forearm turns
about Z on keyframes, linear weights blended around the elbow, and the evaluated surface."""

import math

import bpy
import numpy as np

import harness


def tube(name, radius, segments, x0, x1, rings, closed):
    """A cylinder along X with ``rings`` rings of ``segments`` vertices (ring r first), faces
    pointing outward; capped by triangle fans around two centre vertices (last) if ``closed``."""
    angles = np.arange(segments) * 2 * math.pi / segments
    verts = [(x, radius * math.cos(t), radius * math.sin(t)) for x in np.linspace(x0, x1, rings) for t in angles]
    faces = []
    for r in range(rings - 1):
        for s in range(segments):
            i, j = r * segments + s, r * segments + (s + 1) % segments
            faces.append((i, j, j + segments, i + segments))
    if closed:
        c0, c1, last = len(verts), len(verts) + 1, (rings - 1) * segments
        verts += [(x0, 0.0, 0.0), (x1, 0.0, 0.0)]
        for s in range(segments):
            faces.append((c0, (s + 1) % segments, s))
            faces.append((c1, last + s, last + (s + 1) % segments))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def two_bone_rig(x0, x1, keys):
    """An armature "Rig" with bones "upper" (x0 → the origin) and "fore" (the origin → x1), the
    forearm turned about Z to each (frame, degrees) of ``keys``."""
    scene = bpy.context.scene
    rig = bpy.data.objects.new("Rig", bpy.data.armatures.new("Rig"))
    scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    upper = rig.data.edit_bones.new("upper")
    upper.head, upper.tail = (x0, 0, 0), (0, 0, 0)
    fore = rig.data.edit_bones.new("fore")
    fore.head, fore.tail = (0, 0, 0), (x1, 0, 0)
    fore.parent, fore.use_connect = upper, True
    bpy.ops.object.mode_set(mode="OBJECT")
    pose = rig.pose.bones["fore"]
    pose.rotation_mode = "XYZ"
    for frame, degrees in keys:
        pose.rotation_euler = (0.0, 0.0, math.radians(degrees))
        pose.keyframe_insert("rotation_euler", frame=frame)
    return rig


def bone_weights(rest, blend):
    """{bone: weight per vertex} of rest positions (n, 3): "upper" up to the elbow, "fore" after
    it, blended linearly over ±``blend`` (m) along X."""
    upper = np.clip(0.5 - rest[:, 0] / (2 * blend), 0.0, 1.0)
    return {"upper": upper, "fore": 1.0 - upper}


def skin(obj, rig, blend):
    """Weights ``obj`` to the bones (:func:`bone_weights`) and adds the Armature modifier."""
    rest = np.array([v.co[:] for v in obj.data.vertices])
    for bone, weights in bone_weights(rest, blend).items():
        group = obj.vertex_groups.new(name=bone)
        for i, w in enumerate(weights):
            if w > 0:
                group.add([i], float(w), "REPLACE")
    mod = obj.modifiers.new("Armature", "ARMATURE")
    mod.object = rig
    return mod


def skinned_tube(rig, blend, role, friction, *tube_args, **tube_kwargs):
    """A :func:`tube` skinned to ``rig`` (weights blended over ±``blend`` m) with the grip
    ``role`` and ``friction``."""
    obj = tube(*tube_args, **tube_kwargs)
    obj.grip.role = role
    obj.grip.friction = friction
    skin(obj, rig, blend)
    return obj


def evaluated_surface(obj):
    """(world positions, triangles) of ``obj`` evaluated (its whole stack) at the current frame."""
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    mesh.calc_loop_triangles()
    triangles = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int64)
    mesh.loop_triangles.foreach_get("vertices", triangles)
    evaluated.to_mesh_clear()
    return harness.evaluated_world(obj), triangles.reshape(-1, 3)
