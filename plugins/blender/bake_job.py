# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulation of one bake, run on a worker thread. It never touches bpy: the main thread
hands it plain numpy data (:class:`BakeSetup` at the start, one :class:`FrameInput` per frame)
and reads its progress; it writes one PC2 file per simulated object."""

import queue
import threading
import time
import traceback
from dataclasses import dataclass, field

import numpy as np

from . import grip
from .cache_state import BakeState, write_state
from .embedding import Embedding
from .pc2 import PC2Writer


@dataclass
class BodySetup:
    """A simulated object (Cloth or Soft Body) at the start frame, SI units, world space."""

    name: str
    kind: str  # "CLOTH" or "SOFT_BODY"
    rest: np.ndarray  # (n, 3) [m]
    triangles: np.ndarray  # (m, 3) uint32
    pinned: np.ndarray  # (n,) bool
    material: dict  # GripMaterial fields, SI
    friction: float
    tet_size: float  # [m], soft bodies
    pc2_path: str
    world_to_local: np.ndarray  # 4×4: metres (world) -> Blender units (object local)
    # (grip VOLUME_* model, κ_v [1/Pa], over-pressure [Pa]) or None: no volume preservation.
    volume: tuple = None
    # (takes part in self-collision, its thickness [m]; 0 = the solver's) of a cloth, or None.
    self_contact: tuple = None


@dataclass
class ColliderSetup:
    """A mesh collider at the start frame [m], world space."""

    name: str
    positions: np.ndarray
    triangles: np.ndarray
    friction: float


@dataclass
class BakeSetup:
    """Everything the worker needs before the first frame."""

    library_path: str
    params: dict  # GripSolverParams fields, SI
    frame_start: int
    frame_end: int
    frame_duration: float  # [s]
    bodies: list
    colliders: list
    state_path: str = ""  # where the resumable state is written after every frame ("" = nowhere)
    fingerprint: str = ""  # cache_state.fingerprint of this setup
    resume: BakeState = None  # continue after resume.frame from this state, or None: from the start


@dataclass
class FrameReport:
    """What the solver reported of one frame."""

    substeps: int
    newton_iterations: int
    active_contacts: int
    fallbacks: int  # substeps completed by a fallback (On a Hard Frame: Continue)
    fallback_message: str  # which object failed to converge near which point, and the fallback; "" if none
    pinched_vertices: int = 0  # vertices two colliders closed on to less than the contact thickness
    pinch_message: str = ""  # which object is pinched between which colliders near which point; "" if none


@dataclass
class FrameInput:
    """The host's kinematic state at the end of one frame, evaluated on the main thread."""

    frame: int
    pin_targets: dict = field(default_factory=dict)  # body name -> (n, 3) [m]
    colliders: dict = field(default_factory=dict)  # collider name -> (n, 3) [m]
    world_to_local: dict = field(default_factory=dict)  # body name -> 4×4


def to_local(positions, world_to_local):
    """Positions (n, 3) transformed by a 4×4 affine matrix."""
    return positions @ world_to_local[:3, :3].T + world_to_local[:3, 3]


def add_collider(solver, setup):
    """Adds the collider mesh of ``setup`` (a :class:`ColliderSetup`) with its own friction μ;
    returns its id. grip gives each pair the geometric mean of its two objects' μ."""
    cid = solver.add_collider_mesh(setup.positions, setup.triangles)
    solver.set_object_friction(cid, setup.friction)
    return cid


