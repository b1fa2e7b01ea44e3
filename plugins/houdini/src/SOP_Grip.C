/* The grip solver SOP: HDK glue only. It copies its inputs into grip_sop::Geometry, evaluates
 * its parameters into grip_sop::SopParameters, calls grip_sop::cook (core/sop_cook.hpp), and
 * writes P, v and the grip_solver detail attribute back, with warnings and errors through
 * sopAddWarning / sopAddError. Inputs: 0 geometry to simulate (polygons: shells, tetrahedra:
 * solids), 1 pin source (optional), 2 collider meshes (optional, animated with fixed topology).
 * It follows SideFX's verb-SOP sample SOP_Star.C: embedded dialog script, PRM_TemplateBuilder,
 * a registered SOP_NodeVerb, UT_AutoInterrupt, data ids bumped for what changed.
 * This file is not compiled in grip's CI (Houdini's HDK is not installed there).
 * SPDX-License-Identifier: MIT */

#include "SOP_Grip.h"

// Generated from theDsFile below by houdini_generate_proto_headers (CMake) or generate_proto.py.
#include "SOP_Grip.proto.h"

#include "attribute_mapping.hpp"
#include "sop_cook.hpp"
#include "solver_registry.hpp"

#include <CH/CH_Manager.h>
#include <GA/GA_Handle.h>
#include <GA/GA_Iterator.h>
#include <GEO/GEO_PrimPoly.h>
#include <GOP/GOP_Manager.h>
#include <GU/GU_Detail.h>
#include <OP/OP_Operator.h>
#include <OP/OP_OperatorTable.h>
#include <PRM/PRM_Include.h>
#include <PRM/PRM_TemplateBuilder.h>
#include <UT/UT_DSOVersion.h>
#include <UT/UT_Interrupt.h>

#include <cstdio>
#include <string>

using namespace grip_hdk;

const UT_StringHolder SOP_Grip::theSOPTypeName("grip_solver"_sh);

/// Registers the SOP with Houdini.
void newSopOperator(OP_OperatorTable *table) {
    table->addOperator(new OP_Operator(SOP_Grip::theSOPTypeName, // internal name
                                       "Grip Solver",            // UI name
                                       SOP_Grip::myConstructor,  // how to build the node
                                       SOP_Grip::buildTemplates(),
                                       1,         // min inputs: the geometry to simulate
                                       3,         // max inputs: + pin source, colliders
                                       nullptr,   // no local variables
                                       0));       // a filter, not a generator
}

