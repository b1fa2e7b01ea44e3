/* The SOP's warning for a cook that took fallbacks (see fallback_warning.hpp).
 * SPDX-License-Identifier: MIT */

#include "fallback_warning.hpp"

#include "simulation.hpp"

#include <cmath>
#include <cstdio>

namespace grip_sop {

std::string cook_moment(double time, double time_step) {
    char text[64];
    const double frame = time / time_step + 1.0;
    if (std::fabs(frame - std::round(frame)) < 1e-6) {
        std::snprintf(text, sizeof text, "at frame %.0f", std::round(frame));
    } else {
        std::snprintf(text, sizeof text, "at t = %.4f s", time);
    }
    return text;
}

std::string fallback_warning(const GripStepReport &report, const std::function<std::string(std::uint32_t)> &object_name,
                             const std::string &when) {
    const char *kind = report.last_fallback == GRIP_FALLBACK_LAGGED_FRICTION ? "lagged-friction substep"
                       : report.last_fallback == GRIP_FALLBACK_FRICTIONLESS  ? "frictionless substep"
                       : report.last_fallback == GRIP_FALLBACK_BEST_ITERATE  ? "best unconverged iterate"
                                                                              : nullptr;
    if (kind == nullptr) return "";
    std::string text;
    if (report.fallback_object != 0) {
        std::string name = object_name(report.fallback_object);
        if (name.empty()) name = "object " + std::to_string(report.fallback_object);
        char place[128];
        std::snprintf(place, sizeof place, " failed to converge near (%.3f, %.3f, %.3f) m", report.fallback_position[0],
                      report.fallback_position[1], report.fallback_position[2]);
        text = name + place;
    } else {
        text = "a substep failed to converge";
    }
    if (!when.empty()) text += " " + when;
    text += std::string("; fallback: ") + kind;
    const std::uint32_t n = report.fallbacks_lagged + report.fallbacks_frictionless + report.fallbacks_best_iterate;
    if (n > 1) {
        text += " (" + std::to_string(n) + " substeps fell back: " + std::to_string(report.fallbacks_lagged) +
                " with lagged friction, " + std::to_string(report.fallbacks_frictionless) + " frictionless, " +
                std::to_string(report.fallbacks_best_iterate) + " at the best iterate)";
    }
    return text;
}

std::string fallback_warning(const Simulation &sim, const GripStepReport &report, double time) {
    const auto name = [&sim](std::uint32_t id) {
        for (const BoundObject &b : sim.objects) {
            if (b.id.raw() == id) return b.object.name;
        }
        return std::string();
    };
    return fallback_warning(report, name, cook_moment(time, sim.parameters.time_step));
}

} // namespace grip_sop
