#pragma once
/// Contact of rod nodes with a rigid obstacle (the ground is a half-space): for each node i,
///   g_i = phi(x_i, t) - r_i,   E = k_c sum_i b(g_i)                      (mat_dismech eq. 25-26)
///   dE/dx_i = k_c b'(g_i) n_i,   d2E/dx_i2 = k_c (b''(g_i) n_i n_i^T + b'(g_i) d2phi/dx2),
/// with b the smooth penalty of eq. 21 (potentials/smooth_penalty.hpp), n_i = dphi/dx and r_i the
/// contact radius of the node [m] (0 reproduces the paper's node-based ground). Edges: for each
/// contact edge e and segment c of the obstacle's core (ObstacleCore: a sphere's centre, a
/// capsule's axis, a box's edges), g = Delta(e, c) - r_e - R with the segment distance Delta, E =
/// k_c b(g), so an obstacle thinner than an edge cannot pass between two nodes. Every Newton step
/// is limited by a continuous collision check of the nodes and the edges against the obstacle.
/// docs/physics/contact.md, "Obstacles" and "No tunnelling".

#include <memory>
#include <vector>

#include "tendril/contact/contact_parameters.hpp"
#include "tendril/contact/obstacles/rigid_obstacle.hpp"
#include "tendril/contact/self_contact.hpp"

namespace tendril::contact {

/// The nodes that touch an obstacle and their contact radii.
struct ContactNodes {
  std::vector<int> nodes;      ///< node indices (#contact nodes)
  std::vector<double> radius;  ///< r_i, contact radius of each node [m] (#contact nodes)
};

/// False when the bounding spheres of the segments [a0, a1] and [c0, c1] [m] are `reach` [m] or
/// more apart: no point of one is within reach of the other.
bool segments_within(const Vec3& a0, const Vec3& a1, const Vec3& c0, const Vec3& c1, double reach);

class ObstacleContact final : public ContactEnergy {
 public:
  /// Throws InputError if the parameters are out of range or a radius is negative. `edges` (their
  /// nodes among `nodes`) take part through the obstacle's core; collision_check: limit Newton
  /// steps by the continuous collision check (max_step_fraction).
  ObstacleContact(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes,
                  const ContactParameters& params, ContactEdges edges = {},
                  bool collision_check = true);

  std::string_view name() const override { return "obstacle_contact"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  /// The smallest gap of a node (phi - r_i) or an edge (the exact distance of the segment, min phi
  /// along it, minus r_e) and the number of nodes and edges with gap < delta.
  ContactStatistics statistics(const Model& model, const VecX& q, double time) const override;
  /// Conservative advancement of every node (phi) and every edge (min phi along it) against the
  /// obstacle moving from d(t_start) to d(t_end): the largest fraction over which none of phi +
  /// depth falls below kCollisionKeep of its starting value, depth = min(delta, inradius / 2) (a
  /// centre line may sink that far, never through); 1 for a half-space or when the check is off.
  double max_step_fraction(const Model& model, const VecX& q, const VecX& dq, double t_start,
                           double t_end) const override;

  /// A Newton step may shrink a node's or edge's distance to the obstacle to this fraction, no
  /// less.
  static constexpr double kCollisionKeep = 0.1;

  const RigidObstacle& obstacle() const { return *obstacle_; }
  const ContactNodes& nodes() const { return nodes_; }
  const ContactEdges& edges() const { return edges_; }
  const ContactParameters& parameters() const { return params_; }

 private:
  /// Energy of the edges against the core at time t; adds to out like accumulate().
  void accumulate_edges(const EvalInput& in, EnergyOutput& out) const;
  /// The edge's node positions a0, a1 [m] in q.
  std::array<Vec3, 2> edge_ends(const Model& model, const VecX& q, std::size_t e) const;

  std::shared_ptr<const RigidObstacle> obstacle_;
  ContactNodes nodes_;
  ContactParameters params_;
  ContactEdges edges_;
  ObstacleCore core_;
  bool collision_check_;
};

}  // namespace tendril::contact
