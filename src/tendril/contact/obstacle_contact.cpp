#include "tendril/contact/obstacle_contact.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/contact/ccd/additive_ccd.hpp"
#include "tendril/contact/potentials/smooth_penalty.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

bool segments_within(const Vec3& a0, const Vec3& a1, const Vec3& c0, const Vec3& c1, double reach) {
  return (0.5 * (a0 + a1 - c0 - c1)).norm() - 0.5 * ((a1 - a0).norm() + (c1 - c0).norm()) < reach;
}

ObstacleContact::ObstacleContact(std::shared_ptr<const RigidObstacle> obstacle, ContactNodes nodes,
                                 const ContactParameters& params, ContactEdges edges,
                                 bool collision_check)
    : obstacle_(std::move(obstacle)),
      nodes_(std::move(nodes)),
      params_(params),
      edges_(std::move(edges)),
      collision_check_(collision_check) {
  params_.validate("contact.");
  TENDRIL_ASSERT(obstacle_ != nullptr, "obstacle contact needs an obstacle");
  TENDRIL_ASSERT(nodes_.nodes.size() == nodes_.radius.size(), "one contact radius per node");
  TENDRIL_ASSERT(edges_.nodes.size() == edges_.radius.size(), "one contact radius per edge");
  for (const auto& radii : {nodes_.radius, edges_.radius})
    for (double r : radii)
      if (!(r >= 0.0) || !std::isfinite(r))
        throw InputError("contact_radius", std::to_string(r), "a radius >= 0 [m]");
  core_ = obstacle_->core();
}

void ObstacleContact::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (int node : nodes_.nodes) {
    TENDRIL_ASSERT(node >= 0 && node < model.dofs.num_nodes, "contact node out of range");
    pattern.add_stencil(model.dofs.node_dofs(node));
  }
  if (core_.segments.empty()) return;
  for (const auto& e : edges_.nodes) {
    const auto a = model.dofs.node_dofs(e[0]), b = model.dofs.node_dofs(e[1]);
    pattern.add_stencil(std::array<int, 6>{a[0], a[1], a[2], b[0], b[1], b[2]});
  }
}

void ObstacleContact::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const double kc = params_.stiffness;
  for (std::size_t k = 0; k < nodes_.nodes.size(); ++k) {
    const int d = in.model.dofs.node(nodes_.nodes[k]);
    const SurfaceDistance phi = obstacle_->distance(in.q.segment<3>(d), in.time);
    const PenaltyValue b =
        smooth_penalty(phi.distance - nodes_.radius[k], params_.distance_tolerance);
    if (b.value == 0.0 && b.slope == 0.0) continue;
    out.energy += kc * b.value;
    if (out.gradient) out.gradient->segment<3>(d) += kc * b.slope * phi.normal;
    if (out.hessian) {
      const Mat3 local =
          kc * (b.curvature * phi.normal * phi.normal.transpose() + b.slope * phi.hessian);
      out.hessian->add_cached_symmetric(this, k, in.model.dofs.node_dofs(nodes_.nodes[k]), local);
    }
  }
  if (!core_.segments.empty()) accumulate_edges(in, out);
}

std::array<Vec3, 2> ObstacleContact::edge_ends(const Model& model, const VecX& q,
                                               std::size_t e) const {
  return {q.segment<3>(model.dofs.node(edges_.nodes[e][0])),
          q.segment<3>(model.dofs.node(edges_.nodes[e][1]))};
}

void ObstacleContact::accumulate_edges(const EvalInput& in, EnergyOutput& out) const {
  const Vec3 shift = obstacle_->displacement(in.time);
  for (std::size_t e = 0; e < edges_.nodes.size(); ++e) {
    const auto [a0, a1] = edge_ends(in.model, in.q, e);
    const double reach = edges_.radius[e] + core_.radius + params_.distance_tolerance;
    VecN<6> gradient = VecN<6>::Zero();
    MatN<6> hessian = MatN<6>::Zero();
    bool any = false;
    for (const auto& segment : core_.segments) {
      const Vec3 c0 = segment[0] + shift, c1 = segment[1] + shift;
      if (!segments_within(a0, a1, c0, c1, reach)) continue;  // beyond the penalty's reach
      Vec12 x;
      x << a0, a1, c0, c1;
      const PairContact c =
          imc_pair_contact(x, edges_.radius[e] + core_.radius, params_, out.hessian != nullptr);
      if (c.energy == 0.0 && c.gradient.isZero(0.0)) continue;
      any = true;
      out.energy += c.energy;
      gradient += c.gradient.head<6>();
      if (out.hessian) hessian += c.hessian.topLeftCorner<6, 6>();
    }
    if (!any) continue;
    const int d0 = in.model.dofs.node(edges_.nodes[e][0]),
              d1 = in.model.dofs.node(edges_.nodes[e][1]);
    if (out.gradient) {
      out.gradient->segment<3>(d0) += gradient.head<3>();
      out.gradient->segment<3>(d1) += gradient.tail<3>();
    }
    if (out.hessian)
      out.hessian->add_cached_symmetric(
          this, e, std::array<int, 6>{d0, d0 + 1, d0 + 2, d1, d1 + 1, d1 + 2}, hessian);
  }
}

