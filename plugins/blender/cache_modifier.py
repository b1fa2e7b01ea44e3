# SPDX-License-Identifier: GPL-3.0-or-later
"""The Mesh Cache modifier that plays a baked PC2 file, first in the object's modifier stack.

A simulated object's stack splits in two: the leading *deforming* modifiers (armature, hook,
lattice, ...) shape its input, the pin targets; the rest (from the first modifier that may change
the topology, e.g. Subdivision) draw the result. While baking, the drawing part is switched off so
the evaluated mesh has the object's own vertices. After the bake the cache sits first, the
deforming part is muted (the simulation already contains it) and Free Bake restores it."""

import json
import os

import bpy

MODIFIER_NAME = "grip Cache"

# Modifier types that only move vertices.
DEFORMING = frozenset({
    "ARMATURE", "CAST", "CORRECTIVE_SMOOTH", "CURVE", "DISPLACE", "HOOK", "LAPLACIANDEFORM",
    "LAPLACIANSMOOTH", "LATTICE", "MESH_DEFORM", "SHRINKWRAP", "SIMPLE_DEFORM", "SMOOTH",
    "SURFACE_DEFORM", "WARP", "WAVE", "MESH_CACHE",
})


def cache_modifier(obj):
    """The grip Mesh Cache modifier of ``obj``, or None."""
    m = obj.modifiers.get(MODIFIER_NAME)
    return m if m is not None and m.type == "MESH_CACHE" else None


def split_stack(obj):
    """(deforming input modifiers, drawing modifiers), the grip cache excluded."""
    mods = [m for m in obj.modifiers if m.name != MODIFIER_NAME]
    for i, m in enumerate(mods):
        if m.type not in DEFORMING:
            return mods[:i], mods[i:]
    return mods, []


class DrawingModifiersOff:
    """Context manager: switches off the drawing modifiers of ``objects`` (viewport) and
    restores them on exit, so the evaluated meshes keep the objects' own vertices."""

    def __init__(self, objects):
        self._saved = []
        for obj in objects:
            for m in split_stack(obj)[1]:
                self._saved.append((obj.name, m.name, m.show_viewport))

    def __enter__(self):
        for obj_name, mod_name, _ in self._saved:
            bpy.data.objects[obj_name].modifiers[mod_name].show_viewport = False
        return self

    def restore(self):
        """Puts the modifiers back as they were (idempotent)."""
        for obj_name, mod_name, shown in self._saved:
            obj = bpy.data.objects.get(obj_name)
            if obj is not None and mod_name in obj.modifiers:
                obj.modifiers[mod_name].show_viewport = shown
        self._saved = []

    def __exit__(self, *exc):
        self.restore()
        return False


def attach(obj, filepath, frame_start):
    """Adds the Mesh Cache modifier playing ``filepath`` (scene frame ``frame_start`` = sample
    0) first in the stack, and mutes the deforming modifiers the simulation replaces."""
    detach(obj)
    inputs, _ = split_stack(obj)
    muted = []
    for m in inputs:
        if m.show_viewport or m.show_render:
            muted.append([m.name, m.show_viewport, m.show_render])
            m.show_viewport = m.show_render = False
    mod = obj.modifiers.new(MODIFIER_NAME, "MESH_CACHE")
    mod.cache_format = "PC2"
    mod.filepath = filepath
    mod.frame_start = frame_start
    mod.frame_scale = 1.0
    mod.deform_mode = "OVERWRITE"
    mod.interpolation = "LINEAR"
    mod.time_mode = "FRAME"
    mod.play_mode = "SCENE"
    obj.modifiers.move(obj.modifiers.find(mod.name), 0)
    obj.grip.cache_file = filepath
    obj.grip.muted_modifiers = json.dumps(muted)
    return mod


def detach(obj, delete_file=False):
    """Removes the cache modifier, unmutes what :func:`attach` muted and, with
    ``delete_file``, deletes the PC2 file. Returns True if there was a bake to free."""
    had = False
    mod = cache_modifier(obj)
    if mod is not None:
        obj.modifiers.remove(mod)
        had = True
    for name, viewport, render in json.loads(obj.grip.muted_modifiers or "[]"):
        m = obj.modifiers.get(name)
        if m is not None:
            m.show_viewport, m.show_render = viewport, render
    obj.grip.muted_modifiers = ""
    if delete_file and obj.grip.cache_file:
        path = bpy.path.abspath(obj.grip.cache_file)
        if os.path.isfile(path):
            os.remove(path)
            had = True
    obj.grip.cache_file = ""
    return had
