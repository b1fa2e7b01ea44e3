"""The add-on's settings, panels and input errors in a real Blender: presets fill SI values,
every property the panels draw exists (drawn through a recording layout, since background
Blender has no UI), the integrator menu and each integrator's settings reach the solver
parameters, the cache's fingerprint and its outdated flag, and bakes that cannot start give
readable errors and change nothing."""

import os
import sys
import types

import bpy
import numpy as np

import harness

checks = harness.Checks("addon_ui")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
grip = addon.grip

# -- manifest and registration -----------------------------------------------------------------
manifest = open(os.path.join(os.path.dirname(addon.__file__), "blender_manifest.toml"), encoding="utf-8").read()
checks.check('license = ["SPDX:GPL-3.0-or-later"]' in manifest, "GPL-3.0-or-later licence in the manifest")
checks.check('blender_version_min = "4.2.0"' in manifest, "Blender ≥ 4.2")
checks.check(os.path.isfile(addon.bake_session.library_path()), "the native library is bundled")
checks.check(grip.load(addon.bake_session.library_path()).abi_version == grip.ABI_VERSION,
             "the bundled library loads and matches the bundled binding")
for panel in ("GRIP_PT_object", "GRIP_PT_scene"):
    checks.check(hasattr(bpy.types, panel), f"panel {panel} is registered")
checks.check(bpy.types.GRIP_PT_object.bl_context == "physics", "the object panel is in the Physics tab")

# -- disable and enable again -------------------------------------------------------------------
bpy.ops.preferences.addon_disable(module=harness.ADDON)
checks.check("bake" not in dir(bpy.ops.grip) and not hasattr(bpy.types.Scene, "grip"),
             "disabling unregisters operators and properties")
bpy.ops.preferences.addon_enable(module=harness.ADDON)
checks.check("bake" in dir(bpy.ops.grip) and hasattr(bpy.types.Scene, "grip"), "enabling again registers them")
addon = sys.modules[harness.ADDON]
grip = addon.grip

# -- presets ------------------------------------------------------------------------------------
scene = harness.new_scene(1, 24, os.path.join(args.out, "cache"))
cloth = harness.grid("Cloth", 0.5, 4, (0, 0, 1))
cloth.grip.role = "CLOTH"
for key, (label, _, fields) in grip.MATERIAL_PRESETS.items():
    cloth.grip.preset = key
    g = cloth.grip
    got = dict(density=g.density, youngs_modulus=g.youngs_modulus, poisson_ratio=g.poisson_ratio,
               thickness=g.thickness, bending_stiffness=g.bending_stiffness, damping_beta=g.damping)
    ok = all(abs(got[k] / fields[k] - 1) < 1e-6 for k in got if fields[k])
    checks.check(ok, f"preset {label} fills {got}")
    areal = fields["density"] * fields["thickness"]
    checks.check(0.05 <= areal <= 1.2, f"preset {label}: {areal * 1000:.0f} g/m² is a plausible areal weight")
names = {p.identifier for p in cloth.grip.bl_rna.properties}
checks.check({"volume_preservation", "volume_model", "volume_compressibility", "volume_pressure"} <= names,
             "volume preservation settings exist")
models = {i.identifier: i.value for i in cloth.grip.bl_rna.properties["volume_model"].enum_items}
checks.check(models == {"QUADRATIC": grip.VOLUME_QUADRATIC, "IDEAL_GAS": grip.VOLUME_IDEAL_GAS,
                        "NEARLY_INCOMPRESSIBLE": grip.VOLUME_NEARLY_INCOMPRESSIBLE},
             f"volume models map to the library's: {models}")


# -- panels, drawn into a recording layout -------------------------------------------------------
class Recorder:
    """Stands in for UILayout: records the properties and operators a panel draws."""

    def __init__(self, log):
        self.log = log
        self.use_property_split = False

    def prop(self, data, name, **_):
        self.log.append(("prop", data, name))

    def prop_search(self, data, name, search_data, search_name, **_):
        self.log.append(("prop", data, name))
        self.log.append(("prop", search_data, search_name))

    def operator(self, idname, **_):
        self.log.append(("operator", idname))
        return types.SimpleNamespace()  # the operator's properties, set by the panel

    def label(self, **_):
        self.log.append(("label",))

    def progress(self, **_):
        self.log.append(("progress",))

    def row(self, **_):
        return self

    def column(self, **_):
        return self


