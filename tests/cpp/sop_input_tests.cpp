/* Tests of the SOP's input mapping: group → object splitting, point attributes, pins, friction,
 * collider meshes and winding, parameters and the dialog script's defaults.
 * SPDX-License-Identifier: MIT */

#include "check.hpp"

#include "attribute_mapping.hpp"
#include "collider_input.hpp"
#include "object_split.hpp"
#include "sop_parameters.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <regex>
#include <string>

using namespace grip_sop;

namespace {

Primitive poly(std::initializer_list<std::int64_t> points) { return Primitive{PrimitiveKind::Polygon, points}; }
Primitive tet(std::initializer_list<std::int64_t> points) { return Primitive{PrimitiveKind::Tetrahedron, points}; }

/// Two quads sharing an edge (points 0..5) and a positively oriented unit tet (points 6..9).
Geometry quads_and_tet() {
    Geometry g;
    g.positions = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1, // quads in y = 0
                   5, 0, 0, 6, 0, 0, 5, 1, 0, 5, 0, 1};                  // tet
    g.primitives = {poly({0, 1, 4, 3}), poly({1, 2, 5, 4}), tet({6, 7, 8, 9})};
    return g;
}

} // namespace

TEST(split_by_primitive_type) {
    const Geometry g = quads_and_tet();
    const SplitResult r = split_objects(g, g.positions, SplitOptions());
    CHECK(r.objects.size() == 2 && r.warnings.empty());
    const SimObject &shell = r.objects[0], &solid = r.objects[1];
    CHECK(shell.kind == ObjectKind::Shell && shell.name == "shells");
    CHECK((shell.points == std::vector<std::int64_t>{0, 1, 4, 3, 2, 5}));
    // Fan triangulation of each quad in object-vertex numbers.
    CHECK((shell.elements == std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2}));
    CHECK(solid.kind == ObjectKind::Solid && solid.name == "solids");
    CHECK((solid.points == std::vector<std::int64_t>{6, 7, 8, 9}));
    CHECK((solid.elements == std::vector<std::uint32_t>{0, 1, 2, 3}));
}

TEST(split_orients_tets_in_the_rest_shape) {
    Geometry g = quads_and_tet();
    g.primitives[2] = tet({6, 8, 7, 9}); // negative volume
    CHECK(tet_volume(g.positions, 6, 8, 7, 9) < 0);
    const SimObject solid = split_objects(g, g.positions, SplitOptions()).objects[1];
    const std::vector<std::uint32_t> &e = solid.elements;
    std::vector<double> local;
    for (std::int64_t p : solid.points) local.insert(local.end(), &g.positions[3 * p], &g.positions[3 * p] + 3);
    CHECK(std::fabs(tet_volume(local, e[0], e[1], e[2], e[3]) - 1.0 / 6.0) < 1e-15);
}

TEST(split_by_name_and_type_attribute) {
    Geometry g = quads_and_tet();
    g.primitive_strings["name"] = {"cloth", "cloth", "block"};
    g.primitive_strings["grip_type"] = {"shell", "Shell", "SOLID"};
    const SplitResult r = split_objects(g, g.positions, SplitOptions());
    CHECK(r.objects.size() == 2);
    CHECK(r.objects[0].name == "cloth" && r.objects[0].kind == ObjectKind::Shell && r.objects[0].points.size() == 6);
    CHECK(r.objects[1].name == "block" && r.objects[1].kind == ObjectKind::Solid);
    // Groups decide when there is no type attribute: a polygon in the shell group stays a shell.
    g.primitive_strings.erase("grip_type");
    g.primitive_groups["shell"] = {1, 0, 0};
    g.primitive_groups["solid"] = {0, 0, 1};
    CHECK(split_objects(g, g.positions, SplitOptions()).objects.size() == 2);
}

