# SPDX-License-Identifier: GPL-3.0-or-later
"""One bake of a scene, driven from the main thread: captures the objects at the start frame,
starts the :class:`BakeJob` worker, evaluates each later frame's kinematic input (pin targets,
deformed colliders) a little ahead of the worker, and at the end attaches the caches. The bake
operator calls :meth:`tick` from its timer (or in a loop when run blocking)."""

import os
import struct
import time

import bpy
import numpy as np

from . import grip
from .bake_job import BakeJob, BakeSetup, BodySetup, ColliderSetup, FrameInput
from .cache_files import cache_paths, state_file
from .cache_lifecycle import quiet
from .cache_modifier import DrawingModifiersOff, attach, cache_modifier, detach
from .cache_state import fingerprint, read_state, remove_state
from .capture import BakeInputError, evaluated, is_closed, metres_per_unit, outward, pinned_mask
from .integrators import solver_fields
from .pc2 import HEADER as PC2_HEADER
from .properties import ATM_PA

#: Frames of input evaluated ahead of the worker.
LOOKAHEAD = 2

_SESSIONS = {}  # scene name -> the running BakeSession

#: Statistics of the last finished bake in this Blender session (for scripts and tests):
#: frames, seconds, per-frame seconds, substeps, Newton iterations and active contacts.
LAST_STATS = {}


def running_session(scene):
    """The bake running in ``scene``, or None."""
    return _SESSIONS.get(scene.name) if scene is not None else None


def self_collision(settings, g, scale):
    """(takes part, thickness [m], 0 = the scene's) of a cloth's self-collision, or None for a
    soft body: the object's setting, or the scene's Self Contact when it says Scene Default."""
    if g.role != "CLOTH":
        return None
    enabled = settings.self_contact if g.self_collision == "SCENE" else g.self_collision == "ON"
    return bool(enabled), g.self_collision_thickness * scale


def solver_params(scene, self_contact_on):
    """The ``GripSolverParams`` fields of a bake of ``scene`` (SI): its grip settings, frame
    rate, gravity and unit scale; self-contact on when ``self_contact_on``."""
    settings, scale = scene.grip, metres_per_unit(scene)
    fps = scene.render.fps / scene.render.fps_base
    gravity = np.array(scene.gravity) * scale if scene.use_gravity else np.zeros(3)
    return dict(time_step=1.0 / fps / settings.substeps, gravity=tuple(gravity),
                contact_thickness=settings.contact_thickness * scale,
                friction_epsilon=settings.friction_epsilon * scale,
                collider_mesh_contact=settings.bl_rna.properties["collider_contact"].enum_items[
                    settings.collider_contact].value,
                self_contact=int(self_contact_on),
                self_contact_thickness=settings.self_contact_thickness * scale,
                linear_solver=settings.bl_rna.properties["linear_solver"].enum_items[settings.linear_solver].value,
                failure_policy=settings.bl_rna.properties["on_hard_frame"].enum_items[settings.on_hard_frame].value,
                **solver_fields(settings))


