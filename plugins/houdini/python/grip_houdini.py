# SPDX-License-Identifier: MIT
"""The Houdini Python SOP's logic, without ``hou``: the same rules as the compiled SOP's core
(plugins/houdini/src/core), over the Python binding ``grip``. ``grip_python_sop.py`` copies the
node's inputs into :class:`Geometry`, calls :func:`cook`, and writes the result back; the inputs'
split into bodies is :mod:`grip_houdini_geometry`.

Units are SI (Houdini's unit length taken as 1 m). Houdini is Y up: gravity defaults to
(0, -9.81, 0). Point numbers are Houdini point indices.
"""

import random
import threading

import numpy as np

import grip
from grip_houdini_geometry import (  # noqa: F401 (the SOP's inputs, re-exported)
    OTHER,
    POLYGON,
    TETRAHEDRON,
    Body,
    Geometry,
    SopError,
    friction_multiplier,
    pin_plan,
    split_colliders,
    split_objects,
)

SOLVER_KEY_ATTRIBUTE = "grip_solver"
SAME_TIME_TOLERANCE = 1e-7  # [s]


def default_parameters(library=None):
    """The SOP's parameter defaults: grip's C defaults, Y-up gravity, 1/24 s in 4 substeps,
    a rubber-like solid. Keys are the compiled SOP's parameter names; a menu's value is its item
    index, which is the C value (``collidercontact``: ``grip.COLLIDER_MESH_CONTACT_EXACT`` 0,
    "Exact Distance", or ``grip.COLLIDER_MESH_CONTACT_IMPLICIT`` 1, "Smooth Surface";
    ``integrator``: ``grip.INTEGRATOR_*``, 0 backward Euler to 9 SIERE; ``onhardframe``:
    ``grip.FAILURE_POLICY_STRICT`` 0, "Stop", or ``grip.FAILURE_POLICY_CONTINUE`` 1, "Continue with
    a Fallback", the default)."""
    lib = library or grip.load()
    c, m = lib.solver_params(), lib.material()
    shell = {"density": m.density, "youngs_modulus": m.youngs_modulus, "poisson_ratio": m.poisson_ratio,
             "thickness": m.thickness, "bending_stiffness": m.bending_stiffness, "damping_alpha": m.damping_alpha,
             "damping_beta": m.damping_beta, "membrane_model": m.membrane_model}
    solid = dict(shell, density=1100.0, youngs_modulus=1e6, poisson_ratio=0.45)
    return {"startframe_time": 0.0, "timestep": 1.0 / 24.0, "substeps": 4, "gravity": (0.0, c.gravity[2], 0.0),
            "integrator": c.integrator, "newmarkbeta": c.newmark_beta, "newmarkgamma": c.newmark_gamma,
            "spectralradius": c.spectral_radius, "modalcount": c.modal_count, "semiimplicit": c.semi_implicit,
            "maxnewton": c.max_newton_iterations, "tolerance": c.residual_tolerance, "workers": c.worker_count,
            "contactthickness": c.contact_thickness, "friction": c.default_friction,
            "frictioncoupling": c.friction_coupling, "frictionepsilon": c.friction_epsilon,
            "selfcontact": c.self_contact, "selfcontactthickness": c.self_contact_thickness,
            "colliderwinding": 0, "collidercontact": c.collider_mesh_contact,
            "onhardframe": grip.FAILURE_POLICY_CONTINUE, "typeattrib": "grip_type",
            "nameattrib": "name", "shell": shell, "solid": solid}


def solver_params(p):
    """GripSolverParams fields for grip.Solver(**fields)."""
    if not p["timestep"] > 0:
        raise SopError("Time Step must be > 0 s")
    if p["substeps"] < 1:
        raise SopError("Substeps must be at least 1")
    return {"time_step": p["timestep"] / p["substeps"], "gravity": tuple(p["gravity"]),
            "integrator": int(p["integrator"]), "newmark_beta": p["newmarkbeta"], "newmark_gamma": p["newmarkgamma"],
            "spectral_radius": p["spectralradius"], "modal_count": int(p["modalcount"]),
            "semi_implicit": int(bool(p["semiimplicit"])),
            "max_newton_iterations": int(p["maxnewton"]), "residual_tolerance": p["tolerance"],
            "worker_count": int(p["workers"]), "contact_thickness": p["contactthickness"],
            "default_friction": p["friction"], "friction_coupling": int(p["frictioncoupling"]),
            "friction_epsilon": p["frictionepsilon"], "self_contact": int(bool(p["selfcontact"])),
            "self_contact_thickness": p["selfcontactthickness"],
            "collider_mesh_contact": int(p["collidercontact"]), "failure_policy": int(p["onhardframe"])}


