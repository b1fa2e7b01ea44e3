/* grip host example: a C++17 program embedding grip through grip.hpp. It loads an OBJ cloth
 * and an OBJ collider mesh (static, or one OBJ per frame), simulates N frames of 1/fps s,
 * writes OUT/<cloth>_<frame:04>.obj for frames 0..N (full precision) and reports timing.
 * `grip_host --help` lists the options. SPDX-License-Identifier: MIT */

#include "grip.hpp"
#include "host_options.hpp"
#include "obj_mesh.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Creates `dir` and its missing parents.
void make_directory(const std::string &dir) {
    for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
        const std::string part = dir.substr(0, slash);
        if (!part.empty() && ::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
            throw std::runtime_error(part + ": cannot create directory: " + std::strerror(errno));
        }
        if (slash == std::string::npos) break;
    }
}

std::string frame_file(const host::Options &o, const std::string &name, unsigned frame) {
    char number[16];
    std::snprintf(number, sizeof number, "%04u", frame);
    return o.out_dir + "/" + name + "_" + number + ".obj";
}

/// Sums of the per-frame reports: what the solver spent its time on.
struct Totals {
    unsigned long substeps = 0, newton_iterations = 0;
    double solver_seconds = 0, assembly = 0, factorization = 0, solve = 0, residual = 0, contact_search = 0;

    void add(const GripStepReport &r) {
        substeps += r.substeps;
        newton_iterations += r.newton_iterations;
        solver_seconds += r.seconds_total;
        assembly += r.seconds_assembly;
        factorization += r.seconds_factorization;
        solve += r.seconds_solve;
        residual += r.seconds_residual;
        contact_search += r.seconds_contact_search;
    }
};

int run(const host::Options &o) {
    using clock = std::chrono::steady_clock;
    const auto started = clock::now();
    const host::ObjMesh cloth = host::read_obj(o.cloth_path);
    const host::ObjMesh collider = host::read_obj(o.collider_path);
    make_directory(o.out_dir);

    grip::Solver solver(o.params);
    const grip::ObjectId cloth_id = solver.add_shell(cloth.positions, cloth.triangles, o.material);
    std::vector<double> pinned(cloth.vertex_count(), 0.0);
    for (std::uint32_t v : o.pinned) {
        if (v >= pinned.size()) {
            throw std::runtime_error("--pin: cloth vertex " + std::to_string(v) + " does not exist (" +
                                     std::to_string(pinned.size()) + " vertices)");
        }
        pinned[v] = 1.0;
    }
    solver.set_pinned(cloth_id, pinned);
    const grip::MeshColliderId collider_id = solver.add_collider_mesh(collider.positions, collider.triangles);
    if (o.collider_mu >= 0.0) {
        solver.set_friction(cloth_id, collider_id, o.collider_mu);
    }

    std::vector<double> xyz(cloth.positions.size());
    std::vector<double> collider_xyz = collider.positions;
    auto write_frame = [&](unsigned frame) {
        solver.positions(cloth_id, xyz);
        host::write_obj(frame_file(o, o.cloth_name, frame), xyz, cloth.triangles);
        if (o.write_collider) {
            host::write_obj(frame_file(o, o.collider_name, frame), collider_xyz, collider.triangles);
        }
    };
    write_frame(0);
    const double setup_seconds = std::chrono::duration<double>(clock::now() - started).count();

    Totals totals;
    const auto loop_started = clock::now();
    for (unsigned frame = 1; frame <= o.frames; ++frame) {
        if (!o.collider_sequence.empty()) {
            const host::ObjMesh next = host::read_obj(host::sequence_path(o.collider_sequence, frame));
            if (next.triangles != collider.triangles || next.vertex_count() != collider.vertex_count()) {
                throw std::runtime_error("collider of frame " + std::to_string(frame) +
                                         " does not match the topology of " + o.collider_path);
            }
            collider_xyz = next.positions;
            solver.set_collider_positions(collider_id, collider_xyz);
        }
        try {
            solver.advance(1.0 / o.fps);
        } catch (const grip::Error &e) {
            throw std::runtime_error("frame " + std::to_string(frame) + ": " + e.what());
        }
        const GripStepReport report = solver.report();
        totals.add(report);
        write_frame(frame);
        std::printf("frame %4u: %u substeps, %u Newton iterations, %u contacts, %.3f s\n", frame, report.substeps,
                    report.newton_iterations, report.active_contacts, report.seconds_total);
    }
    const double loop_seconds = std::chrono::duration<double>(clock::now() - loop_started).count();
    std::printf("grip_host: grip %s, %u frames (%zu cloth vertices, %zu collider triangles) in %.3f s "
                "(setup %.3f s, %.4f s per frame), %.2f Newton iterations per substep (%lu substeps)\n",
                grip::version().c_str(), o.frames, cloth.vertex_count(), collider.triangle_count(),
                setup_seconds + loop_seconds, setup_seconds, o.frames ? loop_seconds / o.frames : 0.0,
                totals.substeps ? double(totals.newton_iterations) / double(totals.substeps) : 0.0, totals.substeps);
    std::printf("grip_host: solver %.3f s: assembly %.3f, factorization %.3f, solve %.3f, residual %.3f, "
                "contact search %.3f; output in %s\n",
                totals.solver_seconds, totals.assembly, totals.factorization, totals.solve, totals.residual,
                totals.contact_search, o.out_dir.c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    try {
        const host::Options options = host::parse_options(argc, argv);
        if (options.help) {
            std::fputs(host::usage().c_str(), stdout);
            return 0;
        }
        return run(options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "grip_host: error: %s\n", e.what());
        return 1;
    }
}
