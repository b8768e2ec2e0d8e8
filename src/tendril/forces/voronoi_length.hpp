#pragma once
/// Voronoi (tributary) length of nodes: half the rest length of every edge touching the node,
///   Delta l_i = 1/2 sum_{e ni i} |e_bar^e|   [m]
/// (mat_dismech eq. 27, granular_flagella eq. 9). Used by the per-node media forces.

#include <span>
#include <vector>

#include "tendril/core/model.hpp"

namespace tendril {

/// Delta l_i [m] of every node (#nodes), counting only the rod edges listed in `edges` (all rod
/// edges when `edges` is empty). Rest lengths are read from model.rods.rest_length.
std::vector<double> node_voronoi_lengths(const Model& model, std::span<const int> edges = {});

}  // namespace tendril
