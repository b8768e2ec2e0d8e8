#include "tendril/contact/self_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tendril/contact/contact_graph.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::contact {

PairContact imc_contact(double distance, const Vec12& gradient, const Mat12& hessian,
                        double radius_sum, const ContactParameters& params, bool with_hessian) {
  PairContact out;
  out.gap = distance - radius_sum;
  const PenaltyValue b = smooth_penalty(out.gap, params.distance_tolerance);
  if (b.value == 0.0 && b.slope == 0.0) return out;
  const double kc = params.stiffness;
  out.energy = kc * b.value;
  out.gradient = kc * b.slope * gradient;
  if (with_hessian)
    out.hessian = kc * (b.curvature * gradient * gradient.transpose() + b.slope * hessian);
  return out;
}

PairContact imc_pair_contact(const Vec12& x, double radius_sum, const ContactParameters& params,
                             bool with_hessian) {
  const EdgeEdgeDistance d = edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6),
                                                x.segment<3>(9), with_hessian);
  return imc_contact(d.closest.distance, d.gradient, d.hessian, radius_sum, params, with_hessian);
}

PairFinder::PairFinder(ContactEdges edges, double distance_tolerance, const VecX& q_initial)
    : edges_(std::move(edges)) {
  TENDRIL_ASSERT(edges_.nodes.size() == edges_.radius.size(), "one contact radius per edge");
  margin_.resize(edges_.nodes.size());
  for (std::size_t e = 0; e < margin_.size(); ++e) {
    nodes_.push_back(edges_.nodes[e][0]);
    nodes_.push_back(edges_.nodes[e][1]);
    if (!(edges_.radius[e] >= 0.0) || !std::isfinite(edges_.radius[e]))
      throw InputError("contact_radius", number_text(edges_.radius[e]), "a radius >= 0 [m]");
    margin_[e] = edges_.radius[e] + 0.5 * distance_tolerance;
  }
  std::sort(nodes_.begin(), nodes_.end());
  nodes_.erase(std::unique(nodes_.begin(), nodes_.end()), nodes_.end());
  // pairs within delta of touching at the start whose edges are joined by at most two other edges
  // never interact (neighbours at joints and along rods with edges shorter than their diameter)
  const ContactGraph graph(edges_.nodes);
  const auto near_in_graph = [&](const EdgePair& p) {
    return graph.near({edges_.nodes[p.a][0], edges_.nodes[p.a][1]},
                      {edges_.nodes[p.b][0], edges_.nodes[p.b][1]});
  };
  std::vector<EdgePair> near;
  find(q_initial, near);
  for (const EdgePair& p : near) {
    const double gap = EdgeEdgePairs::distance(stencil(q_initial, p)) - radius_sum(p);
    if (gap < distance_tolerance && near_in_graph(p)) excluded_.push_back(p);
  }
}

void PairFinder::find(const VecX& q, PairScratch& scratch, std::vector<EdgePair>& pairs,
                      double extra) const {
  std::vector<double>& grown = scratch.grown;
  grown.resize(margin_.size());
  for (std::size_t e = 0; e < margin_.size(); ++e) grown[e] = margin_[e] + 0.5 * extra;
  scratch.broad_phase.find_pairs(q, edges_.nodes, grown, scratch.found);
  pairs.clear();
  // sorted merge against the sorted exclusions
  auto skip = excluded_.begin();
  for (const EdgePair& p : scratch.found) {
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

double EdgeEdgePairs::distance(const Vec12& x) {
  return segment_closest_points(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9))
      .distance;
}

SelfContact::SelfContact(ContactEdges edges, const ContactParameters& params, const VecX& q_initial,
                         bool collision_check)
    : PairContactTerm(PairFinder((params.validate("contact."), std::move(edges)),
                                 params.distance_tolerance, q_initial),
                      params, q_initial, collision_check) {}

}  // namespace tendril::contact
