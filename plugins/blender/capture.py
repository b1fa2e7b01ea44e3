# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading what the bake needs from Blender, on the main thread: meshes as numpy arrays in
world space, converted from Blender units (× ``unit_settings.scale_length``) to metres."""

import numpy as np


class BakeInputError(Exception):
    """The scene cannot be baked as set up; the message says what to change."""


def metres_per_unit(scene):
    """Metres per Blender unit."""
    return float(scene.unit_settings.scale_length)


def matrix(m):
    """A Blender 4×4 matrix as a numpy array."""
    return np.array([list(row) for row in m], dtype=np.float64)


def to_world_metres(local, matrix_world, scale):
    """Object-local coordinates (n, 3) [BU] to world coordinates [m]."""
    return (local @ matrix_world[:3, :3].T + matrix_world[:3, 3]) * scale


def world_metres_to_local(matrix_world, scale):
    """4×4 matrix taking world metres to object-local Blender units."""
    to_units = np.diag([1.0 / scale, 1.0 / scale, 1.0 / scale, 1.0])
    return np.linalg.inv(matrix_world) @ to_units


def mesh_positions(mesh):
    """Vertex coordinates (n, 3) float64 of a mesh datablock."""
    co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
    mesh.vertices.foreach_get("co", co)
    return co.reshape(-1, 3)


def mesh_triangles(mesh):
    """Triangles (m, 3) uint32 of a mesh datablock (its faces triangulated)."""
    mesh.calc_loop_triangles()
    tris = np.empty(len(mesh.loop_triangles) * 3, dtype=np.uint32)
    mesh.loop_triangles.foreach_get("vertices", tris)
    return tris.reshape(-1, 3)


def evaluated(obj, depsgraph, scale, with_triangles=False):
    """(world positions [m], world_to_local 4×4, triangles or None) of ``obj`` with its modifier
    stack as currently enabled, at the depsgraph's frame."""
    ob_eval = obj.evaluated_get(depsgraph)
    mesh = ob_eval.to_mesh()
    try:
        m = matrix(ob_eval.matrix_world)
        world = to_world_metres(mesh_positions(mesh), m, scale)
        tris = mesh_triangles(mesh) if with_triangles else None
    finally:
        ob_eval.to_mesh_clear()
    return world, world_metres_to_local(m, scale), tris


def pinned_mask(obj, group_name):
    """True for the vertices of ``obj`` whose weight in vertex group ``group_name`` is > 0.5."""
    n = len(obj.data.vertices)
    mask = np.zeros(n, dtype=bool)
    if not group_name:
        return mask
    group = obj.vertex_groups.get(group_name)
    if group is None:
        raise BakeInputError(f"{obj.name}: the pin vertex group '{group_name}' does not exist")
    gi = group.index
    for v in obj.data.vertices:
        for g in v.groups:
            if g.group == gi and g.weight > 0.5:
                mask[v.index] = True
    return mask


def is_closed(triangles):
    """True if every edge of the triangle mesh is shared by exactly two triangles."""
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    _, counts = np.unique(np.sort(edges, axis=1), axis=0, return_counts=True)
    return bool(np.all(counts == 2))


def signed_volume(positions, triangles):
    """Volume enclosed by a closed triangle mesh [m³]: positive when its faces point outward."""
    a, b, c = (positions[triangles[:, k]] for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def consistently_wound(triangles):
    """(triangles, patch) with every connected patch of ``triangles`` wound one way — two
    triangles sharing an edge run along it in opposite directions — by flipping triangles
    breadth-first from each patch's first one; ``patch`` numbers each triangle's patch. Edges
    shared by more than two triangles do not connect."""
    t = np.asarray(triangles)
    corners = t.tolist()
    edges = {}  # undirected edge -> [(triangle, whether it runs from the smaller vertex)]
    for i, (a, b, c) in enumerate(corners):
        for u, v in ((a, b), (b, c), (c, a)):
            edges.setdefault((min(u, v), max(u, v)), []).append((i, u < v))
    flip = np.zeros(len(t), dtype=bool)
    patch = np.full(len(t), -1)
    for first in range(len(t)):
        if patch[first] >= 0:
            continue
        patch[first] = first
        queue = [first]
        while queue:
            i = queue.pop()
            a, b, c = corners[i]
            for u, v in ((a, b), (b, c), (c, a)):
                shared = edges[(min(u, v), max(u, v))]
                if len(shared) != 2:
                    continue
                j, j_forward = shared[1] if shared[0][0] == i else shared[0]
                if patch[j] >= 0:
                    continue
                i_forward = (u < v) != flip[i]  # as triangle i now runs along the edge
                flip[j] = j_forward == i_forward  # the same direction: j turns over
                patch[j] = first
                queue.append(j)
    out = t.copy()
    out[flip] = out[flip][:, ::-1]
    return out, patch


def outward(positions, triangles):
    """``triangles`` of a closed mesh wound consistently and to face outward (grip keeps
    objects on the side the faces point to), whatever mix of windings the mesh came with, each
    closed part on its own; an open mesh keeps its winding, which says which side is the
    outside. The input itself when nothing changes."""
    if not is_closed(triangles):
        return triangles
    wound, patch = consistently_wound(triangles)
    for p in np.unique(patch):
        part = patch == p
        if signed_volume(positions, wound[part]) < 0.0:
            wound[part] = wound[part][:, ::-1]
    if np.array_equal(wound, triangles):
        return triangles
    return np.ascontiguousarray(wound)
