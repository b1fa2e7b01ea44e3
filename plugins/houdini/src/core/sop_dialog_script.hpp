/* The SOP's parameter interface as a Houdini dialog script, embedded by SOP_Grip.C through
 * PRM_TemplateBuilder (SideFX's verb-SOP pattern); SOP_Grip.proto.h is generated from it. Kept
 * in a plain header so that the tests here check its defaults against default_parameters().
 * Units are SI (Houdini's unit length taken as 1 m).
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_DIALOG_SCRIPT_HPP
#define GRIP_SOP_DIALOG_SCRIPT_HPP

namespace grip_sop {

/// The dialog script of SOP_Grip.
inline const char *dialog_script() {
    return R"THEDSFILE(
{
    name    parameters
    parm {
        name    "startframe"
        cppname "StartFrame"
        label   "Start Frame"
        type    integer
        default { "1" }
        range   { 1 240 }
    }
    parm {
        name    "timestep"
        cppname "TimeStep"
        label   "Time Step"
        type    float
        default { "1/$FPS" }
        range   { 0! 0.1 }
    }
    parm {
        name    "substeps"
        cppname "Substeps"
        label   "Substeps"
        type    integer
        default { "4" }
        range   { 1! 32 }
    }
    parm {
        name    "gravity"
        cppname "Gravity"
        label   "Gravity"
        type    vector
        size    3
        default { "0" "-9.81" "0" }
    }
    groupsimple {
        name    "solver_folder"
        label   "Solver"
        parm {
            name    "integrator"
            cppname "Integrator"
            label   "Integrator"
            type    ordinal
            default { "0" }
            menu    { "backwardeuler" "Backward Euler" }
        }
        parm {
            name    "linearsolver"
            cppname "LinearSolver"
            label   "Linear Solver"
            type    ordinal
            default { "0" }
            menu    { "directlu" "Direct Sparse LU" }
        }
        parm {
            name    "maxnewton"
            cppname "MaxNewton"
            label   "Max Newton Iterations"
            type    integer
            default { "50" }
            range   { 1! 200 }
        }
        parm {
            name    "tolerance"
            cppname "Tolerance"
            label   "Relative Tolerance"
            type    log
            default { "1e-06" }
            range   { 1e-10 0.01 }
        }
        parm {
            name    "workers"
            cppname "Workers"
            label   "Threads (0 = All)"
            type    integer
            default { "0" }
            range   { 0! 64 }
        }
    }
    groupsimple {
        name    "contact_folder"
        label   "Contact"
        parm {
            name    "contactthickness"
            cppname "ContactThickness"
            label   "Contact Thickness"
            type    float
            default { "0.001" }
            range   { 0! 0.05 }
        }
        parm {
            name    "friction"
            cppname "Friction"
            label   "Friction"
            type    float
            default { "0.3" }
            range   { 0! 2 }
        }
        parm {
            name    "frictioncoupling"
            cppname "FrictionCoupling"
            label   "Friction Coupling"
            type    ordinal
            default { "0" }
            menu    { "implicit" "Implicit" "lagged" "Lagged" }
        }
        parm {
            name    "frictionepsilon"
            cppname "FrictionEpsilon"
            label   "Stick-Slip Velocity"
            type    log
            default { "0.0001" }
            range   { 1e-06 0.1 }
        }
        parm {
            name    "colliderwinding"
            cppname "ColliderWinding"
            label   "Collider Front Faces"
            type    ordinal
            default { "0" }
            menu    { "clockwise" "Houdini (Clockwise)" "counterclockwise" "Counter-Clockwise" }
        }
    }
    groupsimple {
        name    "objects_folder"
        label   "Objects"
        parm {
            name    "typeattrib"
            cppname "TypeAttrib"
            label   "Type Attribute"
            type    string
            default { "grip_type" }
        }
        parm {
            name    "nameattrib"
            cppname "NameAttrib"
            label   "Name Attribute"
            type    string
            default { "name" }
        }
        parm {
            name    "solidgroup"
            cppname "SolidGroup"
            label   "Solid Group"
            type    string
            default { "" }
            parmtag { "script_action" "import soputils\nkwargs['geometrytype'] = hou.geometryType.Primitives\nkwargs['inputindex'] = 0\nsoputils.selectGroupParm(kwargs)" }
        }
        parm {
            name    "shellgroup"
            cppname "ShellGroup"
            label   "Shell Group"
            type    string
            default { "" }
            parmtag { "script_action" "import soputils\nkwargs['geometrytype'] = hou.geometryType.Primitives\nkwargs['inputindex'] = 0\nsoputils.selectGroupParm(kwargs)" }
        }
    }
    groupsimple {
        name    "shell_folder"
        label   "Shell Material"
        parm {
            name    "shelldensity"
            cppname "ShellDensity"
            label   "Density"
            type    float
            default { "300" }
            range   { 0! 2000 }
        }
        parm {
            name    "shellyoung"
            cppname "ShellYoung"
            label   "Young's Modulus"
            type    log
            default { "1000000" }
            range   { 1000 1e+09 }
        }
        parm {
            name    "shellpoisson"
            cppname "ShellPoisson"
            label   "Poisson Ratio"
            type    float
            default { "0.3" }
            range   { 0 0.49 }
        }
        parm {
            name    "shellthickness"
            cppname "ShellThickness"
            label   "Thickness"
            type    float
            default { "0.001" }
            range   { 0! 0.01 }
        }
        parm {
            name    "shellbending"
            cppname "ShellBending"
            label   "Bending Stiffness"
            type    log
            default { "1e-06" }
            range   { 1e-09 0.01 }
        }
        parm {
            name    "shelldampingalpha"
            cppname "ShellDampingAlpha"
            label   "Mass Damping"
            type    float
            default { "0" }
            range   { 0! 10 }
        }
        parm {
            name    "shelldampingbeta"
            cppname "ShellDampingBeta"
            label   "Stiffness Damping"
            type    float
            default { "0" }
            range   { 0! 0.01 }
        }
        parm {
            name    "shellmembrane"
            cppname "ShellMembrane"
            label   "Membrane Model"
            type    ordinal
            default { "0" }
            menu    { "neohookean" "Neo-Hookean" "stvk" "St. Venant-Kirchhoff" }
        }
    }
    groupsimple {
        name    "solid_folder"
        label   "Solid Material"
        parm {
            name    "soliddensity"
            cppname "SolidDensity"
            label   "Density"
            type    float
            default { "1100" }
            range   { 0! 3000 }
        }
        parm {
            name    "solidyoung"
            cppname "SolidYoung"
            label   "Young's Modulus"
            type    log
            default { "1000000" }
            range   { 1000 1e+09 }
        }
        parm {
            name    "solidpoisson"
            cppname "SolidPoisson"
            label   "Poisson Ratio"
            type    float
            default { "0.45" }
            range   { 0 0.49 }
        }
        parm {
            name    "soliddampingalpha"
            cppname "SolidDampingAlpha"
            label   "Mass Damping"
            type    float
            default { "0" }
            range   { 0! 10 }
        }
        parm {
            name    "soliddampingbeta"
            cppname "SolidDampingBeta"
            label   "Stiffness Damping"
            type    float
            default { "0" }
            range   { 0! 0.01 }
        }
    }
    parm {
        name    "clearcache"
        label   "Clear Solver Cache"
        type    button
        default { "0" }
    }
}
)THEDSFILE";
}

} // namespace grip_sop

#endif
