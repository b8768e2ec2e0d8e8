#pragma once
/// Triangle meshes from Wavefront OBJ files as obstacles of the 3D vine
/// (docs/physics/vine3d.md#obstacles).
///
/// Read: `v x y z [w]` vertices [m] and `f i j k ...` faces (1-based vertex indices, negative ones
/// counting back from the last vertex, each optionally `i/t`, `i//n` or `i/t/n`); a face of more
/// than three corners is split into a fan (i, j, k), (i, k, l), ... (a convex polygon's
/// triangulation). Ignored: comments and the other statements of the format (vt, vn, o, g, s,
/// usemtl, mtllib, l, p). Refused with an InputError naming `<file>:<line>` and the reason: a
/// malformed or non-finite number, a face with fewer than three corners, an index of no vertex, a
/// degenerate (zero-area) triangle, and a file without faces.

#include <array>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {

struct TriangleMesh {
  std::vector<Vec3> vertices;                 ///< [m]
  std::vector<std::array<int, 3>> triangles;  ///< 0-based vertex indices
};

/// Parses OBJ text; `name` (the file) prefixes the line numbers of errors.
TriangleMesh parse_obj(std::istream& in, const std::string& name);
/// Reads the OBJ file `file` named at scene key `key` with the limits on data files
/// (core/bounded_file.hpp, docs/limits.md); errors name `key (file):line`.
TriangleMesh read_obj(const std::filesystem::path& file, const std::string& key);

/// One triangle obstacle per triangle, named `name`[t].
std::vector<Obstacle3> mesh_obstacles(const TriangleMesh& mesh, const std::string& name);

}  // namespace tendril::vine3d
