/* Tests of the SOP's state across frames: the reset/reuse/advance decision, the solver registry,
 * the interrupt wiring, and whole cooks chained as a SOP Solver chains them (each cook's output
 * is the next cook's input 0), with physics checked against closed forms.
 * SPDX-License-Identifier: MIT */

#include "check.hpp"

#include "attribute_mapping.hpp"
#include "cook_state.hpp"
#include "interruptible_run.hpp"
#include "simulation.hpp"
#include "sop_cook.hpp"
#include "solver_registry.hpp"

#include <atomic>
#include <cmath>
#include <set>

using namespace grip_sop;

TEST(decide_reset_reuse_advance) {
    SimulationClock none;
    CHECK(decide(0.0, 0.0, none).action == CookAction::Reset && decide(0.0, 0.0, none).warning.empty());
    const CookDecision orphan = decide(0.5, 0.0, none);
    CHECK(orphan.action == CookAction::Reset && orphan.warning.find("Prev_Frame") != std::string::npos);

    SimulationClock live;
    live.found = true;
    live.time = 1.0 / 24.0;
    CHECK(decide(1.0 / 24.0, 0.0, live).action == CookAction::Reuse);
    CHECK(decide(1.0 / 24.0 + 1e-9, 0.0, live).action == CookAction::Reuse);
    const CookDecision next = decide(2.0 / 24.0, 0.0, live);
    CHECK(next.action == CookAction::Advance && std::fabs(next.duration - 1.0 / 24.0) < 1e-15);
    const CookDecision sub = decide(1.0 / 24.0 + 1.0 / 96.0, 0.0, live); // a SOP Solver substep
    CHECK(sub.action == CookAction::Advance && std::fabs(sub.duration - 1.0 / 96.0) < 1e-15);
    const CookDecision back = decide(0.02, 0.0, live);
    CHECK(back.action == CookAction::Reset && back.warning.find("time went back") != std::string::npos);
    CHECK(decide(0.0, 0.0, live).action == CookAction::Reset); // the start frame always resets
    live.same_parameters = false;
    CHECK(decide(2.0 / 24.0, 0.0, live).warning.find("parameters changed") != std::string::npos);
    live.same_parameters = true;
    live.same_point_count = false;
    CHECK(decide(2.0 / 24.0, 0.0, live).warning.find("point count") != std::string::npos);
}

namespace {

/// A simulation holding nothing but a solver (registry tests).
std::unique_ptr<Simulation> bare() { return std::make_unique<Simulation>(grip_solver_params_default()); }

/// An n × n cloth in the XZ plane at height y (Houdini is Y up), 1 m on a side, as quads.
Geometry cloth(int n, double y) {
    Geometry g;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) g.positions.insert(g.positions.end(), {double(i) / (n - 1), y, double(j) / (n - 1)});
    for (int j = 0; j + 1 < n; ++j)
        for (int i = 0; i + 1 < n; ++i) {
            const std::int64_t a = j * n + i;
            g.primitives.push_back(Primitive{PrimitiveKind::Polygon, {a, a + 1, a + 1 + n, a + n}});
        }
    return g;
}

/// A ground of n × n points at y = 0, 3 m on a side under the unit cloth ([-1, 2] in x and z);
/// its quads are clockwise seen from +Y: Houdini's front is up.
Geometry ground(int n) {
    Geometry g = cloth(n, 0.0);
    for (std::size_t i = 0; i < g.positions.size(); i += 3) {
        g.positions[i] = 3 * g.positions[i] - 1;
        g.positions[i + 2] = 3 * g.positions[i + 2] - 1;
    }
    return g;
}

/// A SOP Solver step: the previous output becomes the next input 0.
Geometry next_input(const Geometry &input, const CookOutput &out) {
    Geometry g = input;
    g.positions = out.positions;
    g.point_attributes["v"] = PointAttribute{3, out.velocities};
    return g;
}

const auto never = [](double) { return false; };

/// Cooks `in` at frame 1 with `first` as input 0, then at frame 2 with that cook's output as
/// input 0, kept in `second` (which `in` points to after the call): the second cook's output.
CookOutput cook_two_frames(CookInputs &in, SolverRegistry &registry, const Geometry &first, Geometry &second) {
    in.geometry.simulated = &first;
    const CookOutput start = cook(in, registry, never);
    CHECK_MSG(start.error.empty(), start.error);
    second = next_input(first, start);
    in.geometry.simulated = &second;
    in.key = start.key;
    in.time = 1.0 / 24.0;
    return cook(in, registry, never);
}

} // namespace

