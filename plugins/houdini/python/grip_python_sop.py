# SPDX-License-Identifier: MIT
"""Code of a Houdini Python SOP running grip through its Python binding (no compiler needed).

Setup: put ``plugins/python`` and ``plugins/houdini/python`` on PYTHONPATH and set
GRIP_LIBRARY to libgrip.so (or .dylib / grip.dll). Make a Python SOP type with 3 inputs
(geometry to simulate, pin source, colliders: as the compiled SOP, see README.md) and paste
``from grip_python_sop import cook_node; cook_node(hou.pwd())`` as its code.

Parameters are read by the compiled SOP's names when the node has them, else their defaults:
``startframe``, ``timestep``, ``substeps``, ``gravity`` (x, y, z), ``integrator``, ``newmarkbeta``,
``newmarkgamma``, ``spectralradius``, ``modalcount``, ``semiimplicit``, ``maxnewton``, ``tolerance``,
``workers``, ``contactthickness``, ``friction``, ``frictioncoupling``, ``frictionepsilon``,
``selfcontact``, ``selfcontactthickness``, ``colliderwinding``, ``collidercontact``, ``onhardframe``,
``typeattrib``,
``nameattrib``, ``solidgroup``, ``shellgroup``, and the
material tabs ``shelldensity``, ``shellyoung``, ``shellpoisson``, ``shellthickness``,
``shellbending``, ``shelldampingalpha``, ``shelldampingbeta``, ``shellmembrane``,
``soliddensity``, ``solidyoung``, ``solidpoisson``, ``soliddampingalpha``, ``soliddampingbeta``.

This file only moves data between ``hou`` and :mod:`grip_houdini`, which holds the logic (tested
without Houdini). It is not run in grip's CI, which has no Houdini.
"""

import hou
import numpy as np

import grip_houdini as core

_MATERIAL_PARMS = {"density": "density", "youngs_modulus": "young", "poisson_ratio": "poisson",
                   "thickness": "thickness", "bending_stiffness": "bending", "damping_alpha": "dampingalpha",
                   "damping_beta": "dampingbeta", "membrane_model": "membrane"}


def _value(node, name, default):
    parm = node.parmTuple(name)
    if parm is None:
        return default
    values = parm.eval()
    return values[0] if len(values) == 1 else tuple(values)


def parameters(node):
    """The node's parameters as grip_houdini.cook expects them."""
    p = core.default_parameters()
    for name in ("timestep", "substeps", "gravity", "integrator", "newmarkbeta", "newmarkgamma", "spectralradius",
                 "modalcount", "semiimplicit", "maxnewton", "tolerance", "workers", "contactthickness",
                 "friction", "frictioncoupling", "frictionepsilon", "selfcontact", "selfcontactthickness",
                 "colliderwinding", "collidercontact", "onhardframe", "typeattrib", "nameattrib"):
        p[name] = _value(node, name, p[name])
    p["startframe_time"] = hou.frameToTime(_value(node, "startframe", 1))
    for tab in ("shell", "solid"):
        material = dict(p[tab])
        for field, suffix in _MATERIAL_PARMS.items():
            if field in material:
                material[field] = _value(node, tab + suffix, material[field])
        p[tab] = material
    return p


def _geometry(geo, strings, groups=None):
    """A grip_houdini.Geometry copy of a hou.Geometry."""
    positions = np.array(geo.pointFloatAttribValues("P"), dtype=np.float64).reshape(-1, 3)
    primitives = []
    for prim in geo.prims():
        points = [v.point().number() for v in prim.vertices()]
        if prim.type() == hou.primType.Polygon and prim.isClosed():
            primitives.append((core.POLYGON, points))
        elif prim.type() == hou.primType.Tetrahedron:
            primitives.append((core.TETRAHEDRON, points))
        else:
            primitives.append((core.OTHER, []))
    g = core.Geometry(positions, primitives)
    for name, size in (("rest", 3), ("v", 3), ("pinned", 1), ("pintoanimation", 1), ("friction", 1)):
        attrib = geo.findPointAttrib(name)
        if attrib is not None and attrib.dataType() in (hou.attribData.Float, hou.attribData.Int):
            values = np.array(geo.pointFloatAttribValues(name) if attrib.dataType() == hou.attribData.Float
                              else geo.pointIntAttribValues(name), dtype=np.float64)
            g.point_attributes[name] = values.reshape(len(positions), -1) if attrib.size() > 1 else values
    for name in strings:
        attrib = geo.findPrimAttrib(name) if name else None
        if attrib is not None and attrib.dataType() == hou.attribData.String:
            g.primitive_strings[name] = list(geo.primStringAttribValues(name))
    for role, pattern in (groups or {}).items():
        if pattern:
            selected = {prim.number() for prim in geo.globPrims(pattern)}
            g.primitive_groups[role] = [p in selected for p in range(len(primitives))]
    return g


def cook_node(node):
    """Cooks the Python SOP ``node`` (hou.pwd())."""
    geo = node.geometry()  # a copy of input 0
    p = parameters(node)
    strings = (p["typeattrib"], p["nameattrib"])
    groups = {"solid": _value(node, "solidgroup", ""), "shell": _value(node, "shellgroup", "")}
    inputs = [_geometry(geo, strings, groups)]
    for index in (1, 2):
        connected = node.inputs()[index] if len(node.inputs()) > index else None
        inputs.append(_geometry(connected.geometry(), strings) if connected is not None else None)
    key_attrib = geo.findGlobalAttrib(core.SOLVER_KEY_ATTRIBUTE)
    key = geo.attribValue(core.SOLVER_KEY_ATTRIBUTE) if key_attrib is not None else 0

    with hou.InterruptableOperation("Simulating with grip", open_interrupt_dialog=True) as operation:
        def interrupted(fraction):
            try:
                operation.updateProgress(fraction)
                return False
            except hou.OperationInterrupted:
                return True

        out = core.cook(inputs, p, hou.time(), key, node.sessionId(), interrupted=interrupted)
    for warning in out["warnings"]:
        node.addWarning(warning)
    if out["error"]:
        raise hou.NodeError(out["error"])
    geo.setPointFloatAttribValues("P", out["positions"].reshape(-1).tolist())
    if geo.findPointAttrib("v") is None:
        geo.addAttrib(hou.attribType.Point, "v", (0.0, 0.0, 0.0))
    geo.setPointFloatAttribValues("v", out["velocities"].reshape(-1).tolist())
    if key_attrib is None:
        geo.addAttrib(hou.attribType.Global, core.SOLVER_KEY_ATTRIBUTE, 0)
    geo.setGlobalAttribValue(core.SOLVER_KEY_ATTRIBUTE, int(out["key"]))
