#pragma once
/// Contact of rod nodes with a rigid obstacle (the ground is a half-space): for each node i,
///   g_i = phi(x_i, t) - r_i,   E = k_c sum_i b(g_i)                      (mat_dismech eq. 25-26)
///   dE/dx_i = k_c b'(g_i) n_i,   d2E/dx_i2 = k_c (b''(g_i) n_i n_i^T + b'(g_i) d2phi/dx2),
/// with b the smooth penalty of eq. 21 (potentials/smooth_penalty.hpp), n_i = dphi/dx and r_i the
/// contact radius of the node [m] (0 reproduces the paper's node-based ground). The obstacle acts on
/// nodes only: an obstacle thinner than an edge can pass between two nodes.
/// docs/physics/contact.md, "Obstacles".

#include <memory>
#include <vector>

#include "tendril/contact/contact_parameters.hpp"
#include "tendril/contact/obstacles/rigid_obstacle.hpp"

namespace tendril::contact {

/// The nodes that touch an obstacle and their contact radii.
struct ContactNodes {
  std::vector<int> nodes;       ///< node indices (#contact nodes)
  std::vector<double> radius;   ///< r_i, contact radius of each node [m] (#contact nodes)
};

class ObstacleContact final : public ContactEnergy {
 public:
  /// Throws InputError if the parameters are out of range or a radius is negative.
  ObstacleContact(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes, const ContactParameters& params);

  std::string_view name() const override { return "obstacle_contact"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  ContactStatistics statistics(const Model& model, const VecX& q, double time) const override;

  const RigidObstacle& obstacle() const { return *obstacle_; }
  const ContactNodes& nodes() const { return nodes_; }
  const ContactParameters& parameters() const { return params_; }

 private:
  std::shared_ptr<const RigidObstacle> obstacle_;
  ContactNodes nodes_;
  ContactParameters params_;
};

}  // namespace tendril::contact
