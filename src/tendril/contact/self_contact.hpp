#pragma once
/// IMC self-contact between rod edges (mat_dismech sec. 4, eq. 21-22): for each pair of edges
/// (a0, a1), (b0, b1) that share no node,
///   g = Delta(a0, a1, b0, b1) - (r_a + r_b),   E = k_c b(g),
///   dE/dx = k_c b'(g) dDelta/dx,   d2E/dx2 = k_c (b'' dDelta dDelta^T + b' d2Delta/dx2),
/// with Delta the edge-edge distance (distance/edge_edge_distance.hpp), b the smooth penalty
/// (potentials/smooth_penalty.hpp) and r_a, r_b the edges' contact radii [m].
///
/// The pairs evaluated at a configuration are those the broad phase finds there (boxes grown by
/// r_e + delta / 2, so every pair with g < delta is found) among the *candidate* pairs. Pairs that
/// already touch (g < delta) in the initial shape and are joined through at most two other contact
/// edges are excluded for good (neighbours at joints, rods with edges shorter than their diameter);
/// other pairs touching at the start (a rod lying on another) do interact.
/// Candidates (the declared stencils): before every step the solver calls update_stencils() with
/// the accepted state; the candidates are the pairs whose boxes, grown by r_e + (delta + m) / 2,
/// overlap, with the motion allowance m = delta + 2 max_i |u_i| (t - t_previous update) (twice the
/// largest node displacement of the last step). The pattern is re-analysed only when the set
/// changed. A pair that comes within delta during the step without being a candidate still gets its
/// force (its Hessian cannot enter the fixed pattern; missed_pairs() counts these evaluations).
/// docs/physics/contact.md, "Self-contact".

#include <array>
#include <vector>

#include "tendril/contact/broad_phase.hpp"
#include "tendril/contact/ccd/edge_edge_ccd.hpp"
#include "tendril/contact/contact_parameters.hpp"
#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/contact/pair_contact_term.hpp"
#include "tendril/contact/potentials/smooth_penalty.hpp"

namespace tendril::contact {

/// The IMC contact of a pair at centre-line distance Delta [m] with gradient and Hessian (12):
/// g = Delta - radius_sum, E = k_c b(g), dE = k_c b' dDelta, d2E = k_c (b'' dDelta dDelta^T + b'
/// d2Delta).
PairContact imc_contact(double distance, const Vec12& gradient, const Mat12& hessian,
                        double radius_sum, const ContactParameters& params, bool with_hessian);
/// An edge-edge pair; radius_sum = r_a + r_b [m].
PairContact imc_pair_contact(const Vec12& x, double radius_sum, const ContactParameters& params,
                             bool with_hessian);

/// The edges that take part in self-contact.
struct ContactEdges {
  std::vector<std::array<int, 2>> nodes;  ///< (n0, n1) node indices of each edge (#contact edges)
  std::vector<double> radius;             ///< r_e, contact radius of each edge [m] (#contact edges)
};

/// Pairs of contact edges (indices into ContactEdges) near each other at q, skipping `excluded`
/// (sorted): the broad phase plus the exclusion; shared by contact and friction.
class PairFinder {
 public:
  PairFinder(ContactEdges edges, double distance_tolerance, const VecX& q_initial);
  /// Pairs at positions q (3N...) whose boxes grown by r_e + (delta + extra) / 2 overlap (sorted),
  /// extra [m] >= 0, searched with the buffers of `scratch`.
  void find(const VecX& q, PairScratch& scratch, std::vector<EdgePair>& pairs,
            double extra = 0.0) const;
  /// The same with buffers of its own (allocating: for one-off searches).
  void find(const VecX& q, std::vector<EdgePair>& pairs, double extra = 0.0) const {
    PairScratch scratch;
    find(q, scratch, pairs, extra);
  }
  const ContactEdges& edges() const { return edges_; }
  /// Pairs near each other in the initial shape and in the edge graph that never interact (sorted).
  const std::vector<EdgePair>& excluded() const { return excluded_; }
  /// The 12 position DOFs of a pair's stencil.
  std::array<int, 12> stencil_dofs(const EdgePair& pair) const;
  Vec12 stencil(const VecX& q, const EdgePair& pair) const;
  /// r_a + r_b [m].
  double radius_sum(const EdgePair& pair) const {
    return edges_.radius[pair.a] + edges_.radius[pair.b];
  }
  /// Every node of the contact edges.
  const std::vector<int>& nodes() const { return nodes_; }

 private:
  ContactEdges edges_;
  std::vector<int> nodes_;
  std::vector<double> margin_;  ///< r_e + delta / 2 (#contact edges)
  std::vector<EdgePair> excluded_;
};

/// The edge-edge pair type of PairContactTerm.
struct EdgeEdgePairs {
  static PairContact contact(const Vec12& x, double radius_sum, const ContactParameters& params,
                             bool with_hessian) {
    return imc_pair_contact(x, radius_sum, params, with_hessian);
  }
  static double distance(const Vec12& x);
  static double collision_free_fraction(const Vec12& x, const Vec12& dx, double keep,
                                        double t_max) {
    return edge_edge_collision_free_fraction(x, dx, keep, t_max);
  }
};

/// Candidates, sparsity, statistics and the collision check (ccd/edge_edge_ccd.hpp) as described
/// above and in pair_contact_term.hpp.
class SelfContact final : public PairContactTerm<PairFinder, EdgeEdgePairs> {
 public:
  /// collision_check: limit Newton steps by the continuous collision check (max_step_fraction).
  SelfContact(ContactEdges edges, const ContactParameters& params, const VecX& q_initial,
              bool collision_check = true);
  std::string_view name() const override { return "self_contact"; }
};

}  // namespace tendril::contact
