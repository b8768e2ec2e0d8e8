#pragma once
/// Reader for triangle meshes in the Wavefront OBJ format (shell geometry, mat_dismech 6.1 accepts
/// any triangle mesh): `v x y z` vertex lines [m] and `f a b c` triangular faces with 1-based
/// vertex indices, each written `i`, `i/t`, `i//n` or `i/t/n` (texture and normal indices are
/// ignored), negative indices counting back from the last vertex read. Other statements (vt, vn, o,
/// g, s, usemtl, mtllib, comments) are ignored. Faces with more than three vertices, indices out of
/// range, repeated vertices in a face and non-finite coordinates are InputErrors naming "file:line"
/// and the value.

#include <array>
#include <filesystem>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::io {

struct ObjMesh {
  std::vector<Vec3> nodes;  ///< x_i [m] (#vertices)
  std::vector<std::array<int, 3>>
      triangles;                    ///< 0-based vertex indices, in the file's order (#faces)
  std::vector<int> triangle_lines;  ///< 1-based line of each face (#faces)
};

/// Reads `file` (named at scene key `key`, "" for none) with the data-file limits
/// (core/bounded_file.hpp).
ObjMesh read_obj_mesh(const std::filesystem::path& file, const std::string& key = "");

}  // namespace tendril::io
