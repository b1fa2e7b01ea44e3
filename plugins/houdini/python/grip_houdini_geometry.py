# SPDX-License-Identifier: MIT
"""The Houdini Python SOP's inputs as grip bodies, without ``hou``: a SOP input as
:class:`Geometry`, split into shells, solids and collider meshes (:func:`split_objects`,
:func:`split_colliders`) with their pins and friction, by the same rules as the compiled SOP's
core (plugins/houdini/src/core). :mod:`grip_houdini` cooks them.
"""

from dataclasses import dataclass, field

import numpy as np

POLYGON, TETRAHEDRON, OTHER = "polygon", "tetrahedron", "other"


class SopError(Exception):
    """An error for the node's error message; the cook outputs its input unchanged."""


@dataclass
class Geometry:
    """One SOP input: P (n, 3), primitives as (kind, point list), numeric point attributes by
    name ((n,) or (n, k) arrays), string primitive attributes and "solid"/"shell" primitive
    group flags (one value per primitive)."""

    positions: np.ndarray
    primitives: list
    point_attributes: dict = field(default_factory=dict)
    primitive_strings: dict = field(default_factory=dict)
    primitive_groups: dict = field(default_factory=dict)

    def attribute(self, name, components, warnings):
        """The point attribute ``name`` as (n,) (1 component) or (n, k), or None; present with
        another tuple size: None and a warning."""
        values = self.point_attributes.get(name)
        if values is None:
            return None
        values = np.asarray(values, dtype=np.float64)
        k = 1 if values.ndim == 1 else values.shape[1]
        if k != components or values.shape[0] != len(self.positions):
            warnings.append(f"point attribute {name} has {k} components, expected {components}: ignored")
            return None
        return values


@dataclass
class Body:
    """A grip object or collider mesh: its input points and elements in its own numbering."""

    name: str
    kind: str  # "shell", "solid" or "collider"
    points: np.ndarray
    elements: np.ndarray
    id: int = 0


def _kind(g, p, type_attribute):
    types = g.primitive_strings.get(type_attribute) if type_attribute else None
    if types is not None:
        value = types[p].lower()
        if value not in ("solid", "shell"):
            raise SopError(f'primitive {p}: {type_attribute} is "{types[p]}"; expected "solid" or "shell"')
        return value
    solid = "solid" in g.primitive_groups and bool(g.primitive_groups["solid"][p])
    shell = "shell" in g.primitive_groups and bool(g.primitive_groups["shell"][p])
    if solid and shell:
        raise SopError(f"primitive {p} is in both the solid group and the shell group")
    if solid or shell:
        return "solid" if solid else "shell"
    return "solid" if g.primitives[p][0] == TETRAHEDRON else "shell"


def _split(g, key_of, what, clockwise=False):
    """Bodies from the primitives for which ``key_of(p)`` gives (name, kind), else None."""
    n = len(g.positions)
    bodies, index, owner, vertex = [], {}, np.full(n, -1), np.full(n, -1)
    lists = []
    for p, (kind, points) in enumerate(g.primitives):
        key = key_of(p)
        if key is None:
            continue
        if any(q < 0 or q >= n for q in points):
            raise SopError(f"{what}primitive {p} uses a point out of range ({n} points)")
        if key not in index:
            index[key] = len(bodies)
            bodies.append(Body(key[0], key[1], np.zeros(0, np.int64), np.zeros(0, np.uint32)))
            lists.append(([], []))
        b = index[key]
        local = []
        for q in points:
            if owner[q] == -1:
                owner[q], vertex[q] = b, len(lists[b][0])
                lists[b][0].append(q)
            elif owner[q] != b:
                raise SopError(f'{what}point {q} belongs to both "{bodies[owner[q]].name}" and "{key[0]}"')
            local.append(int(vertex[q]))
        if kind == TETRAHEDRON:
            lists[b][1].append(local)
        else:
            for k in range(1, len(local) - 1):
                tri = [local[0], local[k + 1], local[k]] if clockwise else [local[0], local[k], local[k + 1]]
                lists[b][1].append(tri)
    for body, (points, elements) in zip(bodies, lists):
        body.points = np.array(points, dtype=np.int64)
        body.elements = np.array(elements, dtype=np.uint32)
    return bodies


