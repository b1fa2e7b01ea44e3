/* Collider meshes from input 2 of the grip SOP: closed polygons, one collider per value of the
 * name attribute, animated by moving their points with the same topology on every frame.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_COLLIDER_INPUT_HPP
#define GRIP_SOP_COLLIDER_INPUT_HPP

#include "sop_geometry.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace grip_sop {

/// One collider mesh: its input points renumbered 0..n-1 and its triangles, wound
/// counter-clockwise seen from outside as grip_solver_add_collider_mesh expects.
struct ColliderMesh {
    std::string name;
    std::vector<std::int64_t> points;
    std::vector<std::uint32_t> triangles;

    bool operator==(const ColliderMesh &o) const {
        return name == o.name && points == o.points && triangles == o.triangles;
    }
    bool operator!=(const ColliderMesh &o) const { return !(*this == o); }
};

/// Splits input 2 into collider meshes by the string primitive attribute `name_attribute` (all
/// in one when absent or ""). Polygons are fan-triangulated; `clockwise_front` (Houdini's own
/// convention: a polygon's front, where its normal points, sees its vertices clockwise) reverses
/// them to grip's counter-clockwise. Other primitives are ignored with a warning. Throws SopError
/// for a point used by two colliders or a point index out of range.
std::vector<ColliderMesh> split_colliders(const Geometry &geometry, const std::string &name_attribute,
                                          bool clockwise_front, std::vector<std::string> &warnings);

/// Throws SopError unless `now` (this frame's input 2, split) has the topology of `start` (the
/// start frame's): colliders are moved frame to frame, never rebuilt.
void check_same_topology(const std::vector<ColliderMesh> &start, const std::vector<ColliderMesh> &now);

} // namespace grip_sop

#endif