def draw(panel, obj=None):
    log = []
    context = types.SimpleNamespace(object=obj, scene=bpy.context.scene)
    panel.draw(types.SimpleNamespace(layout=Recorder(log)), context)
    return log


def all_exist(log):
    missing = [(type(d).__name__, n) for kind, *rest in log if kind == "prop" for d, n in [rest]
               if n not in d.bl_rna.properties]
    ops = [rest[0] for kind, *rest in log if kind == "operator"]
    missing += [op for op in ops if op.split(".")[1] not in dir(getattr(bpy.ops, op.split(".")[0]))]
    return missing


VOLUME_FIELDS = {"volume_model", "volume_compressibility", "volume_pressure"}
for role in ("NONE", "CLOTH", "SOFT_BODY", "COLLIDER"):
    cloth.grip.role = role
    cloth.grip.volume_preservation = False
    log = draw(bpy.types.GRIP_PT_object, cloth)
    drawn = {n for kind, *rest in log if kind == "prop" for _, n in [rest]}
    cloth.grip.volume_preservation = True
    log_on = draw(bpy.types.GRIP_PT_object, cloth)
    drawn_on = {n for kind, *rest in log_on if kind == "prop" for _, n in [rest]}
    cloth.grip.volume_preservation = False
    checks.check(not all_exist(log_on), f"object panel ({role}, volume on) draws only existing properties")
    if role in ("CLOTH", "SOFT_BODY"):
        checks.check("volume_preservation" in drawn and not VOLUME_FIELDS & drawn and VOLUME_FIELDS <= drawn_on,
                     f"{role}: the volume settings show when volume preservation is on")
    else:
        checks.check("volume_preservation" not in drawn_on, f"{role}: no volume settings")
    checks.check(not all_exist(log), f"object panel ({role}) draws only existing properties: {all_exist(log)}")
    if role == "CLOTH":
        checks.check({"role", "preset", "density", "youngs_modulus", "thickness", "bending_stiffness", "pin_group",
                      "friction", "self_collision", "self_collision_thickness"} <= drawn,
                     f"cloth panel fields: {sorted(drawn)}")
    if role == "SOFT_BODY":
        checks.check({"tet_size", "pin_group"} <= drawn and not {"thickness", "self_collision"} & drawn,
                     "soft body panel fields")
    if role == "COLLIDER":
        checks.check(drawn == {"role", "friction"}, f"collider panel fields: {sorted(drawn)}")
log = draw(bpy.types.GRIP_PT_scene)
drawn = {n for kind, *rest in log if kind == "prop" for _, n in [rest]}
checks.check(not all_exist(log), "scene panel draws only existing properties and operators")
checks.check({"frame_start", "frame_end", "substeps", "integrator", "linear_solver", "contact_thickness",
              "friction_epsilon", "self_contact", "self_contact_thickness", "cache_folder", "collider_contact"} <= drawn,
             f"scene panel fields: {sorted(drawn)}")
checks.check(("operator", "grip.bake") in log and ("operator", "grip.free_bake") in log, "Bake and Free Bake buttons")
checks.check(sum(1 for entry in log if entry == ("operator", "grip.bake")) == 2, "Bake and Bake to Current Frame buttons")

# -- integrators ---------------------------------------------------------------------------------
settings = scene.grip
menu = settings.bl_rna.properties["integrator"].enum_items
checks.check({i.identifier: i.value for i in menu} == {
    "BACKWARD_EULER": grip.INTEGRATOR_BACKWARD_EULER, "SEMI_IMPLICIT": grip.INTEGRATOR_SEMI_IMPLICIT,
    "NEWMARK": grip.INTEGRATOR_NEWMARK, "GENERALIZED_ALPHA": grip.INTEGRATOR_GENERALIZED_ALPHA,
    "EXPONENTIAL_EULER": grip.INTEGRATOR_EXPONENTIAL_EULER, "SIERE": grip.INTEGRATOR_SIERE},
    f"the integrator menu maps to the library's codes: {[(i.identifier, i.value) for i in menu]}")
