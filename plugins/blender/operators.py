# SPDX-License-Identifier: GPL-3.0-or-later
"""Bake, Cancel Bake and Free Bake. Bake is modal in the UI (a timer drives the
:class:`BakeSession`, Esc cancels, progress in the status bar and the window manager's progress
indicator); from scripts and background Blender it runs the same session blocking and prints a
line per frame. Bake resumes the scene's cache when it can (see ``BakeSession.start``)."""

import bpy

from .bake_session import AlreadyBaked, BakeSession, running_session, simulated_objects
from .cache_files import state_file
from .cache_lifecycle import quiet
from .cache_modifier import cache_modifier, detach
from .cache_state import remove_state
from .capture import BakeInputError

_REPORT_LEVEL = {"FINISHED": {"INFO"}, "CANCELLED": {"WARNING"}, "ERROR": {"ERROR"}}


class GRIP_OT_bake(bpy.types.Operator):
    """Simulate the scene's grip objects and cache the result, going on from the cache's last frame when it is not outdated (Esc cancels, keeping the frames done)"""

    bl_idname = "grip.bake"
    bl_label = "Bake"
    bl_options = {"REGISTER"}

    to_current_frame: bpy.props.BoolProperty(
        name="To Current Frame", default=False, options={"SKIP_SAVE"},
        description="Bake up to the scene's current frame instead of the last frame of the bake")

    @classmethod
    def description(cls, _context, properties):
        if properties.to_current_frame:
            return "Bake up to the current frame, going on from the cache's last frame when it is not outdated"
        return None

    @classmethod
    def poll(cls, context):
        return context.scene is not None and running_session(context.scene) is None

    def _start(self, context):
        """Starts the session; None when it runs, else the operator's result."""
        self._session = BakeSession(context.scene)
        try:
            self._session.start(frame_end=context.scene.frame_current if self.to_current_frame else None)
        except AlreadyBaked as e:
            context.scene.grip.bake_status = f"grip: {e}"
            self.report({"INFO"}, context.scene.grip.bake_status)
            return {"FINISHED"}
        except BakeInputError as e:
            context.scene.grip.bake_status = f"grip bake not started: {e}"
            self.report({"ERROR"}, context.scene.grip.bake_status)
            return {"CANCELLED"}
        return None

    def _end(self, outcome):
        kind, message = outcome
        self.report(_REPORT_LEVEL[kind], message)
        return {"FINISHED"} if kind == "FINISHED" else {"CANCELLED"}

    def execute(self, context):
        # Blocking: the worker simulates while this thread feeds it frame inputs.
        result = self._start(context)
        if result is not None:
            return result
        session = self._session
        try:
            while not session.done:
                session.tick()
                session.wait(0.01)
                for line in session.new_frame_lines():
                    print(line, flush=True)
        except BaseException:
            session.cancel()
            raise
        finally:
            outcome = session.finish()
            for line in session.new_frame_lines():
                print(line, flush=True)
        print(outcome[1], flush=True)
        return self._end(outcome)

    def invoke(self, context, event):
        if bpy.app.background or context.window is None:
            return self.execute(context)
        result = self._start(context)
        if result is not None:
            return result
        wm = context.window_manager
        self._timer = wm.event_timer_add(0.1, window=context.window)
        wm.progress_begin(0, 1000)
        wm.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        if event.type == "ESC" and event.value == "PRESS":
            self._session.cancel()
            return {"RUNNING_MODAL"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        self._session.tick()
        fraction, text = self._session.progress()
        context.window_manager.progress_update(int(1000 * fraction))
        context.workspace.status_text_set(text)
        for area in context.screen.areas if context.screen else ():
            if area.type == "PROPERTIES":
                area.tag_redraw()
        if not self._session.done:
            return {"PASS_THROUGH"}
        self._stop_modal(context)
        return self._end(self._session.finish())

    def _stop_modal(self, context):
        wm = context.window_manager
        wm.event_timer_remove(self._timer)
        wm.progress_end()
        context.workspace.status_text_set(None)

    def cancel(self, context):
        # Blender ends the operator (a file is loaded, Blender quits): stop and keep what is done.
        self._session.cancel()
        self._stop_modal(context)
        self._session.finish()


class GRIP_OT_cancel_bake(bpy.types.Operator):
    """Stop the running grip bake; the frames already baked are kept"""

    bl_idname = "grip.cancel_bake"
    bl_label = "Cancel Bake"

    @classmethod
    def poll(cls, context):
        return running_session(context.scene) is not None

    def execute(self, context):
        running_session(context.scene).cancel()
        return {"FINISHED"}


class GRIP_OT_free_bake(bpy.types.Operator):
    """Remove the grip caches of this scene: the Mesh Cache modifiers and their PC2 files"""

    bl_idname = "grip.free_bake"
    bl_label = "Free Bake"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return context.scene is not None and running_session(context.scene) is None

    def execute(self, context):
        scene = context.scene
        objects = [o for o in scene.objects if o.type == "MESH" and
                   (cache_modifier(o) is not None or o.grip.cache_file or o in simulated_objects(scene))]
        with quiet():
            freed = sum(detach(o, delete_file=True) for o in objects)
        freed += remove_state(state_file(scene))
        scene.grip.cache_frame_end, scene.grip.cache_outdated = 0, False
        scene.grip.bake_status = "Bake freed" if freed else "Nothing to free"
        return {"FINISHED"}


CLASSES = (GRIP_OT_bake, GRIP_OT_cancel_bake, GRIP_OT_free_bake)