def split_objects(g, rest, type_attribute="grip_type", name_attribute="name", warnings=None):
    """Shells from closed polygons, solids from tetrahedra (see the compiled SOP's README)."""
    warnings = [] if warnings is None else warnings
    names = g.primitive_strings.get(name_attribute) if name_attribute else None
    skipped = 0

    def key_of(p):
        nonlocal skipped
        kind, points = g.primitives[p]
        if kind == OTHER or (kind == POLYGON and len(points) < 3):
            skipped += 1
            return None
        wanted = _kind(g, p, type_attribute)
        if wanted == "solid" and kind == POLYGON:
            raise SopError(f"primitive {p} is a polygon marked solid: solids need tetrahedra")
        if wanted == "shell" and kind == TETRAHEDRON:
            raise SopError(f"primitive {p} is a tetrahedron marked shell: shells need polygons")
        name = names[p] if names is not None and names[p] else ("solids" if wanted == "solid" else "shells")
        return (name, wanted)

    bodies = _split(g, key_of, "")
    if skipped:
        warnings.append(f"{skipped} primitives that are neither closed polygons nor tetrahedra were ignored")
    if not bodies:
        raise SopError("input 0 has no polygons or tetrahedra to simulate")
    for b in bodies:
        if b.kind == "solid":  # orient every tet positively in the rest shape
            x = rest[b.points]
            t = b.elements
            det = np.einsum("ij,ij->i", np.cross(x[t[:, 1]] - x[t[:, 0]], x[t[:, 2]] - x[t[:, 0]]),
                            x[t[:, 3]] - x[t[:, 0]])
            flip = det < 0
            t[flip, 2], t[flip, 3] = t[flip, 3].copy(), t[flip, 2].copy()
    return bodies


def split_colliders(g, name_attribute="name", clockwise=True, warnings=None):
    """Collider meshes from closed polygons, one per name, wound counter-clockwise from outside
    (``clockwise``: the input uses Houdini's clockwise front faces)."""
    warnings = [] if warnings is None else warnings
    names = g.primitive_strings.get(name_attribute) if name_attribute else None
    ignored = 0

    def key_of(p):
        nonlocal ignored
        kind, points = g.primitives[p]
        if kind != POLYGON or len(points) < 3:
            ignored += 1
            return None
        return (names[p] if names is not None else "collider", "collider")

    bodies = _split(g, key_of, "collider ", clockwise)
    if ignored:
        warnings.append(f"{ignored} collider primitives that are not closed polygons were ignored")
    return bodies


def pin_plan(body, source, current, warnings):
    """(pinned (n,), targets (n, 3) or None) of ``body`` from the pin source's ``pinned`` and
    ``pintoanimation`` attributes; targets follow the source's P, others stay at ``current``."""
    held = source.attribute("pinned", 1, warnings)
    driven = source.attribute("pintoanimation", 1, warnings)
    pinned = np.zeros(len(body.points))
    follows = np.zeros(len(body.points), dtype=bool)
    if held is not None:
        pinned[held[body.points] != 0] = 1.0
    if driven is not None:
        follows = driven[body.points] != 0
        pinned[follows] = 1.0
    if not follows.any():
        return pinned, None
    targets = np.array(current, dtype=np.float64)
    targets[follows] = source.positions[body.points[follows]]
    return pinned, targets


def friction_multiplier(g, points, body, warnings):
    """The body's ``friction`` point attribute (the multiplier of the Friction parameter that
    gives the body its own μ; 1 when absent); its mean, with a warning, when it varies (grip's
    friction is per body)."""
    values = g.attribute("friction", 1, warnings)
    if values is None or len(points) == 0:
        return 1.0
    f = values[points]
    if f.max() - f.min() > 1e-9 * max(1.0, abs(f.max())):
        warnings.append(f'friction varies over "{body}" ({f.min():g} to {f.max():g}) but grip\'s friction is per '
                        f"body: using its mean {f.mean():g}")
    return float(f.mean())
