#pragma once
/// The immutable-in-a-step description of a simulated system: topology, rest configuration,
/// materials, masses, boundary conditions and the list of physical terms. Actuation changes
/// rest quantities (natural curvature / twist) between steps; nothing in Model changes within one.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tendril/core/dof_map.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class Energy;
class ForceTerm;

/// One bend-twist spring: two rod edges meeting at a node (mat_dismech 3.2, granular_flagella IV-E).
/// In a rod network an edge may point into or out of the shared node; the signs record it so the
/// spring always sees edge_a entering the node and edge_b leaving it.
struct BendTwistSpring {
  int node = -1;    ///< shared node index
  int edge_a = -1;  ///< first edge index
  int edge_b = -1;  ///< second edge index
  int sign_a = 1;   ///< +1 if edge_a points into `node`, -1 if it points out of it
  int sign_b = 1;   ///< +1 if edge_b points out of `node`, -1 if it points into it
  /// +1, or -1 if edge_a's reference and material directors enter this spring turned by pi about its
  /// tangent; set at joints so the rest reference twist lies in [-pi/2, pi/2] (docs/physics/rods.md).
  int director_sign_a = 1;
  Vec2 natural_curvature = Vec2::Zero();  ///< (kappa_bar_1, kappa_bar_2) integrated natural curvature [-]
  double natural_twist = 0.0;             ///< m_bar integrated natural twist [rad]
  double voronoi_length = 0.0;            ///< l_k = (|e_a| + |e_b|) / 2 at rest [m]
  double bend_stiffness_1 = 0.0;          ///< EI_1 [N m^2]
  double bend_stiffness_2 = 0.0;          ///< EI_2 [N m^2]
  double twist_stiffness = 0.0;           ///< GJ [N m^2]
};

/// Rods and rod networks: edges, their rest state and stiffnesses.
struct RodNetwork {
  std::vector<std::array<int, 2>> edges;  ///< (n_0, n_1) node indices, edge points n_0 -> n_1 (#edges)
  std::vector<double> rest_length;        ///< |e_bar| [m] (#edges)
  std::vector<double> stretch_stiffness;  ///< EA [N] (#edges)
  std::vector<BendTwistSpring> springs;   ///< bend-twist springs (#springs)
};

/// Prescribed values of fixed DOFs over time (a clamp that moves or rotates).
struct PrescribedMotion {
  std::vector<int> dofs;  ///< driven DOF indices (all must be fixed)
  /// Writes the values of `dofs` into q at time t [s]; q_initial holds all DOFs at t = 0.
  std::function<void(double t, const VecX& q_initial, VecX& q)> apply;
};

struct Model {
  DofMap dofs;
  VecX rest_positions;               ///< node positions of the rest (stress-free) shape [m] (3N)
  RodNetwork rods;
  VecX mass;                         ///< lumped mass per DOF: [kg] for positions, [kg m^2] for twists (#dofs)
  std::vector<std::uint8_t> fixed;   ///< 1 if the DOF is fixed (#dofs)
  std::vector<PrescribedMotion> prescribed;  ///< motions of fixed DOFs
  std::vector<std::shared_ptr<const Energy>> energies;  ///< conservative terms
  std::vector<std::shared_ptr<const ForceTerm>> forces;  ///< non-conservative / time-dependent terms
};

}  // namespace tendril
