#include "tendril/contact/friction/obstacle_friction.hpp"

#include "tendril/contact/friction/smooth_friction.hpp"
#include "tendril/contact/potentials/smooth_penalty.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

ObstacleFriction::ObstacleFriction(std::shared_ptr<const RigidObstacle> obstacle,
                                   ContactNodes nodes, const ContactParameters& params)
    : obstacle_(std::move(obstacle)), nodes_(std::move(nodes)), params_(params) {
  params_.validate("contact.");
  TENDRIL_ASSERT(obstacle_ != nullptr, "obstacle friction needs an obstacle");
  TENDRIL_ASSERT(nodes_.nodes.size() == nodes_.radius.size(), "one contact radius per node");
}

void ObstacleFriction::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (int node : nodes_.nodes) pattern.add_stencil(model.dofs.node_dofs(node));
}

void ObstacleFriction::accumulate(const EvalInput& in, ForceOutput& out) const {
  const double kc = params_.stiffness, mu = params_.friction;
  if (mu == 0.0) return;
  const Vec3 obstacle_velocity = obstacle_->velocity(in.time);
  for (std::size_t k = 0; k < nodes_.nodes.size(); ++k) {
    const int d = in.model.dofs.node(nodes_.nodes[k]);
    const SurfaceDistance phi = obstacle_->distance(in.q.segment<3>(d), in.time);
    const PenaltyValue b =
        smooth_penalty(phi.distance - nodes_.radius[k], params_.distance_tolerance);
    if (b.slope == 0.0) continue;
    // normal force and tangential slip
    const double normal_force = -kc * b.slope;
    const Vec3& n = phi.normal;
    const Vec3 w = in.u.segment<3>(d) - obstacle_velocity;
    const Mat3 tangential = Mat3::Identity() - n * n.transpose();
    const FrictionDirection fd = smooth_friction_direction(tangential * w, params_.slip_tolerance);
    if (out.force) out.force->segment<3>(d) -= mu * normal_force * fd.h;
    if (out.jacobian) {
      const Mat3 dv_dx = -(n.dot(w) * phi.hessian + n * (w.transpose() * phi.hessian));
      const Mat3 dF_dx =
          -mu * (-kc * b.curvature * fd.h * n.transpose() + normal_force * fd.dh_dv * dv_dx);
      const Mat3 dF_du = -mu * normal_force * fd.dh_dv * tangential;
      out.jacobian->add_cached(this, k, in.model.dofs.node_dofs(nodes_.nodes[k]),
                               out.dq_scale * dF_dx + out.du_scale * dF_du);
    }
  }
}

}  // namespace tendril::contact