TEST(registry_keys_and_owners) {
    SolverRegistry registry;
    const SolverRegistry::Key a = registry.insert(1, bare());
    const SolverRegistry::Key b = registry.insert(2, bare());
    CHECK(a != 0 && b != 0 && a != b && registry.size() == 2);
    CHECK(registry.find(a, 1) != nullptr);
    CHECK(registry.find(a, 2) == nullptr); // another node's geometry never steps this node's solver
    CHECK(registry.find(a + 1000, 1) == nullptr);
    auto held = registry.find(a, 1);
    const SolverRegistry::Key c = registry.insert(1, bare()); // node 1 starts over: its old solver goes
    CHECK(c != a && registry.size() == 2 && registry.find(a, 1) == nullptr && registry.find(c, 1) != nullptr);
    CHECK(held->simulation != nullptr); // a cook still using the old one keeps it until it lets go
    CHECK(registry.remove_owner(1) == 1 && registry.size() == 1);
    registry.clear();
    CHECK(registry.size() == 0);
    SolverRegistry other;
    CHECK(other.insert(1, bare()) != c); // salted per registry (process): distinct keys
}

TEST(interrupt_cancels_and_keeps_the_solver) {
    GripSolverParams params = grip_solver_params_default();
    params.time_step = 1e-3;
    Simulation sim(params);
    const Geometry g = cloth(12, 1.0);
    const SplitResult split = split_objects(g, g.positions, SplitOptions());
    const grip::ObjectId id = sim.solver.add_shell(gather(g.positions, 3, split.objects[0]), split.objects[0].elements);
    const std::vector<double> before = sim.solver.positions(id);
    std::atomic<int> polls{0};
    double seen = -1;
    CHECK_THROWS(grip::Error,
                 run_interruptible(sim.solver, [&] { sim.solver.advance(5.0); },
                                   [&](double fraction) {
                                       seen = fraction;
                                       return ++polls >= 2;
                                   },
                                   std::chrono::milliseconds(1)),
                 "cancel");
    CHECK(polls >= 2 && seen >= 0.0 && seen <= 1.0);
    CHECK(sim.solver.positions(id) == before);
    run_interruptible(sim.solver, [&] { sim.solver.advance(0.01); }, never);
    CHECK(sim.solver.positions(id)[2] < before[2]); // grip's default gravity is −Z
    CHECK_THROWS(std::runtime_error,
                 run_interruptible(sim.solver, [] { throw std::runtime_error("from the work"); }, never), "from the work");
}

TEST(cook_chain_free_fall_is_backward_euler) {
    SolverRegistry registry;
    CookInputs in;
    in.parameters = default_parameters(); // 1/24 s, 4 substeps, gravity (0, −9.81, 0)
    Geometry g = cloth(4, 1.0);
    in.geometry.simulated = &g;
    in.owner = 7;
    in.time = 0.0;
    const CookOutput first = cook(in, registry, never);
    CHECK(first.error.empty() && first.action == CookAction::Reset && first.key != 0);
    CHECK(first.positions == g.positions && first.warnings.empty());

    Geometry g1 = next_input(g, first);
    in.geometry.simulated = &g1;
    in.key = first.key;
    in.time = 1.0 / 24.0;
    const CookOutput second = cook(in, registry, never);
    CHECK(second.error.empty() && second.action == CookAction::Advance && second.key == first.key);
    CHECK(second.report_valid && second.report.substeps == 4);
    // n = 4 substeps of h = 1/96 s from rest: drop = h² g n (n + 1) / 2, speed = n h g.
    const double h = 1.0 / 96.0, drop = h * h * 9.81 * 4 * 5 / 2;
    for (std::size_t p = 0; p < g.point_count(); ++p) {
        CHECK(std::fabs(second.positions[3 * p + 1] - (1.0 - drop)) < 1e-12);
        CHECK(std::fabs(second.positions[3 * p] - g.positions[3 * p]) < 1e-12);
        CHECK(std::fabs(second.velocities[3 * p + 1] + 4 * h * 9.81) < 1e-12);
    }
    // A recook at the same time repeats the result without stepping.
    const CookOutput again = cook(in, registry, never);
    CHECK(again.action == CookAction::Reuse && again.positions == second.positions && !again.report_valid);
    // A SOP Solver substep: half a frame later.
    Geometry g2 = next_input(g1, second);
    in.geometry.simulated = &g2;
    in.time = 1.5 / 24.0;
    const CookOutput half = cook(in, registry, never);
    CHECK(half.action == CookAction::Advance && half.report.substeps == 2);
    // Rewinding to the start frame resets to the input.
    in.geometry.simulated = &g;
    in.time = 0;
    const CookOutput reset = cook(in, registry, never);
    CHECK(reset.action == CookAction::Reset && reset.positions == g.positions && reset.key != first.key);
    CHECK(registry.size() == 1);
}

