/* Wavefront OBJ triangle meshes for the grip host example: `v` positions and `f` faces only
 * (polygons fan-triangulated; texture and normal indices ignored), as grip's CLI reads them.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_HOST_OBJ_MESH_HPP
#define GRIP_HOST_OBJ_MESH_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace host {

/// A triangle mesh: 3 doubles per vertex [m], 3 zero-based indices per triangle.
struct ObjMesh {
    std::vector<double> positions;
    std::vector<std::uint32_t> triangles;

    std::size_t vertex_count() const { return positions.size() / 3; }
    std::size_t triangle_count() const { return triangles.size() / 3; }
};

/// Parses OBJ text; throws std::runtime_error naming `source` and the 1-based line at fault.
ObjMesh parse_obj(const std::string &text, const std::string &source);

/// Reads and parses the OBJ file at `path` (errors name the path).
ObjMesh read_obj(const std::string &path);

/// Writes `positions` with `triangles` to `path` as OBJ, every coordinate with 17 significant
/// digits (so it reads back to the same double). Throws std::runtime_error on I/O failure.
void write_obj(const std::string &path, const std::vector<double> &positions,
               const std::vector<std::uint32_t> &triangles);

} // namespace host

#endif
