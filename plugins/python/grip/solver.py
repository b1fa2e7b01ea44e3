# SPDX-License-Identifier: MIT
"""The :class:`Solver`: one native ``GripSolver``, freed by ``close()`` or a ``with`` block."""

import ctypes

import numpy as np

from . import arrays, checks
from ._structs import GripMaterial, GripProgressFn, GripShape, GripSolverParams, GripStepReport
from .errors import CancelledError, GripError
from .library import _override, _resolve

_VOLUME_MODELS = checks.constants("VOLUME_")


class Solver:
    """A grip solver. Units are SI (m, kg, s, Pa). Object and collider ids are ints.

    ``params`` is a :class:`GripSolverParams` (from ``library.solver_params()``); keyword
    arguments override its fields, e.g. ``Solver(time_step=1/480, contact_thickness=0.002)``.
    ``library`` is a :class:`Library`, a path, or None for :func:`grip.load`'s default.
    A failed call raises a :class:`GripError` subclass and leaves the solver as it was.
    Arguments are checked before any C call (:mod:`grip.checks`): a wrong type raises
    TypeError, a value the C type cannot hold ValueError, each naming the parameter."""

    def __init__(self, params=None, *, library=None, **overrides):
        checks.instance(params, "params", GripSolverParams, optional=True)
        self.library = _resolve(library)
        if params is None:
            params = self.library.solver_params(**overrides)
        else:
            params = _override(GripSolverParams.from_buffer_copy(params), overrides)
        self.params = params
        self._handle = None
        handle = ctypes.c_void_p()
        self.library.call("grip_solver_create", ctypes.byref(params), ctypes.byref(handle))
        self._handle = handle

    # -- lifetime ---------------------------------------------------------------------------

    def close(self):
        """Frees the native solver now; later calls raise GripError. Calling it again is fine."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self.library.call("grip_solver_destroy", handle)

    @property
    def closed(self):
        """True once :meth:`close` ran."""
        return self._handle is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        # A safety net only: use close() or `with` for deterministic freeing.
        if getattr(self, "_handle", None) is not None:
            try:
                self.close()
            except Exception:
                pass

    def _h(self):
        if self._handle is None:
            raise GripError("the solver is closed")
        return self._handle

    def _call(self, name, *args):
        return self.library.call(name, self._h(), *args)

    # -- building the scene -----------------------------------------------------------------

    def _material(self, material, fields):
        checks.instance(material, "material", GripMaterial, optional=True)
        if material is None:
            return self.library.material(**fields)
        return _override(type(material).from_buffer_copy(material), fields)

    def add_shell(self, positions, triangles, material=None, **material_fields):
        """Adds a triangle shell (cloth): rest ``positions`` (n, 3) [m], ``triangles`` (m, 3).
        Returns the object id."""
        x = arrays.vectors(positions, "positions")
        t = arrays.indices(triangles, "triangles", 3)
        m = self._material(material, material_fields)
        out = ctypes.c_uint32()
        self._call("grip_solver_add_shell", arrays.double_ptr(x), len(x), arrays.u32_ptr(t), len(t),
                   ctypes.byref(m), ctypes.byref(out))
        return out.value

    def add_solid(self, positions, tets, material=None, **material_fields):
        """Adds a tet solid: rest ``positions`` (n, 3) [m], positively oriented ``tets`` (m, 4).
        Returns the object id."""
        x = arrays.vectors(positions, "positions")
        t = arrays.indices(tets, "tets", 4)
        m = self._material(material, material_fields)
        out = ctypes.c_uint32()
        self._call("grip_solver_add_solid", arrays.double_ptr(x), len(x), arrays.u32_ptr(t), len(t),
                   ctypes.byref(m), ctypes.byref(out))
        return out.value

    def add_collider_shape(self, shape=None, **shape_fields):
        """Adds a kinematic analytic collider (``library.shape(kind=..., ...)``). Returns its id."""
        checks.instance(shape, "shape", GripShape, optional=True)
        if shape is None:
            shape = self.library.shape(**shape_fields)
        else:
            shape = _override(type(shape).from_buffer_copy(shape), shape_fields)
        out = ctypes.c_uint32()
        self._call("grip_solver_add_collider_shape", ctypes.byref(shape), ctypes.byref(out))
        return out.value

    def set_collider_transform(self, collider, matrix):
        """Pose an analytic collider reaches at the end of the next step/advance: a rigid 4×4
        ``matrix`` in the usual layout (translation [m] in the last column)."""
        collider = checks.object_id(collider, "collider")
        m = arrays.matrix(matrix, "matrix", 4, 4)
        column_major = np.ascontiguousarray(m.T).reshape(16)
        self._call("grip_solver_set_collider_transform", collider, arrays.double_ptr(column_major))

    def add_collider_mesh(self, positions, triangles):
        """Adds a kinematic triangle-mesh collider (``positions`` (n, 3) [m], ``triangles``
        (m, 3)) that the host deforms with :meth:`set_collider_positions`. Returns its id."""
        x = arrays.vectors(positions, "positions")
        t = arrays.indices(triangles, "triangles", 3)
        out = ctypes.c_uint32()
        self._call("grip_solver_add_collider_mesh", arrays.double_ptr(x), len(x), arrays.u32_ptr(t),
                   len(t), ctypes.byref(out))
        return out.value

    def set_collider_positions(self, collider, positions):
        """Vertex positions [m] a mesh collider reaches at the end of the next step/advance
        (interpolated over the substeps)."""
        collider = checks.object_id(collider, "collider")
        x = arrays.vectors(positions, "positions")
        self._call("grip_solver_set_collider_positions", collider, arrays.double_ptr(x), len(x))

    def set_object_friction(self, body, mu):
        """Own friction coefficient μ (dimensionless, 0 ≤ μ ≤ 100) of an object or collider. A
        pair without :meth:`set_friction` override takes the geometric mean of its two bodies'
        μ; a body without its own μ counts as the pair's default (0 between two shells, else the
        ``default_friction`` parameter)."""
        self._call("grip_solver_set_object_friction", checks.object_id(body, "body"), checks.real(mu, "mu"))

    def set_friction(self, a, b, mu):
        """Friction coefficient μ (dimensionless, 0 ≤ μ ≤ 100) between objects/colliders ``a``
        and ``b`` (``a == b``: an object with itself), overriding their own μ."""
        self._call("grip_solver_set_friction", checks.object_id(a, "a"), checks.object_id(b, "b"),
                   checks.real(mu, "mu"))

    def set_object_self_contact(self, body, enabled=True, thickness=0.0):
        """Self-contact of shell ``body`` (acts while the ``self_contact`` parameter is on).
        ``enabled`` False: the shell's own primitives form no pairs with each other (it may pass
        through itself) but it still meets other shells and solids. ``thickness`` is its own
        self-contact thickness δ [m] (> 0, at most 1e3), 0 for the ``self_contact_thickness``
        parameter. Pairs of shells A and B are (δ_A + δ_B)/2 thick. Takes effect at the next
        step; refused for a solid, a collider or an unknown id, with nothing changed."""
        self._call("grip_solver_set_object_self_contact", checks.object_id(body, "body"),
                   checks.flag(enabled, "enabled"), checks.real(thickness, "thickness"))

    def friction(self, a, b):
        """The friction coefficient μ (dimensionless) that contact between objects/colliders ``a``
        and ``b`` uses, as resolved from their own μ, the overrides and the defaults."""
        a, b = checks.object_id(a, "a"), checks.object_id(b, "b")
        mu = ctypes.c_double()
        self._call("grip_solver_get_friction", a, b, ctypes.byref(mu))
        return mu.value

    def set_volume_penalty(self, obj, model, compression_coefficient=0.0, pressure=0.0):
        """Volume-change penalty of a solid or closed shell (paper §3.4): ``model`` one of
        ``VOLUME_*`` (``VOLUME_NONE`` removes it), compression coefficient κ_v [1/Pa], over-pressure
        [Pa] at the rest volume (the volume now)."""
        self._call("grip_solver_set_volume_penalty", checks.object_id(obj, "obj"),
                   checks.enum(model, "model", _VOLUME_MODELS),
                   checks.real(compression_coefficient, "compression_coefficient"), checks.real(pressure, "pressure"))

    def set_vertex_attribute(self, obj, name, values):
        """Sets a per-vertex attribute (real ``values`` of shape (n,) or (n, k)); see grip.h for
        the names: "velocity" [m/s], "position" [m], "pinned" (nonzero = pinned; bools too),
        "target" [m], "pin_stiffness" [N/m]."""
        obj = checks.object_id(obj, "obj")
        key = checks.text(name, "name")
        arr = checks.real_array(values, "values", allow_bool=name == "pinned")
        if arr.ndim == 1:
            arr = arrays.scalars(arr, "values")
        elif arr.ndim == 2:
            arr = arrays.vectors(arr, "values", arr.shape[1])
        else:
            raise ValueError(f"values: expected shape (n,) or (n, k), got {arr.shape}")
        self._set_attribute(obj, key, arr)

    def _set_attribute(self, obj, key, arr):
        """Sets attribute ``key`` (bytes) of a checked id ``obj`` to a checked float64 array."""
        n, k = (arr.shape[0], 1) if arr.ndim == 1 else arr.shape
        self._call("grip_solver_set_vertex_attribute", obj, key, arrays.double_ptr(arr), n, k)

    def set_pinned(self, obj, pinned):
        """Pins the vertices where ``pinned`` (n,) (bools or numbers) is true/nonzero and frees
        the others."""
        self._set_attribute(checks.object_id(obj, "obj"), b"pinned", arrays.scalars(pinned, "pinned", allow_bool=True))

    def set_targets(self, obj, positions):
        """Where the pinned vertices of ``obj`` must be at the end of the next step/advance [m];
        rows of free vertices are ignored."""
        self._set_attribute(checks.object_id(obj, "obj"), b"target", arrays.vectors(positions, "positions"))

    def set_pin_stiffness(self, obj, stiffness):
        """Soft pins: a spring of ``stiffness`` (n,) [N/m, 0..1e9] pulls each vertex toward its
        anchor, which starts where the vertex is now and follows its targets; 0 removes it."""
        self._set_attribute(checks.object_id(obj, "obj"), b"pin_stiffness", arrays.scalars(stiffness, "stiffness"))

    # -- stepping ---------------------------------------------------------------------------

    def step(self, dt, progress=None):
        """One implicit step of ``dt`` seconds. See :meth:`advance` for ``progress``."""
        self._run("grip_solver_step", checks.real(dt, "dt"), progress)

    def advance(self, duration, progress=None):
        """Advances ``duration`` seconds in substeps of at most ``params.time_step``.
        ``progress(fraction_done)`` is called during the call, on the calling thread, between
        Newton iterations and after each substep; returning True cancels it
        (:class:`CancelledError`, solver unchanged). An exception raised by ``progress`` cancels
        the call and is re-raised."""
        self._run("grip_solver_advance", checks.real(duration, "duration"), progress)

    def _run(self, name, seconds, progress):
        checks.callback(progress, "progress")
        if progress is None:
            self._call(name, seconds)
            return
        raised = []

        def trampoline(_user_data, fraction):
            try:
                return 1 if progress(fraction) else 0
            except BaseException as e:  # noqa: B036 - re-raised after the C call returns
                raised.append(e)
                return 1

        callback = GripProgressFn(trampoline)  # kept alive by this frame during the call
        self._call("grip_solver_set_progress_callback", callback, None)
        try:
            self._call(name, seconds)
        except CancelledError:
            if raised:
                raise raised[0] from None
            raise
        finally:
            if self._handle is not None:
                self._call("grip_solver_set_progress_callback", GripProgressFn(), None)

    # -- results ----------------------------------------------------------------------------

    def vertex_count(self, obj):
        """Number of vertices of object ``obj``."""
        obj = checks.object_id(obj, "obj")
        n = ctypes.c_size_t()
        self._call("grip_solver_vertex_count", obj, ctypes.byref(n))
        return n.value

    def positions(self, obj, out=None):
        """Current positions [m] of ``obj`` as (n, 3) float64, written into ``out`` if given."""
        obj = checks.object_id(obj, "obj")
        n = self.vertex_count(obj)
        arr = arrays.output(out, n, 3, "positions")
        self._call("grip_solver_get_positions", obj, arrays.double_ptr(arr), n)
        return arr

    def velocities(self, obj, out=None):
        """Current velocities [m/s] of ``obj`` as (n, 3) float64, written into ``out`` if given."""
        obj = checks.object_id(obj, "obj")
        n = self.vertex_count(obj)
        arr = arrays.output(out, n, 3, "velocities")
        self._call("grip_solver_get_velocities", obj, arrays.double_ptr(arr), n)
        return arr

    def checkpoint(self):
        """The solver's state as ``bytes`` (grip's own versioned format: positions, velocities,
        pins and targets, colliders, contact stiffnesses, integrator history). :meth:`restore`
        puts it back into a solver built the same way, which then continues bit for bit."""
        size = ctypes.c_size_t()
        self._call("grip_solver_checkpoint_size", ctypes.byref(size))
        buffer = (ctypes.c_uint8 * max(size.value, 1))()
        written = ctypes.c_size_t()
        self._call("grip_solver_checkpoint", buffer, size.value, ctypes.byref(written))
        return bytes(buffer[: written.value])

    def restore(self, state):
        """Puts back the state of :meth:`checkpoint` (``bytes``). The solver must hold the same
        objects, added in the same order from the same rest positions; materials and parameters
        may differ. A :class:`GripError` (solver unchanged) if the bytes are damaged or come from
        another model."""
        data = checks.blob(state, "state")
        buffer = (ctypes.c_uint8 * max(len(data), 1)).from_buffer_copy(data.ljust(1, b"\0"))
        self._call("grip_solver_restore", buffer, len(data))

    def report(self):
        """The :class:`GripStepReport` of the last step/advance (failed ones included)."""
        report = GripStepReport()
        self._call("grip_solver_get_report", ctypes.byref(report))
        return report
