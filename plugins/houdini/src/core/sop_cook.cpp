/* One cook of the grip SOP (see sop_cook.hpp).
 * SPDX-License-Identifier: MIT */

#include "sop_cook.hpp"

#include "attribute_mapping.hpp"
#include "fallback_warning.hpp"
#include "pinch_warning.hpp"

#include <exception>
#include <mutex>

namespace grip_sop {

CookOutput cook(const CookInputs &in, SolverRegistry &registry, const std::function<bool(double)> &interrupted) {
    CookOutput out;
    out.key = in.key;
    if (!in.geometry.simulated) {
        out.error = "input 0 is not connected";
        return out;
    }
    const Geometry &g = *in.geometry.simulated;
    out.positions = g.positions;
    std::vector<std::string> ignored;
    const PointAttribute *v = numeric_attribute(g, "v", 3, ignored);
    out.velocities = v ? v->values : std::vector<double>(g.positions.size(), 0.0);
    try {
        std::shared_ptr<SolverRegistry::Slot> slot = in.key != 0 ? registry.find(in.key, in.owner) : nullptr;
        std::unique_lock<std::mutex> lock;
        SimulationClock clock;
        if (slot) {
            lock = std::unique_lock<std::mutex>(slot->mutex);
            const Simulation &sim = *slot->simulation;
            clock.found = true;
            clock.time = sim.time;
            clock.same_parameters = sim.parameters == in.parameters;
            clock.same_point_count = sim.point_count == g.point_count();
        }
        const CookDecision decision = decide(in.time, in.parameters.start_time, clock);
        out.action = decision.action;
        if (!decision.warning.empty()) {
            out.warnings.push_back(decision.warning);
        }
        Simulation *sim = slot ? slot->simulation.get() : nullptr;
        if (decision.action == CookAction::Reset) {
            if (lock.owns_lock()) lock.unlock();
            slot.reset();
            std::unique_ptr<Simulation> fresh = build_simulation(in.geometry, in.parameters, in.time, out.warnings);
            sim = fresh.get();
            out.key = registry.insert(in.owner, std::move(fresh));
            slot = registry.find(out.key, in.owner);
            if (!slot) {
                throw SopError("the new simulation was dropped from the registry while cooking");
            }
            lock = std::unique_lock<std::mutex>(slot->mutex);
        } else if (decision.action == CookAction::Advance) {
            advance_simulation(*sim, in.geometry, decision.duration, interrupted, out.warnings);
            sim->time = in.time;
            out.report = sim->solver.report();
            out.report_valid = true;
            const std::string fallback = fallback_warning(*sim, out.report, in.time);
            if (!fallback.empty()) out.warnings.push_back(fallback);
            const std::string pinch = pinch_warning(*sim, out.report, in.time);
            if (!pinch.empty()) out.warnings.push_back(pinch);
        }
        write_state(*sim, out.positions, out.velocities);
    } catch (const grip::Error &e) {
        out.error = e.status() == grip::Status::Cancelled ? "interrupted: the simulation stays at the last frame"
                                                           : e.what();
        if (e.status() == grip::Status::NotConverged && in.parameters.failure_policy == GRIP_FAILURE_POLICY_STRICT) {
            out.error += " (On a Hard Frame: Continue with a Fallback goes on past such a frame)";
        }
    } catch (const std::exception &e) {
        out.error = e.what();
    }
    if (!out.error.empty()) {
        out.positions = g.positions;
        out.velocities = v ? v->values : std::vector<double>(g.positions.size(), 0.0);
    }
    return out;
}

} // namespace grip_sop
