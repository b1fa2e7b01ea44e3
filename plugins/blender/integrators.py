# SPDX-License-Identifier: GPL-3.0-or-later
"""The time integrators the Scene tab offers, which of the scene's integrator settings each one
uses (the panel shows only those), and the solver fields they become at bake time. No bpy here."""

from . import grip

#: The Integrator menu: (identifier, label, tooltip, ``grip.INTEGRATOR_*``).
INTEGRATORS = [
    ("BACKWARD_EULER", "Backward Euler", "Implicit, fully coupled friction",
     grip.INTEGRATOR_BACKWARD_EULER),
    ("SEMI_IMPLICIT", "Semi-Implicit Euler",
     "One Newton iteration of backward Euler per time step, without a convergence test: cheap, "
     "heavily damping", grip.INTEGRATOR_SEMI_IMPLICIT),
    ("NEWMARK", "Newmark",
     "Newmark's method with β and γ; the default β = 1/4, γ = 1/2 is the average acceleration "
     "rule, which preserves energy", grip.INTEGRATOR_NEWMARK),
    ("GENERALIZED_ALPHA", "Generalized-α",
     "Second order, with the spectral radius ρ∞ as the knob for high-frequency damping: 1 damps "
     "nothing, 0 removes the highest frequencies in one step", grip.INTEGRATOR_GENERALIZED_ALPHA),
    ("EXPONENTIAL_EULER", "Exponential Euler",
     "Exponential Rosenbrock–Euler: lively, little artificial damping and no nonlinear solve, but "
     "slow on stiff cloth", grip.INTEGRATOR_EXPONENTIAL_EULER),
    ("SIERE", "SIERE",
     "Exponential Rosenbrock–Euler on the lowest modes (Modes), semi-implicit Euler on the rest",
     grip.INTEGRATOR_SIERE),
]

#: Integrator identifier -> the scene settings it uses besides itself.
_OWN_SETTINGS = {
    "NEWMARK": ("newmark_beta", "newmark_gamma"),
    "GENERALIZED_ALPHA": ("spectral_radius",),
    "SIERE": ("modal_count",),
}
#: Integrators without implicit stages: Semi-Implicit Stages does not apply to them.
_NO_IMPLICIT_STAGES = {"SEMI_IMPLICIT", "EXPONENTIAL_EULER", "SIERE"}

#: Every integrator setting of ``Scene.grip``, in the order the panel draws them.
SETTINGS = ("newmark_beta", "newmark_gamma", "spectral_radius", "modal_count", "semi_implicit")


def shown_settings(integrator):
    """The settings of ``Scene.grip`` that integrator ``integrator`` (an identifier) uses."""
    shown = list(_OWN_SETTINGS.get(integrator, ()))
    if integrator not in _NO_IMPLICIT_STAGES:
        shown.append("semi_implicit")
    return tuple(shown)


def solver_fields(settings):
    """The ``GripSolverParams`` fields of ``settings`` (a ``Scene.grip``): the integrator's code
    and every integrator setting (all dimensionless), whichever integrator is chosen."""
    code = {identifier: value for identifier, _, _, value in INTEGRATORS}[settings.integrator]
    return dict(integrator=code, newmark_beta=settings.newmark_beta, newmark_gamma=settings.newmark_gamma,
                spectral_radius=settings.spectral_radius, modal_count=settings.modal_count,
                semi_implicit=int(settings.semi_implicit))
