#include "tendril/contact/self_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tendril/contact/contact_graph.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

PairContact imc_contact(double distance, const Vec12& gradient, const Mat12& hessian, double radius_sum,
                        const ContactParameters& params, bool with_hessian) {
  PairContact out;
  out.gap = distance - radius_sum;
  const PenaltyValue b = smooth_penalty(out.gap, params.distance_tolerance);
  if (b.value == 0.0 && b.slope == 0.0) return out;
  const double kc = params.stiffness;
  out.energy = kc * b.value;
  out.gradient = kc * b.slope * gradient;
  if (with_hessian) out.hessian = kc * (b.curvature * gradient * gradient.transpose() + b.slope * hessian);
  return out;
}

PairContact imc_pair_contact(const Vec12& x, double radius_sum, const ContactParameters& params, bool with_hessian) {
  const EdgeEdgeDistance d =
      edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), with_hessian);
  return imc_contact(d.closest.distance, d.gradient, d.hessian, radius_sum, params, with_hessian);
}

PairFinder::PairFinder(ContactEdges edges, double distance_tolerance, const VecX& q_initial) : edges_(std::move(edges)) {
  TENDRIL_ASSERT(edges_.nodes.size() == edges_.radius.size(), "one contact radius per edge");
  margin_.resize(edges_.nodes.size());
  for (std::size_t e = 0; e < margin_.size(); ++e) {
    if (!(edges_.radius[e] >= 0.0) || !std::isfinite(edges_.radius[e]))
      throw InputError("contact_radius", std::to_string(edges_.radius[e]), "a radius >= 0 [m]");
    margin_[e] = edges_.radius[e] + 0.5 * distance_tolerance;
  }
  // pairs within delta of touching at the start whose edges are joined by at most two other edges
  // never interact (neighbours at joints and along rods with edges shorter than their diameter)
  const ContactGraph graph(edges_.nodes);
  const auto near_in_graph = [&](const EdgePair& p) {
    return graph.near({edges_.nodes[p.a][0], edges_.nodes[p.a][1]}, {edges_.nodes[p.b][0], edges_.nodes[p.b][1]});
  };
  std::vector<EdgePair> near;
  find(q_initial, near);
  for (const EdgePair& p : near) {
    const Vec12 x = stencil(q_initial, p);
    const double gap = edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), false)
                           .closest.distance -
                       edges_.radius[p.a] - edges_.radius[p.b];
    if (gap < distance_tolerance && near_in_graph(p)) excluded_.push_back(p);
  }
}

void PairFinder::find(const VecX& q, std::vector<EdgePair>& pairs, double extra) const {
  grown_.resize(margin_.size());
  for (std::size_t e = 0; e < margin_.size(); ++e) grown_[e] = margin_[e] + 0.5 * extra;
  broad_phase_.find_pairs(q, edges_.nodes, grown_, found_);
  pairs.clear();
  // sorted merge against the sorted exclusions
  auto skip = excluded_.begin();
  for (const EdgePair& p : found_) {
    while (skip != excluded_.end() && *skip < p) ++skip;
    if (skip != excluded_.end() && *skip == p) continue;
    pairs.push_back(p);
  }
}

std::array<int, 12> PairFinder::stencil_dofs(const EdgePair& pair) const {
  std::array<int, 12> dofs;
  const int nodes[4] = {edges_.nodes[pair.a][0], edges_.nodes[pair.a][1], edges_.nodes[pair.b][0],
                        edges_.nodes[pair.b][1]};
  for (int k = 0; k < 4; ++k)
    for (int c = 0; c < 3; ++c) dofs[3 * k + c] = 3 * nodes[k] + c;
  return dofs;
}

Vec12 PairFinder::stencil(const VecX& q, const EdgePair& pair) const {
  Vec12 x;
  const std::array<int, 12> dofs = stencil_dofs(pair);
  for (int k = 0; k < 12; ++k) x[k] = q[dofs[k]];
  return x;
}

SelfContact::SelfContact(ContactEdges edges, const ContactParameters& params, const VecX& q_initial, bool collision_check)
    : finder_((params.validate("contact."), std::move(edges)), params.distance_tolerance, q_initial),
      params_(params),
      collision_check_(collision_check) {
  // candidates for the first step: the motion allowance is delta until a step has been seen
  finder_.find(q_initial, candidates_, params_.distance_tolerance);
  last_update_time_ = std::numeric_limits<double>::quiet_NaN();
}

bool SelfContact::update_stencils(const Model& model, const State& state) const {
  finder_.find(state.q, scratch_,
               step_motion_allowance(model, state, params_.distance_tolerance, last_update_time_));
  if (scratch_ == candidates_) return false;
  candidates_.swap(scratch_);
  return true;
}

double SelfContact::max_step_fraction(const Model& model, const VecX& q, const VecX& dq) const {
  if (!collision_check_) return 1.0;
  // the pairs that can meet during the step: each box grown by the largest node displacement
  double reach = 0.0;
  for (const auto& edge : finder_.edges().nodes)
    for (int n : edge) reach = std::max(reach, dq.segment<3>(model.dofs.node(n)).norm());
  if (reach == 0.0) return 1.0;
  finder_.find(q, pairs_, 2.0 * reach);
  double fraction = 1.0;
  for (const EdgePair& pair : pairs_)
    fraction = std::min(fraction, edge_edge_collision_free_fraction(finder_.stencil(q, pair), finder_.stencil(dq, pair),
                                                                    kCollisionKeep, fraction));
  return fraction;
}

void SelfContact::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const EdgePair& pair : candidates_) {
    const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
    TENDRIL_ASSERT(*std::max_element(dofs.begin(), dofs.end()) < 3 * model.dofs.num_nodes,
                   "contact edge node out of range");
    pattern.add_stencil(dofs);
  }
}

void SelfContact::accumulate(const EvalInput& in, EnergyOutput& out) const {
  finder_.find(in.q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const double radius_sum = finder_.edges().radius[pair.a] + finder_.edges().radius[pair.b];
    const PairContact c = imc_pair_contact(finder_.stencil(in.q, pair), radius_sum, params_, out.hessian != nullptr);
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

ContactStatistics SelfContact::statistics(const Model&, const VecX& q, double) const {
  ContactStatistics stats;
  finder_.find(q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const Vec12 x = finder_.stencil(q, pair);
    const double gap =
        edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), false).closest.distance -
        finder_.edges().radius[pair.a] - finder_.edges().radius[pair.b];
    stats.min_gap = std::min(stats.min_gap, gap);
    if (gap < params_.distance_tolerance) ++stats.active;
  }
  return stats;
}

}  // namespace tendril::contact
