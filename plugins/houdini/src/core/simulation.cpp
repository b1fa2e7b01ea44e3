/* Building and advancing one simulation of the grip SOP (see simulation.hpp).
 * SPDX-License-Identifier: MIT */

#include "simulation.hpp"

#include "attribute_mapping.hpp"
#include "interruptible_run.hpp"

#include <memory>

namespace grip_sop {
namespace {

/// Runs `body`, prefixing any grip::Error with `what` (an object or collider name).
template <class F>
auto naming(const std::string &what, F &&body) -> decltype(body()) {
    try {
        return body();
    } catch (const grip::Error &e) {
        throw SopError(what + ": " + e.message());
    }
}

void apply_pins(Simulation &sim, const BoundObject &b, const Geometry &source, bool with_targets,
                std::vector<std::string> &warnings) {
    const std::vector<double> current = sim.solver.positions(b.id);
    const PinPlan plan = pin_plan(b.object, source, current, warnings);
    naming("object \"" + b.object.name + "\"", [&] {
        sim.solver.set_pinned(b.id, plan.pinned);
        if (with_targets && !plan.targets.empty()) {
            sim.solver.set_targets(b.id, plan.targets);
        }
    });
}

} // namespace

const Geometry &pin_source(const SimulationInputs &in) {
    if (!in.pins) {
        return *in.simulated;
    }
    if (in.pins->point_count() != in.simulated->point_count()) {
        throw SopError("input 1 (pins) has " + std::to_string(in.pins->point_count()) + " points, input 0 has " +
                       std::to_string(in.simulated->point_count()) + ": the pin source must match input 0 point for point");
    }
    return *in.pins;
}

std::unique_ptr<Simulation> build_simulation(const SimulationInputs &in, const SopParameters &parameters,
                                             double time, std::vector<std::string> &warnings) {
    const Geometry &g = *in.simulated;
    const Geometry &source = pin_source(in);
    const std::vector<double> rest = rest_positions(g, warnings);
    SplitOptions options;
    options.type_attribute = parameters.type_attribute;
    options.name_attribute = parameters.name_attribute;
    SplitResult split = split_objects(g, rest, options);
    warnings.insert(warnings.end(), split.warnings.begin(), split.warnings.end());

    auto sim = naming("solver parameters", [&] { return std::make_unique<Simulation>(solver_params(parameters)); });
    sim->parameters = parameters;
    sim->point_count = g.point_count();
    sim->time = time;
    const PointAttribute *velocity = numeric_attribute(g, "v", 3, warnings);
    const bool moved = rest != g.positions;
    for (SimObject &object : split.objects) {
        const std::string what = "object \"" + object.name + "\"";
        BoundObject b{std::move(object), grip::ObjectId()};
        naming(what, [&] {
            const std::vector<double> x0 = gather(rest, 3, b.object);
            if (b.object.kind == ObjectKind::Solid) {
                b.id = sim->solver.add_solid(x0, b.object.elements, material(parameters.solid));
            } else {
                b.id = sim->solver.add_shell(x0, b.object.elements, material(parameters.shell));
            }
            if (moved) {
                sim->solver.set_positions(b.id, gather(g.positions, 3, b.object));
            }
            if (velocity) {
                sim->solver.set_velocities(b.id, gather(velocity->values, 3, b.object));
            }
        });
        sim->objects.push_back(std::move(b));
        apply_pins(*sim, sim->objects.back(), source, false, warnings);
    }
    if (in.colliders) {
        for (ColliderMesh &mesh : split_colliders(*in.colliders, parameters.name_attribute,
                                                  parameters.collider_clockwise_front, warnings)) {
            const std::string what = "collider \"" + mesh.name + "\"";
            BoundCollider c{std::move(mesh), grip::MeshColliderId()};
            c.id = naming(what, [&] {
                return sim->solver.add_collider_mesh(gather(in.colliders->positions, 3, c.mesh.points),
                                                     c.mesh.triangles);
            });
            sim->colliders.push_back(std::move(c));
        }
    }
    // Friction: a body whose friction attribute is not 1 has its own μ, the parameter μ times
    // the attribute; grip gives a pair the geometric mean of its two bodies' μ, a body without
    // its own μ counting as the parameter (as 0 between two shells).
    std::vector<std::pair<grip::BodyId, double>> bodies;
    for (const BoundObject &b : sim->objects) {
        bodies.emplace_back(b.id, friction_multiplier(g, b.object.points, b.object.name, warnings));
    }
    for (const BoundCollider &c : sim->colliders) {
        bodies.emplace_back(c.id, friction_multiplier(*in.colliders, c.mesh.points, c.mesh.name, warnings));
    }
    for (const auto &[id, multiplier] : bodies) {
        if (multiplier != 1.0) {
            naming("friction", [&] { sim->solver.set_object_friction(id, parameters.friction * multiplier); });
        }
    }
    return sim;
}

void advance_simulation(Simulation &sim, const SimulationInputs &in, double duration,
                        const std::function<bool(double)> &interrupted, std::vector<std::string> &warnings) {
    if (!sim.colliders.empty() || in.colliders) {
        std::vector<std::string> ignored;
        const std::vector<ColliderMesh> now =
            in.colliders ? split_colliders(*in.colliders, sim.parameters.name_attribute,
                                           sim.parameters.collider_clockwise_front, ignored)
                         : std::vector<ColliderMesh>();
        std::vector<ColliderMesh> start;
        for (const BoundCollider &c : sim.colliders) start.push_back(c.mesh);
        check_same_topology(start, now);
        for (const BoundCollider &c : sim.colliders) {
            naming("collider \"" + c.mesh.name + "\"", [&] {
                sim.solver.set_collider_positions(c.id, gather(in.colliders->positions, 3, c.mesh.points));
            });
        }
    }
    const Geometry &source = pin_source(in);
    for (const BoundObject &b : sim.objects) {
        apply_pins(sim, b, source, true, warnings);
    }
    run_interruptible(sim.solver, [&] { sim.solver.advance(duration); }, interrupted);
}

void write_state(const Simulation &sim, std::vector<double> &positions, std::vector<double> &velocities) {
    for (const BoundObject &b : sim.objects) {
        scatter(sim.solver.positions(b.id), 3, b.object, positions);
        scatter(sim.solver.velocities(b.id), 3, b.object, velocities);
    }
}

} // namespace grip_sop