def decide(time, start_time, clock):
    """("reset" | "reuse" | "advance", duration, warning) as the compiled SOP decides;
    ``clock`` is None or (time, same_parameters, same_point_count) of the live simulation."""
    if time <= start_time + SAME_TIME_TOLERANCE:
        return "reset", 0.0, ""
    if clock is None:
        return "reset", 0.0, ("no simulation state arrives on input 0 (no grip_solver detail attribute from this "
                              "node): the simulation starts here. Inside a SOP Solver, wire Prev_Frame into input 0")
    last, same_parameters, same_points = clock
    if not same_parameters:
        return "reset", 0.0, "parameters changed since the start frame: the simulation restarted"
    if not same_points:
        return "reset", 0.0, "input 0 changed its point count: the simulation restarted"
    dt = time - last
    if abs(dt) <= SAME_TIME_TOLERANCE:
        return "reuse", 0.0, ""
    if dt < 0:
        return "reset", 0.0, f"time went back from {last:.6g} s to {time:.6g} s: the simulation restarted"
    return "advance", dt, ""


class Simulation:
    """A live solver, the bodies it simulates and what it was built from."""

    def __init__(self, solver, objects, colliders, parameters, point_count, time):
        self.solver, self.objects, self.colliders = solver, objects, colliders
        self.parameters, self.point_count, self.time = parameters, point_count, time


class Registry:
    """Keys (the grip_solver detail attribute) to simulations, one per owner (node). Keys fit a
    32-bit int attribute and carry a random per-registry salt in their upper 15 bits, so a key
    saved in a file does not find another session's solver."""

    def __init__(self):
        self._lock = threading.Lock()
        self._slots = {}
        self._salt = random.SystemRandom().getrandbits(15) << 16
        self._counter = 0

    def _new_key(self):
        while True:  # 16-bit counter under the salt; never 0, never a live key
            self._counter = (self._counter + 1) & 0xFFFF
            key = self._salt | self._counter
            if key != 0 and key not in self._slots:
                return key

    def find(self, key, owner):
        with self._lock:
            slot = self._slots.get(key)
            return slot[1] if slot is not None and slot[0] == owner else None

    def insert(self, owner, simulation):
        with self._lock:
            for key in [k for k, (o, _) in self._slots.items() if o == owner]:
                self._slots.pop(key)[1].solver.close()
            key = self._new_key()
            self._slots[key] = (owner, simulation)
            return key

    def remove_owner(self, owner):
        with self._lock:
            keys = [k for k, (o, _) in self._slots.items() if o == owner]
            for key in keys:
                self._slots.pop(key)[1].solver.close()
            return len(keys)

    def __len__(self):
        return len(self._slots)


REGISTRY = Registry()


def _pin_source(inputs):
    g, pins = inputs[0], inputs[1]
    if pins is None:
        return g
    if len(pins.positions) != len(g.positions):
        raise SopError(f"input 1 (pins) has {len(pins.positions)} points, input 0 has {len(g.positions)}: "
                       "the pin source must match input 0 point for point")
    return pins


def _build(inputs, p, time, warnings, library):
    g, colliders = inputs[0], inputs[2]
    source = _pin_source(inputs)
    rest_attribute = g.attribute("rest", 3, warnings)
    rest = g.positions if rest_attribute is None else rest_attribute
    objects = split_objects(g, rest, p["typeattrib"], p["nameattrib"], warnings)
    solver = grip.Solver(library=library, **solver_params(p))
    try:
        velocity = g.attribute("v", 3, warnings)
        for b in objects:
            try:
                material = p["solid"] if b.kind == "solid" else p["shell"]
                add = solver.add_solid if b.kind == "solid" else solver.add_shell
                b.id = add(rest[b.points], b.elements, **material)
                if rest is not g.positions:
                    solver.set_vertex_attribute(b.id, "position", g.positions[b.points])
                if velocity is not None:
                    solver.set_vertex_attribute(b.id, "velocity", velocity[b.points])
                solver.set_pinned(b.id, pin_plan(b, source, solver.positions(b.id), warnings)[0])
            except grip.GripError as e:
                raise SopError(f'object "{b.name}": {e.message}') from None
        meshes = []
        if colliders is not None:
            meshes = split_colliders(colliders, p["nameattrib"], p["colliderwinding"] == 0, warnings)
            for c in meshes:
                try:
                    c.id = solver.add_collider_mesh(colliders.positions[c.points], c.elements)
                except grip.GripError as e:
                    raise SopError(f'collider "{c.name}": {e.message}') from None
        # A body whose friction attribute is not 1 has its own μ, the parameter times the
        # attribute; grip gives a pair the geometric mean of its two bodies' μ, a body without its
        # own μ counting as the parameter (as 0 between two shells).
        bodies = [(b.id, friction_multiplier(g, b.points, b.name, warnings)) for b in objects]
        bodies += [(c.id, friction_multiplier(colliders, c.points, c.name, warnings)) for c in meshes]
        for body, multiplier in bodies:
            if multiplier != 1.0:
                solver.set_object_friction(body, p["friction"] * multiplier)
    except BaseException:
        solver.close()
        raise
    return Simulation(solver, objects, meshes, p, len(g.positions), time)


