#pragma once
/// The immutable-in-a-step description of a simulated system: topology, rest configuration,
/// materials, masses, boundary conditions and the list of physical terms. Actuators
/// (core/actuator.hpp) schedule rest quantities in time; the solvers apply them to their own copy
/// of the rod data.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "tendril/core/dof_map.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class Actuator;
class Energy;
class ForceTerm;

/// One bend-twist spring: two rod edges meeting at a node (mat_dismech 3.2, granular_flagella
/// IV-E). In a rod network an edge may point into or out of the shared node; the signs record it so
/// the spring always sees edge_a entering the node and edge_b leaving it.
struct BendTwistSpring {
  int node = -1;    ///< shared node index
  int edge_a = -1;  ///< first edge index
  int edge_b = -1;  ///< second edge index
  int sign_a = 1;   ///< +1 if edge_a points into `node`, -1 if it points out of it
  int sign_b = 1;   ///< +1 if edge_b points out of `node`, -1 if it points into it
  /// +1, or -1 if edge_a's reference and material directors enter this spring turned by pi about
  /// its tangent; set at joints so the rest reference twist lies in [-pi/2, pi/2]
  /// (docs/physics/rods.md).
  int director_sign_a = 1;
  Vec2 natural_curvature =
      Vec2::Zero();               ///< (kappa_bar_1, kappa_bar_2) integrated natural curvature [-]
  double natural_twist = 0.0;     ///< m_bar integrated natural twist [rad]
  double voronoi_length = 0.0;    ///< l_k = (|e_a| + |e_b|) / 2 at rest [m]
  double bend_stiffness_1 = 0.0;  ///< EI_1 [N m^2]
  double bend_stiffness_2 = 0.0;  ///< EI_2 [N m^2]
  double twist_stiffness = 0.0;   ///< GJ [N m^2]
};

/// Rods and rod networks: edges, their rest state and stiffnesses.
struct RodNetwork {
  std::vector<std::array<int, 2>>
      edges;                        ///< (n_0, n_1) node indices, edge points n_0 -> n_1 (#edges)
  std::vector<double> rest_length;  ///< |e_bar| [m] (#edges)
  std::vector<double> stretch_stiffness;  ///< EA [N] (#edges)
  std::vector<BendTwistSpring> springs;   ///< bend-twist springs (#springs)
  /// (EI_1, EI_2, GJ) [N m^2] of each edge's section after overrides, the stiffness its joint
  /// springs with shell edges take (mat_dismech 3.4) (#edges)
  std::vector<Vec3> bend_twist_stiffness;
  /// Initial material director hints (#edges, or empty): a non-zero entry u makes its edge a seed
  /// of the frames at t = 0, with a_1 = u projected onto the plane normal to the edge
  /// (initialize_frames; docs/conventions.md#material-frame-at-t--0).
  std::vector<Vec3> initial_director_hint;
};

/// One hinge spring of a shell: two triangles sharing a shell edge (mat_dismech 3.3.1, eq. 17).
struct ShellHinge {
  /// (x_0, x_1) the hinge edge, x_2 the third node of the triangle that runs x_0 -> x_1, x_3 the
  /// third node of the other triangle (docs/physics/shells.md#hinge-bending)
  std::array<int, 4> nodes{};
  double stiffness = 0.0;  ///< k_b [N m]
  double natural_angle =
      0.0;  ///< phi_bar natural dihedral angle [rad]; may change between steps (actuation)
};

/// One membrane spring on a shell edge (mat_dismech 3.1, eq. 10).
struct ShellEdgeSpring {
  int edge = -1;             ///< shell edge index
  double rest_length = 0.0;  ///< |e_bar| [m]
  double stiffness = 0.0;    ///< k_s [N]
};

/// One constant-strain triangle of a St. Venant-Kirchhoff membrane
/// (docs/physics/shells.md#cst-membrane).
struct MembraneTriangle {
  int triangle = -1;
  Eigen::Matrix2d rest_shape_inverse =
      Eigen::Matrix2d::Identity();  ///< D_m^{-1} of the rest edges in a local orthonormal basis
                                    ///< [1/m]
  double rest_area = 0.0;           ///< A_bar [m^2]
  double thickness = 0.0;           ///< h [m]
  double lame_mu = 0.0;             ///< mu = E / (2 (1 + nu)) [Pa]
  double lame_lambda = 0.0;         ///< plane-stress lambda = E nu / (1 - nu^2) [Pa]
};

