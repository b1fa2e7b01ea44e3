# SPDX-License-Identifier: GPL-3.0-or-later
"""Settings stored in the .blend: per object (``Object.grip``) and per scene (``Scene.grip``).
Lengths are Blender lengths (shown in scene units, converted to metres with
``unit_settings.scale_length`` at bake time); everything else is SI."""

import bpy
from bpy.props import (
    BoolProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from . import grip
from .integrators import INTEGRATORS

ROLES = [
    ("NONE", "None", "Not part of grip simulations"),
    ("CLOTH", "Cloth", "A triangle shell: garments, sheets, flags"),
    ("SOFT_BODY", "Soft Body", "A volumetric solid, tet-meshed from the closed surface"),
    ("COLLIDER", "Collider", "A kinematic obstacle, evaluated with its modifiers every frame"),
]

PRESETS = [(key, label, text) for key, (label, text, _) in grip.MATERIAL_PRESETS.items()]
PRESETS.append(("CUSTOM", "Custom", "Values set by hand"))

_COTTON = grip.preset_fields("cotton")

# Paths may be relative to the .blend ("//"); Blender 4.5+ wants that declared.
_BLEND_RELATIVE = {"PATH_SUPPORTS_BLEND_RELATIVE"} if bpy.app.version >= (4, 5, 0) else set()


#: Pascals per standard atmosphere: the volume settings are shown in atm, passed to grip in Pa.
ATM_PA = 101325.0

VOLUME_MODELS = [
    ("QUADRATIC", "Quadratic", "Quadratic penalty of the relative volume change",
     grip.VOLUME_QUADRATIC),
    ("IDEAL_GAS", "Ideal Gas", "An enclosed ideal gas (Boyle's law): inflatables, balls",
     grip.VOLUME_IDEAL_GAS),
    ("NEARLY_INCOMPRESSIBLE", "Nearly Incompressible", "An enclosed liquid with a constant compressibility: "
     "flesh, water balloons", grip.VOLUME_NEARLY_INCOMPRESSIBLE),
]


def _object_changed(self, _context):
    """A setting of an object changed: the caches of the scenes holding it are outdated."""
    from .cache_lifecycle import object_setting_changed

    object_setting_changed(self.id_data)


def _scene_changed(self, _context):
    """A simulation setting of a scene changed: its cache is outdated."""
    from .cache_lifecycle import mark_outdated

    mark_outdated(self.id_data)


def _apply_preset(self, context):
    _object_changed(self, context)
    if self.preset == "CUSTOM":
        return
    fields = grip.preset_fields(self.preset)
    self.density = fields["density"]
    self.youngs_modulus = fields["youngs_modulus"]
    self.poisson_ratio = fields["poisson_ratio"]
    # Thickness is in metres in the preset, in Blender units here.
    scale = bpy.context.scene.unit_settings.scale_length if bpy.context.scene else 1.0
    self.thickness = fields["thickness"] / scale
    self.bending_stiffness = fields["bending_stiffness"]
    self.damping = fields["damping_beta"]


SELF_COLLISION = [
    ("SCENE", "Scene Default", "As the scene's Self Contact setting"),
    ("ON", "On", "Collides with itself, whatever the scene's setting"),
    ("OFF", "Off", "Passes through itself (it still meets other cloths when self contact is on for them)"),
]


class GripObjectSettings(bpy.types.PropertyGroup):
    """grip settings of one object (Physics tab)."""

    role: EnumProperty(update=_object_changed, name="Role", items=ROLES, default="NONE")
    preset: EnumProperty(name="Material", items=PRESETS, default="COTTON", update=_apply_preset,
                         description="Fill the material fields from a preset")
    density: FloatProperty(update=_object_changed, name="Density (kg/m³)", min=1.0, max=1e5, soft_max=5000.0, default=_COTTON["density"],
                           description="Mass per volume [kg/m³]; cloth weighs density × thickness per m²")
    youngs_modulus: FloatProperty(update=_object_changed, name="Young's Modulus (Pa)", min=1.0, max=1e12, default=_COTTON["youngs_modulus"],
                                  description="Stretch stiffness [Pa]")
    poisson_ratio: FloatProperty(update=_object_changed, name="Poisson Ratio", min=-0.5, max=0.49, default=_COTTON["poisson_ratio"],
                                 description="Lateral contraction under stretch (dimensionless)")
    thickness: FloatProperty(update=_object_changed, name="Thickness", subtype="DISTANCE", unit="LENGTH", min=1e-6, max=1.0, precision=5,
                             default=_COTTON["thickness"], description="Cloth thickness (mass and stiffness)")
    bending_stiffness: FloatProperty(update=_object_changed, name="Bending (N·m)", min=0.0, max=100.0, precision=8,
                                     default=_COTTON["bending_stiffness"],
                                     description="Cloth bending stiffness: the plate modulus D [N·m]")
    damping: FloatProperty(update=_object_changed, name="Damping (s)", min=0.0, max=0.1, precision=5, default=_COTTON["damping_beta"],
                           description="Rayleigh stiffness damping β [s]")
    friction: FloatProperty(update=_object_changed, name="Friction", min=0.0, max=100.0, default=0.4,
                            description="Coulomb friction coefficient μ; a pair uses the geometric mean "
                                        "of its two objects' coefficients")
    pin_group: StringProperty(update=_object_changed, name="Pin Group",
                              description="Vertices with weight > 0.5 in this group follow the object's "
                                          "animated and deformed shape")
    volume_preservation: BoolProperty(update=_object_changed, 
        name="Volume Preservation", default=False,
        description="Penalise changes of the enclosed volume (Soft Body, or a closed Cloth mesh: every "
                    "edge shared by two faces; the bake reports an error for an open one). The rest "
                    "volume is the volume at the bake's start frame")
    volume_model: EnumProperty(update=_object_changed, name="Fluid", items=VOLUME_MODELS, default="NEARLY_INCOMPRESSIBLE",
                               description="What fills the volume")
    volume_compressibility: FloatProperty(update=_object_changed, 
        name="Compressibility (1/atm)", min=1e-9, max=ATM_PA, soft_max=1.0, precision=5, default=0.01,
        description="Compression coefficient κ_v [1/atm] (1 atm = 101325 Pa): relative volume change "
                    "per pressure change; smaller is stiffer. For an ideal gas, 1/κ_v is its absolute "
                    "pressure at the rest volume (1 /atm: air at ambient pressure)")
    volume_pressure: FloatProperty(update=_object_changed, 
        name="Pressure (atm)", soft_min=-1.0, soft_max=10.0, precision=4, default=0.0,
        description="Over-pressure inside at the rest volume [atm] (1 atm = 101325 Pa); > 0 inflates "
                    "(a tennis ball holds about 1 atm)")
    tet_size: FloatProperty(update=_object_changed, name="Tet Size", subtype="DISTANCE", unit="LENGTH", min=1e-5, default=0.1,
                            description="Edge length of the tetrahedra filling a soft body")
    self_collision: EnumProperty(
        name="Self Collision", items=SELF_COLLISION, default="SCENE", update=_object_changed,
        description="Whether this cloth collides with itself (folds, a sleeve's two layers)")
    self_collision_thickness: FloatProperty(
        name="Self Collision Thickness", subtype="DISTANCE", unit="LENGTH", min=0.0, max=1.0, precision=4,
        default=0.0, update=_object_changed,
        description="Distance at which this cloth starts to repel itself; 0 uses the scene's Self Contact "
                    "Thickness. Two cloths repel each other at the mean of their thicknesses")
    # Written by the bake; read by Free Bake.
    cache_file: StringProperty(name="Cache File", subtype="FILE_PATH", options={"HIDDEN"} | _BLEND_RELATIVE)
    muted_modifiers: StringProperty(options={"HIDDEN"},
                                    description="Modifiers the bake muted, as JSON [name, viewport, render]")


LINEAR_SOLVERS = [("DIRECT_LU", "Direct LU", "Damped Newton with a sparse LU factorisation",
                   grip.LINEAR_SOLVER_DIRECT_LU)]
COLLIDER_CONTACTS = [
    ("EXACT", "Exact Distance",
     "Cloth meets the collider's own faces, edges, corners and open rims at the contact thickness, "
     "whatever the triangles' size or shape (low-poly proxies, large flat faces)",
     grip.COLLIDER_MESH_CONTACT_EXACT),
    ("SMOOTH", "Smooth Surface",
     "Colliders become a smooth implicit surface fitted to their faces (dense, smooth meshes only: "
     "it blends across a coarse mesh's faces)",
     grip.COLLIDER_MESH_CONTACT_IMPLICIT),
]


#: On a Hard Frame: (identifier, label, tooltip, ``grip.FAILURE_POLICY_*``).
HARD_FRAME_POLICIES = [
    ("CONTINUE", "Continue with a Fallback",
     "A time step that does not converge even when split falls back to lagged friction, then no "
     "friction, then the solver's best unconverged answer, and the bake goes on; the console and the "
     "bake's status name the frames, objects and places", grip.FAILURE_POLICY_CONTINUE),
    ("STOP", "Stop",
     "A time step that does not converge even when split stops the bake there, keeping the frames "
     "before it", grip.FAILURE_POLICY_STRICT),
]


class GripSceneSettings(bpy.types.PropertyGroup):
    """grip settings of a scene (Scene tab)."""

    frame_start: IntProperty(update=_scene_changed, name="Start", default=1, min=0, description="First frame of the bake")
    frame_end: IntProperty(name="End", default=250, min=1, description="Last frame of the bake")
    substeps: IntProperty(update=_scene_changed, name="Substeps", default=10, min=1, max=1000,
                          description="Time steps per frame (time step = frame duration / substeps)")
    integrator: EnumProperty(update=_scene_changed, name="Integrator", items=INTEGRATORS, default="BACKWARD_EULER")
    newmark_beta: FloatProperty(update=_scene_changed, name="Newmark β", min=1e-4, max=1.0, default=0.25, precision=4,
                                description="β of Newmark (dimensionless, in (0, 1]); 1/4 with γ = 1/2 is the "
                                            "average acceleration rule")
    newmark_gamma: FloatProperty(update=_scene_changed, name="Newmark γ", min=0.5, max=1.0, default=0.5, precision=4,
                                 description="γ of Newmark (dimensionless, in [0.5, 1]): second order at 1/2, "
                                             "larger values damp")
    spectral_radius: FloatProperty(update=_scene_changed, name="Spectral Radius ρ∞", min=0.0, max=1.0, default=0.8,
                                   precision=3,
                                   description="High-frequency damping of generalized-α (dimensionless, in [0, 1]): "
                                               "1 damps nothing, 0 removes the highest frequencies in one step")
    modal_count: IntProperty(update=_scene_changed, name="Modes", min=1, max=200, default=10,
                             description="Lowest modes that SIERE integrates exponentially (1 to 200), computed "
                                         "at the start of every frame; the rest go semi-implicitly")
    semi_implicit: BoolProperty(update=_scene_changed, name="Semi-Implicit Stages", default=False,
                                description="Every implicit stage takes one Newton iteration, without a "
                                            "convergence test: cheaper per step, more damping")
    linear_solver: EnumProperty(update=_scene_changed, name="Solver", items=LINEAR_SOLVERS, default="DIRECT_LU")
    # Not a simulation input: frames baked either way stay valid, and a bake that stopped goes on
    # from its last frame when switched to Continue.
    on_hard_frame: EnumProperty(name="On a Hard Frame", items=HARD_FRAME_POLICIES, default="CONTINUE",
                                description="What the bake does when a time step does not converge even "
                                            "when split")
    collider_contact: EnumProperty(update=_scene_changed, name="Collider Contact", items=COLLIDER_CONTACTS, default="EXACT",
                                   description="How cloth and soft bodies meet collider meshes")
    contact_thickness: FloatProperty(update=_scene_changed, name="Contact Thickness", subtype="DISTANCE", unit="LENGTH", min=1e-6,
                                     default=0.003, precision=4,
                                     description="Distance from a collider's surface at which contact "
                                                 "forces start. Resting cloth settles inside this "
                                                 "layer, in its outer half (the force grows with "
                                                 "the cube of the depth into it)")
    friction_epsilon: FloatProperty(update=_scene_changed, name="Stick-Slip Velocity",
                                    unit="VELOCITY", min=1e-7, max=1.0, default=1e-4, precision=5, step=0.01,
                                    description="Sliding speed below which friction holds a contact as stuck "
                                                "(the smoothing ε of Coulomb friction): held cloth creeps at "
                                                "most this fast. Larger values converge faster where friction "
                                                "is tight, as in the crook of a bending elbow, and let held "
                                                "cloth creep more")
    self_contact: BoolProperty(update=_scene_changed, name="Self Contact", default=False,
                               description="Cloths repel themselves and each other (vertex-triangle and "
                                           "edge-edge penalty), so folds do not pass through. The default "
                                           "of every cloth's Self Collision (Physics tab)")
    self_contact_thickness: FloatProperty(update=_scene_changed, name="Self Contact Thickness", subtype="DISTANCE", unit="LENGTH",
                                          min=1e-6, default=0.002, precision=4,
                                          description="Distance at which cloth starts to repel itself; keep it "
                                                      "below the cloth's edge length. The default of "
                                                      "every cloth's Self Collision Thickness")
    cache_folder: StringProperty(name="Cache Folder", subtype="DIR_PATH", default="//grip_cache/",
                                 options=_BLEND_RELATIVE,
                                 description="Where baked PC2 files and the bake's resumable state are written "
                                             "(// = next to the .blend; an unsaved file bakes into Blender's "
                                             "temporary folder, moved here when the file is saved)")
    # Bake state, shown in the panels.
    cache_frame_end: IntProperty(name="Cached Up To", default=0, min=0, options={"HIDDEN"},
                                 description="Last frame of the scene's cache (0: no cache)")
    cache_outdated: BoolProperty(name="Outdated", default=False, options={"HIDDEN"},
                                 description="A setting or an input mesh changed since the bake: the cache "
                                             "still plays, the next Bake starts over")
    is_baking: BoolProperty(options={"SKIP_SAVE"})
    bake_status: StringProperty(name="Status", description="Outcome of the last bake")


CLASSES = (GripObjectSettings, GripSceneSettings)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Object.grip = PointerProperty(type=GripObjectSettings)
    bpy.types.Scene.grip = PointerProperty(type=GripSceneSettings)


def unregister():
    del bpy.types.Scene.grip
    del bpy.types.Object.grip
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
