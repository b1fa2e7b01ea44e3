/* The SOP's warning for a cook that took fallbacks (On a Hard Frame: Continue with a Fallback):
 * which object failed to converge near which point, when, and how the substeps fell back, as
 * grip run prints it.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_FALLBACK_WARNING_HPP
#define GRIP_SOP_FALLBACK_WARNING_HPP

#include "grip.h"

#include <cstdint>
#include <functional>
#include <string>

namespace grip_sop {

struct Simulation;

/// "at frame F" for a cook at `time` [s] with frames `time_step` [s] long (Houdini's frame 1 at
/// t = 0), or "at t = … s" between frames (a SOP Solver substep).
std::string cook_moment(double time, double time_step);

/// The warning for `report` (empty when it took no fallback): "<object> failed to converge near
/// (x, y, z) m <when>; fallback: <kind>", with the counts when several substeps fell back;
/// `object_name(id)` names a grip object (empty: "object <id>").
std::string fallback_warning(const GripStepReport &report, const std::function<std::string(std::uint32_t)> &object_name,
                             const std::string &when);

/// fallback_warning() for a cook of `sim` at `time` [s], objects named as on input 0.
std::string fallback_warning(const Simulation &sim, const GripStepReport &report, double time);

} // namespace grip_sop

#endif
