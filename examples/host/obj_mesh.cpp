/* OBJ reading and writing for the grip host example (see obj_mesh.hpp).
 * SPDX-License-Identifier: MIT */

#include "obj_mesh.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace host {
namespace {

[[noreturn]] void fail(const std::string &source, std::size_t line, const std::string &what) {
    throw std::runtime_error(source + ":" + std::to_string(line) + ": " + what);
}

double parse_coordinate(const std::string &token, const std::string &source, std::size_t line) {
    const char *begin = token.c_str();
    char *end = nullptr;
    errno = 0;
    const double value = std::strtod(begin, &end);
    if (end == begin || *end != '\0' || !std::isfinite(value)) {
        fail(source, line, "cannot parse coordinate '" + token + "'");
    }
    return value;
}

/// A face-vertex token (`i`, `i/t`, `i//n`, `i/t/n`) as a zero-based index; negative indices
/// count back from the vertices read so far. Positive indices are range-checked at the end.
long long parse_face_vertex(const std::string &token, std::size_t vertices_so_far, const std::string &source,
                            std::size_t line) {
    const std::string first = token.substr(0, token.find('/'));
    char *end = nullptr;
    errno = 0;
    const long long index = std::strtoll(first.c_str(), &end, 10);
    if (first.empty() || *end != '\0' || errno == ERANGE) {
        fail(source, line, "cannot parse face index '" + token + "'");
    }
    if (index > 0 && index <= 0xFFFFFFFFll) {
        return index - 1;
    }
    if (index < 0 && static_cast<unsigned long long>(-index) <= vertices_so_far) {
        return static_cast<long long>(vertices_so_far) + index;
    }
    fail(source, line, "face index '" + token + "' is out of range");
}

} // namespace

ObjMesh parse_obj(const std::string &text, const std::string &source) {
    ObjMesh mesh;
    std::istringstream lines(text);
    std::string raw;
    std::size_t line = 0;
    std::vector<long long> face;
    while (std::getline(lines, raw)) {
        ++line;
        std::istringstream tokens(raw.substr(0, raw.find('#')));
        std::string keyword;
        if (!(tokens >> keyword)) {
            continue;
        }
        if (keyword == "v") {
            double xyz[3];
            for (double &c : xyz) {
                std::string token;
                if (!(tokens >> token)) {
                    fail(source, line, "a vertex needs 3 coordinates");
                }
                c = parse_coordinate(token, source, line);
            }
            mesh.positions.insert(mesh.positions.end(), xyz, xyz + 3);
        } else if (keyword == "f") {
            face.clear();
            std::string token;
            while (tokens >> token) {
                face.push_back(parse_face_vertex(token, mesh.vertex_count(), source, line));
            }
            if (face.size() < 3) {
                fail(source, line, "a face needs at least 3 vertices");
            }
            for (std::size_t k = 1; k + 1 < face.size(); ++k) {
                for (long long index : {face[0], face[k], face[k + 1]}) {
                    mesh.triangles.push_back(static_cast<std::uint32_t>(index));
                }
            }
        }
    }
    for (std::uint32_t index : mesh.triangles) {
        if (index >= mesh.vertex_count()) {
            throw std::runtime_error(source + ": face index " + std::to_string(index + 1ull) + " is out of range (" +
                                     std::to_string(mesh.vertex_count()) + " vertices)");
        }
    }
    return mesh;
}

ObjMesh read_obj(const std::string &path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw std::runtime_error(path + ": cannot open");
    }
    std::ostringstream text;
    text << file.rdbuf();
    return parse_obj(text.str(), path);
}

void write_obj(const std::string &path, const std::vector<double> &positions,
               const std::vector<std::uint32_t> &triangles) {
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "w"), std::fclose);
    if (!file) {
        throw std::runtime_error(path + ": cannot create");
    }
    std::fprintf(file.get(), "# written by the grip host example\n");
    for (std::size_t i = 0; i + 2 < positions.size(); i += 3) {
        std::fprintf(file.get(), "v %.17g %.17g %.17g\n", positions[i], positions[i + 1], positions[i + 2]);
    }
    for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
        std::fprintf(file.get(), "f %u %u %u\n", triangles[t] + 1, triangles[t + 1] + 1, triangles[t + 2] + 1);
    }
    if (std::ferror(file.get()) || std::fclose(file.release()) != 0) {
        throw std::runtime_error(path + ": write failed");
    }
}

} // namespace host
