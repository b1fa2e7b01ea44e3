/* Frame and reset bookkeeping of the grip SOP (see cook_state.hpp).
 * SPDX-License-Identifier: MIT */

#include "cook_state.hpp"

#include <cmath>
#include <cstdio>

namespace grip_sop {
namespace {

CookDecision reset(const std::string &warning) {
    CookDecision d;
    d.action = CookAction::Reset;
    d.warning = warning;
    return d;
}

std::string seconds(double t) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g s", t);
    return text;
}

} // namespace

CookDecision decide(double time, double start_time, const SimulationClock &clock) {
    if (time <= start_time + same_time_tolerance) {
        return reset("");
    }
    if (!clock.found) {
        return reset("no simulation state arrives on input 0 (no grip_solver detail attribute from this node): "
                     "the simulation starts here from the input geometry. Inside a SOP Solver, wire Prev_Frame "
                     "into input 0");
    }
    if (!clock.same_parameters) {
        return reset("parameters changed since the start frame: the simulation restarted from the input geometry");
    }
    if (!clock.same_point_count) {
        return reset("input 0 changed its point count: the simulation restarted from the input geometry");
    }
    const double dt = time - clock.time;
    if (std::fabs(dt) <= same_time_tolerance) {
        CookDecision d;
        d.action = CookAction::Reuse;
        return d;
    }
    if (dt < 0) {
        return reset("time went back from " + seconds(clock.time) + " to " + seconds(time) +
                     ": the simulation restarted from the input geometry");
    }
    CookDecision d;
    d.action = CookAction::Advance;
    d.duration = dt;
    return d;
}

} // namespace grip_sop