def library_path():
    """The grip library bundled with the add-on."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), grip.library_file_name())


def simulated_objects(scene):
    """Mesh objects of ``scene`` with the role Cloth or Soft Body."""
    return [o for o in scene.objects if o.type == "MESH" and o.grip.role in ("CLOTH", "SOFT_BODY")]


def collider_objects(scene):
    """Mesh objects of ``scene`` with the role Collider."""
    return [o for o in scene.objects if o.type == "MESH" and o.grip.role == "COLLIDER"]


class AlreadyBaked(BakeInputError):
    """The cache already reaches the frame asked for: there is nothing to simulate."""


def pc2_sample_count(path, vertex_count, frame_start):
    """Whole samples in the PC2 file at ``path`` if it has ``vertex_count`` vertices from
    ``frame_start``, else 0."""
    try:
        with open(path, "rb") as f:
            head = f.read(PC2_HEADER.size)
            size = os.fstat(f.fileno()).st_size
        _, _, n, start, _, count = PC2_HEADER.unpack(head)
    except (OSError, struct.error):
        return 0
    if n != vertex_count or start != frame_start:
        return 0
    return min(count, (size - PC2_HEADER.size) // (12 * max(n, 1)))


class BakeSession:
    """A bake of ``scene`` in progress. See the module docstring. Scene and objects are kept by
    name and looked up on every use: a Python reference to a datablock does not survive undo."""

    def __init__(self, scene):
        self._scene_name = scene.name
        self._body_names = []
        self._collider_names = []
        self.job = None
        self.error = None
        self._drawing_off = None
        self._saved_frame = scene.frame_current
        self._started = time.perf_counter()
        self._printed = 0  # frames reported by new_frame_lines()

    @property
    def scene(self):
        """The scene being baked."""
        scene = bpy.data.scenes.get(self._scene_name)
        if scene is None:
            raise BakeInputError(f"the scene '{self._scene_name}' was removed during the bake")
        return scene

    def _objects(self, names, strict=True):
        found = []
        for name in names:
            obj = bpy.data.objects.get(name)
            if obj is None and strict:
                raise BakeInputError(f"{name} was deleted or renamed during the bake")
            found.append(obj)
        return found

    @property
    def bodies(self):
        """The simulated objects, in the order of the bake setup."""
        return self._objects(self._body_names)

    @property
    def colliders(self):
        """The collider objects, in the order of the bake setup."""
        return self._objects(self._collider_names)

    # -- start ------------------------------------------------------------------------------

    def start(self, frame_end=None):
        """Captures the first frame and starts the worker: resuming the scene's cache when it
        is not outdated and was baked from the same input (its state's fingerprint), else
        starting over from the first frame. ``frame_end``: bake up to this frame instead of the
        setting's last frame (Bake to Current Frame). BakeInputError (with what to change) if
        the scene cannot be baked, AlreadyBaked if the cache reaches ``frame_end`` already."""
        scene, settings = self.scene, self.scene.grip
        if running_session(scene) is not None:
            raise BakeInputError("A grip bake is already running in this scene")
        end = settings.frame_end if frame_end is None else min(frame_end, settings.frame_end)
        if end <= settings.frame_start:
            raise BakeInputError(f"The bake's end frame ({end}) must come after its start frame "
                                 f"({settings.frame_start})")
        self._body_names = [o.name for o in simulated_objects(scene)]
        self._collider_names = [o.name for o in collider_objects(scene)]
        if not self._body_names:
            raise BakeInputError("Nothing to bake: give a mesh the grip role Cloth or Soft Body")
        paths = {o.name: cache_paths(scene, o) for o in self.bodies}
        cached = {o.name: (o.grip.cache_file, cache_modifier(o).frame_start) for o in self.bodies
                  if cache_modifier(o) is not None}
        with quiet():
            for o in self.bodies:
                detach(o)  # the files stay: the capture sees the inputs, not the cache
            self._drawing_off = DrawingModifiersOff(self.bodies).__enter__()
        try:
            setup = self._capture_setup(paths, end)
            setup.resume = self._resumable(setup)
        except BaseException:
            self._restore_scene(cached)
            raise
        if setup.resume is not None and setup.resume.frame >= end:
            self._restore_scene(cached)
            raise AlreadyBaked(f"frames {settings.frame_start}–{setup.resume.frame} are baked already")
        if setup.resume is None:  # start over: the old cache goes, wherever it was written
            remove_state(setup.state_path)
            old = [bpy.path.abspath(path) for path, _ in cached.values() if path]
            for path in [b.pc2_path for b in setup.bodies] + old:
                if os.path.isfile(path):
                    os.remove(path)
        self.paths = paths
        self.job = BakeJob(setup)
        self.job.start()
        self.next_frame = self.job.frame_from + 1
        _SESSIONS[self._scene_name] = self
        settings.is_baking = True
        settings.bake_status = "Baking"

    def _resumable(self, setup):
        """The scene's saved state if this bake can go on from it, else None."""
        state = read_state(setup.state_path)
        if state is None or self.scene.grip.cache_outdated or state.fingerprint != setup.fingerprint \
                or state.frame_start != setup.frame_start or state.frame <= setup.frame_start:
            return None
        keep = state.frame - setup.frame_start + 1
        if any(pc2_sample_count(b.pc2_path, len(b.rest), setup.frame_start) < keep for b in setup.bodies):
            return None
        return state

    def _capture_setup(self, paths, frame_end):
        scene, settings = self.scene, self.scene.grip
        scale = metres_per_unit(scene)
        scene.frame_set(settings.frame_start)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        bodies = []
        for o in self.bodies:
            world, to_local, tris = evaluated(o, depsgraph, scale, with_triangles=True)
            if len(world) != len(o.data.vertices):
                raise BakeInputError(f"{o.name}: its deforming modifiers change the vertex count")
            if len(tris) == 0:
                raise BakeInputError(f"{o.name}: the mesh has no faces")
            g = o.grip
            material = dict(density=g.density, youngs_modulus=g.youngs_modulus, poisson_ratio=g.poisson_ratio,
                            thickness=g.thickness * scale, bending_stiffness=g.bending_stiffness,
                            damping_beta=g.damping)
            volume = None
            if g.volume_preservation:
                if g.role == "CLOTH":
                    if not is_closed(tris):
                        raise BakeInputError(f"{o.name}: volume preservation needs a closed cloth mesh (every "
                                             "edge shared by exactly two faces); close it or turn it off")
                    tris = outward(world, tris)  # grip measures the volume a shell's faces enclose
                model = g.bl_rna.properties["volume_model"].enum_items[g.volume_model].value
                volume = (model, g.volume_compressibility / ATM_PA, g.volume_pressure * ATM_PA)
            bodies.append(BodySetup(
                name=o.name, kind=g.role, rest=world, triangles=tris, pinned=pinned_mask(o, g.pin_group),
                material=material, friction=g.friction, tet_size=g.tet_size * scale,
                pc2_path=paths[o.name][1], world_to_local=to_local, volume=volume,
                self_contact=self_collision(settings, g, scale)))
        colliders = []
        for o in self.colliders:
            world, _, tris = evaluated(o, depsgraph, scale, with_triangles=True)
            if len(tris) == 0:
                raise BakeInputError(f"{o.name}: a collider needs faces")
            colliders.append(ColliderSetup(name=o.name, positions=world, triangles=outward(world, tris),
                                           friction=o.grip.friction))
        # Self-collision is on in the solver when any cloth takes part; each cloth then says
        # whether it collides with itself and at which thickness.
        self_contact_on = any(b.self_contact is not None and b.self_contact[0] for b in bodies)
        for b in bodies:
            b.self_contact = b.self_contact if self_contact_on else None
        fps = scene.render.fps / scene.render.fps_base
        setup = BakeSetup(library_path=library_path(), params=solver_params(scene, self_contact_on),
                          frame_start=settings.frame_start, frame_end=frame_end, frame_duration=1.0 / fps,
                          bodies=bodies, colliders=colliders, state_path=state_file(scene))
        setup.fingerprint = fingerprint(setup)
        return setup

    # -- running ----------------------------------------------------------------------------

    @property
    def done(self):
        """True once the worker has stopped (finished, cancelled or failed)."""
        return self.job.finished.is_set()

    def wait(self, seconds):
        """Sleeps until the worker stops or ``seconds`` pass."""
        self.job.finished.wait(seconds)

    def cancel(self):
        """Stops the bake after the frames already done (Esc, the Cancel button)."""
        self.job.cancel()

    def tick(self):
        """Evaluates the input of the next frames, up to :data:`LOOKAHEAD` ahead of the worker."""
        if self.done or self.job.cancel_requested:
            return
        setup = self.job.setup
        frames_done = self.job.progress()[0]
        try:
            while self.next_frame <= setup.frame_end and \
                    self.next_frame - self.job.frame_from - 1 < frames_done + LOOKAHEAD:
                self.job.inputs.put(self._capture_frame(self.next_frame))
                self.next_frame += 1
                if self.job.cancel_requested:  # e.g. from a frame-change handler
                    return
        except BakeInputError as e:
            self.error = str(e)
            self.job.cancel()

    def _capture_frame(self, frame):
        scene = self.scene
        scale = metres_per_unit(scene)
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        inp = FrameInput(frame=frame)
        for o, b in zip(self.bodies, self.job.setup.bodies):
            world, to_local, _ = evaluated(o, depsgraph, scale)
            inp.world_to_local[o.name] = to_local
            if b.pinned.any():
                if len(world) != len(b.rest):
                    raise BakeInputError(f"{o.name}: its vertex count changed at frame {frame}")
                inp.pin_targets[o.name] = world
        for o, c in zip(self.colliders, self.job.setup.colliders):
            world, _, _ = evaluated(o, depsgraph, scale)
            if len(world) != len(c.positions):
                raise BakeInputError(f"{o.name}: a collider's vertex count must not change (frame {frame})")
            inp.colliders[o.name] = world
        return inp

    def progress(self):
        """(fraction of the bake done in [0, 1], status text)."""
        done, total, fraction, stage = self.job.progress()
        setup = self.job.setup
        if stage != "simulating":
            return 0.0, f"grip: {stage}"
        frame = min(self.job.frame_from + done + 1, setup.frame_end)
        return (done + fraction) / total, f"grip: frame {frame} of {setup.frame_end} (Esc cancels)"

    def new_frame_lines(self):
        """One line per frame finished since the last call, as Blender's own bakes print them:
        frame, seconds for it, Newton iterations and substeps, and the estimated time left."""
        seconds, reports = list(self.job.frame_seconds), list(self.job.reports)
        lines = []
        while self._printed < min(len(seconds), len(reports)):
            i = self._printed
            self._printed += 1
            left = (self.job.frame_count - i - 1) * sum(seconds[: i + 1]) / (i + 1)
            r = reports[i]
            lines.append(f"grip: frame {self.job.frame_from + i + 1} of {self.job.setup.frame_end}: "
                         f"{seconds[i]:.2f} s/frame, {r.newton_iterations} Newton iterations in {r.substeps} "
                         f"substeps, ETA {int(left) // 60}:{int(left) % 60:02d}")
            if r.fallback_message:
                lines.append(f"grip: warning: {r.fallback_message}")
            if r.pinch_message:
                lines.append(f"grip: warning: {r.pinch_message}")
        return lines

    # -- end --------------------------------------------------------------------------------

    def _restore_scene(self, caches=None):
        """Turns the drawing modifiers back on, returns to the frame the bake started from and
        attaches ``caches`` (object name -> (cache file, first frame)) again."""
        with quiet():
            if self._drawing_off is not None:
                self._drawing_off.restore()
                self._drawing_off = None
            scene = bpy.data.scenes.get(self._scene_name)
            if scene is not None:
                scene.frame_set(self._saved_frame)
            for name, (path, frame_start) in (caches or {}).items():
                obj = bpy.data.objects.get(name)
                if obj is not None and path:
                    attach(obj, path, int(frame_start))

    def finish(self):
        """Waits for the worker, restores the scene, attaches the caches of the frames done and
        returns ("FINISHED" | "CANCELLED" | "ERROR", message)."""
        self.job.join()
        _SESSIONS.pop(self._scene_name, None)
        self._restore_scene()
        scene = bpy.data.scenes.get(self._scene_name)
        if scene is None:
            return ("ERROR", "grip bake failed: its scene was removed")
        settings = scene.grip
        with quiet():
            for name, o in zip(self._body_names, self._objects(self._body_names, strict=False)):
                if o is not None and self.job.samples.get(name, 0) > 0:
                    attach(o, self.paths[name][0], settings.frame_start)
        done = self.job.progress()[0]
        last = self.job.frame_from + done
        if any(self.job.samples.values()):
            settings.cache_frame_end, settings.cache_outdated = last, False
        resumed = f" (resumed after frame {self.job.frame_from})" if self.job.setup.resume is not None else ""
        seconds = time.perf_counter() - self._started
        error = self.error or self.job.error
        # The frames kept that needed a fallback are named whichever way the bake ended.
        hard = self.job.fallback_summary() + self.job.pinch_summary()
        if error:
            kept = f"; frames {settings.frame_start}–{last} kept" if last > settings.frame_start else ""
            outcome = ("ERROR", f"grip bake failed: {error}{kept}{hard}")
        elif self.job.cancelled:
            outcome = ("CANCELLED", f"grip bake cancelled: frames {settings.frame_start}–{last} kept{hard}")
        else:
            outcome = ("FINISHED",
                       f"grip baked frames {settings.frame_start}–{last} in {seconds:.1f} s{resumed}{hard}")
        settings.is_baking = False
        settings.bake_status = outcome[1]
        reports = self.job.reports
        LAST_STATS.clear()
        LAST_STATS.update(frames=done, seconds=seconds, frame_seconds=list(self.job.frame_seconds),
                          substeps=[r.substeps for r in reports],
                          newton_iterations=[r.newton_iterations for r in reports],
                          active_contacts=[r.active_contacts for r in reports],
                          fallbacks=[r.fallbacks for r in reports],
                          fallback_messages=[r.fallback_message for r in reports],
                          pinched_vertices=[r.pinched_vertices for r in reports],
                          pinch_messages=[r.pinch_message for r in reports])
        return outcome
