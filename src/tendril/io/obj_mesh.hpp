#pragma once
/// Reader for triangle meshes in the Wavefront OBJ format (shell geometry: mat_dismech 6.1 accepts
/// any triangle mesh; obstacles of the 3D vine: vine3d/obj_mesh.hpp).
///
/// Read: `v x y z [w]` vertex lines [m] (a weight w divides the coordinates) and `f i j k ...`
/// faces of 1-based vertex indices, each written `i`, `i/t`, `i//n` or `i/t/n` (texture and normal
/// indices are ignored), negative indices counting back from the last vertex read. Ignored:
/// comments (`#` to the end of the line) and the other statements of the format (vt, vn, o, g, s,
/// usemtl, mtllib, l, p). A face of more than three corners is refused or split into a fan (i, j,
/// k), (i, k, l), ... (a convex polygon's triangulation), as the caller asks. Refused with an
/// InputError naming `<file>:<line>` and the reason: a malformed or non-finite number, a face
/// with fewer than three corners, an index of no vertex, a degenerate (zero-area) triangle, and a
/// file without faces.

#include <array>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::io {

struct ObjMesh {
  std::vector<Vec3> vertices;  ///< x_i [m] (#vertices)
  std::vector<std::array<int, 3>>
      triangles;                    ///< 0-based vertex indices, in the file's order (#triangles)
  std::vector<int> triangle_lines;  ///< 1-based line of each triangle's face (#triangles)
};

/// What a face of more than three corners is.
enum class ObjPolygons {
  refused,  ///< an InputError: triangular faces only (shells, whose triangles are their elements)
  fans,     ///< split into a fan of triangles from its first corner
};

/// Parses OBJ text; `name` (the file, with its scene key if any) prefixes the line numbers of
/// errors.
ObjMesh parse_obj_mesh(std::istream& in, const std::string& name, ObjPolygons polygons);
/// Reads `file` (named at scene key `key`, "" for none) with the data-file limits
/// (core/bounded_file.hpp, docs/limits.md); errors name `file:line (key)`.
ObjMesh read_obj_mesh(const std::filesystem::path& file, const std::string& key = "",
                      ObjPolygons polygons = ObjPolygons::refused);

}  // namespace tendril::io
