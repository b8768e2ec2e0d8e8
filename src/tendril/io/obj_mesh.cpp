#include "tendril/io/obj_mesh.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"

namespace tendril::io {

ObjMesh read_obj_mesh(const std::filesystem::path& file, const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a Wavefront OBJ file"));
  ObjMesh mesh;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string statement;
    if (!(words >> statement) || statement[0] == '#') continue;
    const std::string where = fmt::format("{}:{}", file.string(), number);
    std::vector<std::string> f;
    for (std::string w; words >> w;) f.push_back(w);
    if (statement == "v") {
      // x y z [w]: the optional weight is ignored
      if (f.size() != 3 && f.size() != 4) throw InputError(where, line, "a vertex line 'v x y z'");
      Vec3 x;
      for (int i = 0; i < 3; ++i) {
        char* end = nullptr;
        x[i] = std::strtod(f[static_cast<std::size_t>(i)].c_str(), &end);
        if (*end != '\0' || !std::isfinite(x[i]))
          throw InputError(where, f[static_cast<std::size_t>(i)], "a finite real coordinate [m]");
      }
      mesh.nodes.push_back(x);
    } else if (statement == "f") {
      if (f.size() != 3)
        throw InputError(where, fmt::format("a face of {} vertices", f.size()),
                         "triangular faces only (triangulate the mesh when exporting it)");
      const int n = static_cast<int>(mesh.nodes.size());
      std::array<int, 3> tri{};
      for (std::size_t k = 0; k < 3; ++k) {
        const std::string index = f[k].substr(0, f[k].find('/'));
        char* end = nullptr;
        const long v = std::strtol(index.c_str(), &end, 10);
        // 1-based, or negative: counted back from the last vertex read so far
        const long i = v > 0 ? v - 1 : n + v;
        if (index.empty() || *end != '\0' || v == 0 || i < 0 || i >= n)
          throw InputError(
              where, f[k],
              fmt::format("a vertex index in 1..{} or -{}..-1 (vertices read so far)", n, n));
        tri[k] = static_cast<int>(i);
      }
      if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
        throw InputError(where, line, "a face of three distinct vertices");
      mesh.triangles.push_back(tri);
      mesh.triangle_lines.push_back(number);
    }
  }
  if (mesh.triangles.empty())
    throw InputError(file.string(), "(no faces)", "an OBJ mesh with at least one 'f' face");
  return mesh;
}

}  // namespace tendril::io