/// The parameter interface. Its defaults equal grip_sop::default_parameters() (checked by
/// tests/cpp/sop_input_tests.cpp, which reads this file); units are SI.
static const char *theDsFile = R"THEDSFILE(
{
    name    parameters
    parm { name "startframe" cppname "StartFrame" label "Start Frame" type integer default { "1" } range { 1 240 } }
    parm { name "timestep" cppname "TimeStep" label "Time Step" type float default { "1/$FPS" } range { 0! 0.1 } }
    parm { name "substeps" cppname "Substeps" label "Substeps" type integer default { "4" } range { 1! 32 } }
    parm { name "gravity" cppname "Gravity" label "Gravity" type vector size 3 default { "0" "-9.81" "0" } }
    groupsimple {
        name    "solver_folder"
        label   "Solver"
        parm { name "integrator" cppname "Integrator" label "Integrator" type ordinal default { "0" } menu { "backwardeuler" "Backward Euler" "trapezoidal" "Trapezoidal Rule" "bdf2" "BDF2" "trbdf2" "TR-BDF2" "sdirk2" "SDIRK2" "semiimplicit" "Semi-Implicit Euler" "newmark" "Newmark" "generalizedalpha" "Generalized-Alpha" "exponentialeuler" "Exponential Rosenbrock-Euler" "siere" "SIERE" } }
        parm { name "newmarkbeta" cppname "NewmarkBeta" label "Newmark Beta" type float default { "0.25" } range { 0! 1! } hidewhen "{ integrator != 6 }" }
        parm { name "newmarkgamma" cppname "NewmarkGamma" label "Newmark Gamma" type float default { "0.5" } range { 0.5! 1! } hidewhen "{ integrator != 6 }" }
        parm { name "spectralradius" cppname "SpectralRadius" label "Spectral Radius" type float default { "0.8" } range { 0! 1! } hidewhen "{ integrator != 7 }" }
        parm { name "modalcount" cppname "ModalCount" label "Modal Count" type integer default { "10" } range { 1! 200! } hidewhen "{ integrator != 9 }" }
        parm { name "semiimplicit" cppname "SemiImplicit" label "Semi-Implicit Stages" type toggle default { "0" } hidewhen "{ integrator == 5 } { integrator == 8 } { integrator == 9 }" }
        parm { name "linearsolver" cppname "LinearSolver" label "Linear Solver" type ordinal default { "0" } menu { "directlu" "Direct Sparse LU" "iterative" "Iterative (BiCGSTAB)" "matrixfree" "Iterative, Matrix-Free" } }
        parm { name "maxnewton" cppname "MaxNewton" label "Max Newton Iterations" type integer default { "50" } range { 1! 200 } }
        parm { name "tolerance" cppname "Tolerance" label "Relative Tolerance" type log default { "1e-06" } range { 1e-10 0.01 } }
        parm { name "workers" cppname "Workers" label "Threads (0 = All)" type integer default { "0" } range { 0! 64 } }
        parm { name "onhardframe" cppname "OnHardFrame" label "On a Hard Frame" type ordinal default { "1" } menu { "stop" "Stop" "continue" "Continue with a Fallback" } }
    }
    groupsimple {
        name    "contact_folder"
        label   "Contact"
        parm { name "contactthickness" cppname "ContactThickness" label "Contact Thickness" type float default { "0.001" } range { 0! 0.05 } }
        parm { name "friction" cppname "Friction" label "Friction" type float default { "0.3" } range { 0! 2 } }
        parm { name "frictioncoupling" cppname "FrictionCoupling" label "Friction Coupling" type ordinal default { "0" } menu { "implicit" "Implicit" "lagged" "Lagged" } }
        parm { name "frictionepsilon" cppname "FrictionEpsilon" label "Stick-Slip Velocity" type log default { "0.0001" } range { 1e-06 0.1 } }
        parm { name "selfcontact" cppname "SelfContact" label "Self Contact" type toggle default { "0" } }
        parm { name "selfcontactthickness" cppname "SelfContactThickness" label "Self Contact Thickness" type float default { "0.001" } range { 0! 0.05 } disablewhen "{ selfcontact == 0 }" }
        parm { name "colliderwinding" cppname "ColliderWinding" label "Collider Front Faces" type ordinal default { "0" } menu { "clockwise" "Houdini (Clockwise)" "counterclockwise" "Counter-Clockwise" } }
        parm { name "collidercontact" cppname "ColliderContact" label "Collider Contact" type ordinal default { "0" } menu { "exact" "Exact Distance" "smooth" "Smooth Surface" } }
    }
    groupsimple {
        name    "objects_folder"
        label   "Objects"
        parm { name "typeattrib" cppname "TypeAttrib" label "Type Attribute" type string default { "grip_type" } }
        parm { name "nameattrib" cppname "NameAttrib" label "Name Attribute" type string default { "name" } }
        parm { name "solidgroup" cppname "SolidGroup" label "Solid Group" type string default { "" } }
        parm { name "shellgroup" cppname "ShellGroup" label "Shell Group" type string default { "" } }
    }
    groupsimple {
        name    "shell_folder"
        label   "Shell Material"
        parm { name "shelldensity" cppname "ShellDensity" label "Density" type float default { "300" } range { 1! 2000 } }
        parm { name "shellyoung" cppname "ShellYoung" label "Young's Modulus" type log default { "1000000" } range { 1000 1e+09 } }
        parm { name "shellpoisson" cppname "ShellPoisson" label "Poisson Ratio" type float default { "0.3" } range { 0 0.49 } }
        parm { name "shellthickness" cppname "ShellThickness" label "Thickness" type float default { "0.001" } range { 0! 0.01 } }
        parm { name "shellbending" cppname "ShellBending" label "Bending Stiffness" type log default { "1e-06" } range { 1e-09 0.01 } }
        parm { name "shelldampingalpha" cppname "ShellDampingAlpha" label "Mass Damping" type float default { "0" } range { 0! 10 } }
        parm { name "shelldampingbeta" cppname "ShellDampingBeta" label "Stiffness Damping" type float default { "0" } range { 0! 0.01 } }
        parm { name "shellmembrane" cppname "ShellMembrane" label "Membrane Model" type ordinal default { "0" } menu { "neohookean" "Neo-Hookean" "stvk" "St. Venant-Kirchhoff" } }
    }
    groupsimple {
        name    "solid_folder"
        label   "Solid Material"
        parm { name "soliddensity" cppname "SolidDensity" label "Density" type float default { "1100" } range { 1! 3000 } }
        parm { name "solidyoung" cppname "SolidYoung" label "Young's Modulus" type log default { "1000000" } range { 1000 1e+09 } }
        parm { name "solidpoisson" cppname "SolidPoisson" label "Poisson Ratio" type float default { "0.45" } range { 0 0.49 } }
        parm { name "soliddampingalpha" cppname "SolidDampingAlpha" label "Mass Damping" type float default { "0" } range { 0! 10 } }
        parm { name "soliddampingbeta" cppname "SolidDampingBeta" label "Stiffness Damping" type float default { "0" } range { 0! 0.01 } }
    }
    parm { name "clearcache" cppname "ClearCache" label "Clear Solver Cache" type button default { "0" } }
}
)THEDSFILE";

