# SPDX-License-Identifier: MIT
"""What a step report says of the failsafe (``GRIP_FAILURE_POLICY_CONTINUE``): how many
substeps fell back, and a sentence a user can act on, as ``grip run`` prints it::

    report = solver.report()
    message = grip.fallback_message(report, names.get, f"at frame {frame}")
    if message:
        print("warning:", message)
"""

from . import checks
from ._structs import FALLBACK_BEST_ITERATE, FALLBACK_FRICTIONLESS, FALLBACK_LAGGED_FRICTION, GripStepReport

#: ``GRIP_FALLBACK_*`` code -> the words ``grip run`` uses for it.
FALLBACK_NAMES = {
    FALLBACK_LAGGED_FRICTION: "lagged-friction substep",
    FALLBACK_FRICTIONLESS: "frictionless substep",
    FALLBACK_BEST_ITERATE: "best unconverged iterate",
}


def fallback_count(report):
    """Substeps of the call that ``report`` (a :class:`GripStepReport`) describes that a
    fallback completed, all kinds together."""
    checks.instance(report, "report", GripStepReport)
    return report.fallbacks_lagged + report.fallbacks_frictionless + report.fallbacks_best_iterate


def fallback_message(report, object_name=None, when=""):
    """The sentence ``grip run`` prints for a call that took fallbacks, or None: which object
    failed to converge near which point (m), ``when`` (e.g. "at frame 12"; "" for nothing), the
    last fallback and, when there were several, how many of each. ``object_name(id)`` gives an
    object's name (None, or a None it returns: "object <id>")."""
    checks.instance(report, "report", GripStepReport)
    checks.callback(object_name, "object_name")
    checks.text(when, "when")
    last = FALLBACK_NAMES.get(report.last_fallback)
    if last is None:
        return None
    when = f" {when}" if when else ""
    if report.fallback_object:
        name = (object_name and object_name(report.fallback_object)) or f"object {report.fallback_object}"
        x, y, z = report.fallback_position
        place = f"{name} failed to converge near ({x:.3f}, {y:.3f}, {z:.3f}) m{when}"
    else:
        place = f"a substep failed to converge{when}"
    n = fallback_count(report)
    counts = "" if n <= 1 else (
        f" ({n} substeps fell back: {report.fallbacks_lagged} with lagged friction, "
        f"{report.fallbacks_frictionless} frictionless, {report.fallbacks_best_iterate} at the best iterate)")
    return f"{place}; fallback: {last}{counts}"
