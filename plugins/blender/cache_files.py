# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a scene's bake lives: one PC2 file per simulated object and the scene's resumable state
(``cache_state``) in the scene's cache folder.

The folder is ``scene.grip.cache_folder``; ``//`` means next to the .blend file. Like Blender's
own point caches, an unsaved file bakes into Blender's session temporary folder
(``bpy.app.tempdir``, removed when Blender quits), and saving the file moves that bake next to
the .blend (:func:`move_temporary_caches`, run before the save so the file stores the new paths).
"""

import os
import shutil

import bpy

from . import cache_state

#: The cache folder when the setting is empty.
DEFAULT_FOLDER = "//grip_cache/"


def is_temporary(path):
    """True if ``path`` lies in Blender's session temporary folder."""
    temp = os.path.realpath(bpy.app.tempdir)
    return bool(path) and os.path.realpath(bpy.path.abspath(path)).startswith(temp + os.sep)


def cache_folder(scene):
    """(folder as the modifiers store it, absolute folder): the setting's folder, or for a
    ``//`` folder of an unsaved file the same folder inside Blender's temporary folder."""
    folder = scene.grip.cache_folder or DEFAULT_FOLDER
    if folder.startswith("//") and not bpy.data.filepath:
        folder = os.path.join(bpy.app.tempdir, bpy.path.clean_name(scene.name), folder[2:].strip("/\\")) + os.sep
    absolute = os.path.normpath(bpy.path.abspath(folder))
    return folder, absolute


def cache_paths(scene, obj):
    """(path stored in the modifier, absolute path) of the PC2 file of ``obj``."""
    folder, absolute = cache_folder(scene)
    name = bpy.path.clean_name(obj.name) + ".pc2"
    return folder.rstrip("/\\") + "/" + name, os.path.join(absolute, name)


def state_file(scene):
    """Absolute path of the scene's resumable bake state."""
    return cache_state.state_path(cache_folder(scene)[1], scene.name)


def move_temporary_caches(blend_path):
    """Moves the bakes held in the temporary folder next to ``blend_path`` (the file about to
    be saved): into the scene's cache folder resolved against it, and points the Mesh Cache
    modifiers there with a ``//`` path. Returns the number of files moved."""
    from .cache_modifier import cache_modifier  # a late import: cache_modifier imports nothing of ours

    base = os.path.dirname(os.path.abspath(blend_path))
    moved = 0
    for scene in bpy.data.scenes:
        folder = scene.grip.cache_folder or DEFAULT_FOLDER
        if not folder.startswith("//"):
            continue
        target = os.path.normpath(os.path.join(base, folder[2:]))
        relative = folder.rstrip("/\\") + "/"
        state = None
        for obj in scene.objects:
            mod = cache_modifier(obj) if obj.type == "MESH" else None
            if mod is None or not is_temporary(mod.filepath):
                continue
            source = bpy.path.abspath(mod.filepath)
            name = os.path.basename(source)
            if os.path.isfile(source):
                os.makedirs(target, exist_ok=True)
                shutil.move(source, os.path.join(target, name))
                moved += 1
            mod.filepath = obj.grip.cache_file = relative + name
            state = cache_state.state_path(os.path.dirname(source), scene.name)
        if state and os.path.isfile(state):
            shutil.move(state, cache_state.state_path(target, scene.name))
            moved += 1
    return moved