TEST(split_errors_name_the_primitive_or_point) {
    Geometry g = quads_and_tet();
    g.primitive_strings["grip_type"] = {"shell", "solid", "solid"};
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()), "primitive 1 is a polygon marked solid");
    g.primitive_strings["grip_type"] = {"shell", "shell", "cloth"};
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()), "expected \"solid\" or \"shell\"");
    g.primitive_strings.erase("grip_type");
    g.primitive_groups["shell"] = {0, 0, 1};
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()), "tetrahedron marked shell");
    g.primitive_groups["shell"] = {1, 0, 0};
    g.primitive_groups["solid"] = {1, 0, 0};
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()), "both the solid group and the shell group");
    g.primitive_groups.clear();
    g.primitive_strings["name"] = {"left", "right", "block"};
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()),
                 "point 1 belongs to both object \"left\" and object \"right\"");
    g.primitive_strings.clear();
    g.primitives[0].points[2] = 99;
    CHECK_THROWS(SopError, split_objects(g, g.positions, SplitOptions()), "uses point 99");
    Geometry empty;
    empty.positions = {0, 0, 0};
    empty.primitives = {Primitive{PrimitiveKind::Other, {0}}};
    CHECK_THROWS(SopError, split_objects(empty, empty.positions, SplitOptions()), "no polygons or tetrahedra");
}

TEST(split_ignores_other_primitives_with_a_warning) {
    Geometry g = quads_and_tet();
    g.primitives.push_back(Primitive{PrimitiveKind::Other, {0, 1}});
    g.primitives.push_back(poly({0, 1}));
    const SplitResult r = split_objects(g, g.positions, SplitOptions());
    CHECK(r.objects.size() == 2 && r.warnings.size() == 2);
}

TEST(rest_gather_scatter) {
    Geometry g = quads_and_tet();
    std::vector<std::string> warnings;
    CHECK(rest_positions(g, warnings) == g.positions);
    g.point_attributes["rest"] = PointAttribute{3, std::vector<double>(g.positions.size(), 0.5)};
    CHECK(rest_positions(g, warnings) == std::vector<double>(g.positions.size(), 0.5));
    g.point_attributes["rest"].tuple_size = 1;
    CHECK(rest_positions(g, warnings) == g.positions);
    CHECK(warnings.size() == 1 && warnings[0].find("rest has 1 components") != std::string::npos);

    const SimObject solid = split_objects(g, g.positions, SplitOptions()).objects[1];
    const std::vector<double> local = gather(g.positions, 3, solid);
    CHECK((local == std::vector<double>{5, 0, 0, 6, 0, 0, 5, 1, 0, 5, 0, 1}));
    std::vector<double> out(g.positions.size(), -1.0);
    scatter(local, 3, solid, out);
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == (i >= 18 ? g.positions[i] : -1.0));
}

TEST(pins_hold_or_follow_the_animation) {
    Geometry g = quads_and_tet();
    const SimObject shell = split_objects(g, g.positions, SplitOptions()).objects[0]; // points 0 1 4 3 2 5
    std::vector<std::string> warnings;
    const std::vector<double> current = gather(g.positions, 3, shell);
    PinPlan none = pin_plan(shell, g, current, warnings);
    CHECK(none.pinned_count == 0 && none.targets.empty() && none.pinned == std::vector<double>(6, 0.0));

    g.point_attributes["pinned"] = PointAttribute{1, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
    PinPlan held = pin_plan(shell, g, current, warnings);
    CHECK(held.pinned_count == 1 && held.pinned[0] == 1.0 && held.targets.empty());

    Geometry source = g; // the animated pin source: point 2 moved and following it
    source.point_attributes["pintoanimation"] = PointAttribute{1, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0}};
    source.positions[6] = 2.5;
    PinPlan driven = pin_plan(shell, source, current, warnings);
    CHECK(driven.pinned_count == 2 && driven.pinned[4] == 1.0);
    CHECK(driven.targets.size() == current.size());
    CHECK(driven.targets[12] == 2.5 && driven.targets[13] == 0.0 && driven.targets[14] == 0.0); // vertex 4 = point 2
    CHECK(driven.targets[0] == current[0] && driven.targets[3] == current[3]);                // others: where they are
    CHECK(warnings.empty());
}

