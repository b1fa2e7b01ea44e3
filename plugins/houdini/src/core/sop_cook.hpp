/* One cook of the grip SOP without HDK types: SOP_Grip.C copies the inputs into Geometry,
 * calls cook(), and writes P, v and the grip_solver detail attribute from the result, with its
 * warnings and error forwarded to sopAddWarning / sopAddError.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_COOK_HPP
#define GRIP_SOP_COOK_HPP

#include "cook_state.hpp"
#include "simulation.hpp"
#include "solver_registry.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace grip_sop {

/// Name of the int64 detail attribute that carries the registry key from cook to cook.
constexpr const char *solver_key_attribute = "grip_solver";

/// Everything one cook reads.
struct CookInputs {
    SimulationInputs geometry;
    SopParameters parameters;
    double time = 0;          ///< cook time [s]
    std::int64_t key = 0;     ///< grip_solver detail attribute of input 0 (0 when absent)
    std::uint64_t owner = 0;  ///< the node's unique id
};

/// Everything one cook writes.
struct CookOutput {
    std::vector<double> positions;  ///< P, 3 per input-0 point
    std::vector<double> velocities; ///< v, 3 per input-0 point (input v, or 0, where not simulated)
    std::int64_t key = 0;           ///< the grip_solver detail attribute to write (0: none)
    CookAction action = CookAction::Reset;
    bool report_valid = false;      ///< `report` is from this cook's advance
    GripStepReport report{};
    std::vector<std::string> warnings;
    std::string error;              ///< non-empty: the cook failed (positions are the input's)
};

/// Cooks once: decides (cook_state.hpp) from the registry entry of `in.key` for `in.owner`,
/// then builds, reuses or advances that simulation. `interrupted(fraction)` is polled while
/// grip advances (UT_AutoInterrupt::wasInterrupted in Houdini). Never throws: failures, an
/// interrupt included, come back in `error` with the input's positions and the input's key.
CookOutput cook(const CookInputs &in, SolverRegistry &registry, const std::function<bool(double)> &interrupted);

} // namespace grip_sop

#endif
