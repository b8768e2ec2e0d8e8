#include "tendril/io/shell_generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace tendril::io {
namespace {

/// Triangles between a lower row and an upper row of node indices, both sorted by x: walks both
/// rows, each time advancing the row whose next node lies further left (counter-clockwise about
/// +z); on a tie (the last nodes of both rows) the row that is not shifted advances first
/// (`lower_first`), so a mesh is mirror symmetric about every row.
void zip_rows(const std::vector<Vec3>& nodes, const std::vector<int>& lower,
              const std::vector<int>& upper, bool lower_first,
              std::vector<std::array<int, 3>>& triangles) {
  std::size_t i = 0, j = 0;
  while (i + 1 < lower.size() || j + 1 < upper.size()) {
    const auto x = [&](int node) { return nodes[static_cast<std::size_t>(node)].x(); };
    const bool advance_lower =
        j + 1 >= upper.size() ||
        (i + 1 < lower.size() && (x(lower[i + 1]) < x(upper[j + 1]) ||
                                  (x(lower[i + 1]) == x(upper[j + 1]) && lower_first)));
    if (advance_lower) {
      triangles.push_back({lower[i], lower[i + 1], upper[j]});
      ++i;
    } else {
      triangles.push_back({lower[i], upper[j + 1], upper[j]});
      ++j;
    }
  }
}

}  // namespace

TriangleMesh rectangle_mesh(double length, double width, int nodes_x, int nodes_y,
                            MeshPattern pattern) {
  TriangleMesh mesh;
  const double dx = length / (nodes_x - 1);
  const double dy = width / (nodes_y - 1);
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(nodes_y));
  for (int j = 0; j < nodes_y; ++j) {
    auto& row = rows[static_cast<std::size_t>(j)];
    const auto add = [&](double x) {
      row.push_back(static_cast<int>(mesh.nodes.size()));
      mesh.nodes.emplace_back(x, j * dy, 0.0);
    };
    if (pattern == MeshPattern::equilateral && j % 2 == 1) {
      add(0.0);
      for (int i = 0; i + 1 < nodes_x; ++i) add((i + 0.5) * dx);
      add(length);
    } else {
      for (int i = 0; i < nodes_x; ++i) add(i * dx);
    }
  }
  for (int j = 0; j + 1 < nodes_y; ++j) {
    const auto& lo = rows[static_cast<std::size_t>(j)];
    const auto& up = rows[static_cast<std::size_t>(j + 1)];
    if (pattern == MeshPattern::equilateral) {
      zip_rows(mesh.nodes, lo, up, j % 2 == 0, mesh.triangles);
      continue;
    }
    for (std::size_t i = 0; i + 1 < lo.size(); ++i) {
      const int a = lo[i], b = lo[i + 1], c = up[i + 1], d = up[i];
      const bool rising =
          pattern == MeshPattern::right || (i + static_cast<std::size_t>(j)) % 2 == 0;
      if (rising) {
        mesh.triangles.push_back({a, b, c});
        mesh.triangles.push_back({a, c, d});
      } else {
        mesh.triangles.push_back({a, b, d});
        mesh.triangles.push_back({b, c, d});
      }
    }
  }
  return mesh;
}

TriangleMesh hexagon_mesh(double side, int divisions) {
  // triangular lattice p(i, j) = i a_1 + j a_2 inside the hexagon |i|, |j|, |i + j| <= n
  const int n = divisions;
  const Vec3 a1(side / n, 0.0, 0.0);
  const Vec3 a2(0.5 * side / n, 0.5 * std::sqrt(3.0) * side / n, 0.0);
  const auto inside = [n](int i, int j) {
    return std::abs(i) <= n && std::abs(j) <= n && std::abs(i + j) <= n;
  };
  TriangleMesh mesh;
  std::map<std::pair<int, int>, int> index;
  for (int j = -n; j <= n; ++j)
    for (int i = -n; i <= n; ++i)
      if (inside(i, j)) {
        index[{i, j}] = static_cast<int>(mesh.nodes.size());
        mesh.nodes.push_back(i * a1 + j * a2);
      }
  for (int j = -n; j <= n; ++j)
    for (int i = -n; i <= n; ++i) {
      if (inside(i, j) && inside(i + 1, j) && inside(i, j + 1))
        mesh.triangles.push_back({index[{i, j}], index[{i + 1, j}], index[{i, j + 1}]});
      if (inside(i + 1, j) && inside(i + 1, j + 1) && inside(i, j + 1))
        mesh.triangles.push_back({index[{i + 1, j}], index[{i + 1, j + 1}], index[{i, j + 1}]});
    }
  return mesh;
}

TriangleMesh disc_mesh(double radius, int rings) {
  TriangleMesh mesh = hexagon_mesh(1.0, rings);
  const Vec3 a2(0.5, 0.5 * std::sqrt(3.0), 0.0);
  for (Vec3& x : mesh.nodes) {
    const double norm = x.norm();
    if (norm == 0.0) continue;
    // ring k of the lattice: k = max(|i|, |j|, |i + j|) with x = (i + j/2, j sqrt(3)/2) / rings
    const double j = x.y() / a2.y() * rings;
    const double i = x.x() * rings - 0.5 * j;
    const double k = std::max({std::abs(i), std::abs(j), std::abs(i + j)});
    x *= radius * std::round(k) / (rings * norm);
  }
  return mesh;
}

}  // namespace tendril::io