class _naming:
    """Context manager: a GripError raised inside names the Blender object it is about."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, kind, error, _tb):
        if isinstance(error, grip.GripError) and not isinstance(error, grip.CancelledError):
            raise type(error)(f"{self.name}: {error}", status=error.status, function=None) from None
        return False


class _Body:
    """A body inside the running solver, with its own friction μ."""

    def __init__(self, setup, solver, library):
        self.setup = setup
        self.embedding = None
        if setup.kind == "SOFT_BODY":
            with grip.tetrahedralize(setup.rest, setup.triangles, setup.tet_size, library=library) as mesh:
                tet_positions, tets = mesh.positions, mesh.tets
            self.id = solver.add_solid(tet_positions, tets, **setup.material)
            self.embedding = Embedding(tet_positions, tets, setup.rest)
            self.sim_rest = tet_positions
            self.sim_pinned = np.zeros(len(tet_positions), dtype=bool)
            self.sim_pinned[self.embedding.nearest[setup.pinned]] = True
        else:
            self.id = solver.add_shell(setup.rest, setup.triangles, **setup.material)
            self.sim_rest = setup.rest
            self.sim_pinned = setup.pinned
        if self.sim_pinned.any():
            solver.set_pinned(self.id, self.sim_pinned)
        if setup.volume is not None:
            model, compression, pressure = setup.volume
            solver.set_volume_penalty(self.id, model, compression, pressure)
        if setup.self_contact is not None:
            enabled, thickness = setup.self_contact
            solver.set_object_self_contact(self.id, enabled, thickness)
        solver.set_object_friction(self.id, setup.friction)

    def targets(self, surface_targets):
        """Pin targets of the simulated vertices for the object's evaluated positions."""
        if self.embedding is None:
            return surface_targets
        targets = self.sim_rest.copy()
        pinned = self.setup.pinned
        # A pinned tet vertex keeps its rest offset from the surface vertex that pins it.
        nearest = self.embedding.nearest[pinned]
        targets[nearest] = surface_targets[pinned] + (self.sim_rest[nearest] - self.setup.rest[pinned])
        return targets

    def surface(self, sim_positions):
        """Positions of the object's own vertices [m]."""
        return sim_positions if self.embedding is None else self.embedding.apply(sim_positions)


