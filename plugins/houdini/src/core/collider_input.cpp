/* Collider meshes from input 2 (see collider_input.hpp).
 * SPDX-License-Identifier: MIT */

#include "collider_input.hpp"

#include <map>

namespace grip_sop {

std::vector<ColliderMesh> split_colliders(const Geometry &g, const std::string &name_attribute, bool clockwise_front,
                                          std::vector<std::string> &warnings) {
    const std::size_t n = g.point_count();
    auto names = g.primitive_strings.find(name_attribute);
    const bool named = !name_attribute.empty() && names != g.primitive_strings.end();
    std::vector<ColliderMesh> colliders;
    std::map<std::string, std::size_t> index;
    std::vector<std::int64_t> owner(n, -1), vertex(n, -1);
    std::size_t ignored = 0;
    for (std::size_t p = 0; p < g.primitives.size(); ++p) {
        const Primitive &prim = g.primitives[p];
        if (prim.kind != PrimitiveKind::Polygon || prim.points.size() < 3) {
            ++ignored;
            continue;
        }
        const std::string name = named ? names->second.at(p) : std::string("collider");
        auto it = index.find(name);
        if (it == index.end()) {
            it = index.emplace(name, colliders.size()).first;
            colliders.push_back(ColliderMesh{name, {}, {}});
        }
        const auto self = static_cast<std::int64_t>(it->second);
        ColliderMesh &c = colliders[it->second];
        std::vector<std::uint32_t> v;
        for (std::int64_t point : prim.points) {
            if (point < 0 || static_cast<std::size_t>(point) >= n) {
                throw SopError("collider primitive " + std::to_string(p) + " uses point " + std::to_string(point) +
                               " of " + std::to_string(n));
            }
            if (owner[point] == -1) {
                owner[point] = self;
                vertex[point] = static_cast<std::int64_t>(c.points.size());
                c.points.push_back(point);
            } else if (owner[point] != self) {
                throw SopError("collider point " + std::to_string(point) + " belongs to both \"" +
                               colliders[owner[point]].name + "\" and \"" + c.name + "\"");
            }
            v.push_back(static_cast<std::uint32_t>(vertex[point]));
        }
        for (std::size_t k = 1; k + 1 < v.size(); ++k) {
            if (clockwise_front) {
                c.triangles.insert(c.triangles.end(), {v[0], v[k + 1], v[k]});
            } else {
                c.triangles.insert(c.triangles.end(), {v[0], v[k], v[k + 1]});
            }
        }
    }
    if (ignored) {
        warnings.push_back(std::to_string(ignored) +
                           " collider primitives that are not closed polygons with 3 or more points were ignored");
    }
    return colliders;
}

void check_same_topology(const std::vector<ColliderMesh> &start, const std::vector<ColliderMesh> &now) {
    if (start.size() != now.size()) {
        throw SopError("input 2 has " + std::to_string(now.size()) + " colliders, " + std::to_string(start.size()) +
                       " at the start frame: colliders must keep their topology (reset the simulation to change it)");
    }
    for (std::size_t c = 0; c < start.size(); ++c) {
        if (start[c] != now[c]) {
            throw SopError("collider \"" + start[c].name +
                           "\" changed topology since the start frame (points or polygons differ): animate its "
                           "points only, or reset the simulation");
        }
    }
}

} // namespace grip_sop
