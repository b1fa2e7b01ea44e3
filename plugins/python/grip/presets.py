# SPDX-License-Identifier: MIT
"""Material presets in SI units, shared by the Blender add-on and other hosts.

Each preset gives ``GripMaterial`` fields: density [kg/m³] (shells weigh density × thickness
per m²), youngs_modulus [Pa], poisson_ratio, thickness [m] (shells), bending_stiffness [N·m]
(shells) and Rayleigh damping_beta [s]. Fabric values are effective membrane moduli of woven or
knitted cloth (areal weights: cotton 150 g/m², denim 400, silk 60, leather 1 kg/m², jersey 180;
stretch stiffness E·t of 1–8 kN/m for wovens, 20 kN/m for leather, 0.3 kN/m for jersey).
Bending stiffness is the measured fabric bending rigidity (about 1e-6 N·m for silk to 5e-5 N·m
for denim), far below the plate value E·t³/12 because yarns slide. Solids (rubber, flesh) use
bulk values.
"""

from . import checks

#: name -> (label, description, GripMaterial fields).
MATERIAL_PRESETS = {
    "COTTON": ("Cotton", "Woven cotton shirting, 150 g/m²", dict(
        density=300.0, youngs_modulus=5.0e6, poisson_ratio=0.3, thickness=5.0e-4,
        bending_stiffness=5.0e-6, damping_beta=1.0e-3)),
    "DENIM": ("Denim", "Heavy twill, 400 g/m², stiff drape", dict(
        density=500.0, youngs_modulus=1.0e7, poisson_ratio=0.3, thickness=8.0e-4,
        bending_stiffness=5.0e-5, damping_beta=1.0e-3)),
    "SILK": ("Silk", "Light silk, 60 g/m², fluid drape", dict(
        density=300.0, youngs_modulus=5.0e6, poisson_ratio=0.3, thickness=2.0e-4,
        bending_stiffness=1.0e-6, damping_beta=5.0e-4)),
    "LEATHER": ("Leather", "Garment leather, 1 kg/m², stiff", dict(
        density=1000.0, youngs_modulus=2.0e7, poisson_ratio=0.35, thickness=1.0e-3,
        bending_stiffness=5.0e-4, damping_beta=2.0e-3)),
    "JERSEY": ("Jersey", "Knitted jersey, 180 g/m², stretchy", dict(
        density=300.0, youngs_modulus=5.0e5, poisson_ratio=0.3, thickness=6.0e-4,
        bending_stiffness=2.0e-6, damping_beta=1.0e-3)),
    "RUBBER": ("Rubber", "Soft natural rubber (solid)", dict(
        density=1100.0, youngs_modulus=1.0e6, poisson_ratio=0.45, thickness=1.0e-3,
        bending_stiffness=1.0e-6, damping_beta=1.0e-3)),
    "FLESH": ("Flesh", "Soft tissue (solid)", dict(
        density=1000.0, youngs_modulus=1.0e5, poisson_ratio=0.45, thickness=1.0e-3,
        bending_stiffness=1.0e-6, damping_beta=2.0e-3)),
}


def preset_fields(name):
    """The ``GripMaterial`` fields of preset ``name`` (a str, case-insensitive); KeyError if
    unknown, TypeError if not a str."""
    checks.text(name, "name")
    return dict(MATERIAL_PRESETS[name.upper()][2])
