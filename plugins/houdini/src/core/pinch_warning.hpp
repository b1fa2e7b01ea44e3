/* The SOP's warning for a cook where two colliders closed on the cloth to less than the contact
 * thickness (a pinch, On a Hard Frame: Continue with a Fallback): which object is pinched
 * between which colliders near which point, when, how far apart the surfaces are, and what to
 * do, as grip run prints it.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_PINCH_WARNING_HPP
#define GRIP_SOP_PINCH_WARNING_HPP

#include "grip.h"

#include <cstdint>
#include <functional>
#include <string>

namespace grip_sop {

struct Simulation;

/// The warning for `report` (empty when it met no pinch): "<object> is pinched between <a> and
/// <b> near (x, y, z) m <when>: the surfaces are … mm apart, under the contact thickness … mm;
/// the cloth is kept between them: open the gap or thin the contact layer to free it", with the count
/// when several vertices were pinched; `thickness` [m] is the contact thickness and
/// `object_name(id)` names a grip object or collider (empty: "object <id>").
std::string pinch_warning(const GripStepReport &report, const std::function<std::string(std::uint32_t)> &object_name,
                          const std::string &when, double thickness);

/// pinch_warning() for a cook of `sim` at `time` [s], objects named as on input 0 and collider
/// meshes as on input 2.
std::string pinch_warning(const Simulation &sim, const GripStepReport &report, double time);

} // namespace grip_sop

#endif
