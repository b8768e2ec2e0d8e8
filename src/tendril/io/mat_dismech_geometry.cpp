#include "tendril/io/mat_dismech_geometry.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"

namespace tendril::io {

namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string current;
  for (char c : line) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

MatDismechGeometry read_mat_dismech_geometry(const std::filesystem::path& file,
                                             const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a MAT-DiSMech geometry text file"));
  MatDismechGeometry g;
  enum class Section { None, Nodes, Edges, Triangles } section = Section::None;
  struct Pending {
    std::vector<std::string> f;
    int line;
    Section section;
  };
  std::vector<Pending> index_lines;  // checked once all nodes are known
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string where = fmt::format("{}:{}", file.string(), number);
    if (line[first] == '*') {
      const std::string name =
          lower(fields(line.substr(first + 1)).empty() ? "" : fields(line.substr(first + 1))[0]);
      if (name == "nodes")
        section = Section::Nodes;
      else if (name == "edges")
        section = Section::Edges;
      else if (name == "triangles")
        section = Section::Triangles;
      else
        throw InputError(where, line, "a section header *Nodes, *Edges or *Triangles");
      continue;
    }
    const std::vector<std::string> f = fields(line);
    switch (section) {
      case Section::None:
        throw InputError(where, line,
                         "a section header (*Nodes, *Edges, *Triangles) before any data");
      case Section::Nodes: {
        if (f.size() != 3) throw InputError(where, line, "three coordinates x, y, z");
        Vec3 x;
        for (int i = 0; i < 3; ++i) {
          char* end = nullptr;
          x[i] = std::strtod(f[i].c_str(), &end);
          if (end != f[i].c_str() + f[i].size() || !std::isfinite(x[i]))
            throw InputError(where, f[i], "a finite real coordinate [m]");
        }
        g.nodes.push_back(x);
        break;
      }
      case Section::Edges:
      case Section::Triangles:
        index_lines.push_back({f, number, section});
        break;
    }
  }
  const int n = static_cast<int>(g.nodes.size());
  for (const Pending& p : index_lines) {
    const std::string where = fmt::format("{}:{}", file.string(), p.line);
    const std::size_t count = p.section == Section::Edges ? 2 : 3;
    if (p.f.size() != count)
      throw InputError(where, fmt::format("{} values", p.f.size()),
                       fmt::format("{} node indices per {}", count,
                                   p.section == Section::Edges ? "edge" : "triangle"));
    std::array<int, 3> idx{};
    for (std::size_t i = 0; i < count; ++i) {
      char* end = nullptr;
      errno = 0;
      const long v = std::strtol(p.f[i].c_str(), &end, 10);
      if (end != p.f[i].c_str() + p.f[i].size() || v < 1 || v > n)
        throw InputError(where, p.f[i], fmt::format("a 1-based node index in 1..{}", n));
      idx[i] = static_cast<int>(v) - 1;
    }
    if (idx[0] == idx[1] || (count == 3 && (idx[1] == idx[2] || idx[0] == idx[2])))
      throw InputError(where, fmt::format("repeated node index"), "distinct node indices");
    if (p.section == Section::Edges)
      g.edges.push_back({idx[0], idx[1]});
    else {
      g.triangles.push_back(idx);
      g.triangle_lines.push_back(p.line);
    }
  }
  if (g.nodes.empty())
    throw InputError(file.string(), "(no nodes)", "a *Nodes section with at least two nodes");
  return g;
}

}  // namespace tendril::io
