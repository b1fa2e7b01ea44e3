# SPDX-License-Identifier: MIT
"""Bakes of scene files into output directories, as ``grip run`` makes them: :func:`bake` (the
C function ``grip_scene_run``), scene-file overrides (:func:`override_strings`) and the frame of
a run's checkpoint (:func:`run_checkpoint_frame`)."""

import collections
import collections.abc
import ctypes
import math
import numbers
import os
import struct

import numpy as np

from . import _structs, checks
from .errors import CancelledError
from .library import _resolve

#: What :func:`bake` did: ``frames`` the last frame reached (a resumed run's earlier frames
#: included), ``seconds`` of wall-clock time, and the ``substeps`` and ``newton_iterations`` of
#: this call.
BakeSummary = collections.namedtuple("BakeSummary", "frames seconds substeps newton_iterations")

#: First bytes of a run checkpoint (``src/scene/resume.rs``): magic, frame (u64), fps (f64).
_CHECKPOINT_MAGIC = b"GRIPRUN1"


def _toml_value(value, name):
    """``value`` as TOML text: bool, integer, real (inf and nan included), str, or a list or
    tuple of those."""
    value = checks._scalar(value)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return "nan"
        return repr(v) if math.isfinite(v) else ("inf" if v > 0 else "-inf")
    if isinstance(value, str):
        checks.text(value, name)
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        escaped = "".join(c if c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in escaped)
        return f'"{escaped}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v, name) for v in value) + "]"
    raise TypeError(f"{name} must be a bool, number, str or list of them, got {type(value).__name__}")


def override_strings(overrides):
    """Scene-file overrides as the ``KEY=VALUE`` strings of ``grip run --set``
    (docs/scene-file.md#overrides). ``overrides`` is None, a mapping ``{key: value}`` whose
    values are Python bools, numbers, strs or lists (written as TOML), or a sequence of
    ``"KEY=VALUE"`` strings (passed as they are; VALUE is TOML, or else a string)."""
    if overrides is None:
        return []
    if isinstance(overrides, (str, bytes)) or not isinstance(overrides, collections.abc.Iterable):
        raise TypeError("overrides must be a mapping or a sequence of 'KEY=VALUE' strings, "
                        f"got {type(overrides).__name__}")
    if isinstance(overrides, collections.abc.Mapping):
        out = []
        for key, value in overrides.items():
            checks.text(key, "overrides key")
            if not key or "=" in key:
                raise ValueError(f"overrides key {key!r} must be a non-empty dotted path without '='")
            out.append(f"{key}={_toml_value(value, f'overrides[{key!r}]')}")
        return out
    out = []
    for i, item in enumerate(overrides):
        checks.text(item, f"overrides[{i}]")
        if "=" not in item:
            raise ValueError(f"overrides[{i}] must read KEY=VALUE, got {item!r:.60}")
        out.append(item)
    return out


def _c_strings(strings):
    """A ``const char *[]`` of ``strings`` (UTF-8) and its length."""
    encoded = [checks.text(s, "override") for s in strings]
    return (ctypes.c_char_p * max(len(encoded), 1))(*encoded), len(encoded)


def bake(scene, out, *, overrides=None, frames=None, checkpoint=False, resume=False, usd=False,
         on_frame=None, library=None):
    """Simulates the scene file ``scene`` into the directory ``out`` exactly as ``grip run``
    does (the same OBJ frames and ``stats.csv``, bit for bit; no PNG previews) and returns a
    :class:`BakeSummary`.

    ``overrides``: see :func:`override_strings`. ``frames``: the last frame (None: the scene's
    ``[output] frames``). ``checkpoint``: write ``out/checkpoint.grip`` after every frame;
    ``resume``: go on from it (the frames before it stay); ``usd``: write the animation as
    ``out/<scene name>.usda`` after the last frame (docs/usd.md). ``on_frame(frame, last_frame,
    seconds)`` is called after every frame with the seconds that frame took; returning True stops
    the bake there (:class:`CancelledError`, the frame and its checkpoint kept), and an exception
    it raises stops it too and is re-raised (after the last frame, with the bake complete).

    Raises :class:`InvalidArgumentError` for a bad scene, override or checkpoint,
    :class:`NotConvergedError` when the solver fails on a frame (the message names it; the frames
    before stay on disk). The error's ``summary`` attribute holds the :class:`BakeSummary` of what
    was done."""
    lib = _resolve(library)
    scene = checks.path(scene, "scene")
    out = checks.path(out, "out")
    last = 0 if frames is None else checks.size(frames, "frames")
    if frames is not None and last == 0:
        raise ValueError("frames must be >= 1 (None runs the scene's frames)")
    checks.callback(on_frame, "on_frame")
    flags = ((_structs.RUN_CHECKPOINT if checks.flag(checkpoint, "checkpoint") else 0)
             | (_structs.RUN_RESUME if checks.flag(resume, "resume") else 0)
             | (_structs.RUN_USD if checks.flag(usd, "usd") else 0))
    strings, count = _c_strings(override_strings(overrides))
    raised = []

    def trampoline(_user_data, frame, last_frame, seconds):
        try:
            return 1 if on_frame(frame, last_frame, seconds) else 0
        except BaseException as e:  # noqa: B036 - re-raised after the C call returns
            raised.append(e)
            return 1

    callback = _structs.GripFrameFn(trampoline) if on_frame else _structs.GripFrameFn()
    summary = _structs.GripRunSummary()
    try:
        lib.call("grip_scene_run", os.fsencode(scene), strings, count, os.fsencode(out), flags, last,
                 callback, None, ctypes.byref(summary))
    except Exception as e:
        e.summary = _summary(summary)
        if raised:
            raise raised[0] from None
        raise
    if raised:
        # Raised after the last frame, where there is nothing left to stop: the bake is whole.
        raise raised[0]
    return _summary(summary)


def _summary(s):
    return BakeSummary(int(s.frames), float(s.seconds), int(s.substeps), int(s.newton_iterations))


def run_checkpoint_frame(out):
    """The frame after which the run checkpoint in directory ``out`` (``checkpoint.grip``) was
    written, or None when there is none. A file that is not a run checkpoint raises
    ValueError."""
    path = os.path.join(checks.path(out, "out"), "checkpoint.grip")
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except FileNotFoundError:
        return None
    if len(head) < 24 or head[:8] != _CHECKPOINT_MAGIC:
        raise ValueError(f"{path} is not a grip run checkpoint")
    return struct.unpack("<Q", head[8:16])[0]
