#pragma once
/// Reader for the MAT-DiSMech geometry text format (mat_dismech sec. 6.1, Fig. 2a):
///
///   *Nodes           one node per line: x, y, z [m]
///   0.0, 0.0, 0.0
///   *Edges           one rod edge per line: m, n (1-based node indices), e = x_n - x_m
///   1, 2
///   *Triangles       one shell triangle per line: l, m, n (1-based)
///   1, 2, 3
///
/// Section names are case-insensitive; values are separated by commas and/or blanks; blank lines
/// and lines starting with '#' are ignored. Sections may be absent (no edges, no triangles).
/// Indices are converted to 0-based; out-of-range indices, repeated nodes within an edge or
/// triangle, and non-finite coordinates are InputErrors naming "file:line".

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::io {

struct MatDismechGeometry {
  std::vector<Vec3> nodes;                    ///< x_i [m] (#nodes)
  std::vector<std::array<int, 2>> edges;      ///< 0-based (m, n) (#edges)
  std::vector<std::array<int, 3>> triangles;  ///< 0-based (l, m, n) (#triangles)
  std::vector<int> triangle_lines;  ///< 1-based line of each triangle in the file (#triangles)
};

/// Reads `file` (named at scene key `key`, "" for none) with the data-file limits
/// (core/bounded_file.hpp).
MatDismechGeometry read_mat_dismech_geometry(const std::filesystem::path& file,
                                             const std::string& key = "");

/// The nodes that `elements` (edges or triangles of one file) use, in file order, with `elements`
/// renumbered to them: a file holding rods and triangles gives each part only its own nodes.
template <std::size_t K>
std::vector<Vec3> compact_nodes(const std::vector<Vec3>& nodes,
                                std::vector<std::array<int, K>>& elements) {
  std::vector<int> index(nodes.size(), -1);
  for (const auto& element : elements)
    for (int n : element) index[static_cast<std::size_t>(n)] = 0;
  std::vector<Vec3> used;
  for (std::size_t n = 0; n < nodes.size(); ++n)
    if (index[n] == 0) {
      index[n] = static_cast<int>(used.size());
      used.push_back(nodes[n]);
    }
  for (auto& element : elements)
    for (int& n : element) n = index[static_cast<std::size_t>(n)];
  return used;
}

}  // namespace tendril::io