checks.check(all(len(i.description) > 20 for i in menu), "every integrator has a tooltip")
library = grip.load(addon.bake_session.library_path())
c = library.solver_params()
own = (settings.newmark_beta, settings.newmark_gamma, settings.spectral_radius, settings.modal_count,
       int(settings.semi_implicit))
library_defaults = (c.newmark_beta, c.newmark_gamma, c.spectral_radius, c.modal_count, c.semi_implicit)
checks.check(np.allclose(own, library_defaults, rtol=1e-7, atol=0),  # Blender stores float32
             f"integrator settings default to the library's: {own}")
INTEGRATOR_SETTINGS = set(addon.integrators.SETTINGS)
SHOWN = {"BACKWARD_EULER": {"semi_implicit"}, "SEMI_IMPLICIT": set(),
         "NEWMARK": {"newmark_beta", "newmark_gamma", "semi_implicit"},
         "GENERALIZED_ALPHA": {"spectral_radius", "semi_implicit"}, "EXPONENTIAL_EULER": set(), "SIERE": {"modal_count"}}
for identifier, shown in SHOWN.items():
    settings.integrator = identifier
    log = draw(bpy.types.GRIP_PT_scene)
    drawn = {n for kind, *rest in log if kind == "prop" for _, n in [rest]}
    checks.check(drawn & INTEGRATOR_SETTINGS == shown and not all_exist(log),
                 f"{identifier}: the panel shows {sorted(drawn & INTEGRATOR_SETTINGS)}")
    params = addon.bake_session.solver_params(scene, False)
    checks.check(params["integrator"] == menu[identifier].value, f"{identifier} reaches the solver parameters")
    with grip.Solver(library=library, **params) as solver:  # created only: no step
        checks.check(solver.params.integrator == menu[identifier].value, f"the library takes {identifier}")
chosen = dict(newmark_beta=0.3, newmark_gamma=0.6, spectral_radius=0.6, modal_count=12, semi_implicit=True)
settings.integrator = "GENERALIZED_ALPHA"
for name, value in chosen.items():
    setattr(settings, name, value)
params = addon.bake_session.solver_params(scene, False)
got = {name: params[name] for name in chosen}
checks.check(all(abs(got[n] - chosen[n]) < 1e-6 for n in chosen) and params["semi_implicit"] == 1,
             f"every integrator setting reaches the solver parameters: {got}")


def setup_fingerprint(p):
    return addon.cache_state.fingerprint(addon.bake_job.BakeSetup(
        library_path="", params=p, frame_start=1, frame_end=24, frame_duration=1 / 24, bodies=[], colliders=[]))


for name in ("integrator",) + addon.integrators.SETTINGS:
    other = dict(params, **{name: params[name] + 1 if name in ("integrator", "modal_count") else 1 - params[name]})
    checks.check(setup_fingerprint(other) != setup_fingerprint(params), f"{name} is part of the cache's fingerprint")
for name in ("integrator",) + addon.integrators.SETTINGS:
    settings.property_unset(name)

# -- stick-slip velocity -------------------------------------------------------------------------
checks.check(abs(settings.friction_epsilon - c.friction_epsilon) <= 1e-7 * c.friction_epsilon,  # float32
             f"Stick-Slip Velocity defaults to the library's ε: {settings.friction_epsilon} m/s")
previous_scale = scene.unit_settings.scale_length
scene.unit_settings.scale_length = 0.01  # a scene in centimetres: 0.1 units/s is 1 mm/s
settings.friction_epsilon = 0.1
params = addon.bake_session.solver_params(scene, False)
checks.check(abs(params["friction_epsilon"] - 1e-3) < 1e-9,
             f"Stick-Slip Velocity reaches the solver in m/s: {params['friction_epsilon']}")
with grip.Solver(library=library, **params) as solver:  # created only: no step
    checks.check(abs(solver.params.friction_epsilon - 1e-3) < 1e-9, "the library takes the stick-slip velocity")
