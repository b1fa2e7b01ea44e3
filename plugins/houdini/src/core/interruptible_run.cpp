/* Houdini's interrupt wired to grip's progress callback (see interruptible_run.hpp).
 * SPDX-License-Identifier: MIT */

#include "interruptible_run.hpp"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace grip_sop {

void run_interruptible(grip::Solver &solver, const std::function<void()> &work,
                       const std::function<bool(double)> &interrupted, std::chrono::milliseconds poll_interval) {
    struct Shared {
        std::atomic<double> fraction{0.0};
        std::atomic<bool> cancel{false};
        std::mutex mutex;
        std::condition_variable finished;
        bool done = false;
        std::exception_ptr error;
    };
    auto shared = std::make_shared<Shared>();
    solver.set_progress([shared](double fraction) {
        shared->fraction.store(fraction);
        return shared->cancel.load();
    });
    std::thread helper([shared, &work] {
        std::exception_ptr error;
        try {
            work();
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(shared->mutex);
        shared->error = error;
        shared->done = true;
        shared->finished.notify_all();
    });
    std::exception_ptr poll_error;
    {
        std::unique_lock<std::mutex> lock(shared->mutex);
        while (!shared->finished.wait_for(lock, poll_interval, [&] { return shared->done; })) {
            if (!shared->cancel.load()) {
                lock.unlock();
                bool stop = true;
                try {
                    stop = interrupted(shared->fraction.load());
                } catch (...) {
                    poll_error = std::current_exception();
                }
                lock.lock();
                if (stop) {
                    shared->cancel.store(true);
                }
            }
        }
    }
    helper.join();
    solver.set_progress(nullptr);
    if (poll_error) {
        std::rethrow_exception(poll_error);
    }
    if (shared->error) {
        std::rethrow_exception(shared->error);
    }
}

} // namespace grip_sop
