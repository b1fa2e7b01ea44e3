/* Group → object splitting: which primitives of input 0 form which grip objects (shells from
 * polygons, solids from tetrahedra), with their own compact vertex numbering.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_OBJECT_SPLIT_HPP
#define GRIP_SOP_OBJECT_SPLIT_HPP

#include "sop_geometry.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grip_sop {

/// What a grip object is.
enum class ObjectKind { Shell, Solid };

/// How primitives are assigned to objects.
struct SplitOptions {
    /// String primitive attribute whose value "solid" or "shell" (any case) sets each primitive's
    /// kind; when absent from the geometry the groups, then the primitive types decide.
    std::string type_attribute = "grip_type";
    /// String primitive attribute naming the pieces: one object per (name, kind). "" or absent:
    /// all shells form one object and all solids another.
    std::string name_attribute = "name";
};

/// One grip object: its primitives' points renumbered 0..n-1 and its elements.
struct SimObject {
    std::string name;
    ObjectKind kind = ObjectKind::Shell;
    /// Input point index of each object vertex (object vertex v is input point points[v]).
    std::vector<std::int64_t> points;
    /// Object-vertex indices: 3 per triangle (shell) or 4 per tet (solid, positively oriented
    /// in the rest positions given to split_objects).
    std::vector<std::uint32_t> elements;
};

/// The objects and what was left out.
struct SplitResult {
    std::vector<SimObject> objects;
    std::vector<std::string> warnings;
};

/// Splits `geometry` into objects. A primitive's kind comes from `options.type_attribute` if
/// the geometry has it, else from the "solid"/"shell" primitive groups (geometry.primitive_groups),
/// else from its type (tetrahedra are solids, polygons shells). Polygons are fan-triangulated;
/// tets that are negatively oriented in `rest_positions` (3 per point) get their last two
/// vertices swapped. Other primitives and polygons with fewer than 3 points are skipped with a
/// warning. Throws SopError for a polygon marked solid, a tet marked shell, a primitive in both
/// groups, an unknown type value, a point index out of range, a point shared by two objects, or
/// no object at all.
SplitResult split_objects(const Geometry &geometry, const std::vector<double> &rest_positions,
                          const SplitOptions &options);

/// Signed volume [m³] of the tet (a, b, c, d) in `xyz` (3 per point): det[b−a, c−a, d−a] / 6.
double tet_volume(const std::vector<double> &xyz, std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d);

} // namespace grip_sop

#endif