TEST(friction_multiplier_per_body) {
    Geometry g = quads_and_tet();
    std::vector<std::string> warnings;
    const std::vector<std::int64_t> points = {6, 7, 8, 9};
    CHECK(friction_multiplier(g, points, "block", warnings) == 1.0);
    g.point_attributes["friction"] = PointAttribute{1, {0, 0, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5}};
    CHECK(friction_multiplier(g, points, "block", warnings) == 0.5 && warnings.empty());
    g.point_attributes["friction"].values[9] = 1.3;
    CHECK(std::fabs(friction_multiplier(g, points, "block", warnings) - 0.7) < 1e-15);
    CHECK(warnings.size() == 1 && warnings[0].find("friction varies over \"block\"") != std::string::npos);
}

namespace {

/// Normal (unnormalised, right-hand rule) of triangle t of `c` with positions `xyz` (3 per point).
std::vector<double> normal(const ColliderMesh &c, const std::vector<double> &xyz, std::size_t t) {
    const double *a = &xyz[3 * c.points[c.triangles[3 * t]]], *b = &xyz[3 * c.points[c.triangles[3 * t + 1]]],
                 *d = &xyz[3 * c.points[c.triangles[3 * t + 2]]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

/// A ground quad at y = 0 whose front (+Y) sees its points clockwise, as Houdini builds a grid.
Geometry houdini_ground() {
    Geometry g;
    g.positions = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    // Seen from +Y (looking down −Y, with x to the right and z towards the viewer), 0 → 1 → 2 → 3
    // turns clockwise: the right-hand normal of (0, 1, 2) is −Y.
    g.primitives = {poly({0, 1, 2, 3})};
    return g;
}

} // namespace

TEST(colliders_are_rewound_counter_clockwise) {
    const Geometry g = houdini_ground();
    std::vector<std::string> warnings;
    const std::vector<ColliderMesh> hou = split_colliders(g, "name", true, warnings);
    CHECK(hou.size() == 1 && hou[0].name == "collider" && hou[0].triangles.size() == 6);
    for (std::size_t t = 0; t < 2; ++t) CHECK(normal(hou[0], g.positions, t)[1] > 0); // faces +Y after rewinding
    const std::vector<ColliderMesh> ccw = split_colliders(g, "name", false, warnings);
    for (std::size_t t = 0; t < 2; ++t) CHECK(normal(ccw[0], g.positions, t)[1] < 0); // kept as given
    CHECK(warnings.empty());
}

TEST(colliders_split_by_name_and_keep_topology) {
    Geometry g = quads_and_tet();
    g.primitive_strings["name"] = {"a", "a", "b"};
    std::vector<std::string> warnings;
    const std::vector<ColliderMesh> start = split_colliders(g, "name", true, warnings);
    CHECK(start.size() == 1 && start[0].name == "a" && warnings.size() == 1); // the tet is ignored
    check_same_topology(start, start);
    Geometry moved = g;
    moved.positions[1] = 3.0; // animation moves points only
    check_same_topology(start, split_colliders(moved, "name", true, warnings));
    Geometry remeshed = g;
    remeshed.primitives[1] = poly({1, 2, 5});
    CHECK_THROWS(SopError, check_same_topology(start, split_colliders(remeshed, "name", true, warnings)),
                 "collider \"a\" changed topology");
    CHECK_THROWS(SopError, check_same_topology(start, {}), "input 2 has 0 colliders, 1 at the start frame");
    g.primitive_strings["name"] = {"a", "b", "c"};
    CHECK_THROWS(SopError, split_colliders(g, "name", true, warnings), "collider point 1 belongs to both \"a\" and \"b\"");
}

TEST(parameters_follow_the_c_defaults) {
    const SopParameters p = default_parameters();
    const GripSolverParams c = grip_solver_params_default();
    const GripMaterial m = grip_material_default();
    CHECK(p.gravity[0] == 0 && p.gravity[1] == c.gravity[2] && p.gravity[2] == 0);
    CHECK(p.contact_thickness == c.contact_thickness && p.friction == c.default_friction);
    CHECK(p.friction_epsilon == c.friction_epsilon && p.residual_tolerance == c.residual_tolerance);
    CHECK(p.max_newton_iterations == c.max_newton_iterations);
    CHECK(p.collider_mesh_contact == c.collider_mesh_contact &&
          p.collider_mesh_contact == GRIP_COLLIDER_MESH_CONTACT_EXACT);
    CHECK(solver_params(p).collider_mesh_contact == GRIP_COLLIDER_MESH_CONTACT_EXACT);
    CHECK(p.integrator == c.integrator && p.newmark_beta == c.newmark_beta && p.newmark_gamma == c.newmark_gamma);
    CHECK(p.spectral_radius == c.spectral_radius && p.modal_count == c.modal_count);
    CHECK(p.semi_implicit == (c.semi_implicit != 0));
    CHECK(p.shell.density == m.density && p.shell.youngs_modulus == m.youngs_modulus);
    CHECK(p.shell.thickness == m.thickness && p.shell.bending_stiffness == m.bending_stiffness);

    SopParameters q = p;
    q.time_step = 1.0 / 24.0;
    q.substeps = 4;
    q.gravity = {0, -9.81, 0};
    q.shell.density = 200;
    q.solid.poisson_ratio = 0.4;
    const GripSolverParams s = solver_params(q);
    CHECK(s.time_step == 1.0 / 96.0 && s.gravity[1] == -9.81 && s.struct_tag == GRIP_SOLVER_PARAMS_TAG);
    CHECK(material(q.shell).density == 200 && material(q.solid).poisson_ratio == 0.4);
    CHECK(material(q.shell).struct_tag == GRIP_MATERIAL_TAG);
    CHECK(q != p);
    q = p;
    CHECK(q == p);
    q.collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_IMPLICIT; // a change restarts the simulation
    CHECK(q != p && solver_params(q).collider_mesh_contact == GRIP_COLLIDER_MESH_CONTACT_IMPLICIT);
    q = p;
    q.integrator = GRIP_INTEGRATOR_GENERALIZED_ALPHA;
    q.newmark_beta = 0.3;
    q.newmark_gamma = 0.6;
    q.spectral_radius = 0.6;
    q.modal_count = 12;
    q.semi_implicit = true;
    {
        const GripSolverParams n = solver_params(q);
        CHECK(n.integrator == GRIP_INTEGRATOR_GENERALIZED_ALPHA && n.newmark_beta == 0.3 && n.newmark_gamma == 0.6);
        CHECK(n.spectral_radius == 0.6 && n.modal_count == 12 && n.semi_implicit == 1);
    }
    for (auto change : {+[](SopParameters &x) { x.integrator = GRIP_INTEGRATOR_SIERE; },
                        +[](SopParameters &x) { x.newmark_beta = 0.3; },
                        +[](SopParameters &x) { x.newmark_gamma = 0.6; },
                        +[](SopParameters &x) { x.spectral_radius = 0.6; },
                        +[](SopParameters &x) { x.modal_count = 12; },
                        +[](SopParameters &x) { x.semi_implicit = true; }}) {
        SopParameters r = p;
        change(r);
        CHECK(r != p); // a change restarts the simulation
    }
    q = p;
    q.substeps = 0;
    CHECK_THROWS(SopError, solver_params(q), "Substeps must be at least 1");
    q = p;
    q.time_step = 0;
    CHECK_THROWS(SopError, solver_params(q), "Time Step must be > 0");
}

namespace {

/// The HDK glue SOP_Grip.C (its path is compiled in by examples/host's CMakeLists.txt and Makefile).
std::string glue_source() {
    std::ifstream file(GRIP_SOP_GLUE_SOURCE);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

/// The dialog script embedded in SOP_Grip.C (between R"THEDSFILE( and )THEDSFILE").
std::string dialog_script() {
    const std::string glue = glue_source();
    const std::string open = "R\"THEDSFILE(", close = ")THEDSFILE\"";
    const std::size_t begin = glue.find(open), end = glue.find(close);
    if (begin == std::string::npos || end == std::string::npos) return "";
    return glue.substr(begin + open.size(), end - begin - open.size());
}

} // namespace

TEST(glue_evaluates_every_parameter) {
    const std::string ds = dialog_script(), glue = glue_source();
    CHECK(!ds.empty());
    const std::regex cppname(R"re(cppname\s+"(\w+)")re");
    int parameters = 0;
    for (auto it = std::sregex_iterator(ds.begin(), ds.end(), cppname); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        if (name == "ClearCache") continue; // a button with a callback, not a value
        ++parameters;
        CHECK_MSG(glue.find("get" + name + "()") != std::string::npos, "SOP_Grip.C never reads " + name);
    }
    CHECK(parameters == 40);
}

TEST(dialog_script_defaults_are_the_parameter_defaults) {
    const std::string ds = dialog_script();
    const std::regex parm(R"re(name\s+"(\w+)"[^{}]*?default\s*\{\s*"([^"]*)"(?:\s*"([^"]*)")?(?:\s*"([^"]*)")?)re");
    std::map<std::string, std::vector<std::string>> defaults;
    for (auto it = std::sregex_iterator(ds.begin(), ds.end(), parm); it != std::sregex_iterator(); ++it) {
        defaults[(*it)[1]] = {(*it)[2], (*it)[3], (*it)[4]};
    }
    const SopParameters p = default_parameters();
    auto number = [&](const char *name) { return std::strtod(defaults.at(name).at(0).c_str(), nullptr); };
    const std::map<std::string, double> expected = {
        {"substeps", p.substeps},
        {"maxnewton", p.max_newton_iterations},
        {"tolerance", p.residual_tolerance},
        {"workers", p.worker_count},
        {"contactthickness", p.contact_thickness},
        {"friction", p.friction},
        {"frictioncoupling", p.friction_coupling},
        {"frictionepsilon", p.friction_epsilon},
        {"selfcontact", p.self_contact ? 1 : 0},
        {"selfcontactthickness", p.self_contact_thickness},
        {"integrator", p.integrator},
        {"newmarkbeta", p.newmark_beta},
        {"newmarkgamma", p.newmark_gamma},
        {"spectralradius", p.spectral_radius},
        {"modalcount", p.modal_count},
        {"semiimplicit", p.semi_implicit ? 1 : 0},
        {"linearsolver", p.linear_solver},
        {"colliderwinding", p.collider_clockwise_front ? 0 : 1},
        {"collidercontact", p.collider_mesh_contact},
        {"onhardframe", p.failure_policy},
        {"shelldensity", p.shell.density},
        {"shellyoung", p.shell.youngs_modulus},
        {"shellpoisson", p.shell.poisson_ratio},
        {"shellthickness", p.shell.thickness},
        {"shellbending", p.shell.bending_stiffness},
        {"shelldampingalpha", p.shell.damping_alpha},
        {"shelldampingbeta", p.shell.damping_beta},
        {"shellmembrane", p.shell.membrane_model},
        {"soliddensity", p.solid.density},
        {"solidyoung", p.solid.youngs_modulus},
        {"solidpoisson", p.solid.poisson_ratio},
        {"soliddampingalpha", p.solid.damping_alpha},
        {"soliddampingbeta", p.solid.damping_beta},
    };
    for (const auto &e : expected) {
        CHECK_MSG(defaults.count(e.first) && number(e.first.c_str()) == e.second, e.first);
    }
    CHECK((defaults.at("gravity") == std::vector<std::string>{"0", "-9.81", "0"}) && p.gravity[1] == -9.81);
    CHECK(defaults.at("typeattrib")[0] == p.type_attribute && defaults.at("nameattrib")[0] == p.name_attribute);
    CHECK(defaults.at("timestep")[0] == "1/$FPS");
    // The menus list exactly the values the C API accepts, in the order of their values (an
    // ordinal menu passes its item index).
    CHECK(ds.find(R"(menu { "backwardeuler" "Backward Euler" "trapezoidal" "Trapezoidal Rule" "bdf2" "BDF2" )"
                  R"("trbdf2" "TR-BDF2" "sdirk2" "SDIRK2" "semiimplicit" "Semi-Implicit Euler" "newmark" "Newmark" )"
                  R"("generalizedalpha" "Generalized-Alpha" "exponentialeuler" "Exponential Rosenbrock-Euler" )"
                  R"("siere" "SIERE" })") != std::string::npos);
    CHECK(GRIP_INTEGRATOR_BACKWARD_EULER == 0 && GRIP_INTEGRATOR_TRAPEZOIDAL == 1 && GRIP_INTEGRATOR_BDF2 == 2 &&
          GRIP_INTEGRATOR_TR_BDF2 == 3 && GRIP_INTEGRATOR_SDIRK2 == 4 && GRIP_INTEGRATOR_SEMI_IMPLICIT == 5 &&
          GRIP_INTEGRATOR_NEWMARK == 6 && GRIP_INTEGRATOR_GENERALIZED_ALPHA == 7 &&
          GRIP_INTEGRATOR_EXPONENTIAL_EULER == 8 && GRIP_INTEGRATOR_SIERE == 9);
    // Each integrator's own parameters show only while it is selected; semi-implicit stages
    // only for the integrators that have implicit stages (not SI itself, ERE or SIERE).
    CHECK(ds.find(R"(name "newmarkbeta" cppname "NewmarkBeta" label "Newmark Beta" type float default { "0.25" } )"
                  R"(range { 0! 1! } hidewhen "{ integrator != 6 }")") != std::string::npos);
    CHECK(ds.find(R"(name "newmarkgamma" cppname "NewmarkGamma" label "Newmark Gamma" type float default { "0.5" } )"
                  R"(range { 0.5! 1! } hidewhen "{ integrator != 6 }")") != std::string::npos);
    CHECK(ds.find(R"(name "spectralradius" cppname "SpectralRadius" label "Spectral Radius" type float default { "0.8" } )"
                  R"(range { 0! 1! } hidewhen "{ integrator != 7 }")") != std::string::npos);
    CHECK(ds.find(R"(name "modalcount" cppname "ModalCount" label "Modal Count" type integer default { "10" } )"
                  R"(range { 1! 200! } hidewhen "{ integrator != 9 }")") != std::string::npos);
    CHECK(ds.find(R"(hidewhen "{ integrator == 5 } { integrator == 8 } { integrator == 9 }")") != std::string::npos);
    CHECK(ds.find(R"m(menu { "directlu" "Direct Sparse LU" "iterative" "Iterative (BiCGSTAB)" )m"
                  R"m("matrixfree" "Iterative, Matrix-Free" })m") != std::string::npos);
    CHECK(GRIP_LINEAR_SOLVER_DIRECT_LU == 0 && GRIP_LINEAR_SOLVER_ITERATIVE == 1 &&
          GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE == 2);
    CHECK(GRIP_FRICTION_COUPLING_IMPLICIT == 0 && GRIP_FRICTION_COUPLING_LAGGED == 1);
    CHECK(ds.find(R"(menu { "exact" "Exact Distance" "smooth" "Smooth Surface" })") != std::string::npos);
    CHECK(GRIP_COLLIDER_MESH_CONTACT_EXACT == 0 && GRIP_COLLIDER_MESH_CONTACT_IMPLICIT == 1);
    CHECK(ds.find(R"(menu { "stop" "Stop" "continue" "Continue with a Fallback" })") != std::string::npos);
    CHECK(GRIP_FAILURE_POLICY_STRICT == 0 && GRIP_FAILURE_POLICY_CONTINUE == 1);
    CHECK(p.failure_policy == GRIP_FAILURE_POLICY_CONTINUE);
    CHECK(GRIP_MEMBRANE_NEO_HOOKEAN == 0 && GRIP_MEMBRANE_STVK == 1);
}