def cook_moment(time, time_step):
    """"at frame F" for a cook at ``time`` [s] with frames ``time_step`` [s] long (Houdini's frame
    1 at t = 0), or "at t = … s" between frames (a SOP Solver substep), as the compiled SOP says."""
    frame = time / time_step + 1.0
    if abs(frame - round(frame)) < 1e-6:
        return f"at frame {round(frame)}"
    return f"at t = {time:.4f} s"


def run_interruptible(solver, duration, interrupted, poll_interval=0.05):
    """solver.advance(duration) on a helper thread while this thread calls
    ``interrupted(fraction)`` every ``poll_interval`` s; once it returns True the progress
    callback (on the helper thread, between Newton iterations) cancels the advance
    (grip.CancelledError, solver unchanged)."""
    state = {"fraction": 0.0, "cancel": False, "error": None}

    def work():
        try:
            solver.advance(duration, progress=lambda f: state.update(fraction=f) or state["cancel"])
        except BaseException as e:  # noqa: B036 - re-raised on the calling thread
            state["error"] = e

    helper = threading.Thread(target=work, name="grip-advance")
    helper.start()
    while helper.is_alive():
        helper.join(poll_interval)
        if helper.is_alive() and not state["cancel"] and interrupted(state["fraction"]):
            state["cancel"] = True
    if state["error"] is not None:
        raise state["error"]


def _advance(sim, inputs, duration, interrupted, warnings):
    colliders = inputs[2]
    now = split_colliders(colliders, sim.parameters["nameattrib"], sim.parameters["colliderwinding"] == 0, []) \
        if colliders is not None else []
    same = len(now) == len(sim.colliders) and all(
        a.name == b.name and np.array_equal(a.points, b.points) and np.array_equal(a.elements, b.elements)
        for a, b in zip(now, sim.colliders))
    if not same:
        raise SopError("the colliders on input 2 changed topology since the start frame: animate their points "
                       "only, or reset the simulation")
    for c in sim.colliders:
        sim.solver.set_collider_positions(c.id, colliders.positions[c.points])
    source = _pin_source(inputs)
    for b in sim.objects:
        pinned, targets = pin_plan(b, source, sim.solver.positions(b.id), warnings)
        sim.solver.set_pinned(b.id, pinned)
        if targets is not None:
            sim.solver.set_targets(b.id, targets)
    run_interruptible(sim.solver, duration, interrupted)


def cook(inputs, parameters, time, key, owner, registry=REGISTRY, interrupted=lambda f: False, library=None):
    """One cook: ``inputs`` = [input 0, input 1 or None, input 2 or None] as :class:`Geometry`.
    Returns a dict: positions (n, 3), velocities (n, 3), key, action, warnings, error, report."""
    g = inputs[0]
    warnings = []
    velocity = g.attribute("v", 3, [])
    out = {"positions": np.array(g.positions, dtype=np.float64),
           "velocities": np.zeros_like(g.positions, dtype=np.float64) if velocity is None else np.array(velocity),
           "key": key, "action": "reset", "warnings": warnings, "error": "", "report": None}
    try:
        sim = registry.find(key, owner) if key else None
        clock = None if sim is None else (sim.time, sim.parameters == parameters, sim.point_count == len(g.positions))
        action, duration, warning = decide(time, parameters["startframe_time"], clock)
        out["action"] = action
        if warning:
            warnings.append(warning)
        if action == "reset":
            sim = _build(inputs, parameters, time, warnings, library)
            out["key"] = registry.insert(owner, sim)
        elif action == "advance":
            _advance(sim, inputs, duration, interrupted, warnings)
            sim.time = time
            out["report"] = sim.solver.report()
            names = {b.id: b.name for b in sim.objects}
            fallback = grip.fallback_message(out["report"], names.get, cook_moment(time, parameters["timestep"]))
            if fallback:
                warnings.append(fallback)
            names.update({c.id: c.name for c in sim.colliders})
            pinch = grip.pinch_message(out["report"], parameters["contactthickness"], names.get,
                                       cook_moment(time, parameters["timestep"]))
            if pinch:
                warnings.append(pinch)
        for b in sim.objects:
            out["positions"][b.points] = sim.solver.positions(b.id)
            out["velocities"][b.points] = sim.solver.velocities(b.id)
    except grip.CancelledError:
        out["error"] = "interrupted: the simulation stays at the last frame"
    except grip.NotConvergedError as e:
        out["error"] = str(e)
        if parameters["onhardframe"] == grip.FAILURE_POLICY_STRICT:
            out["error"] += " (On a Hard Frame: Continue with a Fallback goes on past such a frame)"
    except (SopError, grip.GripError, TypeError, ValueError) as e:
        # TypeError and ValueError: an argument the binding refused before the library saw it.
        out["error"] = str(e)
    if out["error"]:
        out["positions"] = np.array(g.positions, dtype=np.float64)
    return out
