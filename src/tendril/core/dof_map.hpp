#pragma once
/// The DOF layout, written once (docs/conventions.md):
///   q = [x_0 .. x_{N-1} (3N) | theta_0 .. theta_{E-1} (E) | shell-edge DOFs (Z, later)]
/// x_i are node positions [m], theta_e edge twist angles [rad].

#include <array>

namespace tendril {

struct DofMap {
  int num_nodes = 0;  ///< N
  int num_edges = 0;  ///< E (rod edges carrying a twist DOF)

  /// First of the three DOFs of node i.
  int node(int i) const { return 3 * i; }
  /// The three DOFs of node i.
  std::array<int, 3> node_dofs(int i) const { return {3 * i, 3 * i + 1, 3 * i + 2}; }
  /// The twist DOF of edge e.
  int twist(int e) const { return 3 * num_nodes + e; }
  /// Total number of DOFs.
  int size() const { return 3 * num_nodes + num_edges; }
};

}  // namespace tendril
