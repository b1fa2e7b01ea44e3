/* A tour of grip.hpp that checks what it shows: defaults, errors as exceptions, move-only
 * solvers, typed ids, spans over caller buffers, pins and targets, progress and cancellation,
 * the tet mesher. Physics is checked against closed forms. Prints "grip.hpp: N passed, M failed".
 * SPDX-License-Identifier: MIT */

#include "grip.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace {

int passed = 0, failed = 0;

void check(bool ok, const char *what, int line) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::printf("hpp_tour.cpp:%d: FAILED: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

// Ids of different kinds do not mix: passing a collider where an object is expected does not compile.
static_assert(!std::is_convertible<grip::MeshColliderId, grip::ObjectId>::value, "typed ids");
static_assert(!std::is_convertible<GripObjectId, grip::ObjectId>::value, "explicit from raw");
static_assert(std::is_convertible<grip::ObjectId, grip::BodyId>::value, "objects have friction");
static_assert(std::is_convertible<grip::ShapeColliderId, grip::BodyId>::value, "colliders have friction");
static_assert(!std::is_copy_constructible<grip::Solver>::value, "move-only");
static_assert(std::is_nothrow_move_constructible<grip::Solver>::value, "cheap moves");

/// One triangle, 1 m on a side, at height z = 1 m.
const std::vector<double> triangle_xyz = {0, 0, 1, 1, 0, 1, 0, 1, 1};
const std::vector<std::uint32_t> triangle = {0, 1, 2};

void defaults_and_errors() {
    CHECK(grip::abi_version() == GRIP_ABI_VERSION);
    CHECK(!grip::version().empty());
    const GripSolverParams p = grip::default_solver_params();
    CHECK(p.struct_tag == GRIP_SOLVER_PARAMS_TAG && p.time_step > 0);
    CHECK(grip::default_material().struct_tag == GRIP_MATERIAL_TAG);
    CHECK(grip::default_shape().kind == GRIP_SHAPE_PLANE);

    GripSolverParams bad = p;
    bad.time_step = -1.0;
    try {
        grip::Solver solver(bad);
        CHECK(!"a negative time step is refused");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::InvalidArgument);
        CHECK(std::string(grip::to_string(e.status())) == "invalid argument");
        CHECK(e.function() == "grip_solver_create");
        CHECK(!e.message().empty());
        CHECK(std::string(e.what()).find("time_step") != std::string::npos);
    }

    grip::Solver solver;
    try {
        solver.add_shell(std::vector<double>{0, 0, 0, 1, 0, 0, 0}, triangle); // 7 doubles
        CHECK(!"a partial vertex is refused");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::InvalidArgument && e.function() == "grip_solver_add_shell");
    }
    try {
        solver.add_shell(triangle_xyz, std::vector<std::uint32_t>{0, 1, 7});
        CHECK(!"an index out of range is refused");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::InvalidMesh);
    }
    try {
        solver.positions(grip::ObjectId(42));
        CHECK(!"an unknown id is refused");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::UnknownObject);
    }
}

/// Backward Euler free fall from rest in n substeps of h: drop = h² g n (n + 1) / 2.
void free_fall_and_moves() {
    GripSolverParams p = grip::default_solver_params();
    p.time_step = 0.01;
    grip::Solver first(p);
    const grip::ObjectId id = first.add_shell(triangle_xyz, triangle);
    grip::Solver solver(std::move(first)); // the handle moves, the moved-from solver is empty
    CHECK(first.handle() == nullptr && solver.handle() != nullptr);
    solver.advance(0.1);
    std::array<double, 9> xyz{};
    solver.positions(id, xyz); // into the caller's buffer
    const double drop = 0.01 * 0.01 * 9.81 * 10 * 11 / 2;
    for (int v = 0; v < 3; ++v) {
        CHECK(std::fabs(xyz[3 * v + 2] - (1.0 - drop)) < 1e-12);
    }
    CHECK(solver.report().substeps == 10);
    CHECK(std::fabs(solver.velocities(id)[2] + 0.1 * 9.81) < 1e-12);
    grip::Solver other;
    other = std::move(solver);
    CHECK(other.vertex_count(id) == 3);
}

/// A pinned vertex driven to a target gets there exactly; the others fall.
void pins_and_targets() {
    grip::Solver solver;
    const grip::ObjectId id = solver.add_shell(triangle_xyz, triangle);
    solver.set_pinned(id, std::vector<double>{1, 0, 0});
    std::vector<double> target = triangle_xyz;
    target[0] = 0.25; // vertex 0 moves 0.25 m along x
    solver.set_targets(id, target);
    solver.advance(1.0 / 24.0);
    const std::vector<double> xyz = solver.positions(id);
    CHECK(xyz[0] == 0.25 && xyz[1] == 0.0 && xyz[2] == 1.0);
    CHECK(xyz[5] < 1.0 && xyz[8] < 1.0);
}

