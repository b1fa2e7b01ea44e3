# SPDX-License-Identifier: GPL-3.0-or-later
"""The resumable state of a bake, kept beside its PC2 files (no bpy here).

After every baked frame the worker writes ``<scene>.grip_state`` into the cache folder: a JSON
header line (format, the last frame baked, the bake's first frame, the fingerprint of its input)
then the solver's checkpoint (``grip.Solver.checkpoint``). It is written to a temporary file and
renamed, so a crash while writing leaves the previous state whole. A later bake whose input has
the same fingerprint restores the solver from it and goes on from the next frame; grip's
checkpoints make the continuation bit for bit the bake that never stopped.

The fingerprint hashes everything the solver is built from at the first frame: the solver
parameters (time step, contact, integrator, ...; not the failure policy, which decides whether a
bake goes on, not what a baked frame holds), every simulated object's rest shape, elements,
pins, material, friction, volume and self-collision settings, and every collider's shape and
friction. The last frame is not part of it: a bake may be extended to more frames.
"""

import dataclasses
import hashlib
import json
import os

import numpy as np

#: The header's ``format`` value.
FORMAT = "grip-blender-bake-state/1"
SUFFIX = ".grip_state"


def state_path(folder, scene_name):
    """The state file of scene ``scene_name`` in cache folder ``folder`` (absolute)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in scene_name) or "scene"
    return os.path.join(folder, safe + SUFFIX)


def _feed(h, value):
    """Adds ``value`` (arrays by dtype, shape and bytes; containers in order) to hash ``h``."""
    if isinstance(value, np.ndarray):
        h.update(f"array {value.dtype.str} {value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        h.update(f"dict {len(value)}".encode())
        for key in sorted(value):
            _feed(h, key)
            _feed(h, value[key])
    elif isinstance(value, (list, tuple)):
        h.update(f"seq {len(value)}".encode())
        for item in value:
            _feed(h, item)
    elif isinstance(value, float):
        h.update(b"f" + np.float64(value).tobytes())
    else:
        h.update(f"{type(value).__name__} {value!r}".encode())


def fingerprint(setup):
    """Hex SHA-256 of a ``bake_job.BakeSetup``'s input (see the module docstring)."""
    h = hashlib.sha256(FORMAT.encode())
    # The failure policy decides whether a bake goes on, not what a frame baked holds.
    _feed(h, {k: v for k, v in setup.params.items() if k != "failure_policy"})
    _feed(h, [setup.frame_start, float(setup.frame_duration)])
    skip = {"pc2_path", "world_to_local"}  # where the output goes, not what is simulated
    for body in setup.bodies:
        _feed(h, {f.name: getattr(body, f.name) for f in dataclasses.fields(body) if f.name not in skip})
    for collider in setup.colliders:
        _feed(h, {f.name: getattr(collider, f.name) for f in dataclasses.fields(collider)})
    return h.hexdigest()


@dataclasses.dataclass
class BakeState:
    """A bake's state after ``frame``: resumable by a bake of the same ``fingerprint``."""

    frame: int  # the last frame baked
    frame_start: int  # the bake's first frame (sample 0 of its PC2 files)
    fingerprint: str
    solver: bytes  # grip.Solver.checkpoint()


def write_state(path, state):
    """Writes ``state`` to ``path`` atomically (temporary file, then rename)."""
    header = dict(format=FORMAT, frame=state.frame, frame_start=state.frame_start,
                  fingerprint=state.fingerprint, solver_bytes=len(state.solver))
    partial = path + ".partial"
    with open(partial, "wb") as f:
        f.write(json.dumps(header).encode() + b"\n")
        f.write(state.solver)
    os.replace(partial, path)


def read_state(path):
    """The :class:`BakeState` in ``path``, or None when there is none or it is not whole."""
    try:
        with open(path, "rb") as f:
            line = f.readline()
            solver = f.read()
        header = json.loads(line)
    except (OSError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("solver_bytes") != len(solver):
        return None
    try:
        return BakeState(frame=int(header["frame"]), frame_start=int(header["frame_start"]),
                         fingerprint=str(header["fingerprint"]), solver=solver)
    except (KeyError, TypeError, ValueError):
        return None


def remove_state(path):
    """Deletes the state file (and a partial one); True if there was one."""
    had = False
    for p in (path, path + ".partial"):
        if os.path.isfile(p):
            os.remove(p)
            had = True
    return had
