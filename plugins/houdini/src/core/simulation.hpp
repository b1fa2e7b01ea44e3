/* One simulation of the grip SOP: the solver, which input points each grip object and collider
 * is made of, and what it was built from. Building it from the inputs and advancing it by a
 * cook's duration (pins, targets, collider motion) live here; sop_cook.hpp decides when.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_SIMULATION_HPP
#define GRIP_SOP_SIMULATION_HPP

#include "collider_input.hpp"
#include "grip.hpp"
#include "object_split.hpp"
#include "sop_geometry.hpp"
#include "sop_parameters.hpp"

#include <functional>
#include <string>
#include <vector>

namespace grip_sop {

/// A grip object and the input-0 points it simulates.
struct BoundObject {
    SimObject object;
    grip::ObjectId id;
};

/// A collider mesh and the input-2 points it follows.
struct BoundCollider {
    ColliderMesh mesh;
    grip::MeshColliderId id;
};

/// The inputs of one cook, in plain C++.
struct SimulationInputs {
    const Geometry *simulated = nullptr; ///< input 0 (required)
    const Geometry *pins = nullptr;      ///< input 1: pin source (optional)
    const Geometry *colliders = nullptr; ///< input 2: collider meshes (optional)
};

/// A live simulation.
struct Simulation {
    grip::Solver solver;
    std::vector<BoundObject> objects;
    std::vector<BoundCollider> colliders;
    SopParameters parameters;   ///< what it was built with
    std::size_t point_count = 0; ///< input 0's point count when built
    double time = 0;            ///< [s] of the state it holds

    explicit Simulation(const GripSolverParams &params) : solver(params) {}
};

/// The pin source: input 1 when connected (it must have input 0's point count), else input 0.
const Geometry &pin_source(const SimulationInputs &in);

/// Builds a simulation at `time` from the inputs: objects split from input 0 (rest shape from
/// `rest` or P, then moved to P; velocities from `v`), pins, collider meshes from input 2, and
/// the own friction μ·f of each body whose friction multiplier f is not 1 (grip combines a pair's
/// two by geometric mean). Errors name
/// the object or collider at fault (SopError).
std::unique_ptr<Simulation> build_simulation(const SimulationInputs &in, const SopParameters &parameters,
                                             double time, std::vector<std::string> &warnings);

/// Advances `sim` by `duration` [s]: collider meshes to input 2's P (same topology as when
/// built), pins from the pin source (pintoanimation targets at its P), then grip_solver_advance
/// through run_interruptible with `interrupted`. On an error the solver is as it was.
void advance_simulation(Simulation &sim, const SimulationInputs &in, double duration,
                        const std::function<bool(double)> &interrupted, std::vector<std::string> &warnings);

/// Writes the simulated points' positions and velocities into per-point `positions` and
/// `velocities` (3 per input-0 point); other points are left alone.
void write_state(const Simulation &sim, std::vector<double> &positions, std::vector<double> &velocities);

} // namespace grip_sop

#endif
