# SPDX-License-Identifier: GPL-3.0-or-later
"""The cache's life between bakes, as Blender's point caches have it:

- **outdated**: a grip setting (the property groups' update callbacks, :func:`mark_outdated`)
  or an input changes — a simulated object's or a collider's mesh, modifiers or transform
  (the depsgraph handler) — and the scene's cache is flagged outdated. It still plays; the next
  Bake starts over instead of resuming it. Changes of later frames' animation that leave the
  first frame alone (a collider's keyframes edited in the graph editor) reach the depsgraph
  as transform updates too, so they mark it as well.
- **saved**: a bake of an unsaved file, held in Blender's temporary folder, moves next to the
  .blend when the file is saved (``cache_files.move_temporary_caches``).

The add-on's own edits (attaching the cache modifier, muting the input modifiers, frame changes
while baking) do not mark the cache: they run inside :func:`quiet`, which also flushes the
depsgraph updates they cause before it ends.
"""

import contextlib

import bpy
from bpy.app.handlers import persistent

from . import cache_files

_quiet_depth = 0


@contextlib.contextmanager
def quiet():
    """Edits inside do not mark any cache outdated (the depsgraph is updated before leaving)."""
    global _quiet_depth
    _quiet_depth += 1
    try:
        yield
    finally:
        try:
            if bpy.context.view_layer is not None:
                bpy.context.view_layer.update()
        finally:
            _quiet_depth -= 1


def is_quiet():
    """True inside :func:`quiet`."""
    return _quiet_depth > 0


def mark_outdated(scene):
    """Flags ``scene``'s cache outdated if it has one (and no bake of it is running)."""
    from .bake_session import running_session

    if scene is None or is_quiet() or running_session(scene) is not None:
        return
    settings = scene.grip
    if settings.cache_frame_end and not settings.cache_outdated:
        settings.cache_outdated = True


def object_setting_changed(obj, _context=None):
    """Update callback of an object's grip settings: every scene holding it is outdated."""
    for scene in getattr(obj, "users_scene", ()):
        mark_outdated(scene)


def _grip_objects(scene):
    return [o for o in scene.objects if o.type == "MESH" and o.grip.role != "NONE"]


@persistent
def _on_depsgraph_update(scene, depsgraph):
    if is_quiet() or not scene.grip.cache_frame_end or scene.grip.cache_outdated:
        return
    objects = _grip_objects(scene)
    names = {o.name for o in objects}
    meshes = {o.data.name for o in objects}
    for update in depsgraph.updates:
        original = getattr(update.id, "original", update.id)
        if isinstance(original, bpy.types.Mesh) and original.name in meshes and update.is_updated_geometry:
            mark_outdated(scene)
            return
        if isinstance(original, bpy.types.Object) and original.name in names and \
                (update.is_updated_geometry or update.is_updated_transform):
            mark_outdated(scene)
            return


@persistent
def _on_save_pre(filepath, *_args):
    if filepath:
        with quiet():
            cache_files.move_temporary_caches(filepath)


_HANDLERS = ((bpy.app.handlers.depsgraph_update_post, _on_depsgraph_update),
             (bpy.app.handlers.save_pre, _on_save_pre))


def register():
    for handlers, fn in _HANDLERS:
        if fn not in handlers:
            handlers.append(fn)


def unregister():
    for handlers, fn in _HANDLERS:
        if fn in handlers:
            handlers.remove(fn)