/// Every integrator and linear solver of the menus reaches the solver: one frame (4 substeps of
/// 1/96 s) of free fall from rest. TR, TR-BDF2 and SDIRK2 are second order, so they integrate the
/// constant acceleration exactly: drop ½ g t². Backward Euler drops h² g n (n + 1)/2 (above);
/// BDF2 starts with one backward Euler substep, then h²g(…) of its own, so it lies in between.
TEST(cook_every_integrator_and_linear_solver) {
    const double t = 1.0 / 24.0, exact = 0.5 * 9.81 * t * t, euler = t * t / 16 * 9.81 * 4 * 5 / 2;
    for (std::uint32_t integrator = GRIP_INTEGRATOR_BACKWARD_EULER; integrator <= GRIP_INTEGRATOR_SDIRK2; ++integrator) {
        for (std::uint32_t linear = GRIP_LINEAR_SOLVER_DIRECT_LU; linear <= GRIP_LINEAR_SOLVER_ITERATIVE_MATRIX_FREE;
             ++linear) {
            SolverRegistry registry;
            CookInputs in;
            in.parameters = default_parameters();
            in.parameters.integrator = integrator;
            in.parameters.linear_solver = linear;
            Geometry g = cloth(4, 1.0);
            in.geometry.simulated = &g;
            in.owner = 3;
            const CookOutput first = cook(in, registry, never);
            CHECK(first.error.empty());
            Geometry g1 = next_input(g, first);
            in.geometry.simulated = &g1;
            in.key = first.key;
            in.time = t;
            const CookOutput out = cook(in, registry, never);
            const std::string what = "integrator " + std::to_string(integrator) + ", linear solver " + std::to_string(linear);
            CHECK_MSG(out.error.empty() && out.action == CookAction::Advance, what + ": " + out.error);
            const double drop = 1.0 - out.positions[1];
            if (integrator == GRIP_INTEGRATOR_BACKWARD_EULER) {
                CHECK_MSG(std::fabs(drop - euler) < 1e-9, what);
            } else if (integrator == GRIP_INTEGRATOR_BDF2) {
                CHECK_MSG(drop > exact + 1e-9 && drop < euler - 1e-9, what);
            } else {
                CHECK_MSG(std::fabs(drop - exact) < 1e-9, what + ": drop " + std::to_string(drop));
            }
        }
    }
}

/// The integrators after SDIRK2 and their parameters reach the solver: the start-frame cook
/// builds a solver with each of them (no step is taken), and a parameter out of grip's range is
/// the cook's error, naming the field.
TEST(cook_builds_every_newer_integrator_with_its_parameters) {
    for (std::uint32_t integrator = GRIP_INTEGRATOR_SEMI_IMPLICIT; integrator <= GRIP_INTEGRATOR_SIERE; ++integrator) {
        SolverRegistry registry;
        CookInputs in;
        in.parameters = default_parameters();
        in.parameters.integrator = integrator;
        in.parameters.newmark_beta = 0.3;
        in.parameters.newmark_gamma = 0.6;
        in.parameters.spectral_radius = 0.6;
        in.parameters.modal_count = 12;
        in.parameters.semi_implicit = integrator != GRIP_INTEGRATOR_SEMI_IMPLICIT;
        Geometry g = cloth(4, 1.0);
        in.geometry.simulated = &g;
        in.owner = 3;
        const CookOutput first = cook(in, registry, never);
        const std::string what = "integrator " + std::to_string(integrator);
        CHECK_MSG(first.error.empty() && first.action == CookAction::Reset, what + ": " + first.error);
        CHECK_MSG(first.positions == g.positions, what);
    }
    const std::pair<const char *, void (*)(SopParameters &)> refused[] = {
        {"params.newmark_beta", [](SopParameters &p) { p.newmark_beta = 0; }},
        {"params.newmark_gamma", [](SopParameters &p) { p.newmark_gamma = 0.4; }},
        {"params.spectral_radius", [](SopParameters &p) { p.spectral_radius = 1.5; }},
        {"params.modal_count", [](SopParameters &p) { p.modal_count = 0; }},
        {"params.integrator", [](SopParameters &p) { p.integrator = GRIP_INTEGRATOR_SIERE + 1; }},
    };
    for (const auto &r : refused) {
        SolverRegistry registry;
        CookInputs in;
        in.parameters = default_parameters();
        r.second(in.parameters);
        Geometry g = cloth(4, 1.0);
        in.geometry.simulated = &g;
        in.owner = 3;
        const CookOutput out = cook(in, registry, never);
        CHECK_MSG(out.error.find(r.first) != std::string::npos, std::string(r.first) + ": \"" + out.error + "\"");
    }
}

