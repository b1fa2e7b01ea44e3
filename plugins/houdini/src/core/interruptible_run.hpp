/* Wiring Houdini's interrupt (UT_AutoInterrupt) to grip's progress callback. grip calls the
 * callback on the thread that called it, but only between Newton iterations, which can be
 * seconds apart on large scenes, while Houdini's interrupt should be polled often from the
 * cooking thread to keep the UI responsive. So the solver call runs on a helper thread; the
 * cooking thread polls the interrupt every poll_interval with the latest fraction, and the
 * callback returns "cancel" once the poll said so. A cancelled advance leaves the solver as it
 * was.
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
