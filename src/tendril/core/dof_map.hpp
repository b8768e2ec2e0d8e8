#pragma once
/// The DOF layout, written once (docs/conventions.md):
///   q = [x_0 .. x_{N-1} (3N) | theta_0 .. theta_{E-1} (E) | xi_0 .. xi_{Z-1} (Z) | theta_j_0 ..
///   theta_j_{J-1} (J)]
/// x_i are node positions [m], theta_e rod-edge twist angles [rad], xi_k the mid-edge normal
/// rotation of shell edge k [-] (mat_dismech section 2, eq. 19-20), theta_j the twist angles [rad]
/// of the shell edges at rod-shell joints that carry rod frames (mat_dismech 3.4). Use these
/// accessors, never the offsets written out.

#include <array>

namespace tendril {

struct DofMap {
  int num_nodes = 0;        ///< N
  int num_edges = 0;        ///< E (rod edges carrying a twist DOF)
  int num_shell_edges = 0;  ///< Z (shell edges carrying a mid-edge DOF xi)
  int num_joint_edges = 0;  ///< J (shell edges at rod-shell joints carrying a twist angle)

  /// First of the three DOFs of node i.
  int node(int i) const { return 3 * i; }
  /// The three DOFs of node i.
  std::array<int, 3> node_dofs(int i) const { return {3 * i, 3 * i + 1, 3 * i + 2}; }
  /// The twist DOF of edge e.
  int twist(int e) const { return 3 * num_nodes + e; }
  /// The mid-edge DOF xi of shell edge k.
  int xi(int k) const { return 3 * num_nodes + num_edges + k; }
  /// The twist DOF of joint edge j (ShellMesh::joint_edges).
  int joint_twist(int j) const { return 3 * num_nodes + num_edges + num_shell_edges + j; }
  /// True if DOF d is the twist angle of a joint edge.
  bool is_joint_twist(int d) const { return d >= joint_twist(0) && d < size(); }
  /// True if DOF d is a node position component.
  bool is_position(int d) const { return d < 3 * num_nodes; }
  /// True if DOF d is a rod-edge twist angle.
  bool is_twist(int d) const { return d >= 3 * num_nodes && d < 3 * num_nodes + num_edges; }
  /// Total number of DOFs.
  int size() const { return 3 * num_nodes + num_edges + num_shell_edges + num_joint_edges; }
};

}  // namespace tendril
