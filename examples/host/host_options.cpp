/* Command-line parsing of the grip host example (see host_options.hpp).
 * SPDX-License-Identifier: MIT */

#include "host_options.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace host {
namespace {

double to_double(const std::string &flag, const std::string &text) {
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) {
        throw std::runtime_error(flag + ": expected a number, got '" + text + "'");
    }
    return value;
}

unsigned long to_unsigned(const std::string &flag, const std::string &text) {
    char *end = nullptr;
    const unsigned long value = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0') {
        throw std::runtime_error(flag + ": expected a non-negative integer, got '" + text + "'");
    }
    return value;
}

std::vector<std::string> split_commas(const std::string &text) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        parts.push_back(part);
    }
    return parts;
}

} // namespace

std::string usage() {
    return "usage: grip_host [options] CLOTH.obj COLLIDER.obj\n"
           "Simulates the cloth (a shell) against the collider mesh and writes\n"
           "OUT/<cloth-name>_<frame:04>.obj for frames 0..N, then prints the timing.\n"
           "  --frames N              frames after frame 0 (24)\n"
           "  --fps F                 frames per second; a frame advances 1/F s (24)\n"
           "  --out DIR               output directory (host-out)\n"
           "  --collider-sequence P   collider OBJ of frame f is printf(P, f), e.g. body_%04d.obj;\n"
           "                          same vertex count and order as COLLIDER.obj (default: static)\n"
           "  --pin I,J,...           cloth vertices held in place (0-based)\n"
           "  --mu M                  cloth-collider friction coefficient (default_friction)\n"
           "  --cloth-name S, --collider-name S, --write-collider\n"
           "solver (SI units; defaults from grip_solver_params_default()):\n"
           "  --time-step S --gravity X,Y,Z --contact-thickness M --default-friction MU\n"
           "  --friction-epsilon V --max-newton-iterations N --residual-tolerance R --workers N\n"
           "cloth material (defaults from grip_material_default()):\n"
           "  --density KG_M3 --youngs-modulus PA --poisson-ratio NU --thickness M\n"
           "  --bending-stiffness NM --damping-alpha A --damping-beta B\n";
}

Options parse_options(int argc, char **argv) {
    Options o;
    o.params = grip_solver_params_default();
    o.material = grip_material_default();
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            o.help = true;
            continue;
        }
        if (flag == "--write-collider") {
            o.write_collider = true;
            continue;
        }
        if (flag.rfind("--", 0) != 0) {
            positional.push_back(flag);
            continue;
        }
        if (i + 1 >= argc) {
            throw std::runtime_error(flag + ": missing value");
        }
        const std::string value = argv[++i];
        if (flag == "--frames") {
            o.frames = static_cast<unsigned>(to_unsigned(flag, value));
        } else if (flag == "--fps") {
            o.fps = to_double(flag, value);
        } else if (flag == "--out") {
            o.out_dir = value;
        } else if (flag == "--collider-sequence") {
            o.collider_sequence = value;
        } else if (flag == "--cloth-name") {
            o.cloth_name = value;
        } else if (flag == "--collider-name") {
            o.collider_name = value;
        } else if (flag == "--pin") {
            for (const std::string &part : split_commas(value)) {
                o.pinned.push_back(static_cast<std::uint32_t>(to_unsigned(flag, part)));
            }
        } else if (flag == "--mu") {
            o.collider_mu = to_double(flag, value);
        } else if (flag == "--time-step") {
            o.params.time_step = to_double(flag, value);
        } else if (flag == "--gravity") {
            const std::vector<std::string> parts = split_commas(value);
            if (parts.size() != 3) {
                throw std::runtime_error(flag + ": expected X,Y,Z");
            }
            for (int k = 0; k < 3; ++k) {
                o.params.gravity[k] = to_double(flag, parts[k]);
            }
        } else if (flag == "--contact-thickness") {
            o.params.contact_thickness = to_double(flag, value);
        } else if (flag == "--default-friction") {
            o.params.default_friction = to_double(flag, value);
        } else if (flag == "--friction-epsilon") {
            o.params.friction_epsilon = to_double(flag, value);
        } else if (flag == "--max-newton-iterations") {
            o.params.max_newton_iterations = static_cast<std::uint32_t>(to_unsigned(flag, value));
        } else if (flag == "--residual-tolerance") {
            o.params.residual_tolerance = to_double(flag, value);
        } else if (flag == "--workers") {
            o.params.worker_count = static_cast<std::uint32_t>(to_unsigned(flag, value));
        } else if (flag == "--density") {
            o.material.density = to_double(flag, value);
        } else if (flag == "--youngs-modulus") {
            o.material.youngs_modulus = to_double(flag, value);
        } else if (flag == "--poisson-ratio") {
            o.material.poisson_ratio = to_double(flag, value);
        } else if (flag == "--thickness") {
            o.material.thickness = to_double(flag, value);
        } else if (flag == "--bending-stiffness") {
            o.material.bending_stiffness = to_double(flag, value);
        } else if (flag == "--damping-alpha") {
            o.material.damping_alpha = to_double(flag, value);
        } else if (flag == "--damping-beta") {
            o.material.damping_beta = to_double(flag, value);
        } else {
            throw std::runtime_error("unknown option " + flag + " (see --help)");
        }
    }
    if (o.help) {
        return o;
    }
    if (positional.size() != 2) {
        throw std::runtime_error("expected CLOTH.obj and COLLIDER.obj (see --help)");
    }
    o.cloth_path = positional[0];
    o.collider_path = positional[1];
    if (!(o.fps > 0.0)) {
        throw std::runtime_error("--fps must be > 0");
    }
    if (!o.collider_sequence.empty()) {
        sequence_path(o.collider_sequence, 0); // checks the pattern now rather than at frame 1
    }
    return o;
}

std::string sequence_path(const std::string &pattern, unsigned frame) {
    // Exactly one %d, %Nd or %0Nd (and %% for a percent sign): never hand the pattern to printf.
    std::string path;
    int conversions = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            path += pattern[i];
            continue;
        }
        if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
            path += '%';
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        const bool zero = j < pattern.size() && pattern[j] == '0';
        std::size_t width = 0;
        while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9' && width < 100) {
            width = 10 * width + static_cast<std::size_t>(pattern[j++] - '0');
        }
        if (j >= pattern.size() || pattern[j] != 'd') {
            throw std::runtime_error("--collider-sequence: only %d, %Nd and %0Nd are allowed in '" + pattern + "'");
        }
        std::string digits = std::to_string(frame);
        if (digits.size() < width) {
            digits.insert(0, width - digits.size(), zero ? '0' : ' ');
        }
        path += digits;
        ++conversions;
        i = j;
    }
    if (conversions != 1) {
        throw std::runtime_error("--collider-sequence: '" + pattern + "' needs exactly one frame number (%d)");
    }
    return path;
}

} // namespace host