class BakeJob:
    """Runs a bake on its own thread. The main thread calls :meth:`start`, puts one
    :class:`FrameInput` per frame into :attr:`inputs`, polls :meth:`progress`, and may call
    :meth:`cancel`. Frames finished before a cancel or an error stay in the PC2 files, and the
    solver's state after the last of them in ``setup.state_path`` (a later job resumes it)."""

    def __init__(self, setup):
        self.setup = setup
        self.inputs = queue.Queue()
        self.finished = threading.Event()
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._frames_done = 0
        self._fraction = 0.0
        self._stage = "starting"
        self.error = None
        self.cancelled = False
        self.samples = {}  # body name -> samples written (start frame included)
        self.frame_seconds = []  # wall-clock seconds of each simulated frame
        self.reports = []  # a FrameReport per frame
        self._thread = None

    @property
    def frame_from(self):
        """The frame the simulation starts after: the bake's first frame, or the last frame of
        the state it resumes."""
        return self.setup.resume.frame if self.setup.resume is not None else self.setup.frame_start

    @property
    def frame_count(self):
        """Frames this job simulates (after :attr:`frame_from`)."""
        return self.setup.frame_end - self.frame_from

    def start(self):
        """Starts the worker thread."""
        self._thread = threading.Thread(target=self._run, name="grip-bake", daemon=True)
        self._thread.start()

    def cancel(self):
        """Asks the worker to stop; the frame in progress is abandoned (solver unchanged)."""
        self._cancel.set()

    @property
    def cancel_requested(self):
        """True once :meth:`cancel` was called."""
        return self._cancel.is_set()

    def join(self, timeout=None):
        """Waits for the worker thread."""
        if self._thread is not None:
            self._thread.join(timeout)

    def progress(self):
        """(frames done, frames in total, fraction of the frame in progress, stage text)."""
        with self._lock:
            return self._frames_done, self.frame_count, self._fraction, self._stage

    def _frames_note(self, happened, what, message):
        """A bake status note on the frames whose report satisfies ``happened`` ("" when none
        does): how many, the first few, ``what`` befell them, and the last one's ``message``
        (a report attribute name)."""
        with self._lock:
            frames = [(self.frame_from + i + 1, r) for i, r in enumerate(self.reports) if happened(r)]
        if not frames:
            return ""
        first = ", ".join(str(f) for f, _ in frames[:5]) + (", …" if len(frames) > 5 else "")
        return f"; {what(len(frames))} ({first}; see the console), the last: {getattr(frames[-1][1], message)}"

    def fallback_summary(self):
        """The bake status's note on the frames that needed fallbacks ("" when none did): how
        many, the first few, and the last one's message."""
        return self._frames_note(lambda r: r.fallbacks,
                                 lambda n: f"{n} hard frame{'s' if n > 1 else ''} continued with a fallback",
                                 "fallback_message")

    def pinch_summary(self):
        """The bake status's note on the frames where colliders pinched the cloth ("" when none
        did): how many, the first few, and the last one's message."""
        return self._frames_note(lambda r: r.pinched_vertices,
                                 lambda n: f"{n} frame{'s' if n > 1 else ''} with the cloth pinched between colliders",
                                 "pinch_message")

    def _set(self, **values):
        with self._lock:
            for k, v in values.items():
                setattr(self, "_" + k, v)

    def _on_progress(self, fraction):
        with self._lock:
            self._fraction = fraction
        return self._cancel.is_set()

    def _next_input(self):
        while True:
            if self._cancel.is_set():
                raise grip.CancelledError("cancelled while waiting for the next frame's input")
            try:
                return self.inputs.get(timeout=0.05)
            except queue.Empty:
                continue

    def _run(self):
        writers = {}
        try:
            self._simulate(writers)
        except grip.CancelledError:
            self.cancelled = True
        except grip.GripError as e:
            self.error = str(e)
        except Exception as e:  # reported in the UI, never raised into Blender's thread
            self.error = f"internal error in the bake: {e!r}\n{traceback.format_exc()}"
        finally:
            for name, writer in writers.items():
                self.samples[name] = writer.samples
                writer.close()
            self.finished.set()

    def _simulate(self, writers):
        s = self.setup
        library = grip.load(s.library_path)
        with grip.Solver(library=library, **s.params) as solver:
            bodies = []
            for b in s.bodies:
                self._set(stage=f"preparing {b.name}")
                with _naming(b.name):
                    bodies.append(_Body(b, solver, library))
            colliders = []
            for c in s.colliders:
                with _naming(c.name):
                    colliders.append((c, add_collider(solver, c)))
            if s.resume is not None:
                solver.restore(s.resume.solver)
                keep = s.resume.frame - s.frame_start + 1
                for body in bodies:
                    writers[body.setup.name] = PC2Writer(body.setup.pc2_path, len(body.setup.rest), s.frame_start,
                                                         keep=keep)
            else:
                for body in bodies:
                    writer = PC2Writer(body.setup.pc2_path, len(body.setup.rest), s.frame_start)
                    writers[body.setup.name] = writer
                    writer.append(to_local(body.setup.rest, body.setup.world_to_local))
            names = {body.id: body.setup.name for body in bodies}
            names.update({cid: c.name for c, cid in colliders})
            thickness = s.params.get("contact_thickness") or library.solver_params().contact_thickness
            self._set(stage="simulating")
            for frame in range(self.frame_from + 1, s.frame_end + 1):
                inp = self._next_input()
                if inp.frame != frame:
                    raise RuntimeError(f"input for frame {inp.frame} arrived while simulating frame {frame}")
                for body in bodies:
                    targets = inp.pin_targets.get(body.setup.name)
                    if targets is not None:
                        solver.set_targets(body.id, body.targets(targets))
                for c, cid in colliders:
                    solver.set_collider_positions(cid, inp.colliders[c.name])
                t0 = time.perf_counter()
                try:
                    solver.advance(s.frame_duration, progress=self._on_progress)
                except grip.NotConvergedError as e:
                    policy = s.params.get("failure_policy", grip.FAILURE_POLICY_STRICT)
                    way_on = (" (On a Hard Frame: Continue with a Fallback bakes on past such a frame)"
                              if policy == grip.FAILURE_POLICY_STRICT else "")
                    raise grip.NotConvergedError(f"the solver failed at frame {frame}: {e.message}{way_on}",
                                                 status=e.status, function=e.function) from None
                self.frame_seconds.append(time.perf_counter() - t0)
                r = solver.report()
                message = grip.fallback_message(r, names.get, f"at frame {frame}") or ""
                pinch = grip.pinch_message(r, thickness, names.get, f"at frame {frame}") or ""
                with self._lock:
                    self.reports.append(FrameReport(r.substeps, r.newton_iterations, r.active_contacts,
                                                    grip.fallback_count(r), message, r.pinched_vertices, pinch))
                for body in bodies:
                    surface = body.surface(solver.positions(body.id))
                    writers[body.setup.name].append(to_local(surface, inp.world_to_local[body.setup.name]))
                if s.state_path:
                    # After the samples: a crash in between leaves a state the PC2 files reach.
                    write_state(s.state_path, BakeState(frame=frame, frame_start=s.frame_start,
                                                        fingerprint=s.fingerprint, solver=solver.checkpoint()))
                with self._lock:
                    self._frames_done += 1
                    self._fraction = 0.0
