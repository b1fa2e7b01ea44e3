/* The geometry of one SOP input in plain C++ (no HDK types): what SOP_Grip.C copies out of a
 * GU_Detail and everything the HDK-independent layer of the grip SOP reads. Point numbers are
 * Houdini point indices (GA_Index), 0-based and dense.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_GEOMETRY_HPP
#define GRIP_SOP_GEOMETRY_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace grip_sop {

/// An error the SOP reports with sopAddError (the cook then outputs its input unchanged).
class SopError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The primitive types the SOP distinguishes.
enum class PrimitiveKind {
    Polygon,     ///< a closed polygon (GEO_PrimPoly with the closed flag)
    Tetrahedron, ///< GEO_PrimTetrahedron
    Other,       ///< anything else (open curves, volumes, packed prims, ...): ignored with a warning
};

/// One primitive: its type and its points in vertex order.
struct Primitive {
    PrimitiveKind kind = PrimitiveKind::Other;
    std::vector<std::int64_t> points;
};

/// A numeric point attribute: `tuple_size` doubles per point.
struct PointAttribute {
    int tuple_size = 1;
    std::vector<double> values;
};

/// One SOP input.
struct Geometry {
    /// P, 3 doubles per point [m] (Houdini units are taken as metres).
    std::vector<double> positions;
    /// Primitives in primitive order.
    std::vector<Primitive> primitives;
    /// Numeric point attributes by name (only those the SOP reads: see attribute_mapping.hpp).
    std::map<std::string, PointAttribute> point_attributes;
    /// String primitive attributes by name, one value per primitive.
    std::map<std::string, std::vector<std::string>> primitive_strings;
    /// Primitive groups by parameter role ("solid", "shell"), one flag per primitive.
    std::map<std::string, std::vector<char>> primitive_groups;

    std::size_t point_count() const { return positions.size() / 3; }

    /// The point attribute `name` if present with `tuple_size` components, else nullptr.
    const PointAttribute *point_attribute(const std::string &name, int tuple_size) const {
        auto it = point_attributes.find(name);
        if (it == point_attributes.end() || it->second.tuple_size != tuple_size ||
            it->second.values.size() != point_count() * static_cast<std::size_t>(tuple_size)) {
            return nullptr;
        }
        return &it->second;
    }
};

} // namespace grip_sop

#endif