/// One triangle of mid-edge normal bending (mat_dismech 3.3.2, eqs. 19-20;
/// docs/physics/shells.md#mid-edge-bending). Edge k of the triangle is the one opposite its node k.
struct MidEdgeTriangle {
  int triangle = -1;
  std::array<int, 3> xi{};  ///< index in the xi block of edge k (DofMap::xi)
  Vec3 edge_sign =
      Vec3::Ones();  ///< s^k: +1 if the triangle runs edge k along its shell-edge direction
  Vec3 coefficient = Vec3::Zero();  ///< c^k = 1 / (A_bar |e_bar^k| (t_bar^k . tau_bar^k)) [1/m^3]
  Vec3 natural_weight =
      Vec3::Zero();  ///< w_bar^k = c^k (s^k xi_bar^k - f_bar^k) of the rest shape [1/m^3]
  /// G_ij = (1 - nu) (t_bar^i . t_bar^j)^2 + nu |t_bar^i|^2 |t_bar^j|^2 [m^4], the rest metric of
  /// eq. 20
  Mat3 metric = Mat3::Zero();
  double stiffness = 0.0;  ///< k_b A_bar = E h^3 A_bar / (24 (1 - nu^2)) [N m^3]
};

/// Thin shells: triangles, shell edges, and the stencils of the shell energies (mat_dismech
/// 2, 3.1, 3.3).
struct ShellMesh {
  std::vector<std::array<int, 3>> triangles;  ///< (x_0, x_1, x_2) node indices (#triangles)
  std::vector<std::array<int, 2>> edges;      ///< shell edge (n_0, n_1), n_0 < n_1 (#shell edges)
  std::vector<std::array<int, 2>>
      edge_triangles;  ///< the triangles sharing each edge, -1 if none (#shell edges)
  std::vector<std::array<int, 3>>
      triangle_edges;        ///< shell edge opposite node k of each triangle (#triangles)
  std::vector<int> edge_xi;  ///< xi index of each shell edge, -1 if it has none (#shell edges)
  std::vector<int> xi_edge;  ///< shell edge of each xi (Z)
  std::vector<ShellHinge> hinges;                    ///< hinge springs (#hinges)
  std::vector<ShellEdgeSpring> edge_springs;         ///< membrane springs (#springs)
  std::vector<MembraneTriangle> membrane_triangles;  ///< CST membrane triangles
  std::vector<MidEdgeTriangle> midedge_triangles;    ///< mid-edge bending triangles
  /// Shell edges that carry rod frames at rod-shell joints (mat_dismech 3.4): (n_0, n_1) as the
  /// shell edge, each with a twist DOF (DofMap::joint_twist). As framed edges they are numbered
  /// after the rod edges (J).
  std::vector<std::array<int, 2>> joint_edges;
  /// Bend-twist springs of the rod-shell joints; edge_a / edge_b are framed-edge indices (rod edges
  /// first, then E + j for joint edge j) (docs/physics/shells.md#rod-shell-joints)
  std::vector<BendTwistSpring> joint_springs;
};

/// Prescribed values of fixed DOFs over time (a clamp that moves or rotates).
struct PrescribedMotion {
  std::vector<int> dofs;  ///< driven DOF indices (all must be fixed)
  /// Writes the values of `dofs` into q at time t [s]; q_initial holds all DOFs at t = 0.
  std::function<void(double t, const VecX& q_initial, VecX& q)> apply;
};

struct Model {
  DofMap dofs;
  VecX rest_positions;  ///< node positions of the rest (stress-free) shape [m] (3N)
  RodNetwork rods;
  ShellMesh shells;
  VecX mass;  ///< lumped mass per DOF: [kg] for positions, [kg m^2] for twists (#dofs)
  std::vector<std::uint8_t> fixed;                      ///< 1 if the DOF is fixed (#dofs)
  std::vector<PrescribedMotion> prescribed;             ///< motions of fixed DOFs
  std::vector<std::shared_ptr<const Energy>> energies;  ///< conservative terms
  std::vector<std::shared_ptr<const ForceTerm>>
      forces;  ///< non-conservative / time-dependent terms
  /// schedules of rest quantities, applied by the solvers at each solve's time (core/actuator.hpp)
  std::vector<std::shared_ptr<const Actuator>> actuators;
};

/// Framed edges (edges with a reference frame and a twist angle): the rod edges, then the joint
/// edges.
inline std::size_t framed_edge_count(const Model& model) {
  return model.rods.edges.size() + model.shells.joint_edges.size();
}
/// Nodes (n_0, n_1) of framed edge f; the edge points n_0 -> n_1.
inline const std::array<int, 2>& framed_edge_nodes(const Model& model, int f) {
  const auto e = static_cast<std::size_t>(f);
  const std::size_t rods = model.rods.edges.size();
  return e < rods ? model.rods.edges[e] : model.shells.joint_edges[e - rods];
}
/// The twist DOF of framed edge f.
inline int framed_edge_twist(const Model& model, int f) {
  const int rods = static_cast<int>(model.rods.edges.size());
  return f < rods ? model.dofs.twist(f) : model.dofs.joint_twist(f - rods);
}
/// Bend-twist springs: the rod springs, then the joint springs.
inline std::size_t framed_spring_count(const Model& model) {
  return model.rods.springs.size() + model.shells.joint_springs.size();
}
inline const BendTwistSpring& framed_spring(const Model& model, std::size_t k) {
  const std::size_t rods = model.rods.springs.size();
  return k < rods ? model.rods.springs[k] : model.shells.joint_springs[k - rods];
}

}  // namespace tendril
