#include "tendril/vine3d/obj_mesh.hpp"

#include <fmt/format.h>

namespace tendril::vine3d {

std::vector<Obstacle3> mesh_obstacles(const TriangleMesh& mesh, const std::string& name) {
  std::vector<Obstacle3> out;
  out.reserve(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    out.push_back(
        make_triangle(mesh.vertices[tri[0]], mesh.vertices[tri[1]], mesh.vertices[tri[2]]));
    out.back().name = fmt::format("{}[{}]", name, t);
  }
  return out;
}

}  // namespace tendril::vine3d
