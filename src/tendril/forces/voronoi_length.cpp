#include "tendril/forces/voronoi_length.hpp"

namespace tendril {

std::vector<double> node_voronoi_lengths(const Model& model, std::span<const int> edges) {
  std::vector<double> length(model.dofs.num_nodes, 0.0);
  auto add = [&](int e) {
    for (int n : model.rods.edges[e]) length[n] += 0.5 * model.rods.rest_length[e];
  };
  if (edges.empty())
    for (int e = 0; e < static_cast<int>(model.rods.edges.size()); ++e) add(e);
  else
    for (int e : edges) add(e);
  return length;
}

}  // namespace tendril
