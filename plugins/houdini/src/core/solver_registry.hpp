/* The registry that keeps grip solvers alive between cooks of the SOP. A cook's output carries
 * the key of its simulation in the detail attribute grip_solver; inside a SOP Solver the next
 * cook finds it on input 0 (Prev_Frame) and continues that solver. Entries belong to a node
 * (its unique id): a node starting over drops its older entries, so each node keeps at most one
 * solver, and geometry from another node never steps this node's solver.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_SOLVER_REGISTRY_HPP
#define GRIP_SOP_SOLVER_REGISTRY_HPP

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace grip_sop {

struct Simulation;

/// Thread-safe map from keys to simulations. Keys are never reused within a process and carry a
/// per-process random salt, so a key saved in a .hip or a cache does not find another session's
/// solver.
class SolverRegistry {
public:
    using Key = std::int64_t;

    /// One simulation and the lock a cook holds while it uses it.
    struct Slot {
        std::uint64_t owner = 0;
        std::mutex mutex;
        std::unique_ptr<Simulation> simulation;
    };

    SolverRegistry();
    ~SolverRegistry();
    SolverRegistry(const SolverRegistry &) = delete;
    SolverRegistry &operator=(const SolverRegistry &) = delete;

    /// The slot of `key` if it exists and belongs to `owner`, else nullptr.
    std::shared_ptr<Slot> find(Key key, std::uint64_t owner) const;

    /// Stores `simulation` for `owner` under a new key (never 0), dropping the owner's other
    /// slots (a slot in use by a running cook is freed when that cook lets go of it).
    Key insert(std::uint64_t owner, std::unique_ptr<Simulation> simulation);

    /// Drops every slot of `owner` (the node was deleted or its cache cleared); returns how many.
    std::size_t remove_owner(std::uint64_t owner);

    /// Drops every slot.
    void clear();

    /// Number of slots.
    std::size_t size() const;

    /// The process-wide registry the SOP uses.
    static SolverRegistry &instance();

private:
    mutable std::mutex mutex_;
    std::map<Key, std::shared_ptr<Slot>> slots_;
    Key salt_;
    Key next_ = 1;
};

} // namespace grip_sop

#endif
