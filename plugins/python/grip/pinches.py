# SPDX-License-Identifier: MIT
"""What a step report says of pinches: where two collider surfaces (two colliders, or two parts
of one collider mesh) closed on the cloth to less than the contact thickness, and a sentence a
user can act on, as ``grip run`` prints it::

    report = solver.report()
    message = grip.pinch_message(report, params.contact_thickness, names.get, f"at frame {frame}")
    if message:
        print("warning:", message)
"""

from . import checks
from ._structs import GripStepReport


def pinch_message(report, thickness, object_name=None, when=""):
    """The sentence ``grip run`` prints for a call that met a pinch, or None: which object is
    pinched between which colliders near which point (m), ``when`` (e.g. "at frame 12"; "" for
    nothing), how far apart the surfaces are against the contact thickness ``thickness`` (m),
    and what to do. ``object_name(id)`` gives an object's or collider's name (None, or a None
    it returns: "object <id>")."""
    checks.instance(report, "report", GripStepReport)
    checks.callback(object_name, "object_name")
    thickness = checks.real(thickness, "thickness")
    checks.text(when, "when")
    if not report.pinched_vertices:
        return None

    def name(i):
        return (object_name and object_name(i)) or f"object {i}"

    a, b = report.pinch_colliders
    between = f"{name(a)} and itself" if a == b else f"{name(a)} and {name(b)}"
    x, y, z = report.pinch_position
    when = f" {when}" if when else ""
    also = f" ({report.pinched_vertices} vertices pinched)" if report.pinched_vertices > 1 else ""
    return (f"{name(report.pinch_object)} is pinched between {between} near ({x:.3f}, {y:.3f}, {z:.3f}) m"
            f"{when}{also}: the surfaces are {1e3 * report.pinch_separation:.1f} mm apart, under the contact "
            f"thickness {1e3 * thickness:.1f} mm; the cloth is kept between them: open the gap or thin "
            "the contact layer to free it")
