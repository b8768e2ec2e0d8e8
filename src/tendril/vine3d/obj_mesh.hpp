#pragma once
/// Triangle meshes from Wavefront OBJ files as obstacles of the 3D vine
/// (docs/physics/vine3d.md#obstacles), read by io/obj_mesh.hpp with faces of more than three
/// corners split into fans (a convex polygon's triangulation) and degenerate (zero-area) triangles
/// refused.

#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "tendril/io/obj_mesh.hpp"
#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {

using TriangleMesh = io::ObjMesh;

/// Parses OBJ text; `name` (the file) prefixes the line numbers of errors.
inline TriangleMesh parse_obj(std::istream& in, const std::string& name) {
  return io::parse_obj_mesh(in, name, io::ObjPolygons::fans);
}
/// Reads the OBJ file `file` named at scene key `key` with the limits on data files
/// (core/bounded_file.hpp, docs/limits.md); errors name `file:line (key)`.
inline TriangleMesh read_obj(const std::filesystem::path& file, const std::string& key) {
  return io::read_obj_mesh(file, key, io::ObjPolygons::fans);
}

/// One triangle obstacle per triangle, named `name`[t].
std::vector<Obstacle3> mesh_obstacles(const TriangleMesh& mesh, const std::string& name);

}  // namespace tendril::vine3d
