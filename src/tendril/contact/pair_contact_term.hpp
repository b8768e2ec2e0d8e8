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
#include <memory>
#include <vector>

#include "tendril/contact/broad_phase.hpp"
#include "tendril/contact/contact_graph.hpp"
#include "tendril/contact/contact_parameters.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term_workspace.hpp"

namespace tendril::contact {

/// Energy, gradient and Hessian of one pair's contact at stencil x [m] (12).
struct PairContact {
  double gap = 0.0;                      ///< g [m]
  double energy = 0.0;                   ///< k_c b(g) [J]
  VecN<12> gradient = VecN<12>::Zero();  ///< [N]
  MatN<12> hessian = MatN<12>::Zero();   ///< [N/m]
};

/// The buffers of a pair finder's search (PairFinder, PointTriangleFinder): reused, a search
/// allocates nothing once they have grown.
struct PairScratch {
  BroadPhase broad_phase;
  std::vector<double> grown;            ///< margins + extra / 2 (edges, or points)
  std::vector<double> grown_triangles;  ///< the same for triangles
  std::vector<EdgePair> found;          ///< the broad phase's pairs
};

/// A pair contact term's workspace (core/term_workspace.hpp), one per simulation: the candidate
/// pairs it declares and the time of their last update (state carried from step to step), the
/// pairs evaluated outside them, and the scratch of its searches.
struct PairContactWorkspace final : TermWorkspace {
  std::vector<EdgePair> candidates;  ///< declared pairs, from the last update (sorted)
  double last_update_time = std::numeric_limits<double>::quiet_NaN();  ///< [s]; NaN before one
  long missed = 0;              ///< pair evaluations outside the candidates (force without Hessian)
  std::vector<EdgePair> pairs;  ///< scratch: the pairs at the evaluated configuration
  std::vector<EdgePair> next;   ///< scratch: the next candidates
  PairScratch search;           ///< scratch of the pair searches
};

template <class Finder, class Kind>
class PairContactTerm : public ContactEnergy {
 public:
  /// Declares the candidates of the first step (those of a new workspace).
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override {
    declare_pairs(model, initial_candidates_, pattern);
  }
  /// Declares the workspace's candidate pairs.
  void declare_stencils(const Model& model, const TermWorkspace* workspace,
                        SparsityBuilder& pattern) const override {
    declare_pairs(model, workspace ? of(*workspace).candidates : initial_candidates_, pattern);
  }
  /// A PairContactWorkspace with the candidates of the first step.
  std::unique_ptr<TermWorkspace> make_workspace(const Model& /*model*/) const override {
    return std::make_unique<PairContactWorkspace>(new_workspace());
  }

  void accumulate(const EvalInput& in, EnergyOutput& out) const override {
    if (in.workspace) return add_pairs(in, out, of(*in.workspace));
    PairContactWorkspace local = new_workspace();
    add_pairs(in, out, local);
  }

  ContactStatistics statistics(const Model&, const VecX& q, double) const override {
    ContactStatistics stats;
    std::vector<EdgePair> pairs;
    finder_.find(q, pairs);
    for (const EdgePair& pair : pairs) {
      const double gap = Kind::distance(finder_.stencil(q, pair)) - finder_.radius_sum(pair);
      stats.min_gap = std::min(stats.min_gap, gap);
      if (gap < params_.distance_tolerance) ++stats.active;
    }
    return stats;
  }

  /// New candidates for the step starting at `state`: the pairs whose boxes, grown by
  /// r + (delta + m) / 2, overlap, m the motion allowance (contact_graph.hpp); true if they
  /// changed.
  bool update_stencils(const Model& model, const State& state,
                       TermWorkspace* workspace) const override {
    PairContactWorkspace& w = of(*workspace);
    finder_.find(
        state.q, w.search, w.next,
        step_motion_allowance(model, state, params_.distance_tolerance, w.last_update_time));
    if (w.next == w.candidates) return false;
    w.candidates.swap(w.next);
    return true;
  }

  /// The time of the last candidate update [s] (NaN before one): the next step's motion allowance
  /// depends on it, so a restart restores it.
  std::size_t carried_size() const override { return 1; }
  void save_carried(const TermWorkspace& workspace, double* values) const override {
    values[0] = of(workspace).last_update_time;
  }
  /// The candidates themselves follow from the restored state and time at the next update (which
  /// declares them if they differ from those of a new workspace, the solver's pattern until then).
  void restore_carried(TermWorkspace& workspace, const double* values) const override {
    of(workspace).last_update_time = values[0];
  }

