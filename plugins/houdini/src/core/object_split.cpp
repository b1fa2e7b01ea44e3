/* Group → object splitting (see object_split.hpp).
 * SPDX-License-Identifier: MIT */

#include "object_split.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

namespace grip_sop {

double tet_volume(const std::vector<double> &xyz, std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) {
    double u[3], v[3], w[3];
    for (int k = 0; k < 3; ++k) {
        const double origin = xyz[3 * a + k];
        u[k] = xyz[3 * b + k] - origin;
        v[k] = xyz[3 * c + k] - origin;
        w[k] = xyz[3 * d + k] - origin;
    }
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
            u[2] * (v[0] * w[1] - v[1] * w[0])) /
           6.0;
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

/// The kind primitive `p` asks for, before checking it against its type.
ObjectKind requested_kind(const Geometry &g, const SplitOptions &options, std::size_t p) {
    auto types = g.primitive_strings.find(options.type_attribute);
    if (!options.type_attribute.empty() && types != g.primitive_strings.end()) {
        const std::string value = lower(types->second.at(p));
        if (value == "solid") return ObjectKind::Solid;
        if (value == "shell") return ObjectKind::Shell;
        throw SopError("primitive " + std::to_string(p) + ": " + options.type_attribute + " is \"" +
                       types->second.at(p) + "\"; expected \"solid\" or \"shell\"");
    }
    auto in_group = [&](const char *role) {
        auto group = g.primitive_groups.find(role);
        return group != g.primitive_groups.end() && group->second.at(p) != 0;
    };
    const bool solid = in_group("solid"), shell = in_group("shell");
    if (solid && shell) {
        throw SopError("primitive " + std::to_string(p) + " is in both the solid group and the shell group");
    }
    if (solid) return ObjectKind::Solid;
    if (shell) return ObjectKind::Shell;
    return g.primitives[p].kind == PrimitiveKind::Tetrahedron ? ObjectKind::Solid : ObjectKind::Shell;
}

/// Objects under construction, keyed by (name, kind) in order of first appearance.
struct Builder {
    std::vector<SimObject> objects;
    std::map<std::pair<std::string, ObjectKind>, std::size_t> index;
    /// For each input point: the object it belongs to (or -1) and its vertex there.
    std::vector<std::int64_t> owner, vertex;

    SimObject &object(const std::string &name, ObjectKind kind) {
        auto key = std::make_pair(name, kind);
        auto it = index.find(key);
        if (it != index.end()) return objects[it->second];
        index.emplace(key, objects.size());
        SimObject o;
        o.name = name.empty() ? (kind == ObjectKind::Solid ? "solids" : "shells") : name;
        o.kind = kind;
        objects.push_back(std::move(o));
        return objects.back();
    }

    std::uint32_t local(SimObject &o, std::int64_t point) {
        const auto self = static_cast<std::int64_t>(&o - objects.data());
        if (owner[point] == -1) {
            owner[point] = self;
            vertex[point] = static_cast<std::int64_t>(o.points.size());
            o.points.push_back(point);
        } else if (owner[point] != self) {
            throw SopError("point " + std::to_string(point) + " belongs to both object \"" + objects[owner[point]].name +
                           "\" and object \"" + o.name + "\"; give each object its own points");
        }
        return static_cast<std::uint32_t>(vertex[point]);
    }
};

} // namespace

SplitResult split_objects(const Geometry &g, const std::vector<double> &rest, const SplitOptions &options) {
    const std::size_t n = g.point_count();
    if (rest.size() != g.positions.size()) {
        throw SopError("rest positions: " + std::to_string(rest.size() / 3) + " points, geometry has " +
                       std::to_string(n));
    }
    auto names = g.primitive_strings.find(options.name_attribute);
    const bool named = !options.name_attribute.empty() && names != g.primitive_strings.end();
    Builder b;
    b.owner.assign(n, -1);
    b.vertex.assign(n, -1);
    SplitResult result;
    std::size_t skipped = 0, small = 0;
    for (std::size_t p = 0; p < g.primitives.size(); ++p) {
        const Primitive &prim = g.primitives[p];
        if (prim.kind == PrimitiveKind::Other) {
            ++skipped;
            continue;
        }
        for (std::int64_t point : prim.points) {
            if (point < 0 || static_cast<std::size_t>(point) >= n) {
                throw SopError("primitive " + std::to_string(p) + " uses point " + std::to_string(point) + " of " +
                               std::to_string(n));
            }
        }
        const ObjectKind kind = requested_kind(g, options, p);
        if (kind == ObjectKind::Solid && prim.kind == PrimitiveKind::Polygon) {
            throw SopError("primitive " + std::to_string(p) +
                           " is a polygon marked solid: solids need tetrahedra (tetrahedralize it first, e.g. with a "
                           "Solid Conform SOP)");
        }
        if (kind == ObjectKind::Shell && prim.kind == PrimitiveKind::Tetrahedron) {
            throw SopError("primitive " + std::to_string(p) + " is a tetrahedron marked shell: shells need polygons");
        }
        if (prim.kind == PrimitiveKind::Polygon && prim.points.size() < 3) {
            ++small;
            continue;
        }
        if (prim.kind == PrimitiveKind::Tetrahedron && prim.points.size() != 4) {
            throw SopError("primitive " + std::to_string(p) + " is a tetrahedron with " +
                           std::to_string(prim.points.size()) + " points");
        }
        SimObject &o = b.object(named ? names->second.at(p) : std::string(), kind);
        std::vector<std::uint32_t> v;
        v.reserve(prim.points.size());
        for (std::int64_t point : prim.points) v.push_back(b.local(o, point));
        if (prim.kind == PrimitiveKind::Tetrahedron) {
            const auto &q = prim.points;
            if (tet_volume(rest, q[0], q[1], q[2], q[3]) < 0) std::swap(v[2], v[3]);
            o.elements.insert(o.elements.end(), v.begin(), v.end());
        } else {
            for (std::size_t k = 1; k + 1 < v.size(); ++k) {
                o.elements.insert(o.elements.end(), {v[0], v[k], v[k + 1]});
            }
        }
    }
    if (skipped) {
        result.warnings.push_back(std::to_string(skipped) +
                                  " primitives that are neither closed polygons nor tetrahedra were ignored");
    }
    if (small) {
        result.warnings.push_back(std::to_string(small) + " polygons with fewer than 3 points were ignored");
    }
    if (b.objects.empty()) {
        throw SopError("input 0 has no polygons or tetrahedra to simulate");
    }
    result.objects = std::move(b.objects);
    return result;
}

} // namespace grip_sop
