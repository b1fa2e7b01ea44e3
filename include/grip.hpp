/* grip.hpp: header-only C++17 wrapper over the C API of grip (grip.h).
 * SPDX-License-Identifier: MIT
 *
 * Nothing here adds behaviour to the C API: every member forwards to one C function, turns its
 * status into a grip::Error exception (carrying the status, the C function's name and
 * grip_last_error()), and owns the solver handle (RAII, move-only). Units are SI (m, kg, s, Pa)
 * as in grip.h; positions are flat x0 y0 z0 x1 ... arrays of doubles.
 *
 *     #include "grip.hpp"
 *     grip::Solver solver;                                    // grip_solver_params_default()
 *     GripMaterial cloth = grip::default_material();          // density [kg/m^3], E [Pa], ...
 *     grip::ObjectId id = solver.add_shell(xyz, triangles, cloth);
 *     solver.set_pinned(id, pinned);                          // one double per vertex
 *     for (int frame = 0; frame < 48; ++frame) {
 *         solver.advance(1.0 / 24.0);                         // throws grip::Error on failure
 *         solver.positions(id, xyz);                          // fills the caller's buffer
 *     }
 */

#ifndef GRIP_HPP
#define GRIP_HPP

#include "grip_support.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace grip {

/// Progress callback of Solver::set_progress: gets the fraction done in [0, 1]; returning true
/// cancels the running step/advance (it then throws grip::Error with Status::Cancelled and the
/// solver is unchanged). It runs on the thread that called step/advance, between Newton
/// iterations and after each substep (never on a worker thread of the solver). An exception it
/// throws cancels the call and is rethrown by step/advance.
using ProgressFunction = std::function<bool(double fraction_done)>;

/// One grip solver (RAII over GripSolver*, move-only). Every member throws grip::Error when its
/// C function fails, and the solver is then as it was before the call.
class Solver {
public:
    /// grip_solver_create with `params` (start from grip::default_solver_params()).
    explicit Solver(const GripSolverParams &params = grip_solver_params_default()) {
        check_abi();
        detail::check(grip_solver_create(&params, &solver_), "grip_solver_create");
    }
    ~Solver() { grip_solver_destroy(solver_); }

    Solver(const Solver &) = delete;            // move-only: one owner per native solver
    Solver &operator=(const Solver &) = delete;
    Solver(Solver &&other) noexcept
        : solver_(std::exchange(other.solver_, nullptr)), progress_(std::move(other.progress_)) {}
    Solver &operator=(Solver &&other) noexcept {
        if (this != &other) {
            grip_solver_destroy(solver_);
            solver_ = std::exchange(other.solver_, nullptr);
            progress_ = std::move(other.progress_);
        }
        return *this;
    }

    /// The C handle, for calls this wrapper does not cover (still owned by this Solver).
    GripSolver *handle() const noexcept { return solver_; }

    /// grip_solver_add_shell: rest positions (3 per vertex [m]) and triangles (3 per triangle).
    ObjectId add_shell(Span<const double> positions, Span<const std::uint32_t> triangles,
                       const GripMaterial &material = grip_material_default()) {
        const char *fn = "grip_solver_add_shell";
        GripObjectId id = 0;
        detail::check(grip_solver_add_shell(solver_, positions.data(), detail::items(positions.size(), 3, fn, "positions"),
                                            triangles.data(), detail::items(triangles.size(), 3, fn, "triangles"),
                                            &material, &id),
                      fn);
        return ObjectId(id);
    }

    /// grip_solver_add_solid: rest positions (3 per vertex [m]) and positively oriented tets (4 each).
    ObjectId add_solid(Span<const double> positions, Span<const std::uint32_t> tets,
                       const GripMaterial &material = grip_material_default()) {
        const char *fn = "grip_solver_add_solid";
        GripObjectId id = 0;
        detail::check(grip_solver_add_solid(solver_, positions.data(), detail::items(positions.size(), 3, fn, "positions"),
                                            tets.data(), detail::items(tets.size(), 4, fn, "tets"), &material, &id),
                      fn);
        return ObjectId(id);
    }

    /// grip_solver_add_collider_shape: a kinematic analytic collider (start from grip::default_shape()).
    ShapeColliderId add_collider_shape(const GripShape &shape) {
        GripObjectId id = 0;
        detail::check(grip_solver_add_collider_shape(solver_, &shape, &id), "grip_solver_add_collider_shape");
        return ShapeColliderId(id);
    }