PRM_Template *SOP_Grip::buildTemplates() {
    static PRM_TemplateBuilder templ("SOP_Grip.C"_sh, theDsFile);
    if (templ.justBuilt()) {
        templ.setChoiceListPtr("solidgroup", &SOP_Node::primGroupMenu);
        templ.setChoiceListPtr("shellgroup", &SOP_Node::primGroupMenu);
        templ.setCallback("clearcache", &SOP_Grip::clearSolverCache);
    }
    return templ.templates();
}

SOP_Grip::SOP_Grip(OP_Network *net, const char *name, OP_Operator *op) : SOP_Node(net, name, op) {
    // Verb SOPs manage data ids to tell the viewport what changed.
    mySopFlags.setManagesDataIDs(true);
}

SOP_Grip::~SOP_Grip() { grip_sop::SolverRegistry::instance().remove_owner(static_cast<std::uint64_t>(getUniqueId())); }

const char *SOP_Grip::inputLabel(unsigned index) const {
    switch (index) {
    case 0: return "Geometry to Simulate (Prev_Frame in a SOP Solver)";
    case 1: return "Pin Source (animated, same points as input 1)";
    case 2: return "Collider Meshes (animated, fixed topology)";
    default: return "Invalid";
    }
}

int SOP_Grip::clearSolverCache(void *data, int, fpreal, const PRM_Template *) {
    auto *node = static_cast<SOP_Grip *>(data);
    grip_sop::SolverRegistry::instance().remove_owner(static_cast<std::uint64_t>(node->getUniqueId()));
    return 0;
}

namespace {

class SOP_GripVerb : public SOP_NodeVerb {
public:
    SOP_NodeParms *allocParms() const override { return new SOP_GripParms(); }
    UT_StringHolder name() const override { return SOP_Grip::theSOPTypeName; }
    // The output starts as a copy of input 0; the cook moves its points.
    CookMode cookMode(const SOP_NodeParms *) const override { return COOK_DUPLICATE; }
    void cook(const CookParms &cookparms) const override;

