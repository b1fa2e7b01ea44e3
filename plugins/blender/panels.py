# SPDX-License-Identifier: GPL-3.0-or-later
"""The grip panels: per object in the Physics tab, per scene in the Scene tab."""

import bpy

from .bake_session import running_session
from .cache_files import cache_folder, is_temporary
from .cache_modifier import cache_modifier
from .integrators import shown_settings


def cache_summary(scene):
    """(text, icon) describing the scene's cache: its frames, and whether it is outdated or
    held in the temporary folder of an unsaved file; None without a cache."""
    s = scene.grip
    if not s.cache_frame_end:
        return None
    text = f"Cache: frames {s.frame_start}–{s.cache_frame_end}"
    if s.cache_frame_end < s.frame_end:
        text += f" of {s.frame_end} (Bake goes on from {s.cache_frame_end})"
    if s.cache_outdated:
        return f"Cache outdated: frames {s.frame_start}–{s.cache_frame_end} (Bake starts over)", "ERROR"
    if is_temporary(cache_folder(scene)[0]):
        return text + "; temporary until the file is saved", "FILE_CACHE"
    return text, "FILE_CACHE"


def draw_bake_controls(layout, context):
    """Bake / Bake to Current Frame / Cancel / Free buttons, the cache's state, progress while
    baking, and the last bake's outcome."""
    session = running_session(context.scene)
    row = layout.row(align=True)
    if session is not None:
        fraction, text = session.progress()
        layout.progress(factor=fraction, type="BAR", text=text)
        row.operator("grip.cancel_bake", icon="CANCEL")
    else:
        row.operator("grip.bake", icon="PHYSICS")
        row.operator("grip.bake", text="Bake to Current Frame").to_current_frame = True
        row.operator("grip.free_bake", icon="TRASH")
        summary = cache_summary(context.scene)
        if summary is not None:
            layout.label(text=summary[0], icon=summary[1])
    status = context.scene.grip.bake_status
    if status and session is None:
        warn = "fail" in status or "not started" in status or "fallback" in status or "pinched" in status
        layout.label(text=status, icon="ERROR" if warn else "INFO")


def draw_volume(layout, g):
    """Volume preservation of a Soft Body or a closed Cloth (an open cloth fails the bake with
    an error naming it; checking closedness here would cost a mesh scan on every redraw)."""
    col = layout.column(heading="Volume")
    col.prop(g, "volume_preservation", text="Preserve")
    if g.volume_preservation:
        col.prop(g, "volume_model")
        col.prop(g, "volume_compressibility")
        col.prop(g, "volume_pressure")
        if g.role == "CLOTH":
            col.label(text="Closed cloth meshes only", icon="INFO")


def draw_self_collision(layout, g, scene_settings):
    """A cloth's self-collision: Scene Default / On / Off, and its thickness (0 = the scene's)."""
    col = layout.column(heading="Self Collision")
    col.prop(g, "self_collision", text="Self Collision")
    on = scene_settings.self_contact if g.self_collision == "SCENE" else g.self_collision == "ON"
    row = col.row()
    row.enabled = on
    row.prop(g, "self_collision_thickness", text="Thickness")
    if on and g.self_collision_thickness == 0.0:
        col.label(text="Thickness 0: the scene's Self Contact Thickness", icon="INFO")


class GRIP_PT_object(bpy.types.Panel):
    """grip settings of the active object."""

    bl_label = "grip"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"

    @classmethod
    def poll(cls, context):
        return context.object is not None and context.object.type == "MESH"

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        obj = context.object
        g = obj.grip
        layout.prop(g, "role")
        if g.role == "NONE":
            return
        if g.role in ("CLOTH", "SOFT_BODY"):
            col = layout.column(heading="Material")
            col.prop(g, "preset")
            col.prop(g, "density")
            col.prop(g, "youngs_modulus")
            col.prop(g, "poisson_ratio")
            col.prop(g, "damping")
            if g.role == "CLOTH":
                col.prop(g, "thickness")
                col.prop(g, "bending_stiffness")
            else:
                col.prop(g, "tet_size")
            layout.prop_search(g, "pin_group", obj, "vertex_groups", text="Pin Group")
            if g.role == "CLOTH":
                draw_self_collision(layout, g, context.scene.grip)
            draw_volume(layout, g)
        layout.prop(g, "friction")
        if g.role in ("CLOTH", "SOFT_BODY"):
            if cache_modifier(obj) is not None:
                layout.label(text=f"Cached: {g.cache_file}", icon="FILE_CACHE")
            draw_bake_controls(layout, context)


class GRIP_PT_scene(bpy.types.Panel):
    """grip settings of the scene: time, solver, contact, cache."""

    bl_label = "grip Simulation"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "scene"

    def draw(self, context):
        layout = self.layout
        layout.use_property_split = True
        s = context.scene.grip
        col = layout.column(align=True)
        col.prop(s, "frame_start", text="Frame Start")
        col.prop(s, "frame_end", text="End")
        layout.prop(s, "substeps")
        layout.prop(s, "integrator")
        for name in shown_settings(s.integrator):
            layout.prop(s, name)
        layout.prop(s, "linear_solver")
        layout.prop(s, "on_hard_frame")
        layout.prop(s, "collider_contact")
        layout.prop(s, "contact_thickness")
        layout.prop(s, "friction_epsilon")
        layout.prop(s, "self_contact")
        row = layout.row()
        row.enabled = s.self_contact
        row.prop(s, "self_contact_thickness")
        layout.prop(s, "cache_folder")
        draw_bake_controls(layout, context)


CLASSES = (GRIP_PT_object, GRIP_PT_scene)
