/* Wiring Houdini's interrupt (UT_AutoInterrupt) to grip's progress callback. grip calls the
 * callback on a worker thread of its pool, not on the cooking thread, and Houdini's interrupt
 * is meant to be polled from the cooking thread. So the solver call runs on a helper thread;
 * the cooking thread polls the interrupt with the latest fraction, and the callback returns
 * "cancel" once the poll said so. A cancelled advance leaves the solver as it was.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_INTERRUPTIBLE_RUN_HPP
#define GRIP_SOP_INTERRUPTIBLE_RUN_HPP

#include "grip.hpp"

#include <chrono>
#include <functional>

namespace grip_sop {

/// Runs `work` (calls on `solver`) on a helper thread with a progress callback installed. Until
/// it returns, this thread calls `interrupted(fraction_done)` every `poll_interval`; after it
/// returns true, the callback cancels the running call. Exceptions of `work` (grip::Error with
/// Status::Cancelled after an interrupt) are rethrown here. The callback is removed afterwards.
void run_interruptible(grip::Solver &solver, const std::function<void()> &work,
                       const std::function<bool(double)> &interrupted,
                       std::chrono::milliseconds poll_interval = std::chrono::milliseconds(50));

} // namespace grip_sop

#endif
