#pragma once
/// Builds a Model of rods and rod networks from nodes, edges and materials (mat_dismech
/// 2, 3.1, 3.2; joints: granular_flagella IV-E). Conventions and choices:
/// docs/physics/rods.md#building-a-model.
///
/// - Bend-twist springs: one per pair of consecutive edges at a node with two edges; at a joint
/// node
///   where n >= 3 edges meet, one spring per pair of edges (n (n - 1) / 2 springs), each with its
///   own edge orientation signs (BendTwistSpring::sign_a / sign_b). Springs whose rest reference
///   twist would exceed pi/2 in magnitude get director_sign_a = -1, so their directors stay
///   aligned.
/// - Spring stiffnesses are the mean of the two edges' EI_1, EI_2, GJ; l_k = (|e_bar_a| +
/// |e_bar_b|) / 2.
/// - Lumped masses: each node gets half the mass rho A |e_bar| of every adjacent edge; each twist
/// DOF
///   the rotational inertia of its edge about its axis, rho (I_1 + I_2) |e_bar| [kg m^2]
///   (= m r^2 / 2 for a circular section).

#include <array>
#include <optional>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/types.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril {

/// Material and cross-section of rod edges. Give shear_modulus or poisson_ratio (not both), and
/// radius or the explicit section (area, inertia_1, inertia_2, torsion_constant).
struct RodMaterial {
  double youngs_modulus = 0.0;          ///< E [Pa], > 0
  std::optional<double> shear_modulus;  ///< G [Pa], > 0
  std::optional<double> poisson_ratio;  ///< nu [-] in (-1, 0.5]; G = E / (2 (1 + nu))
  double density = 0.0;                 ///< rho [kg/m^3], > 0
  std::optional<double>
      radius;  ///< r [m] of a circular section: A = pi r^2, I = pi r^4/4, J = pi r^4/2
  std::optional<double> area;              ///< A [m^2]
  std::optional<double> inertia_1;         ///< I_1 [m^4], paired with kappa_1 (bending about m_2)
  std::optional<double> inertia_2;         ///< I_2 [m^4], paired with kappa_2 (bending about m_1)
  std::optional<double> torsion_constant;  ///< J [m^4]
};

/// Replaces stiffnesses of one edge (EA; its EI and GJ enter the springs touching it through the
/// mean) or of every spring at one node. Exactly one of edge / node is set.
struct StiffnessOverride {
  int edge = -1;                            ///< edge index, or -1
  int node = -1;                            ///< node index, or -1
  std::optional<double> stretch_stiffness;  ///< EA [N] (edge only)
  std::optional<double> bend_stiffness;     ///< EI [N m^2], both axes
  std::optional<double> twist_stiffness;    ///< GJ [N m^2]
};

/// What the rest (stress-free) shape's curvature and twist are.
enum class NaturalShape {
  from_geometry,  ///< the given node positions with zero twist angles are stress-free
  straight,  ///< zero natural curvature and twist (pre-stressed unless the geometry is straight)
};

struct RodNetworkInput {
  std::vector<Vec3> nodes;                ///< x_i [m] (N)
  std::vector<std::array<int, 2>> edges;  ///< 0-based node indices, e = x_{n1} - x_{n0} (E)
  std::vector<RodMaterial> materials;     ///< at least one
  std::vector<int> edge_material;  ///< material index per edge (E), empty: all use materials[0]
  std::vector<StiffnessOverride> overrides;
  NaturalShape natural_shape = NaturalShape::from_geometry;
  /// Initial material director hints (#edges, or empty; zero entries: none):
  /// RodNetwork::initial_director_hint
  std::vector<Vec3> initial_director_hint;
};

/// Validates `input` (throws InputError naming the offending key, e.g. "edges[3][1]") and builds
/// the Model: DofMap, rest positions, rest lengths, stiffnesses, springs, masses, an all-free
/// `fixed`, and StretchEnergy + BendTwistEnergy in Model::energies.
Model build_rod_model(const RodNetworkInput& input);

/// q of the rest shape: rest positions and zero twist angles (#dofs).
VecX rest_configuration(const Model& model);

/// The kinematics of the rest shape q_rest once `springs` (the model's own: its rod springs, or its
/// rod-shell joint springs, the first at index `first` of the reference twists) are oriented:
/// springs closing a loop at a joint may start with a reference twist near pi, where the averaged
/// directors (m_2^a + m_2^b) cancel and the spring loses its bending stiffness, so edge_a's frame
/// is turned by pi (director_sign_a = -1) in each spring whose rest reference twist is beyond pi/2
/// (the two orientation conventions of mat_dismech 3.2 / granular_flagella IV-E).
Kinematics orient_rest_springs(const Model& model, const VecX& q_rest,
                               std::vector<BendTwistSpring>& springs, std::size_t first);

}  // namespace tendril
