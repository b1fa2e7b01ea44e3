/* grip_support.hpp: the parts of the C++17 wrapper (grip.hpp) around the solver class: status
 * codes and grip::Error, typed ids, spans, the defaults and the ABI check, and the tet mesher.
 * SPDX-License-Identifier: MIT
 *
 * Included by grip.hpp; hosts include grip.hpp.
 */

#ifndef GRIP_SUPPORT_HPP
#define GRIP_SUPPORT_HPP

#include "grip.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace grip {

/// `GripStatus` as a scoped enum; the numbers are those of grip.h.
enum class Status : std::uint32_t {
    Ok = GRIP_STATUS_OK,
    NullPointer = GRIP_STATUS_NULL_POINTER,
    InvalidArgument = GRIP_STATUS_INVALID_ARGUMENT,
    InvalidMesh = GRIP_STATUS_INVALID_MESH,
    UnknownObject = GRIP_STATUS_UNKNOWN_OBJECT,
    NotConverged = GRIP_STATUS_NOT_CONVERGED,
    Cancelled = GRIP_STATUS_CANCELLED,
    Panic = GRIP_STATUS_PANIC,
};

/// The name of a status, e.g. "not converged"; "unknown status" for numbers grip.h lacks.
inline const char *to_string(Status status) noexcept {
    static const char *const names[] = {"ok", "null pointer", "invalid argument", "invalid mesh",
                                        "unknown object", "not converged", "cancelled", "internal error"};
    const auto i = static_cast<std::uint32_t>(status);
    return i < sizeof names / sizeof names[0] ? names[i] : "unknown status";
}

/// A failed C call: its status, the C function that failed and grip_last_error() at that time.
/// The solver is as it was before the call (the C API's guarantee).
class Error : public std::runtime_error {
public:
    Error(Status status, std::string function, const std::string &message)
        : std::runtime_error(function + ": " + message), status_(status), function_(std::move(function)),
          message_(message) {}

    /// The status the C function returned.
    Status status() const noexcept { return status_; }
    /// The C function that failed, e.g. "grip_solver_advance".
    const std::string &function() const noexcept { return function_; }
    /// grip_last_error() right after the failing call.
    const std::string &message() const noexcept { return message_; }

private:
    Status status_;
    std::string function_;
    std::string message_;
};

namespace detail {

/// Throws grip::Error unless `status` is OK; reads the thread-local message at once.
inline void check(GripStatus status, const char *function) {
    if (status != GRIP_STATUS_OK) {
        throw Error(static_cast<Status>(status), function, grip_last_error());
    }
}

template <class C, class T>
using span_compatible = std::enable_if_t<
    std::is_convertible<decltype(std::declval<C &>().data()), T *>::value &&
    std::is_convertible<decltype(std::declval<C &>().size()), std::size_t>::value>;

} // namespace detail

/// A non-owning view of `size` contiguous elements (std::span's subset that C++17 lacks).
/// Converts from std::vector, std::array, C arrays and anything with data() and size().
template <class T>
class Span {
public:
    constexpr Span() noexcept = default;
    constexpr Span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t N>
    constexpr Span(T (&array)[N]) noexcept : data_(array), size_(N) {}
    template <class C, class = detail::span_compatible<C, T>>
    constexpr Span(C &container) noexcept : data_(container.data()), size_(container.size()) {}
    template <class C, class = detail::span_compatible<const C, T>>
    constexpr Span(const C &container) noexcept : data_(container.data()), size_(container.size()) {}

    constexpr T *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T *begin() const noexcept { return data_; }
    constexpr T *end() const noexcept { return data_ + size_; }
    constexpr T &operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};

/// A strongly typed id: ObjectId, ShapeColliderId and MeshColliderId do not mix. The raw
/// GripObjectId is shared numbering inside one solver; 0 is never valid.
template <class Tag>
class Id {
public:
    constexpr Id() noexcept = default;
    constexpr explicit Id(GripObjectId raw) noexcept : raw_(raw) {}
    /// The GripObjectId for C calls.
    constexpr GripObjectId raw() const noexcept { return raw_; }
    /// False for a default-constructed id.
    constexpr explicit operator bool() const noexcept { return raw_ != 0; }
    friend constexpr bool operator==(Id a, Id b) noexcept { return a.raw_ == b.raw_; }
    friend constexpr bool operator!=(Id a, Id b) noexcept { return a.raw_ != b.raw_; }

private:
    GripObjectId raw_ = 0;
};

