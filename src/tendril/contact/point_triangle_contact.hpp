#pragma once
/// IMC contact between nodes and triangles (shell contact; the paper leaves triangle contact for
/// future work, mat_dismech sec. 4 and 8): for each node p and triangle (t0, t1, t2) not containing
/// it,
///   g = Delta(p, t0, t1, t2) - (r_p + r_t),   E = k_c b(g),
/// with Delta the point-triangle distance (distance/point_triangle_distance.hpp), b the smooth
/// penalty of eq. 21 and the same k_c, delta as the edge pairs; r_p is the node's contact radius (a
/// rod's radius, half a shell's thickness) and r_t half the triangle's shell thickness [m]. With
/// the edge-edge pairs of SelfContact over the rod and shell edges, these pairs make the set
/// complete: the distance of two triangles, or of a rod edge and a triangle, that do not intersect
/// is the smallest of their point-triangle and edge-edge distances.
///
/// Pairs, candidates per step, exclusions and the continuous collision check work as in
/// SelfContact (self_contact.hpp): pairs within delta of touching in the initial shape whose node
/// is joined to a triangle node through at most two contact edges never interact.
/// docs/physics/contact.md, "Shell contact".

#include <array>
#include <vector>

#include "tendril/contact/broad_phase.hpp"
#include "tendril/contact/contact_parameters.hpp"
#include "tendril/contact/distance/point_triangle_distance.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/self_contact.hpp"

namespace tendril::contact {

/// The triangles that take part in contact.
struct ContactTriangles {
  std::vector<std::array<int, 3>> nodes;  ///< (t0, t1, t2) node indices (#contact triangles)
  std::vector<double> radius;  ///< r_t, half the shell thickness [m] (#contact triangles)
};

/// An IMC point-triangle pair at x = [p, t0, t1, t2] [m] (12); radius_sum = r_p + r_t [m].
PairContact imc_point_triangle_contact(const Vec12& x, double radius_sum,
                                       const ContactParameters& params, bool with_hessian);

/// (node, triangle) pairs near each other at q (EdgePair{a: index into the nodes, b: into the
/// triangles}), minus the excluded ones.
class PointTriangleFinder {
 public:
  /// graph_edges: the contact edges (rod and shell) whose node graph decides the exclusions.
  PointTriangleFinder(ContactNodes points, ContactTriangles triangles,
                      const std::vector<std::array<int, 2>>& graph_edges, double distance_tolerance,
                      const VecX& q_initial);
  /// Pairs at q whose boxes grown by r + (delta + extra) / 2 overlap (sorted), extra [m] >= 0,
  /// searched with the buffers of `scratch`.
  void find(const VecX& q, PairScratch& scratch, std::vector<EdgePair>& pairs,
            double extra = 0.0) const;
  /// The same with buffers of its own (allocating: for one-off searches).
  void find(const VecX& q, std::vector<EdgePair>& pairs, double extra = 0.0) const {
    PairScratch scratch;
    find(q, scratch, pairs, extra);
  }
  const ContactNodes& points() const { return points_; }
  const ContactTriangles& triangles() const { return triangles_; }
  const std::vector<EdgePair>& excluded() const { return excluded_; }
  double radius_sum(const EdgePair& pair) const {
    return points_.radius[pair.a] + triangles_.radius[pair.b];
  }
  /// The 12 position DOFs of a pair's stencil [p, t0, t1, t2].
  std::array<int, 12> stencil_dofs(const EdgePair& pair) const;
  Vec12 stencil(const VecX& q, const EdgePair& pair) const;
  /// Every node of the points and triangles.
  const std::vector<int>& nodes() const { return nodes_; }

 private:
  ContactNodes points_;
  std::vector<int> nodes_;
  ContactTriangles triangles_;
  std::vector<double> point_margin_, triangle_margin_;  ///< r + delta / 2
  std::vector<EdgePair> excluded_;
};

/// The point-triangle pair type of PairContactTerm.
struct PointTrianglePairs {
  static PairContact contact(const Vec12& x, double radius_sum, const ContactParameters& params,
                             bool with_hessian) {
    return imc_point_triangle_contact(x, radius_sum, params, with_hessian);
  }
  static double distance(const Vec12& x);
  static double collision_free_fraction(const Vec12& x, const Vec12& dx, double keep, double t_max);
};

/// Candidates, sparsity, statistics and the collision check (ccd/point_triangle_ccd.hpp) as for
/// SelfContact (pair_contact_term.hpp).
class PointTriangleContact final : public PairContactTerm<PointTriangleFinder, PointTrianglePairs> {
 public:
  /// collision_check: limit Newton steps by the continuous collision check (max_step_fraction).
  PointTriangleContact(ContactNodes points, ContactTriangles triangles,
                       const std::vector<std::array<int, 2>>& graph_edges,
                       const ContactParameters& params, const VecX& q_initial,
                       bool collision_check = true);
  std::string_view name() const override { return "point_triangle_contact"; }
};

}  // namespace tendril::contact
