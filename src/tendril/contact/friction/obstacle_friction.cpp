#include "tendril/contact/friction/obstacle_friction.hpp"

#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/friction/smooth_friction.hpp"
#include "tendril/contact/potentials/smooth_penalty.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

ObstacleFriction::ObstacleFriction(std::shared_ptr<const RigidObstacle> obstacle,
                                   ContactNodes nodes, const ContactParameters& params,
                                   ContactEdges edges)
    : obstacle_(std::move(obstacle)),
      nodes_(std::move(nodes)),
      params_(params),
      edges_(std::move(edges)) {
  params_.validate("contact.");
  TENDRIL_ASSERT(obstacle_ != nullptr, "obstacle friction needs an obstacle");
  TENDRIL_ASSERT(nodes_.nodes.size() == nodes_.radius.size(), "one contact radius per node");
  TENDRIL_ASSERT(edges_.nodes.size() == edges_.radius.size(), "one contact radius per edge");
  core_ = obstacle_->core();
}

void ObstacleFriction::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (int node : nodes_.nodes) pattern.add_stencil(model.dofs.node_dofs(node));
  if (core_.segments.empty()) return;
  for (const auto& e : edges_.nodes) {
    const auto a = model.dofs.node_dofs(e[0]), b = model.dofs.node_dofs(e[1]);
    pattern.add_stencil(std::array<int, 6>{a[0], a[1], a[2], b[0], b[1], b[2]});
  }
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
      // a named 3 x 3 block: an expression would be copied into a heap matrix to bind to the Ref
      const Mat3 block = out.dq_scale * dF_dx + out.du_scale * dF_du;
      out.jacobian->add_cached(this, k, in.model.dofs.node_dofs(nodes_.nodes[k]), block);
    }
  }
  if (!core_.segments.empty()) accumulate_edges(in, out);
}

void ObstacleFriction::accumulate_edges(const EvalInput& in, ForceOutput& out) const {
  const Vec3 shift = obstacle_->displacement(in.time), velocity = obstacle_->velocity(in.time);
  for (std::size_t e = 0; e < edges_.nodes.size(); ++e) {
    const int d0 = in.model.dofs.node(edges_.nodes[e][0]),
              d1 = in.model.dofs.node(edges_.nodes[e][1]);
    const Vec3 a0 = in.q.segment<3>(d0), a1 = in.q.segment<3>(d1);
    const double radius_sum = edges_.radius[e] + core_.radius;
    VecN<6> force = VecN<6>::Zero();
    MatN<6> jacobian = MatN<6>::Zero();
    bool any = false;
    for (const auto& segment : core_.segments) {
      const Vec3 c0 = segment[0] + shift, c1 = segment[1] + shift;
      if (!segments_within(a0, a1, c0, c1, radius_sum + params_.distance_tolerance)) continue;
      // (set by segments: GCC 12 misreads the comma initializer of 3-vectors as out of bounds)
      Vec12 x, u;
      x.segment<3>(0) = a0;
      x.segment<3>(3) = a1;
      x.segment<3>(6) = c0;
      x.segment<3>(9) = c1;
      u.segment<3>(0) = in.u.segment<3>(d0);
      u.segment<3>(3) = in.u.segment<3>(d1);
      u.segment<3>(6) = velocity;
      u.segment<3>(9) = velocity;
      const PairFriction f = imc_pair_friction(x, u, radius_sum, params_, out.jacobian != nullptr);
      if (!f.active) continue;
      any = true;
      force += f.force.head<6>();
      if (out.jacobian)
        jacobian += out.dq_scale * f.d_dx.topLeftCorner<6, 6>() +
                    out.du_scale * f.d_du.topLeftCorner<6, 6>();
    }
    if (!any) continue;
    if (out.force) {
      out.force->segment<3>(d0) += force.head<3>();
      out.force->segment<3>(d1) += force.tail<3>();
    }
    if (out.jacobian)
      out.jacobian->add_cached(this, e, std::array<int, 6>{d0, d0 + 1, d0 + 2, d1, d1 + 1, d1 + 2},
                               jacobian);
  }
}

}  // namespace tendril::contact
