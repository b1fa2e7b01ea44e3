# SPDX-License-Identifier: MIT
"""The :class:`SceneSolver`: a :class:`Solver` built from a TOML scene file, run frame by frame
the way ``grip run`` runs it."""

import ctypes
import os

from . import checks
from .bake import _c_strings, override_strings
from .library import _resolve
from .solver import Solver


class SceneSolver(Solver):
    """The solver of the scene file at ``path`` (``docs/scene-file.md``; mesh paths in it are
    relative to it; a str or ``os.PathLike``), with ``overrides`` applied to the file first (as
    ``grip run --set``; see :func:`grip.override_strings`), with every :class:`Solver` method.
    Units are SI (m, kg, s).

    :meth:`advance_frame` runs frame k as ``grip run`` does: the scene's colliders, collider
    meshes and pin groups move to their poses at the end of frame k, then the solver advances
    1/:attr:`fps` s. :attr:`objects` maps object names to ids, in file order.
    A failed call raises a :class:`GripError` subclass and leaves the solver as it was."""

    def __init__(self, path, *, overrides=None, library=None):
        path = checks.path(path, "path")
        strings, count = _c_strings(override_strings(overrides))
        self.library = _resolve(library)
        self.params = None
        self._handle = None
        handle = ctypes.c_void_p()
        if count:
            self.library.call("grip_scene_load_overrides", os.fsencode(path), strings, count, ctypes.byref(handle))
        else:
            self.library.call("grip_scene_load", os.fsencode(path), ctypes.byref(handle))
        self._handle = handle

    @property
    def frame_count(self):
        """Number of frames after the initial frame 0 (the file's ``[output] frames``)."""
        n = ctypes.c_size_t()
        self._call("grip_scene_frame_count", ctypes.byref(n))
        return n.value

    @property
    def fps(self):
        """Output frames per second; each frame advances 1/fps s."""
        fps = ctypes.c_double()
        self._call("grip_scene_fps", ctypes.byref(fps))
        return fps.value

    @property
    def objects(self):
        """Object name -> object id, for every solid, shell and collider mesh in file order."""
        n = ctypes.c_size_t()
        self._call("grip_scene_object_count", ctypes.byref(n))
        out = {}
        for index in range(n.value):
            object_id, name = ctypes.c_uint32(), ctypes.c_char_p()
            self._call("grip_scene_object_id", index, ctypes.byref(object_id))
            self._call("grip_scene_object_name", index, ctypes.byref(name))
            out[name.value.decode("utf-8")] = object_id.value
        return out

    def advance_frame(self, frame, progress=None):
        """Simulates frame ``frame`` (an integer, 1 to :attr:`frame_count`). See
        :meth:`Solver.advance` for ``progress``."""
        self._run("grip_scene_advance_frame", checks.size(frame, "frame"), progress)