    /// grip_solver_set_collider_transform: the rigid column-major 4×4 pose reached at the end of
    /// the next step/advance (translation [m] in elements 12–14).
    void set_collider_transform(ShapeColliderId id, const std::array<double, 16> &column_major) {
        detail::check(grip_solver_set_collider_transform(solver_, id.raw(), column_major.data()),
                      "grip_solver_set_collider_transform");
    }

    /// grip_solver_add_collider_mesh: positions (3 per vertex [m]) and triangles wound
    /// counter-clockwise seen from outside.
    MeshColliderId add_collider_mesh(Span<const double> positions, Span<const std::uint32_t> triangles) {
        const char *fn = "grip_solver_add_collider_mesh";
        GripObjectId id = 0;
        detail::check(grip_solver_add_collider_mesh(solver_, positions.data(),
                                                    detail::items(positions.size(), 3, fn, "positions"),
                                                    triangles.data(), detail::items(triangles.size(), 3, fn, "triangles"),
                                                    &id),
                      fn);
        return MeshColliderId(id);
    }

    /// grip_solver_set_collider_positions: where the collider mesh's vertices are at the end of
    /// the next step/advance [m].
    void set_collider_positions(MeshColliderId id, Span<const double> xyz) {
        const char *fn = "grip_solver_set_collider_positions";
        detail::check(grip_solver_set_collider_positions(solver_, id.raw(), xyz.data(), detail::items(xyz.size(), 3, fn, "xyz")),
                      fn);
    }

    /// grip_solver_set_object_friction: an object's or collider's own μ (dimensionless); pairs
    /// combine their two μ by geometric mean.
    void set_object_friction(BodyId id, double mu) {
        detail::check(grip_solver_set_object_friction(solver_, id.raw(), mu), "grip_solver_set_object_friction");
    }

    /// grip_solver_set_object_self_contact: whether a shell meets itself, and its own self-contact
    /// thickness [m] (0: params.self_contact_thickness); pairs of two shells take the mean.
    void set_object_self_contact(ObjectId id, bool enabled, double thickness = 0.0) {
        detail::check(grip_solver_set_object_self_contact(solver_, id.raw(), enabled ? 1u : 0u, thickness),
                      "grip_solver_set_object_self_contact");
    }

    /// grip_solver_set_friction: μ (dimensionless) between two objects or colliders, overriding
    /// their own μ.
    void set_friction(BodyId a, BodyId b, double mu) {
        detail::check(grip_solver_set_friction(solver_, a.raw(), b.raw(), mu), "grip_solver_set_friction");
    }

    /// grip_solver_get_friction: the μ (dimensionless) contact between two objects or colliders
    /// uses.
    double friction(BodyId a, BodyId b) const {
        double mu = 0;
        detail::check(grip_solver_get_friction(solver_, a.raw(), b.raw(), &mu), "grip_solver_get_friction");
        return mu;
    }

    /// grip_solver_set_vertex_attribute: `values` holds `components` doubles per vertex.
    void set_vertex_attribute(ObjectId id, const char *name, Span<const double> values, std::size_t components) {
        const char *fn = "grip_solver_set_vertex_attribute";
        if (components == 0) {
            throw Error(Status::InvalidArgument, fn, "components is 0");
        }
        detail::check(grip_solver_set_vertex_attribute(solver_, id.raw(), name, values.data(),
                                                       detail::items(values.size(), components, fn, "values"), components),
                      fn);
    }
    /// The "velocity" attribute [m/s], 3 per vertex.
    void set_velocities(ObjectId id, Span<const double> xyz) { set_vertex_attribute(id, "velocity", xyz, 3); }
    /// The "position" attribute [m], 3 per vertex: moves the vertices now (rest shape unchanged).
    void set_positions(ObjectId id, Span<const double> xyz) { set_vertex_attribute(id, "position", xyz, 3); }
    /// The "pinned" attribute, 1 per vertex: nonzero pins the vertex.
    void set_pinned(ObjectId id, Span<const double> pinned) { set_vertex_attribute(id, "pinned", pinned, 1); }
    /// The "target" attribute [m], 3 per vertex: where pinned vertices are at the end of the next
    /// step/advance.
    void set_targets(ObjectId id, Span<const double> xyz) { set_vertex_attribute(id, "target", xyz, 3); }

