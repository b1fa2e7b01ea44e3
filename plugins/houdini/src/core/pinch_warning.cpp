/* The SOP's warning for a cook that met a pinch (see pinch_warning.hpp).
 * SPDX-License-Identifier: MIT */

#include "pinch_warning.hpp"

#include "fallback_warning.hpp"
#include "simulation.hpp"

#include <cstdio>

namespace grip_sop {

std::string pinch_warning(const GripStepReport &report, const std::function<std::string(std::uint32_t)> &object_name,
                          const std::string &when, double thickness) {
    if (report.pinched_vertices == 0) return "";
    const auto name = [&object_name](std::uint32_t id) {
        std::string n = object_name(id);
        return n.empty() ? "object " + std::to_string(id) : n;
    };
    const std::uint32_t a = report.pinch_colliders[0], b = report.pinch_colliders[1];
    const std::string between = a == b ? name(a) + " and itself" : name(a) + " and " + name(b);
    char place[128];
    std::snprintf(place, sizeof place, " near (%.3f, %.3f, %.3f) m", report.pinch_position[0],
                  report.pinch_position[1], report.pinch_position[2]);
    std::string text = name(report.pinch_object) + " is pinched between " + between + place;
    if (!when.empty()) text += " " + when;
    if (report.pinched_vertices > 1) text += " (" + std::to_string(report.pinched_vertices) + " vertices pinched)";
    char gap[160];
    std::snprintf(gap, sizeof gap, ": the surfaces are %.1f mm apart, under the contact thickness %.1f mm",
                  1e3 * report.pinch_separation, 1e3 * thickness);
    return text + gap + "; the cloth is kept between them: open the gap or thin the contact layer to free it";
}

std::string pinch_warning(const Simulation &sim, const GripStepReport &report, double time) {
    const auto name = [&sim](std::uint32_t id) {
        for (const BoundObject &b : sim.objects) {
            if (b.id.raw() == id) return b.object.name;
        }
        for (const BoundCollider &c : sim.colliders) {
            if (c.id.raw() == id) return c.mesh.name;
        }
        return std::string();
    };
    return pinch_warning(report, name, cook_moment(time, sim.parameters.time_step), sim.parameters.contact_thickness);
}

} // namespace grip_sop
