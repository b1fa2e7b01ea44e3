# SPDX-License-Identifier: MIT
"""The Houdini Python SOP's logic, without ``hou``: the same rules as the compiled SOP's core
(plugins/houdini/src/core), over the Python binding ``grip``. ``grip_python_sop.py`` copies the
node's inputs into :class:`Geometry`, calls :func:`cook`, and writes the result back.

Units are SI (Houdini's unit length taken as 1 m). Houdini is Y up: gravity defaults to
(0, -9.81, 0). Point numbers are Houdini point indices.
"""

import random
import threading
from dataclasses import dataclass, field

import numpy as np

import grip

SOLVER_KEY_ATTRIBUTE = "grip_solver"
SAME_TIME_TOLERANCE = 1e-7  # [s]
POLYGON, TETRAHEDRON, OTHER = "polygon", "tetrahedron", "other"


class SopError(Exception):
    """An error for the node's error message; the cook outputs its input unchanged."""


@dataclass
class Geometry:
    """One SOP input: P (n, 3), primitives as (kind, point list), numeric point attributes by
    name ((n,) or (n, k) arrays), string primitive attributes and "solid"/"shell" primitive
    group flags (one value per primitive)."""

    positions: np.ndarray
    primitives: list
    point_attributes: dict = field(default_factory=dict)
    primitive_strings: dict = field(default_factory=dict)
    primitive_groups: dict = field(default_factory=dict)

    def attribute(self, name, components, warnings):
        """The point attribute ``name`` as (n,) (1 component) or (n, k), or None; present with
        another tuple size: None and a warning."""
        values = self.point_attributes.get(name)
        if values is None:
            return None
        values = np.asarray(values, dtype=np.float64)
        k = 1 if values.ndim == 1 else values.shape[1]
        if k != components or values.shape[0] != len(self.positions):
            warnings.append(f"point attribute {name} has {k} components, expected {components}: ignored")
            return None
        return values


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


@dataclass
class Body:
    """A grip object or collider mesh: its input points and elements in its own numbering."""

    name: str
    kind: str  # "shell", "solid" or "collider"
    points: np.ndarray
    elements: np.ndarray
    id: int = 0


def _kind(g, p, type_attribute):
    types = g.primitive_strings.get(type_attribute) if type_attribute else None
    if types is not None:
        value = types[p].lower()
        if value not in ("solid", "shell"):
            raise SopError(f'primitive {p}: {type_attribute} is "{types[p]}"; expected "solid" or "shell"')
        return value
    solid = "solid" in g.primitive_groups and bool(g.primitive_groups["solid"][p])
    shell = "shell" in g.primitive_groups and bool(g.primitive_groups["shell"][p])
    if solid and shell:
        raise SopError(f"primitive {p} is in both the solid group and the shell group")
    if solid or shell:
        return "solid" if solid else "shell"
    return "solid" if g.primitives[p][0] == TETRAHEDRON else "shell"


def _split(g, key_of, what, clockwise=False):
    """Bodies from the primitives for which ``key_of(p)`` gives (name, kind), else None."""
    n = len(g.positions)
    bodies, index, owner, vertex = [], {}, np.full(n, -1), np.full(n, -1)
    lists = []
    for p, (kind, points) in enumerate(g.primitives):
        key = key_of(p)
        if key is None:
            continue
        if any(q < 0 or q >= n for q in points):
            raise SopError(f"{what}primitive {p} uses a point out of range ({n} points)")
        if key not in index:
            index[key] = len(bodies)
            bodies.append(Body(key[0], key[1], np.zeros(0, np.int64), np.zeros(0, np.uint32)))
            lists.append(([], []))
        b = index[key]
        local = []
        for q in points:
            if owner[q] == -1:
                owner[q], vertex[q] = b, len(lists[b][0])
                lists[b][0].append(q)
            elif owner[q] != b:
                raise SopError(f'{what}point {q} belongs to both "{bodies[owner[q]].name}" and "{key[0]}"')
            local.append(int(vertex[q]))
        if kind == TETRAHEDRON:
            lists[b][1].append(local)
        else:
            for k in range(1, len(local) - 1):
                tri = [local[0], local[k + 1], local[k]] if clockwise else [local[0], local[k], local[k + 1]]
                lists[b][1].append(tri)
    for body, (points, elements) in zip(bodies, lists):
        body.points = np.array(points, dtype=np.int64)
        body.elements = np.array(elements, dtype=np.uint32)
    return bodies


