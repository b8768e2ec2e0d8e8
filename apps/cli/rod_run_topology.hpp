#pragma once
/// The topology of a rod run read back from run.json: edges, rods (chains of nodes), the radius of
/// each edge (from its rod's material in the resolved scene) and triangles when the run has them.

#include <cstdint>
#include <utility>
#include <vector>

#include "tendril/io/run_reader.hpp"

namespace tendril::cli {

struct RodRunTopology {
  std::size_t num_nodes = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>>
      edges;                                         ///< (#edges) node pairs, from info.edges
  std::vector<std::vector<std::int64_t>> rod_nodes;  ///< node chain of each rod, info.rod_nodes
  std::vector<double> edge_radius;                   ///< (#edges) [m]; 0 if the scene gives none
  std::vector<std::int64_t> triangles;  ///< (#triangles x 3), info.triangles if present

  /// Reads info.num_nodes, info.edges, info.rod_nodes, info.triangles and
  /// scene.rods[].material.radius. Throws InputError if they are missing or out of range.
  static RodRunTopology from_run(const io::RunData& run);

  /// Edge lengths |x_b - x_a| [m] (#edges) for node positions `x` (#nodes x 3).
  std::vector<double> edge_lengths(const std::vector<double>& x) const;
  /// Discrete curvature |kappa b|_i / (Voronoi length) [1/m] at each interior node of each rod
  /// (2 tan(phi/2) / ((|e_a| + |e_b|) / 2), phi the turning angle); 0 at rod ends (#nodes).
  std::vector<double> node_curvature(const std::vector<double>& x) const;
};

}  // namespace tendril::cli