    /// grip_solver_step: one implicit step of `dt` seconds.
    void step(double dt) { run(grip_solver_step(solver_, dt), "grip_solver_step"); }
    /// grip_solver_advance: `duration` seconds in substeps of at most params.time_step.
    void advance(double duration) { run(grip_solver_advance(solver_, duration), "grip_solver_advance"); }

    /// grip_solver_set_progress_callback with a C++ callable (see ProgressFunction); an empty
    /// function removes it.
    void set_progress(ProgressFunction function) {
        if (!function) {
            detail::check(grip_solver_set_progress_callback(solver_, nullptr, nullptr),
                          "grip_solver_set_progress_callback");
            progress_.reset();
            return;
        }
        auto progress = std::make_unique<Progress>();
        progress->function = std::move(function);
        detail::check(grip_solver_set_progress_callback(solver_, &Solver::trampoline, progress.get()),
                      "grip_solver_set_progress_callback");
        progress_ = std::move(progress);
    }

    /// grip_solver_vertex_count.
    std::size_t vertex_count(ObjectId id) const {
        std::size_t n = 0;
        detail::check(grip_solver_vertex_count(solver_, id.raw(), &n), "grip_solver_vertex_count");
        return n;
    }
    /// grip_solver_get_positions into the caller's buffer (3 per vertex [m]).
    void positions(ObjectId id, Span<double> out) const {
        const char *fn = "grip_solver_get_positions";
        detail::check(grip_solver_get_positions(solver_, id.raw(), out.data(), detail::items(out.size(), 3, fn, "out_xyz")), fn);
    }
    /// grip_solver_get_positions into a new vector.
    std::vector<double> positions(ObjectId id) const {
        std::vector<double> out(3 * vertex_count(id));
        positions(id, out);
        return out;
    }
    /// grip_solver_get_velocities into the caller's buffer (3 per vertex [m/s]).
    void velocities(ObjectId id, Span<double> out) const {
        const char *fn = "grip_solver_get_velocities";
        detail::check(grip_solver_get_velocities(solver_, id.raw(), out.data(), detail::items(out.size(), 3, fn, "out_xyz")), fn);
    }
    /// grip_solver_get_velocities into a new vector.
    std::vector<double> velocities(ObjectId id) const {
        std::vector<double> out(3 * vertex_count(id));
        velocities(id, out);
        return out;
    }
    /// grip_solver_checkpoint: the solver's state as opaque bytes; restore() puts it back into a
    /// solver built the same way, which then continues bit for bit.
    std::vector<std::uint8_t> checkpoint() const {
        std::size_t size = 0, written = 0;
        detail::check(grip_solver_checkpoint_size(solver_, &size), "grip_solver_checkpoint_size");
        std::vector<std::uint8_t> bytes(size);
        detail::check(grip_solver_checkpoint(solver_, bytes.data(), bytes.size(), &written), "grip_solver_checkpoint");
        bytes.resize(written);
        return bytes;
    }
    /// grip_solver_restore: the state of checkpoint(); the solver is unchanged if it is refused.
    void restore(Span<const std::uint8_t> bytes) {
        detail::check(grip_solver_restore(solver_, bytes.data(), bytes.size()), "grip_solver_restore");
    }
    /// grip_solver_get_report: the outcome of the last step/advance, failed ones included.
    GripStepReport report() const {
        GripStepReport report{};
        detail::check(grip_solver_get_report(solver_, &report), "grip_solver_get_report");
        return report;
    }

private:
    /// The installed callback and the first exception it threw during the running call.
    struct Progress {
        ProgressFunction function;
        std::mutex mutex;
        std::exception_ptr error;
    };

    static std::uint32_t trampoline(void *user_data, double fraction) noexcept {
        auto *progress = static_cast<Progress *>(user_data);
        try {
            return progress->function(fraction) ? 1u : 0u;
        } catch (...) {
            std::lock_guard<std::mutex> lock(progress->mutex);
            if (!progress->error) {
                progress->error = std::current_exception();
            }
            return 1u;
        }
    }

    /// Rethrows the callback's exception, if it cancelled the call, else checks `status`.
    void run(GripStatus status, const char *function) {
        if (progress_) {
            std::exception_ptr error;
            {
                std::lock_guard<std::mutex> lock(progress_->mutex);
                error = std::exchange(progress_->error, nullptr);
            }
            if (error) {
                std::rethrow_exception(error);
            }
        }
        detail::check(status, function);
    }

    GripSolver *solver_ = nullptr;
    std::unique_ptr<Progress> progress_;
};

} // namespace grip

#endif /* GRIP_HPP */