  /// Continuous collision check of the step q -> q + dq: the largest fraction of it over which no
  /// pair's centre-line distance falls below kCollisionKeep of its value at q, over the pairs whose
  /// boxes at q, grown by the largest node displacement, overlap; 1 when the check is off.
  double max_step_fraction(const Model& model, const VecX& q, const VecX& dq, double, double,
                           TermWorkspace* workspace) const override {
    if (!collision_check_) return 1.0;
    double reach = 0.0;
    for (int n : finder_.nodes()) reach = std::max(reach, dq.segment<3>(model.dofs.node(n)).norm());
    if (reach == 0.0) return 1.0;
    PairContactWorkspace& w = of(*workspace);
    finder_.find(q, w.search, w.pairs, 2.0 * reach);
    double fraction = 1.0;
    for (const EdgePair& pair : w.pairs)
      fraction = std::min(fraction, Kind::collision_free_fraction(finder_.stencil(q, pair),
                                                                  finder_.stencil(dq, pair),
                                                                  kCollisionKeep, fraction));
    return fraction;
  }

  /// A Newton step may shrink a pair's centre-line distance to this fraction of its value, no less.
  static constexpr double kCollisionKeep = 0.1;
  /// The declared pairs of `workspace` (this term's; sorted).
  static const std::vector<EdgePair>& candidates(const TermWorkspace& workspace) {
    return of(workspace).candidates;
  }
  /// Pair evaluations outside the candidates of `workspace` (this term's) since it was made (force
  /// without Hessian).
  static long missed_pairs(const TermWorkspace& workspace) { return of(workspace).missed; }
  const Finder& pairs() const { return finder_; }
  const ContactParameters& parameters() const { return params_; }
  /// Sets the law's contact stiffness k_c [N/m] and friction coefficient mu [-] (the pairs,
  /// candidates and tolerances stay): on a copy of the term, for the adjoint's parameters
  /// (adjoint/contact_parameters.hpp).
  void set_stiffness_and_friction(double stiffness, double friction) {
    params_.stiffness = stiffness;
    params_.friction = friction;
  }

 protected:
  /// Candidates for the first step: the motion allowance is delta until a step has been seen.
  PairContactTerm(Finder finder, const ContactParameters& params, const VecX& q_initial,
                  bool collision_check)
      : finder_(std::move(finder)), params_(params), collision_check_(collision_check) {
    finder_.find(q_initial, initial_candidates_, params_.distance_tolerance);
  }

 private:
  static PairContactWorkspace& of(TermWorkspace& workspace) {
    return static_cast<PairContactWorkspace&>(workspace);
  }
  static const PairContactWorkspace& of(const TermWorkspace& workspace) {
    return static_cast<const PairContactWorkspace&>(workspace);
  }
  PairContactWorkspace new_workspace() const {
    PairContactWorkspace w;
    w.candidates = initial_candidates_;
    return w;
  }
  void declare_pairs(const Model& model, const std::vector<EdgePair>& pairs,
                     SparsityBuilder& pattern) const {
    for (const EdgePair& pair : pairs) {
      const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
      TENDRIL_ASSERT(*std::max_element(dofs.begin(), dofs.end()) < 3 * model.dofs.num_nodes,
                     "contact node out of range");
      pattern.add_stencil(dofs);
    }
  }
  /// Adds the contact of the pairs near each other at in.q, Hessians of the candidates only.
  void add_pairs(const EvalInput& in, EnergyOutput& out, PairContactWorkspace& w) const {
    finder_.find(in.q, w.search, w.pairs);
    for (const EdgePair& pair : w.pairs) {
      const PairContact c = Kind::contact(finder_.stencil(in.q, pair), finder_.radius_sum(pair),
                                          params_, out.hessian != nullptr);
      if (c.energy == 0.0 && c.gradient.isZero(0.0)) continue;
      out.energy += c.energy;
      const std::array<int, 12> dofs = finder_.stencil_dofs(pair);
      if (out.gradient)
        for (int k = 0; k < 12; ++k) (*out.gradient)[dofs[k]] += c.gradient[k];
      if (out.hessian) {
        if (std::binary_search(w.candidates.begin(), w.candidates.end(), pair))
          out.hessian->add(dofs, c.hessian);
        else
          ++w.missed;
      }
    }
  }

  Finder finder_;
  ContactParameters params_;
  std::vector<EdgePair> initial_candidates_;  ///< the candidates of the first step (sorted)
  bool collision_check_;
};

}  // namespace tendril::contact
