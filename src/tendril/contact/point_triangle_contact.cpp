#include "tendril/contact/point_triangle_contact.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "tendril/contact/ccd/point_triangle_ccd.hpp"
#include "tendril/contact/contact_graph.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {
namespace {

double pair_distance(const Vec12& x) {
  return point_triangle_closest_point(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9)).distance;
}

std::vector<double> margins(const std::vector<double>& radius, double distance_tolerance, const char* what) {
  std::vector<double> out(radius.size());
  for (std::size_t k = 0; k < radius.size(); ++k) {
    if (!(radius[k] >= 0.0) || !std::isfinite(radius[k]))
      throw InputError(what, std::to_string(radius[k]), "a radius >= 0 [m]");
    out[k] = radius[k] + 0.5 * distance_tolerance;
  }
  return out;
}

}  // namespace

PairContact imc_point_triangle_contact(const Vec12& x, double radius_sum, const ContactParameters& params,
                                       bool with_hessian) {
  const PointTriangleDistance d =
      point_triangle_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), with_hessian);
  return imc_contact(d.closest.distance, d.gradient, d.hessian, radius_sum, params, with_hessian);
}

PointTriangleFinder::PointTriangleFinder(ContactNodes points, ContactTriangles triangles,
                                         const std::vector<std::array<int, 2>>& graph_edges,
                                         double distance_tolerance, const VecX& q_initial)
    : points_(std::move(points)), triangles_(std::move(triangles)) {
  TENDRIL_ASSERT(points_.nodes.size() == points_.radius.size(), "one contact radius per node");
  TENDRIL_ASSERT(triangles_.nodes.size() == triangles_.radius.size(), "one contact radius per triangle");
  point_margin_ = margins(points_.radius, distance_tolerance, "contact_radius");
  triangle_margin_ = margins(triangles_.radius, distance_tolerance, "contact_radius");
  // pairs within delta of touching at the start whose node is joined to the triangle through at
  // most two edges never interact (neighbours in a mesh finer than its thickness, joints)
  const ContactGraph graph(graph_edges);
  std::vector<EdgePair> near;
  find(q_initial, near);
  for (const EdgePair& p : near) {
    const double gap = pair_distance(stencil(q_initial, p)) - radius_sum(p);
    const auto& t = triangles_.nodes[p.b];
    if (gap < distance_tolerance && graph.near({points_.nodes[p.a]}, {t[0], t[1], t[2]})) excluded_.push_back(p);
  }
}

void PointTriangleFinder::find(const VecX& q, std::vector<EdgePair>& pairs, double extra) const {
  point_grown_.resize(point_margin_.size());
  triangle_grown_.resize(triangle_margin_.size());
  for (std::size_t k = 0; k < point_margin_.size(); ++k) point_grown_[k] = point_margin_[k] + 0.5 * extra;
  for (std::size_t k = 0; k < triangle_margin_.size(); ++k) triangle_grown_[k] = triangle_margin_[k] + 0.5 * extra;
  broad_phase_.find_point_triangle_pairs(q, points_.nodes, point_grown_, triangles_.nodes, triangle_grown_, found_);
  pairs.clear();
  std::set_difference(found_.begin(), found_.end(), excluded_.begin(), excluded_.end(), std::back_inserter(pairs));
}

std::array<int, 12> PointTriangleFinder::stencil_dofs(const EdgePair& pair) const {
  std::array<int, 12> dofs;
  const auto& t = triangles_.nodes[pair.b];
  const int nodes[4] = {points_.nodes[pair.a], t[0], t[1], t[2]};
  for (int k = 0; k < 4; ++k)
    for (int c = 0; c < 3; ++c) dofs[3 * k + c] = 3 * nodes[k] + c;
  return dofs;
}

Vec12 PointTriangleFinder::stencil(const VecX& q, const EdgePair& pair) const {
  Vec12 x;
  const std::array<int, 12> dofs = stencil_dofs(pair);
  for (int k = 0; k < 12; ++k) x[k] = q[dofs[k]];
  return x;
}

PointTriangleContact::PointTriangleContact(ContactNodes points, ContactTriangles triangles,
                                           const std::vector<std::array<int, 2>>& graph_edges,
                                           const ContactParameters& params, const VecX& q_initial,
                                           bool collision_check)
    : finder_((params.validate("contact."), std::move(points)), std::move(triangles), graph_edges,
              params.distance_tolerance, q_initial),
      params_(params),
      last_update_time_(std::numeric_limits<double>::quiet_NaN()),
      collision_check_(collision_check) {
  // candidates for the first step: the motion allowance is delta until a step has been seen
  finder_.find(q_initial, candidates_, params_.distance_tolerance);
}

bool PointTriangleContact::update_stencils(const Model& model, const State& state) const {
  finder_.find(state.q, scratch_,
               step_motion_allowance(model, state, params_.distance_tolerance, last_update_time_));
  if (scratch_ == candidates_) return false;
  candidates_.swap(scratch_);
  return true;
}

double PointTriangleContact::max_step_fraction(const Model& model, const VecX& q, const VecX& dq) const {
  if (!collision_check_) return 1.0;
  // the pairs that can meet during the step: each box grown by the largest node displacement
  double reach = 0.0;
  for (int n : finder_.points().nodes) reach = std::max(reach, dq.segment<3>(model.dofs.node(n)).norm());
  for (const auto& t : finder_.triangles().nodes)
    for (int n : t) reach = std::max(reach, dq.segment<3>(model.dofs.node(n)).norm());
  if (reach == 0.0) return 1.0;
  finder_.find(q, pairs_, 2.0 * reach);
  double fraction = 1.0;
  for (const EdgePair& pair : pairs_)
    fraction = std::min(fraction, point_triangle_collision_free_fraction(finder_.stencil(q, pair), finder_.stencil(dq, pair),
                                                                         SelfContact::kCollisionKeep, fraction));
  return fraction;
}

void PointTriangleContact::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const EdgePair& pair : candidates_) {
    const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
    TENDRIL_ASSERT(*std::max_element(dofs.begin(), dofs.end()) < 3 * model.dofs.num_nodes,
                   "contact node out of range");
    pattern.add_stencil(dofs);
  }
}

void PointTriangleContact::accumulate(const EvalInput& in, EnergyOutput& out) const {
  finder_.find(in.q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const PairContact c =
        imc_point_triangle_contact(finder_.stencil(in.q, pair), finder_.radius_sum(pair), params_, out.hessian != nullptr);
    if (c.energy == 0.0 && c.gradient.isZero(0.0)) continue;
    out.energy += c.energy;
    const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
    if (out.gradient)
      for (int k = 0; k < 12; ++k) (*out.gradient)[dofs[k]] += c.gradient[k];
    if (out.hessian) {
      if (std::binary_search(candidates_.begin(), candidates_.end(), pair))
        out.hessian->add(dofs, c.hessian);
      else
        ++missed_;
    }
  }
}

ContactStatistics PointTriangleContact::statistics(const Model&, const VecX& q, double) const {
  ContactStatistics stats;
  finder_.find(q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const double gap = pair_distance(finder_.stencil(q, pair)) - finder_.radius_sum(pair);
    stats.min_gap = std::min(stats.min_gap, gap);
    if (gap < params_.distance_tolerance) ++stats.active;
  }
  return stats;
}

}  // namespace tendril::contact
