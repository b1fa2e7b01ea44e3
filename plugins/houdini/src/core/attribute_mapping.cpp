/* Point attributes of the grip SOP (see attribute_mapping.hpp).
 * SPDX-License-Identifier: MIT */

#include "attribute_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace grip_sop {

const std::vector<std::pair<std::string, int>> &read_point_attributes() {
    static const std::vector<std::pair<std::string, int>> names = {
        {"rest", 3}, {"v", 3}, {"pinned", 1}, {"pintoanimation", 1}, {"friction", 1}};
    return names;
}

const PointAttribute *numeric_attribute(const Geometry &g, const std::string &name, int tuple_size,
                                        std::vector<std::string> &warnings) {
    auto it = g.point_attributes.find(name);
    if (it == g.point_attributes.end()) {
        return nullptr;
    }
    if (it->second.tuple_size != tuple_size ||
        it->second.values.size() != g.point_count() * static_cast<std::size_t>(tuple_size)) {
        warnings.push_back("point attribute " + name + " has " + std::to_string(it->second.tuple_size) +
                           " components, expected " + std::to_string(tuple_size) + ": ignored");
        return nullptr;
    }
    return &it->second;
}

std::vector<double> rest_positions(const Geometry &g, std::vector<std::string> &warnings) {
    const PointAttribute *rest = numeric_attribute(g, "rest", 3, warnings);
    return rest ? rest->values : g.positions;
}

std::vector<double> gather(const std::vector<double> &values, int tuple_size, const std::vector<std::int64_t> &points) {
    const auto k = static_cast<std::size_t>(tuple_size);
    std::vector<double> out(points.size() * k);
    for (std::size_t v = 0; v < points.size(); ++v) {
        const auto point = static_cast<std::size_t>(points[v]);
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(point * k), k,
                    out.begin() + static_cast<std::ptrdiff_t>(v * k));
    }
    return out;
}

void scatter(const std::vector<double> &values, int tuple_size, const SimObject &object, std::vector<double> &out) {
    const auto k = static_cast<std::size_t>(tuple_size);
    for (std::size_t v = 0; v < object.points.size(); ++v) {
        const auto point = static_cast<std::size_t>(object.points[v]);
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(v * k), k,
                    out.begin() + static_cast<std::ptrdiff_t>(point * k));
    }
}

PinPlan pin_plan(const SimObject &object, const Geometry &source, const std::vector<double> &current,
                 std::vector<std::string> &warnings) {
    const PointAttribute *pinned = numeric_attribute(source, "pinned", 1, warnings);
    const PointAttribute *animated = numeric_attribute(source, "pintoanimation", 1, warnings);
    const std::size_t n = object.points.size();
    PinPlan plan;
    plan.pinned.assign(n, 0.0);
    bool follows = false;
    for (std::size_t v = 0; v < n; ++v) {
        const auto point = static_cast<std::size_t>(object.points[v]);
        const bool held = pinned && pinned->values[point] != 0.0;
        const bool driven = animated && animated->values[point] != 0.0;
        if (held || driven) {
            plan.pinned[v] = 1.0;
            ++plan.pinned_count;
        }
        follows = follows || driven;
    }
    if (follows) {
        plan.targets = current;
        for (std::size_t v = 0; v < n; ++v) {
            const auto point = static_cast<std::size_t>(object.points[v]);
            if (animated->values[point] != 0.0) {
                std::copy_n(source.positions.begin() + static_cast<std::ptrdiff_t>(3 * point), 3,
                            plan.targets.begin() + static_cast<std::ptrdiff_t>(3 * v));
            }
        }
    }
    return plan;
}

double friction_multiplier(const Geometry &g, const std::vector<std::int64_t> &points, const std::string &body,
                           std::vector<std::string> &warnings) {
    const PointAttribute *friction = numeric_attribute(g, "friction", 1, warnings);
    if (!friction || points.empty()) {
        return 1.0;
    }
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (std::int64_t p : points) {
        const double f = friction->values[static_cast<std::size_t>(p)];
        sum += f;
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    const double mean = sum / static_cast<double>(points.size());
    if (hi - lo > 1e-9 * std::max(1.0, std::fabs(hi))) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "friction varies over \"%s\" (%g to %g) but grip's friction is per body: "
                      "using its mean %g",
                      body.c_str(), lo, hi, mean);
        warnings.push_back(text);
    }
    return mean;
}

} // namespace grip_sop