    static const SOP_NodeVerb::Register<SOP_GripVerb> theVerb;
};

const SOP_NodeVerb::Register<SOP_GripVerb> SOP_GripVerb::theVerb;

/// Membership of each primitive (by index) in `group`.
std::vector<char> membership(const GU_Detail &gdp, const GA_PrimitiveGroup &group) {
    std::vector<char> in(static_cast<std::size_t>(gdp.getNumPrimitives()), 0);
    for (GA_Iterator it(gdp.getPrimitiveRange()); !it.atEnd(); ++it) {
        in[gdp.primitiveIndex(*it)] = group.containsOffset(*it) ? 1 : 0;
    }
    return in;
}

/// Copies what the core reads out of `gdp`: P, the numeric point attributes of
/// grip_sop::read_point_attributes(), every primitive's type and points, and the string
/// primitive attributes named in `strings`.
grip_sop::Geometry copy_geometry(const GU_Detail &gdp, const std::vector<std::string> &strings) {
    grip_sop::Geometry g;
    const auto np = static_cast<std::size_t>(gdp.getNumPoints());
    g.positions.resize(3 * np);
    for (GA_Iterator it(gdp.getPointRange()); !it.atEnd(); ++it) {
        const UT_Vector3D p = gdp.getPos3D(*it);
        const auto i = static_cast<std::size_t>(gdp.pointIndex(*it));
        g.positions[3 * i] = p.x();
        g.positions[3 * i + 1] = p.y();
        g.positions[3 * i + 2] = p.z();
    }
    for (const auto &wanted : grip_sop::read_point_attributes()) {
        const GA_Attribute *attrib = gdp.findPointAttribute(wanted.first.c_str());
        const GA_AIFTuple *tuple = attrib ? attrib->getAIFTuple() : nullptr;
        if (!tuple) continue; // absent or not numeric
        grip_sop::PointAttribute a;
        a.tuple_size = tuple->getTupleSize(attrib);
        a.values.resize(np * static_cast<std::size_t>(a.tuple_size));
        for (GA_Iterator it(gdp.getPointRange()); !it.atEnd(); ++it) {
            const auto i = static_cast<std::size_t>(gdp.pointIndex(*it));
            for (int c = 0; c < a.tuple_size; ++c) {
                fpreal64 value = 0;
                tuple->get(attrib, *it, value, c);
                a.values[i * static_cast<std::size_t>(a.tuple_size) + static_cast<std::size_t>(c)] = value;
            }
        }
        g.point_attributes[wanted.first] = std::move(a);
    }
    g.primitives.resize(static_cast<std::size_t>(gdp.getNumPrimitives()));
    for (GA_Iterator it(gdp.getPrimitiveRange()); !it.atEnd(); ++it) {
        const GA_Primitive *prim = gdp.getPrimitive(*it);
        grip_sop::Primitive &out = g.primitives[gdp.primitiveIndex(*it)];
        const int type = prim->getTypeId().get();
        if (type == GA_PRIMPOLY && static_cast<const GEO_PrimPoly *>(prim)->isClosed()) {
            out.kind = grip_sop::PrimitiveKind::Polygon;
        } else if (type == GA_PRIMTETRAHEDRON) {
            out.kind = grip_sop::PrimitiveKind::Tetrahedron;
        } else {
            continue; // PrimitiveKind::Other
        }
        for (GA_Size v = 0; v < prim->getVertexCount(); ++v) {
            out.points.push_back(gdp.pointIndex(prim->getPointOffset(v)));
        }
    }
    for (const std::string &name : strings) {
        if (name.empty()) continue;
        GA_ROHandleS handle(&gdp, GA_ATTRIB_PRIMITIVE, name.c_str());
        if (!handle.isValid()) continue;
        std::vector<std::string> values(g.primitives.size());
        for (GA_Iterator it(gdp.getPrimitiveRange()); !it.atEnd(); ++it) {
            const UT_StringHolder value = handle.get(*it);
            values[gdp.primitiveIndex(*it)] = value.isstring() ? value.toStdString() : std::string();
        }
        g.primitive_strings[name] = std::move(values);
    }
    return g;
}

/// The SOP parameters in SI units (Houdini's unit length taken as 1 m).
grip_sop::SopParameters evaluate(const SOP_GripParms &p) {
    grip_sop::SopParameters s = grip_sop::default_parameters();
    s.start_time = CHgetManager()->getTime(static_cast<fpreal>(p.getStartFrame()));
    s.time_step = p.getTimeStep();
    s.substeps = static_cast<int>(p.getSubsteps());
    s.integrator = static_cast<std::uint32_t>(p.getIntegrator());
    s.newmark_beta = p.getNewmarkBeta();
    s.newmark_gamma = p.getNewmarkGamma();
    s.spectral_radius = p.getSpectralRadius();
    s.modal_count = static_cast<std::uint32_t>(p.getModalCount());
    s.semi_implicit = p.getSemiImplicit();
    s.linear_solver = static_cast<std::uint32_t>(p.getLinearSolver());
    const UT_Vector3D gravity = p.getGravity();
    s.gravity = {gravity.x(), gravity.y(), gravity.z()};
    s.max_newton_iterations = static_cast<std::uint32_t>(p.getMaxNewton());
    s.residual_tolerance = p.getTolerance();
    s.worker_count = static_cast<std::uint32_t>(p.getWorkers());
    s.failure_policy = static_cast<std::uint32_t>(p.getOnHardFrame());
    s.contact_thickness = p.getContactThickness();
    s.friction = p.getFriction();
    s.friction_coupling = static_cast<std::uint32_t>(p.getFrictionCoupling());
    s.friction_epsilon = p.getFrictionEpsilon();
    s.self_contact = p.getSelfContact();
    s.self_contact_thickness = p.getSelfContactThickness();
    s.collider_clockwise_front = static_cast<int>(p.getColliderWinding()) == 0;
    s.collider_mesh_contact = static_cast<std::uint32_t>(p.getColliderContact());
    s.type_attribute = p.getTypeAttrib().toStdString();
    s.name_attribute = p.getNameAttrib().toStdString();
    s.shell.density = p.getShellDensity();
    s.shell.youngs_modulus = p.getShellYoung();
    s.shell.poisson_ratio = p.getShellPoisson();
    s.shell.thickness = p.getShellThickness();
    s.shell.bending_stiffness = p.getShellBending();
    s.shell.damping_alpha = p.getShellDampingAlpha();
    s.shell.damping_beta = p.getShellDampingBeta();
    s.shell.membrane_model = static_cast<std::uint32_t>(p.getShellMembrane());
    s.solid.density = p.getSolidDensity();
    s.solid.youngs_modulus = p.getSolidYoung();
    s.solid.poisson_ratio = p.getSolidPoisson();
    s.solid.damping_alpha = p.getSolidDampingAlpha();
    s.solid.damping_beta = p.getSolidDampingBeta();
    return s;
}

/// The primitive group named by `pattern` on `gdp` as a "solid"/"shell" membership list.
void add_group(const SOP_NodeVerb::CookParms &cookparms, const GU_Detail &gdp, const UT_StringHolder &pattern,
               const char *role, grip_sop::Geometry &g) {
    if (!pattern.isstring()) return;
    GOP_Manager manager;
    bool ok = true;
    const GA_PrimitiveGroup *group = manager.parsePrimitiveDetached(pattern.c_str(), &gdp, false, ok);
    if (!ok) cookparms.sopAddWarning(SOP_ERR_BADGROUP, pattern.c_str());
    if (group) g.primitive_groups[role] = membership(gdp, *group);
}

} // namespace

