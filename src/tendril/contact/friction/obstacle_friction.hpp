#pragma once
/// Coulomb friction between rod nodes and a rigid obstacle (mat_dismech sec. 5.2 with eq. 23):
///   F_i = -mu f_i h(v_i),   f_i = -k_c b'(g_i) (the node's normal force [N]),
///   v_i = (I - n_i n_i^T)(u_i - V(t))   (tangential slip of the node against the obstacle [m/s]),
/// with h the smooth friction direction (smooth_friction.hpp), n_i = dphi/dx at x_i and V the
/// obstacle's velocity. Jacobians:
///   dF_i/du_i = -mu f_i dh/dv P,
///   dF_i/dx_i = -mu ( -k_c b'' h n^T - f_i dh/dv ((n . w) H + n w^T H) ),  w = u_i - V, H =
///   d2phi/dx2.
/// Not symmetric. docs/physics/contact.md, "Friction".

#include <memory>

#include "tendril/contact/obstacle_contact.hpp"

namespace tendril::contact {

class ObstacleFriction final : public ForceTerm {
 public:
  /// The same obstacle, nodes and parameters as the ObstacleContact it belongs to; params.friction
  /// is mu.
  ObstacleFriction(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes,
                   const ContactParameters& params);

  std::string_view name() const override { return "obstacle_friction"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return false; }

 private:
  std::shared_ptr<const RigidObstacle> obstacle_;
  ContactNodes nodes_;
  ContactParameters params_;
};

}  // namespace tendril::contact