other = dict(params, friction_epsilon=2e-3)
checks.check(setup_fingerprint(other) != setup_fingerprint(params), "the stick-slip velocity is part of the cache's "
                                                                    "fingerprint")
settings.property_unset("friction_epsilon")
scene.unit_settings.scale_length = previous_scale

# -- on a hard frame -----------------------------------------------------------------------------
policies = settings.bl_rna.properties["on_hard_frame"]
checks.check({i.identifier: i.value for i in policies.enum_items} == {
    "CONTINUE": grip.FAILURE_POLICY_CONTINUE, "STOP": grip.FAILURE_POLICY_STRICT},
    f"On a Hard Frame maps to the library's policies: {[(i.identifier, i.value) for i in policies.enum_items]}")
checks.check(settings.on_hard_frame == "CONTINUE" and policies.default == "CONTINUE",
             "On a Hard Frame defaults to Continue with a Fallback")
checks.check("on_hard_frame" in {n for kind, *rest in draw(bpy.types.GRIP_PT_scene) if kind == "prop"
                                 for _, n in [rest]}, "the scene panel shows On a Hard Frame")
for identifier, code in (("CONTINUE", grip.FAILURE_POLICY_CONTINUE), ("STOP", grip.FAILURE_POLICY_STRICT)):
    settings.on_hard_frame = identifier
    params = addon.bake_session.solver_params(scene, False)
    checks.check(params["failure_policy"] == code, f"{identifier} reaches the solver parameters")
    with grip.Solver(library=library, **params) as solver:  # created only: no step
        checks.check(solver.params.failure_policy == code, f"the library takes {identifier}")
stop = addon.bake_session.solver_params(scene, False)
settings.on_hard_frame = "CONTINUE"
checks.check(setup_fingerprint(stop) == setup_fingerprint(addon.bake_session.solver_params(scene, False)),
             "the policy is not part of the cache's fingerprint: a stopped bake goes on from its last frame")
report = grip.GripStepReport(last_fallback=grip.FALLBACK_FRICTIONLESS, fallbacks_frictionless=1,
                             fallback_object=3, fallback_position=(0.0124, -0.5, 1.0))
checks.check(grip.fallback_message(report, {3: "Sleeve"}.get, "at frame 12")
             == "Sleeve failed to converge near (0.012, -0.500, 1.000) m at frame 12; fallback: frictionless substep",
             "a fallback is reported with the object, the place and the frame")

# -- bakes that cannot start ---------------------------------------------------------------------
cloth.grip.role = "NONE"


def bake_error(what, expect):
    result, _, status = harness.bake(checks)
    checks.check(result == {"ERROR"} and expect in status, f"{what}: readable error: {status!r}")
    checks.check(not scene.grip.is_baking and bpy.ops.grip.bake.poll(), f"{what}: no bake left running")


bake_error("nothing to bake", "Nothing to bake")
cloth.grip.role = "CLOTH"
scene.grip.frame_end = 1
bake_error("empty frame range", "end frame")
scene.grip.frame_end = 24
cloth.grip.pin_group = "missing"
bake_error("missing pin group", "'missing' does not exist")
cloth.grip.pin_group = ""
cloth.grip.volume_preservation = True
bake_error("volume preservation of an open cloth", "Cloth: volume preservation needs a closed cloth mesh")
cloth.grip.volume_preservation = False
checks.check(all(m.type != "MESH_CACHE" for m in cloth.modifiers), "failed starts add no modifier")
scene.grip.cache_folder = os.path.join(args.out, "cache")
scene.grip.substeps = 4
result, _, status = harness.bake(checks)
checks.check(result == {"FINISHED"}, f"then a valid bake works: {status}")

# -- an integrator setting outdates the cache -------------------------------------------------------
for name, value in [("integrator", "NEWMARK")] + list(chosen.items()):
    scene.grip.cache_outdated = False
    setattr(scene.grip, name, value)
    checks.check(scene.grip.cache_frame_end and scene.grip.cache_outdated, f"changing {name} marks the cache outdated")
checks.finish()
