/* Frame and reset bookkeeping of the grip SOP: from the cook time and what the registry holds
 * for this node, decide whether to start over, repeat the last result, or advance.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_COOK_STATE_HPP
#define GRIP_SOP_COOK_STATE_HPP

#include <string>

namespace grip_sop {

/// What one cook does.
enum class CookAction {
    Reset,   ///< build a new solver from the input geometry and output its initial state
    Reuse,   ///< same time as the last cook: output the current state again without stepping
    Advance, ///< advance the solver by `duration` and output the new state
};

/// The decision and, for a surprising reset, a warning for sopAddWarning.
struct CookDecision {
    CookAction action = CookAction::Reset;
    double duration = 0; ///< [s] for Advance
    std::string warning;
};

/// What the registry knows about the simulation the input's key points to.
struct SimulationClock {
    bool found = false;           ///< the key named a live solver of this node
    double time = 0;              ///< [s] of the cook that produced its current state
    bool same_parameters = true;  ///< the SOP parameters are those it was built with
    bool same_point_count = true; ///< input 0 still has the point count it was built from
};

/// Two cook times closer than this [s] are the same time (Houdini evaluates times in doubles).
constexpr double same_time_tolerance = 1e-7;

/// The decision for a cook at `time` [s] with the start frame at `start_time` [s]:
/// - at or before the start time: Reset (no warning);
/// - no simulation for the input's key (first cook, geometry not from this node, or the registry
///   was cleared): Reset, with a warning past the start frame;
/// - parameters or input point count changed: Reset with a warning;
/// - the same time as the last cook: Reuse;
/// - earlier than the last cook: Reset with a warning;
/// - later: Advance by the difference (inside a SOP Solver with substeps that is a fraction of
///   a frame).
CookDecision decide(double time, double start_time, const SimulationClock &clock);

} // namespace grip_sop

#endif