def split_objects(g, rest, type_attribute="grip_type", name_attribute="name", warnings=None):
    """Shells from closed polygons, solids from tetrahedra (see the compiled SOP's README)."""
    warnings = [] if warnings is None else warnings
    names = g.primitive_strings.get(name_attribute) if name_attribute else None
    skipped = 0

    def key_of(p):
        nonlocal skipped
        kind, points = g.primitives[p]
        if kind == OTHER or (kind == POLYGON and len(points) < 3):
            skipped += 1
            return None
        wanted = _kind(g, p, type_attribute)
        if wanted == "solid" and kind == POLYGON:
            raise SopError(f"primitive {p} is a polygon marked solid: solids need tetrahedra")
        if wanted == "shell" and kind == TETRAHEDRON:
            raise SopError(f"primitive {p} is a tetrahedron marked shell: shells need polygons")
        name = names[p] if names is not None and names[p] else ("solids" if wanted == "solid" else "shells")
        return (name, wanted)

    bodies = _split(g, key_of, "")
    if skipped:
        warnings.append(f"{skipped} primitives that are neither closed polygons nor tetrahedra were ignored")
    if not bodies:
        raise SopError("input 0 has no polygons or tetrahedra to simulate")
    for b in bodies:
        if b.kind == "solid":  # orient every tet positively in the rest shape
            x = rest[b.points]
            t = b.elements
            det = np.einsum("ij,ij->i", np.cross(x[t[:, 1]] - x[t[:, 0]], x[t[:, 2]] - x[t[:, 0]]),
                            x[t[:, 3]] - x[t[:, 0]])
            flip = det < 0
            t[flip, 2], t[flip, 3] = t[flip, 3].copy(), t[flip, 2].copy()
    return bodies


def split_colliders(g, name_attribute="name", clockwise=True, warnings=None):
    """Collider meshes from closed polygons, one per name, wound counter-clockwise from outside
    (``clockwise``: the input uses Houdini's clockwise front faces)."""
    warnings = [] if warnings is None else warnings
    names = g.primitive_strings.get(name_attribute) if name_attribute else None
    ignored = 0

    def key_of(p):
        nonlocal ignored
        kind, points = g.primitives[p]
        if kind != POLYGON or len(points) < 3:
            ignored += 1
            return None
        return (names[p] if names is not None else "collider", "collider")

    bodies = _split(g, key_of, "collider ", clockwise)
    if ignored:
        warnings.append(f"{ignored} collider primitives that are not closed polygons were ignored")
    return bodies


def pin_plan(body, source, current, warnings):
    """(pinned (n,), targets (n, 3) or None) of ``body`` from the pin source's ``pinned`` and
    ``pintoanimation`` attributes; targets follow the source's P, others stay at ``current``."""
    held = source.attribute("pinned", 1, warnings)
    driven = source.attribute("pintoanimation", 1, warnings)
    pinned = np.zeros(len(body.points))
    follows = np.zeros(len(body.points), dtype=bool)
    if held is not None:
        pinned[held[body.points] != 0] = 1.0
    if driven is not None:
        follows = driven[body.points] != 0
        pinned[follows] = 1.0
    if not follows.any():
        return pinned, None
    targets = np.array(current, dtype=np.float64)
    targets[follows] = source.positions[body.points[follows]]
    return pinned, targets


def friction_multiplier(g, points, body, warnings):
    """The body's ``friction`` point attribute (the multiplier of the Friction parameter that
    gives the body its own μ; 1 when absent); its mean, with a warning, when it varies (grip's
    friction is per body)."""
    values = g.attribute("friction", 1, warnings)
    if values is None or len(points) == 0:
        return 1.0
    f = values[points]
    if f.max() - f.min() > 1e-9 * max(1.0, abs(f.max())):
        warnings.append(f'friction varies over "{body}" ({f.min():g} to {f.max():g}) but grip\'s friction is per '
                        f"body: using its mean {f.mean():g}")
    return float(f.mean())


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
