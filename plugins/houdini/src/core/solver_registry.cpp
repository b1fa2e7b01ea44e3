/* The registry of live grip solvers (see solver_registry.hpp).
 * SPDX-License-Identifier: MIT */

#include "solver_registry.hpp"

#include "simulation.hpp"

#include <random>

namespace grip_sop {

SolverRegistry::SolverRegistry() {
    std::random_device seed;
    // 30 random bits above a 32-bit counter: positive, never 0, distinct across processes.
    salt_ = static_cast<Key>(seed() & 0x3fffffffu) << 32;
}

SolverRegistry::~SolverRegistry() = default;

std::shared_ptr<SolverRegistry::Slot> SolverRegistry::find(Key key, std::uint64_t owner) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = slots_.find(key);
    if (it == slots_.end() || it->second->owner != owner) {
        return nullptr;
    }
    return it->second;
}

SolverRegistry::Key SolverRegistry::insert(std::uint64_t owner, std::unique_ptr<Simulation> simulation) {
    auto slot = std::make_shared<Slot>();
    slot->owner = owner;
    slot->simulation = std::move(simulation);
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = slots_.begin(); it != slots_.end();) {
        it = it->second->owner == owner ? slots_.erase(it) : std::next(it);
    }
    const Key key = salt_ | next_++;
    slots_.emplace(key, std::move(slot));
    return key;
}

std::size_t SolverRegistry::remove_owner(std::uint64_t owner) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t removed = 0;
    for (auto it = slots_.begin(); it != slots_.end();) {
        if (it->second->owner == owner) {
            it = slots_.erase(it);
            ++removed;
        } else {
            ++it;
        }
    }
    return removed;
}

void SolverRegistry::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_.clear();
}

std::size_t SolverRegistry::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return slots_.size();
}

SolverRegistry &SolverRegistry::instance() {
    static SolverRegistry registry;
    return registry;
}

} // namespace grip_sop