TEST(friction_attribute_gives_a_body_its_own_mu) {
    SopParameters parameters = default_parameters();
    parameters.friction = 0.4;
    Geometry g = cloth(3, 0.5);
    Geometry ground = cloth(3, 0.0);
    SimulationInputs in;
    in.simulated = &g;
    in.colliders = &ground;
    std::vector<std::string> warnings;
    // Without the attribute every pair has grip's defaults: the parameter, 0 for a shell with itself.
    auto plain = build_simulation(in, parameters, 0.0, warnings);
    const grip::ObjectId shell = plain->objects.at(0).id;
    const grip::MeshColliderId floor = plain->colliders.at(0).id;
    CHECK(plain->solver.friction(shell, floor) == 0.4 && plain->solver.friction(shell, shell) == 0.0);
    // With it a body's own μ is the parameter times the attribute; a pair takes the geometric mean.
    g.point_attributes["friction"] = PointAttribute{1, std::vector<double>(g.point_count(), 0.5)};
    ground.point_attributes["friction"] = PointAttribute{1, std::vector<double>(ground.point_count(), 2.0)};
    auto scaled = build_simulation(in, parameters, 0.0, warnings);
    const double mu = scaled->solver.friction(scaled->objects.at(0).id, scaled->colliders.at(0).id);
    CHECK_MSG(std::fabs(mu - std::sqrt(0.2 * 0.8)) < 1e-15, std::to_string(mu));
    CHECK(scaled->solver.friction(scaled->objects.at(0).id, scaled->objects.at(0).id) == 0.2);
    CHECK(warnings.empty());
}

TEST(cook_pins_colliders_and_errors) {
    SolverRegistry registry;
    CookInputs in;
    in.parameters = default_parameters();
    in.parameters.contact_thickness = 0.002;
    in.owner = 3;
    Geometry g = cloth(5, 0.002); // 2 mm above the ground
    g.point_attributes["pinned"] = PointAttribute{1, std::vector<double>(g.point_count(), 0.0)};
    g.point_attributes["pinned"].values[0] = 1; // held corner
    g.point_attributes["pintoanimation"] = PointAttribute{1, std::vector<double>(g.point_count(), 0.0)};
    g.point_attributes["pintoanimation"].values[4] = 1; // corner driven by the pin source
    const Geometry floor = ground(3);
    in.geometry.simulated = &g;
    in.geometry.colliders = &floor;
    const CookOutput start = cook(in, registry, never);
    CHECK_MSG(start.error.empty(), start.error);

    Geometry source = g; // animated source: corner 4 moves 5 cm along x
    source.positions[12] += 0.05;
    Geometry g1 = next_input(g, start);
    in.geometry.simulated = &g1;
    in.geometry.pins = &source;
    in.key = start.key;
    in.time = 1.0 / 24.0;
    const CookOutput moved = cook(in, registry, never);
    CHECK_MSG(moved.error.empty(), moved.error);
    CHECK(moved.positions[0] == g.positions[0] && moved.positions[1] == g.positions[1]); // held
    CHECK(moved.positions[12] == source.positions[12] && moved.positions[13] == source.positions[13]);
    bool above = true;
    for (std::size_t p = 0; p < g.point_count(); ++p) above = above && moved.positions[3 * p + 1] > 0.0;
    CHECK_MSG(above && moved.report.active_contacts > 0, std::to_string(moved.report.active_contacts)); // the ground holds it up

    // Errors keep the input geometry and the key, and name what is wrong.
    Geometry g2 = next_input(g1, moved);
    in.geometry.simulated = &g2;
    Geometry remeshed = floor;
    remeshed.primitives.pop_back();
    in.geometry.colliders = &remeshed;
    in.time = 2.0 / 24.0;
    const CookOutput bad = cook(in, registry, never);
    CHECK(bad.error.find("changed topology") != std::string::npos || bad.error.find("colliders") != std::string::npos);
    CHECK(bad.positions == g2.positions && bad.key == start.key);
    in.geometry.colliders = &floor;
    Geometry short_source = source;
    short_source.positions.resize(9);
    in.geometry.pins = &short_source;
    CHECK(cook(in, registry, never).error.find("the pin source must match input 0") != std::string::npos);
    in.geometry.pins = &source;
    in.time = 2.0 / 24.0 + 5.0; // 5 s more: long enough to be interrupted at the first poll
    const CookOutput stopped = cook(in, registry, [](double) { return true; });
    in.time = 2.0 / 24.0;
    CHECK(stopped.error.find("interrupted") != std::string::npos && stopped.positions == g2.positions);
    const CookOutput resumed = cook(in, registry, never); // the solver was left as it was
    CHECK_MSG(resumed.error.empty() && resumed.action == CookAction::Advance, resumed.error);

    // Another node's output carries a key this node does not own: it starts over, with a warning.
    in.owner = 4;
    const CookOutput foreign = cook(in, registry, never);
    CHECK(foreign.action == CookAction::Reset && foreign.key != start.key && !foreign.warnings.empty());
    // A bad material is reported, naming the object.
    in.owner = 3;
    in.time = 0;
    in.geometry.simulated = &g;
    in.parameters.shell.poisson_ratio = 0.7;
    const CookOutput refused = cook(in, registry, never);
    CHECK_MSG(refused.error.find("object \"shells\"") != std::string::npos, refused.error);
}

