#pragma once
/// What the pair contact terms share (SelfContact: edge-edge pairs, PointTriangleContact:
/// point-triangle pairs; docs/physics/contact.md, "Self-contact" and "Shell contact"): the
/// candidate pairs per step and the sparsity pattern they declare, the accumulation of each pair's
/// IMC energy, the statistics, and the continuous collision check of a Newton step.
///
/// Finder: the pair finder, with find(q, pairs, extra), stencil(q, pair), stencil_dofs(pair),
/// radius_sum(pair) and nodes() (every node of its primitives). Kind: the pair type, with
///   static PairContact contact(x, radius_sum, params, with_hessian)   (IMC energy of one pair)
///   static double distance(x)                                         (centre-line distance [m])
///   static double collision_free_fraction(x, dx, keep, t_max)         (its CCD)

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tendril/contact/broad_phase.hpp"
#include "tendril/contact/contact_graph.hpp"
#include "tendril/contact/contact_parameters.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {

/// Energy, gradient and Hessian of one pair's contact at stencil x [m] (12).
struct PairContact {
  double gap = 0.0;                      ///< g [m]
  double energy = 0.0;                   ///< k_c b(g) [J]
  VecN<12> gradient = VecN<12>::Zero();  ///< [N]
  MatN<12> hessian = MatN<12>::Zero();   ///< [N/m]
};

template <class Finder, class Kind>
class PairContactTerm : public ContactEnergy {
 public:
  /// Declares the candidate pairs.
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override {
    for (const EdgePair& pair : candidates_) {
      const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
      TENDRIL_ASSERT(*std::max_element(dofs.begin(), dofs.end()) < 3 * model.dofs.num_nodes,
                     "contact node out of range");
      pattern.add_stencil(dofs);
    }
  }

  void accumulate(const EvalInput& in, EnergyOutput& out) const override {
    finder_.find(in.q, pairs_);
    for (const EdgePair& pair : pairs_) {
      const PairContact c = Kind::contact(finder_.stencil(in.q, pair), finder_.radius_sum(pair),
                                          params_, out.hessian != nullptr);
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

  ContactStatistics statistics(const Model&, const VecX& q, double) const override {
    ContactStatistics stats;
    finder_.find(q, pairs_);
    for (const EdgePair& pair : pairs_) {
      const double gap = Kind::distance(finder_.stencil(q, pair)) - finder_.radius_sum(pair);
      stats.min_gap = std::min(stats.min_gap, gap);
      if (gap < params_.distance_tolerance) ++stats.active;
    }
    return stats;
  }

  /// New candidates for the step starting at `state`: the pairs whose boxes, grown by
  /// r + (delta + m) / 2, overlap, m the motion allowance (contact_graph.hpp); true if they
  /// changed.
  bool update_stencils(const Model& model, const State& state) const override {
    finder_.find(
        state.q, scratch_,
        step_motion_allowance(model, state, params_.distance_tolerance, last_update_time_));
    if (scratch_ == candidates_) return false;
    candidates_.swap(scratch_);
    return true;
  }

  /// Continuous collision check of the step q -> q + dq: the largest fraction of it over which no
  /// pair's centre-line distance falls below kCollisionKeep of its value at q, over the pairs whose
  /// boxes at q, grown by the largest node displacement, overlap; 1 when the check is off.
  double max_step_fraction(const Model& model, const VecX& q, const VecX& dq, double,
                           double) const override {
    if (!collision_check_) return 1.0;
    double reach = 0.0;
    for (int n : finder_.nodes()) reach = std::max(reach, dq.segment<3>(model.dofs.node(n)).norm());
    if (reach == 0.0) return 1.0;
    finder_.find(q, pairs_, 2.0 * reach);
    double fraction = 1.0;
    for (const EdgePair& pair : pairs_)
      fraction = std::min(fraction, Kind::collision_free_fraction(finder_.stencil(q, pair),
                                                                  finder_.stencil(dq, pair),
                                                                  kCollisionKeep, fraction));
    return fraction;
  }

  /// A Newton step may shrink a pair's centre-line distance to this fraction of its value, no less.
  static constexpr double kCollisionKeep = 0.1;
  /// The declared pairs (sorted).
  const std::vector<EdgePair>& candidates() const { return candidates_; }
  /// Pair evaluations outside the candidates since construction (force without Hessian).
  long missed_pairs() const { return missed_; }
  const Finder& pairs() const { return finder_; }
  const ContactParameters& parameters() const { return params_; }

 protected:
  /// Candidates for the first step: the motion allowance is delta until a step has been seen.
  PairContactTerm(Finder finder, const ContactParameters& params, const VecX& q_initial,
                  bool collision_check)
      : finder_(std::move(finder)), params_(params), collision_check_(collision_check) {
    finder_.find(q_initial, candidates_, params_.distance_tolerance);
  }

 private:
  Finder finder_;
  ContactParameters params_;
  mutable std::vector<EdgePair> pairs_;       ///< scratch: the pairs at the evaluated configuration
  mutable std::vector<EdgePair> candidates_;  ///< declared pairs, from the last update (sorted)
  mutable std::vector<EdgePair> scratch_;     ///< the next candidates
  mutable double last_update_time_ =
      std::numeric_limits<double>::quiet_NaN();  ///< t [s] of the last update
  mutable long missed_ = 0;
  bool collision_check_;
};

}  // namespace tendril::contact
