/* Command-line options of the grip host example (grip_host --help prints them).
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_HOST_OPTIONS_HPP
#define GRIP_HOST_OPTIONS_HPP

#include "grip.h"

#include <cstdint>
#include <string>
#include <vector>

namespace host {

/// Everything grip_host needs to run: inputs, timing, solver parameters and the cloth material.
struct Options {
    std::string cloth_path;            ///< OBJ of the cloth (a shell)
    std::string collider_path;         ///< OBJ of the collider mesh at frame 0
    std::string collider_sequence;     ///< printf pattern of per-frame collider OBJs ("" = static)
    std::string out_dir = "host-out";  ///< where <name>_<frame:04>.obj go
    std::string cloth_name = "cloth";
    std::string collider_name = "collider";
    bool write_collider = false;       ///< also write the collider's OBJ per frame
    unsigned frames = 24;              ///< frames simulated after frame 0
    double fps = 24.0;                 ///< frames per second: each frame advances 1/fps s
    double collider_mu = -1.0;         ///< μ cloth–collider (< 0: params.default_friction)
    std::vector<std::uint32_t> pinned; ///< cloth vertices held in place
    GripSolverParams params{};         ///< from grip_solver_params_default(), then the flags
    GripMaterial material{};           ///< from grip_material_default(), then the flags
    bool help = false;
};

/// The usage text.
std::string usage();

/// Parses argv; throws std::runtime_error naming the bad flag or value.
Options parse_options(int argc, char **argv);

/// The collider OBJ path of `frame` from `pattern` (one printf integer conversion, e.g. %04d).
std::string sequence_path(const std::string &pattern, unsigned frame);

} // namespace host

#endif