struct ObjectTag {}; struct ShapeColliderTag {}; struct MeshColliderTag {};
/// A shell or a solid.
using ObjectId = Id<ObjectTag>;
/// An analytic collider (grip_solver_add_collider_shape).
using ShapeColliderId = Id<ShapeColliderTag>;
/// A collider mesh (grip_solver_add_collider_mesh).
using MeshColliderId = Id<MeshColliderTag>;

/// Any object or collider, for friction.
class BodyId {
public:
    template <class Tag>
    constexpr BodyId(Id<Tag> id) noexcept : raw_(id.raw()) {}
    constexpr GripObjectId raw() const noexcept { return raw_; }

private:
    GripObjectId raw_;
};

/// grip_solver_params_default(): every field's default and unit are in grip.h.
inline GripSolverParams default_solver_params() { return grip_solver_params_default(); }
/// grip_material_default(): a woven cotton-like cloth.
inline GripMaterial default_material() { return grip_material_default(); }
/// grip_shape_default(): a ground plane through the origin with normal +Z.
inline GripShape default_shape() { return grip_shape_default(); }
/// grip_version(), e.g. "0.1.0".
inline std::string version() { return grip_version(); }
/// grip_abi_version() of the loaded library.
inline std::uint32_t abi_version() { return grip_abi_version(); }

/// Throws grip::Error (InvalidArgument) if the loaded library's ABI version or struct sizes differ
/// from this header's: passing structs of the wrong size would corrupt memory. Solver's
/// constructor calls it.
inline void check_abi() {
    const bool same = grip_abi_version() == GRIP_ABI_VERSION &&
                      grip_sizeof_solver_params() == sizeof(GripSolverParams) &&
                      grip_sizeof_material() == sizeof(GripMaterial) && grip_sizeof_shape() == sizeof(GripShape) &&
                      grip_sizeof_step_report() == sizeof(GripStepReport);
    if (!same) {
        throw Error(Status::InvalidArgument, "grip_abi_version",
                    "the grip library (ABI " + std::to_string(grip_abi_version()) +
                        ") does not match grip.h (ABI " + std::to_string(GRIP_ABI_VERSION) +
                        ") or its struct sizes differ");
    }
}

namespace detail {

/// Elements per item of a flat array; throws unless `size` is a multiple of `per_item`.
inline std::size_t items(std::size_t size, std::size_t per_item, const char *function, const char *what) {
    if (size % per_item != 0) {
        throw Error(Status::InvalidArgument, function,
                    std::string(what) + ": " + std::to_string(size) + " values is not a multiple of " +
                        std::to_string(per_item));
    }
    return size / per_item;
}

} // namespace detail

/// A tet mesh made by grip::tetrahedralize, copied out of the library.
struct TetMesh {
    /// 3 × vertex count positions [m].
    std::vector<double> positions;
    /// 4 × tet count indices, positively oriented.
    std::vector<std::uint32_t> tets;
};

/// grip_tetrahedralize: fills the closed surface (`positions` 3 per vertex [m], `triangles` 3
/// per triangle) with tets of edge about `cell_size` [m].
inline TetMesh tetrahedralize(Span<const double> positions, Span<const std::uint32_t> triangles, double cell_size) {
    const char *fn = "grip_tetrahedralize";
    const std::size_t nv = detail::items(positions.size(), 3, fn, "positions");
    const std::size_t nt = detail::items(triangles.size(), 3, fn, "triangles");
    GripTetMesh *raw = nullptr;
    detail::check(grip_tetrahedralize(positions.data(), nv, triangles.data(), nt, cell_size, &raw), fn);
    std::unique_ptr<GripTetMesh, void (*)(GripTetMesh *)> mesh(raw, grip_tet_mesh_destroy);
    std::size_t vertex_count = 0, tet_count = 0;
    detail::check(grip_tet_mesh_sizes(mesh.get(), &vertex_count, &tet_count), "grip_tet_mesh_sizes");
    TetMesh out;
    out.positions.resize(3 * vertex_count);
    out.tets.resize(4 * tet_count);
    detail::check(grip_tet_mesh_get(mesh.get(), out.positions.data(), vertex_count, out.tets.data(), tet_count),
                  "grip_tet_mesh_get");
    return out;
}

} // namespace grip

#endif // GRIP_SUPPORT_HPP
