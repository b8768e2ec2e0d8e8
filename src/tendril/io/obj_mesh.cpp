#include "tendril/io/obj_mesh.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"

namespace tendril::io {

namespace {

/// Where an error is: the file, the 1-based line and what follows the line number (" (key)").
struct Place {
  const std::string& name;
  const std::string& suffix;
  int line = 0;
  std::string key() const { return fmt::format("{}:{}{}", name, line, suffix); }
};

double parse_number(const std::string& token, const Place& at) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(token.c_str(), &end);
  if (token.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
    throw InputError(at.key(), fmt::format("'{}'", token), "a finite number");
  return value;
}

/// The vertex `v x y z [w]` of a line's words after `v` [m].
Vec3 parse_vertex(std::istringstream& words, const std::string& line, const Place& at) {
  std::string x, y, z, w, extra;
  words >> x >> y >> z;
  Vec3 v(parse_number(x, at), parse_number(y, at), parse_number(z, at));
  if (words >> w) v /= parse_number(w, at);  // homogeneous weight
  if (!v.allFinite())
    throw InputError(at.key(), fmt::format("vertex weight '{}'", w), "a non-zero weight");
  if (words >> extra) throw InputError(at.key(), line, "a vertex line 'v x y z [w]'");
  return v;
}

/// The vertex index of a face corner `i`, `i/t`, `i//n` or `i/t/n` (1-based, negative: from the
/// last vertex), 0-based.
int parse_corner(const std::string& token, int vertex_count, const Place& at) {
  const std::string index = token.substr(0, token.find('/'));
  char* end = nullptr;
  const long value = std::strtol(index.c_str(), &end, 10);
  if (index.empty() || *end != '\0')
    throw InputError(at.key(), fmt::format("face corner '{}'", token),
                     "a vertex index, optionally followed by /texture/normal indices");
  const long zero_based = value > 0 ? value - 1 : vertex_count + value;
  if (value == 0 || zero_based < 0 || zero_based >= vertex_count)
    throw InputError(at.key(), fmt::format("vertex index {}", value),
                     fmt::format("an index of a vertex defined above (1..{} or -1..-{})",
                                 vertex_count, vertex_count));
  return static_cast<int>(zero_based);
}

void add_face(std::istringstream& words, ObjPolygons polygons, ObjMesh& mesh, const Place& at) {
  std::vector<int> corners;
  std::string token;
  const int count = static_cast<int>(mesh.vertices.size());
  while (words >> token) corners.push_back(parse_corner(token, count, at));
  if (corners.size() < 3)
    throw InputError(at.key(), fmt::format("a face of {} corners", corners.size()),
                     "a face of at least 3 vertex indices");
  if (corners.size() > 3 && polygons == ObjPolygons::refused)
    throw InputError(at.key(), fmt::format("a face of {} vertices", corners.size()),
                     "triangular faces only (triangulate the mesh when exporting it)");
  for (std::size_t k = 1; k + 1 < corners.size(); ++k) {  // a fan from the first corner
    const std::array<int, 3> t{corners[0], corners[k], corners[k + 1]};
    const Vec3& a = mesh.vertices[t[0]];
    const double area = 0.5 * (mesh.vertices[t[1]] - a).cross(mesh.vertices[t[2]] - a).norm();
    const double size = (mesh.vertices[t[1]] - a).norm() + (mesh.vertices[t[2]] - a).norm();
    if (!(area > 1e-12 * size * size))
      throw InputError(at.key(),
                       fmt::format("a degenerate triangle (vertices {}, {}, {}: area {} m^2)",
                                   t[0] + 1, t[1] + 1, t[2] + 1, area),
                       "triangles of non-zero area (distinct, non-collinear corners)");
    mesh.triangles.push_back(t);
    mesh.triangle_lines.push_back(at.line);
  }
}

/// parse_obj_mesh with `suffix` after the line numbers of errors.
ObjMesh parse(std::istream& in, const std::string& name, const std::string& suffix,
              ObjPolygons polygons) {
  ObjMesh mesh;
  Place at{name, suffix};
  std::string line;
  while (std::getline(in, line)) {
    ++at.line;
    std::istringstream words(line.substr(0, line.find('#')));
    std::string keyword;
    if (!(words >> keyword)) continue;
    if (keyword == "v")
      mesh.vertices.push_back(parse_vertex(words, line, at));
    else if (keyword == "f")
      add_face(words, polygons, mesh, at);
  }
  if (mesh.triangles.empty())
    throw InputError(name + suffix, fmt::format("{} vertices and no face", mesh.vertices.size()),
                     "an OBJ mesh with at least one face ('f' line)");
  return mesh;
}

}  // namespace

ObjMesh parse_obj_mesh(std::istream& in, const std::string& name, ObjPolygons polygons) {
  return parse(in, name, "", polygons);
}

ObjMesh read_obj_mesh(const std::filesystem::path& file, const std::string& key,
                      ObjPolygons polygons) {
  std::istringstream in(read_data_file(file, key, "a Wavefront OBJ file"));
  return parse(in, file.string(), key.empty() ? "" : fmt::format(" ({})", key), polygons);
}

}  // namespace tendril::io
