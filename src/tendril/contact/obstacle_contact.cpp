#include "tendril/contact/obstacle_contact.hpp"

#include <cmath>

#include "tendril/contact/potentials/smooth_penalty.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

ObstacleContact::ObstacleContact(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes,
                                 const ContactParameters& params)
    : obstacle_(std::move(obstacle)), nodes_(std::move(nodes)), params_(params) {
  params_.validate("contact.");
  TENDRIL_ASSERT(obstacle_ != nullptr, "obstacle contact needs an obstacle");
  TENDRIL_ASSERT(nodes_.nodes.size() == nodes_.radius.size(), "one contact radius per node");
  for (double r : nodes_.radius)
    if (!(r >= 0.0) || !std::isfinite(r)) throw InputError("contact_radius", std::to_string(r), "a radius >= 0 [m]");
}

void ObstacleContact::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (int node : nodes_.nodes) {
    TENDRIL_ASSERT(node >= 0 && node < model.dofs.num_nodes, "contact node out of range");
    pattern.add_stencil(model.dofs.node_dofs(node));
  }
}

void ObstacleContact::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const double kc = params_.stiffness;
  for (std::size_t k = 0; k < nodes_.nodes.size(); ++k) {
    const int d = in.model.dofs.node(nodes_.nodes[k]);
    const SurfaceDistance phi = obstacle_->distance(in.q.segment<3>(d), in.time);
    const PenaltyValue b = smooth_penalty(phi.distance - nodes_.radius[k], params_.distance_tolerance);
    if (b.value == 0.0 && b.slope == 0.0) continue;
    out.energy += kc * b.value;
    if (out.gradient) out.gradient->segment<3>(d) += kc * b.slope * phi.normal;
    if (out.hessian) {
      const Mat3 local = kc * (b.curvature * phi.normal * phi.normal.transpose() + b.slope * phi.hessian);
      out.hessian->add_cached_symmetric(this, k, in.model.dofs.node_dofs(nodes_.nodes[k]), local);
    }
  }
}

ContactStatistics ObstacleContact::statistics(const Model& model, const VecX& q, double time) const {
  ContactStatistics stats;
  for (std::size_t k = 0; k < nodes_.nodes.size(); ++k) {
    const double gap = obstacle_->distance(q.segment<3>(model.dofs.node(nodes_.nodes[k])), time).distance -
                       nodes_.radius[k];
    stats.min_gap = std::min(stats.min_gap, gap);
    if (gap < params_.distance_tolerance) ++stats.active;
  }
  return stats;
}

}  // namespace tendril::contact
