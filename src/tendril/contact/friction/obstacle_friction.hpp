#pragma once
/// Coulomb friction between rod nodes and a rigid obstacle (mat_dismech sec. 5.2 with eq. 23):
///   F_i = -mu f_i h(v_i),   f_i = -k_c b'(g_i) (the node's normal force [N]),
///   v_i = (I - n_i n_i^T)(u_i - V(t))   (tangential slip of the node against the obstacle [m/s]),
/// with h the smooth friction direction (smooth_friction.hpp), n_i = dphi/dx at x_i and V the
/// obstacle's velocity. Jacobians:
///   dF_i/du_i = -mu f_i dh/dv P,
///   dF_i/dx_i = -mu ( -k_c b'' h n^T - f_i dh/dv ((n . w) H + n w^T H) ),  w = u_i - V, H =
///   d2phi/dx2.
/// Edges against the obstacle's core (ObstacleContact) get the friction of an edge pair
/// (self_friction.hpp, eq. 23-24) with the core segment as the other edge, moving at V: the slip of
/// the edge's closest point against the core's, the normal force of the pair's penalty; the core
/// is prescribed, so only the edge's rows and columns are kept.
/// Not symmetric. docs/physics/contact.md, "Friction" and "Obstacles".

#include <memory>

#include "tendril/contact/obstacle_contact.hpp"

namespace tendril::contact {

class ObstacleFriction final : public ForceTerm {
 public:
  /// The same obstacle, nodes, edges and parameters as the ObstacleContact it belongs to;
  /// params.friction is mu.
  ObstacleFriction(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes,
                   const ContactParameters& params, ContactEdges edges = {});

  std::string_view name() const override { return "obstacle_friction"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return false; }
  const RigidObstacle& obstacle() const { return *obstacle_; }

 private:
  /// Friction of the edges against the core; adds to out like accumulate().
  void accumulate_edges(const EvalInput& in, ForceOutput& out) const;

  std::shared_ptr<const RigidObstacle> obstacle_;
  ContactNodes nodes_;
  ContactParameters params_;
  ContactEdges edges_;
  ObstacleCore core_;
};

}  // namespace tendril::contact