TEST(cook_exact_collider_contact_and_unknown_values) {
    SolverRegistry registry;
    CookInputs in;
    in.parameters = default_parameters();
    in.parameters.contact_thickness = 0.002;
    in.parameters.collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_EXACT;
    in.owner = 5;
    Geometry g = cloth(5, 0.002);     // 2 mm above the ground
    const Geometry floor = ground(2); // one 3 m quad: two large flat triangles
    in.geometry.colliders = &floor;
    Geometry g1;
    const CookOutput moved = cook_two_frames(in, registry, g, g1);
    CHECK_MSG(moved.error.empty() && moved.action == CookAction::Advance, moved.error);
    bool above = true;
    for (std::size_t p = 0; p < g.point_count(); ++p) above = above && moved.positions[3 * p + 1] > 0.0;
    CHECK_MSG(above && moved.report.active_contacts > 0, std::to_string(moved.report.active_contacts));

    // grip_solver_create refuses a value that is not a GRIP_COLLIDER_MESH_CONTACT_*, naming it.
    in.geometry.simulated = &g;
    in.key = 0;
    in.time = 0;
    in.parameters.collider_mesh_contact = 2;
    const CookOutput refused = cook(in, registry, never);
    CHECK_MSG(refused.error.find("collider_mesh_contact: unknown value 2") != std::string::npos, refused.error);
}

/// A frame whose substeps cannot converge (one Newton iteration allowed, the cloth landing on
/// the ground with friction): Stop fails the cook and keeps the simulation; Continue takes the
/// frame with fallbacks and warns, naming the cloth.
TEST(cook_hard_frame_stops_or_continues_with_a_fallback) {
    for (const std::uint32_t policy : {GRIP_FAILURE_POLICY_STRICT, GRIP_FAILURE_POLICY_CONTINUE}) {
        SolverRegistry registry;
        CookInputs in;
        in.parameters = default_parameters();
        in.parameters.contact_thickness = 0.002;
        in.parameters.friction = 0.4;
        in.parameters.max_newton_iterations = 1;
        in.parameters.failure_policy = policy;
        in.owner = 8;
        Geometry g = cloth(5, 0.002);
        const Geometry floor = ground(3);
        in.geometry.colliders = &floor;
        Geometry g1;
        const CookOutput hard = cook_two_frames(in, registry, g, g1);
        if (policy == GRIP_FAILURE_POLICY_STRICT) {
            CHECK_MSG(hard.error.find("converge") != std::string::npos &&
                          hard.error.find("On a Hard Frame: Continue with a Fallback") != std::string::npos &&
                          hard.positions == g1.positions,
                      hard.error);
            continue;
        }
        CHECK_MSG(hard.error.empty() && hard.report_valid, hard.error);
        const std::uint32_t fallbacks =
            hard.report.fallbacks_lagged + hard.report.fallbacks_frictionless + hard.report.fallbacks_best_iterate;
        CHECK_MSG(fallbacks > 0 && (hard.report.warnings & GRIP_WARNING_FALLBACK) != 0, std::to_string(fallbacks));
        bool finite = true;
        for (double x : hard.positions) finite = finite && std::isfinite(x);
        CHECK(finite);
        bool warned = false;
        for (const std::string &w : hard.warnings) {
            warned = warned || (w.find("shells failed to converge near (") == 0 && w.find("at frame 2; fallback: ") !=
                                                                                      std::string::npos);
        }
        CHECK_MSG(warned, hard.warnings.empty() ? std::string("no warning") : hard.warnings.front());
    }
}
