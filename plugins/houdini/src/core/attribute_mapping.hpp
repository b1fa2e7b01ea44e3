/* Point attributes of the grip SOP: which Houdini attributes it reads, and how per-point values
 * of an input become per-vertex arrays of one grip object and back.
 *
 *   P               (3) current positions [m]
 *   rest            (3) rest shape [m] when present (else P): lets a cached, deformed state resume
 *   v               (3) initial velocity [m/s], read when the simulation (re)starts; written back
 *   pinned          (1) nonzero: the point is held where it is
 *   pintoanimation  (1) nonzero: the point is pinned and follows P of the pin source
 *   friction        (1) multiplier of the Friction parameter giving the object or collider it is on
 *                       its own μ (grip gives a pair the geometric mean of its two bodies' μ)
 *
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_ATTRIBUTE_MAPPING_HPP
#define GRIP_SOP_ATTRIBUTE_MAPPING_HPP

#include "object_split.hpp"
#include "sop_geometry.hpp"

#include <string>
#include <utility>
#include <vector>

namespace grip_sop {

/// The numeric point attributes the SOP reads (name, tuple size), for the HDK layer to copy.
const std::vector<std::pair<std::string, int>> &read_point_attributes();

/// The attribute `name` with `tuple_size` components, or nullptr when absent. Present with
/// another tuple size: nullptr and a warning naming it.
const PointAttribute *numeric_attribute(const Geometry &g, const std::string &name, int tuple_size,
                                        std::vector<std::string> &warnings);

/// Rest positions, 3 per point: the `rest` attribute if present, else P.
std::vector<double> rest_positions(const Geometry &g, std::vector<std::string> &warnings);

/// The values of the points `points` (in that order) from per-point `values` (`tuple_size` per point).
std::vector<double> gather(const std::vector<double> &values, int tuple_size, const std::vector<std::int64_t> &points);

/// The values of `object`'s vertices from per-point `values` (`tuple_size` per point).
inline std::vector<double> gather(const std::vector<double> &values, int tuple_size, const SimObject &object) {
    return gather(values, tuple_size, object.points);
}

/// Writes `object`'s per-vertex `values` into per-point `out` (`tuple_size` per point).
void scatter(const std::vector<double> &values, int tuple_size, const SimObject &object, std::vector<double> &out);

/// The "pinned" and "target" attributes of one object for the next advance.
struct PinPlan {
    /// 1 per vertex: 1 pinned, 0 free.
    std::vector<double> pinned;
    /// 3 per vertex [m]: pintoanimation vertices go to the pin source's P, other pinned vertices
    /// stay at `current`, free vertices carry `current` (ignored by grip). Empty when no vertex
    /// follows the animation (pinned vertices then stay put without a target).
    std::vector<double> targets;
    /// Number of pinned vertices.
    std::size_t pinned_count = 0;
};

/// Pins of `object` from the `pinned` and `pintoanimation` point attributes of `pin_source`
/// (input 1 when connected, else input 0; same point numbering as input 0), with `current` the
/// object's current positions (3 per vertex [m]).
PinPlan pin_plan(const SimObject &object, const Geometry &pin_source, const std::vector<double> &current,
                 std::vector<std::string> &warnings);

/// The `friction` multiplier of the body made of `points` (1 when the attribute is absent). It
/// must be uniform because grip's friction is per body: otherwise the mean is used and a
/// warning names `body`.
double friction_multiplier(const Geometry &g, const std::vector<std::int64_t> &points, const std::string &body,
                           std::vector<std::string> &warnings);

} // namespace grip_sop

#endif