const SOP_NodeVerb *SOP_Grip::cookVerb() const { return SOP_GripVerb::theVerb.get(); }

void SOP_GripVerb::cook(const SOP_NodeVerb::CookParms &cookparms) const {
    const auto &sopparms = cookparms.parms<SOP_GripParms>();
    GU_Detail *gdp = cookparms.gdh().gdpNC(); // a copy of input 0 (COOK_DUPLICATE)
    const GU_Detail *input0 = cookparms.inputGeo(0);
    const GU_Detail *input1 = cookparms.inputGeo(1);
    const GU_Detail *input2 = cookparms.inputGeo(2);

    grip_sop::CookInputs in;
    in.parameters = evaluate(sopparms);
    const std::vector<std::string> strings = {in.parameters.type_attribute, in.parameters.name_attribute};
    grip_sop::Geometry simulated = copy_geometry(*input0, strings);
    add_group(cookparms, *input0, sopparms.getSolidGroup(), "solid", simulated);
    add_group(cookparms, *input0, sopparms.getShellGroup(), "shell", simulated);
    grip_sop::Geometry pins, colliders;
    in.geometry.simulated = &simulated;
    if (input1) {
        pins = copy_geometry(*input1, {});
        in.geometry.pins = &pins;
    }
    if (input2) {
        colliders = copy_geometry(*input2, strings);
        in.geometry.colliders = &colliders;
    }
    in.time = cookparms.getCookTime();
    GA_ROHandleID key(input0->findIntTuple(GA_ATTRIB_DETAIL, grip_sop::solver_key_attribute, 1));
    in.key = key.isValid() ? key.get(GA_Offset(0)) : 0;
    const SOP_Node *node = cookparms.getNode();
    in.owner = node ? static_cast<std::uint64_t>(node->getUniqueId()) : 0;

    // The solver runs on a helper thread; this thread polls Houdini's interrupt (Esc) and
    // shows the progress grip reports through grip_solver_set_progress_callback.
    UT_AutoInterrupt boss("Simulating with grip");
    const grip_sop::CookOutput out = grip_sop::cook(in, grip_sop::SolverRegistry::instance(), [&boss](double done) {
        return boss.wasInterrupted(static_cast<int>(100.0 * done));
    });

    for (const std::string &warning : out.warnings) cookparms.sopAddWarning(SOP_MESSAGE, warning.c_str());
    if (!out.error.empty()) {
        cookparms.sopAddError(SOP_MESSAGE, out.error.c_str());
        return;
    }
    if (out.report_valid) {
        char text[160];
        std::snprintf(text, sizeof text, "grip: %u substeps, %u Newton iterations, %u contacts, %.3f s",
                      out.report.substeps, out.report.newton_iterations, out.report.active_contacts,
                      out.report.seconds_total);
        cookparms.sopAddMessage(SOP_MESSAGE, text);
    }
    GA_RWHandleV3 v(gdp->addFloatTuple(GA_ATTRIB_POINT, "v", 3));
    v->setTypeInfo(GA_TYPE_VECTOR);
    for (GA_Iterator it(gdp->getPointRange()); !it.atEnd(); ++it) {
        const auto i = 3 * static_cast<std::size_t>(gdp->pointIndex(*it));
        gdp->setPos3(*it, UT_Vector3D(out.positions[i], out.positions[i + 1], out.positions[i + 2]));
        v.set(*it, UT_Vector3F(static_cast<float>(out.velocities[i]), static_cast<float>(out.velocities[i + 1]),
                               static_cast<float>(out.velocities[i + 2])));
    }
    gdp->getP()->bumpDataId();
    v.bumpDataId();
    GA_RWHandleID out_key(gdp->addIntTuple(GA_ATTRIB_DETAIL, grip_sop::solver_key_attribute, 1, GA_Defaults(0),
                                           nullptr, nullptr, GA_STORE_INT64));
    out_key.set(GA_Offset(0), out.key);
    out_key.bumpDataId();
}
