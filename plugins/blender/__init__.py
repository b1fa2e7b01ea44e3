# SPDX-License-Identifier: GPL-3.0-or-later
"""grip for Blender: cloth and soft bodies with accurate friction, baked to PC2 files played by
Mesh Cache modifiers. Settings: Physics tab (per object) and Scene tab (time, solver, cache)."""

import bpy

from . import cache_lifecycle, operators, panels, properties

_CLASSES = operators.CLASSES + panels.CLASSES


def register():
    properties.register()
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    cache_lifecycle.register()


def unregister():
    cache_lifecycle.unregister()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
    properties.unregister()