ContactStatistics ObstacleContact::statistics(const Model& model, const VecX& q,
                                              double time) const {
  ContactStatistics stats;
  const auto count = [&](double gap) {
    stats.min_gap = std::min(stats.min_gap, gap);
    if (gap < params_.distance_tolerance) ++stats.active;
  };
  for (std::size_t k = 0; k < nodes_.nodes.size(); ++k)
    count(obstacle_->distance(q.segment<3>(model.dofs.node(nodes_.nodes[k])), time).distance -
          nodes_.radius[k]);
  if (core_.segments.empty()) return stats;
  for (std::size_t e = 0; e < edges_.nodes.size(); ++e) {
    const auto [a0, a1] = edge_ends(model, q, e);
    count(obstacle_->segment_distance(a0, a1, time) - edges_.radius[e]);
  }
  return stats;
}

double ObstacleContact::max_step_fraction(const Model& model, const VecX& q, const VecX& dq,
                                          double t_start, double t_end) const {
  // a half-space has no far side to pass to: its penalty grows at any depth
  if (!collision_check_ || !std::isfinite(obstacle_->inradius())) return 1.0;
  const double depth = std::min(params_.distance_tolerance, 0.5 * obstacle_->inradius());
  // positions relative to the obstacle at t_start; over the step they move by dq minus its motion;
  // the distance kept is phi + depth: a centre line may sink `depth` into the obstacle, no deeper
  const Vec3 moved = obstacle_->displacement(t_end) - obstacle_->displacement(t_start);
  double fraction = 1.0;
  for (int node : nodes_.nodes) {
    const int d = model.dofs.node(node);
    const Vec3 x = q.segment<3>(d), p = dq.segment<3>(d) - moved;
    const double d0 = obstacle_->distance(x, t_start).distance + depth, rate = p.norm();
    if (!(d0 > 0.0) || rate == 0.0) continue;  // deeper already: nothing to keep
    fraction = advance_conservatively(d0, rate, kCollisionKeep, fraction, [&](double t) {
      return obstacle_->distance(x + t * p, t_start).distance + depth;
    });
  }
  for (std::size_t e = 0; e < edges_.nodes.size(); ++e) {
    const std::array<Vec3, 2> ends = edge_ends(model, q, e);
    const Vec3 &a0 = ends[0],
               &a1 = ends[1];  // (a lambda below captures them: no structured binding)
    const Vec3 p0 = dq.segment<3>(model.dofs.node(edges_.nodes[e][0])) - moved,
               p1 = dq.segment<3>(model.dofs.node(edges_.nodes[e][1])) - moved;
    const double rate = std::max(p0.norm(), p1.norm());
    if (rate == 0.0) continue;
    // a lower bound of the edge's distance from its ends' (phi is 1-Lipschitz): far edges cost no
    // search
    const double bound = 0.5 * (obstacle_->distance(a0, t_start).distance +
                                obstacle_->distance(a1, t_start).distance - (a1 - a0).norm()) +
                         depth;
    if (rate * fraction <= (1.0 - kCollisionKeep) * bound) continue;
    const double d0 = obstacle_->segment_distance(a0, a1, t_start) + depth;
    if (!(d0 > 0.0)) continue;
    fraction = advance_conservatively(d0, rate, kCollisionKeep, fraction, [&](double t) {
      return obstacle_->segment_distance(a0 + t * p0, a1 + t * p1, t_start) + depth;
    });
  }
  return fraction;
}

}  // namespace tendril::contact