/// Cancelling from the callback leaves the solver unchanged; an exception in it is rethrown.
void progress_and_cancel() {
    grip::Solver solver;
    const grip::ObjectId id = solver.add_shell(triangle_xyz, triangle);
    const std::vector<double> before = solver.positions(id);
    int calls = 0;
    solver.set_progress([&calls](double fraction) { return ++calls == 2 && fraction < 1.0; });
    try {
        solver.advance(0.1);
        CHECK(!"cancelled");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::Cancelled);
    }
    CHECK(solver.positions(id) == before);
    solver.set_progress([](double) -> bool { throw std::logic_error("from the callback"); });
    try {
        solver.advance(0.1);
        CHECK(!"the callback's exception reaches the caller");
    } catch (const std::logic_error &e) {
        CHECK(std::string(e.what()) == "from the callback");
    }
    CHECK(solver.positions(id) == before);
    double last = -1;
    solver.set_progress([&last](double fraction) {
        last = fraction;
        return false;
    });
    solver.advance(0.1);
    CHECK(last == 1.0);
    solver.set_progress(nullptr);
    solver.advance(0.1);
    CHECK(solver.positions(id)[2] < before[2]);
}

/// A checkpoint taken mid-fall and restored continues bit for bit; damaged bytes are refused and
/// change nothing.
void checkpoint_and_restore() {
    grip::Solver solver;
    const grip::ObjectId id = solver.add_shell(triangle_xyz, triangle);
    solver.advance(0.05);
    const std::vector<std::uint8_t> state = solver.checkpoint();
    solver.advance(0.05);
    const std::vector<double> first = solver.positions(id);
    solver.restore(state);
    solver.advance(0.05);
    CHECK(solver.positions(id) == first);
    const std::vector<std::uint8_t> damaged(state.begin(), state.end() - 1);
    try {
        solver.restore(damaged);
        CHECK(!"damaged bytes are refused");
    } catch (const grip::Error &e) {
        CHECK(e.status() == grip::Status::InvalidArgument && e.function() == "grip_solver_restore");
    }
    CHECK(solver.positions(id) == first);
}

/// The tet mesher fills a unit cube with positive tets whose volumes add up to about 1 m³.
void tetrahedralize_a_cube() {
    std::vector<double> xyz;
    for (int v = 0; v < 8; ++v) {
        xyz.insert(xyz.end(), {double(v & 1), double((v >> 1) & 1), double((v >> 2) & 1)});
    }
    // Counter-clockwise seen from outside.
    const std::vector<std::uint32_t> quads = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5};
    std::vector<std::uint32_t> tris;
    for (std::size_t q = 0; q < quads.size(); q += 4) {
        tris.insert(tris.end(), {quads[q], quads[q + 1], quads[q + 2], quads[q], quads[q + 2], quads[q + 3]});
    }
    const grip::TetMesh mesh = grip::tetrahedralize(xyz, tris, 0.25);
    double volume = 0;
    bool positive = true;
    for (std::size_t t = 0; t < mesh.tets.size(); t += 4) {
        const double *p[4];
        for (int k = 0; k < 4; ++k) p[k] = &mesh.positions[3 * mesh.tets[t + k]];
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = p[1][k] - p[0][k];
            b[k] = p[2][k] - p[0][k];
            c[k] = p[3][k] - p[0][k];
        }
        const double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                           a[2] * (b[0] * c[1] - b[1] * c[0]);
        positive = positive && det > 0;
        volume += det / 6;
    }
    CHECK(!mesh.tets.empty() && positive);
    CHECK(std::fabs(volume - 1.0) < 0.05);
    grip::Solver solver;
    GripMaterial rubber = grip::default_material();
    rubber.density = 1100;
    const grip::ObjectId cube = solver.add_solid(mesh.positions, mesh.tets, rubber);
    const grip::ShapeColliderId floor = solver.add_collider_shape(grip::default_shape());
    solver.set_friction(cube, floor, 0.5);
    CHECK(solver.vertex_count(cube) * 3 == mesh.positions.size());
}

} // namespace

int main() {
    try {
        grip::check_abi();
        defaults_and_errors();
        free_fall_and_moves();
        pins_and_targets();
        progress_and_cancel();
        checkpoint_and_restore();
        tetrahedralize_a_cube();
    } catch (const std::exception &e) {
        std::printf("hpp_tour: unexpected exception: %s\n", e.what());
        ++failed;
    }
    std::printf("grip.hpp: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
