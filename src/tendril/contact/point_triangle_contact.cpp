#include "tendril/contact/point_triangle_contact.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "tendril/contact/ccd/point_triangle_ccd.hpp"
#include "tendril/contact/contact_graph.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {
namespace {

std::vector<double> margins(const std::vector<double>& radius, double distance_tolerance,
                            const char* what) {
  std::vector<double> out(radius.size());
  for (std::size_t k = 0; k < radius.size(); ++k) {
    if (!(radius[k] >= 0.0) || !std::isfinite(radius[k]))
      throw InputError(what, std::to_string(radius[k]), "a radius >= 0 [m]");
    out[k] = radius[k] + 0.5 * distance_tolerance;
  }
  return out;
}

}  // namespace

PairContact imc_point_triangle_contact(const Vec12& x, double radius_sum,
                                       const ContactParameters& params, bool with_hessian) {
  const PointTriangleDistance d = point_triangle_distance(
      x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), with_hessian);
  return imc_contact(d.closest.distance, d.gradient, d.hessian, radius_sum, params, with_hessian);
}

PointTriangleFinder::PointTriangleFinder(ContactNodes points, ContactTriangles triangles,
                                         const std::vector<std::array<int, 2>>& graph_edges,
                                         double distance_tolerance, const VecX& q_initial)
    : points_(std::move(points)), triangles_(std::move(triangles)) {
  TENDRIL_ASSERT(points_.nodes.size() == points_.radius.size(), "one contact radius per node");
  TENDRIL_ASSERT(triangles_.nodes.size() == triangles_.radius.size(),
                 "one contact radius per triangle");
  point_margin_ = margins(points_.radius, distance_tolerance, "contact_radius");
  triangle_margin_ = margins(triangles_.radius, distance_tolerance, "contact_radius");
  nodes_ = points_.nodes;
  for (const auto& t : triangles_.nodes) nodes_.insert(nodes_.end(), t.begin(), t.end());
  std::sort(nodes_.begin(), nodes_.end());
  nodes_.erase(std::unique(nodes_.begin(), nodes_.end()), nodes_.end());
  // pairs within delta of touching at the start whose node is joined to the triangle through at
  // most two edges never interact (neighbours in a mesh finer than its thickness, joints)
  const ContactGraph graph(graph_edges);
  std::vector<EdgePair> near;
  find(q_initial, near);
  for (const EdgePair& p : near) {
    const double gap = PointTrianglePairs::distance(stencil(q_initial, p)) - radius_sum(p);
    const auto& t = triangles_.nodes[p.b];
    if (gap < distance_tolerance && graph.near({points_.nodes[p.a]}, {t[0], t[1], t[2]}))
      excluded_.push_back(p);
  }
}

void PointTriangleFinder::find(const VecX& q, PairScratch& scratch, std::vector<EdgePair>& pairs,
                               double extra) const {
  std::vector<double>&point_grown = scratch.grown, &triangle_grown = scratch.grown_triangles;
  point_grown.resize(point_margin_.size());
  triangle_grown.resize(triangle_margin_.size());
  for (std::size_t k = 0; k < point_margin_.size(); ++k)
    point_grown[k] = point_margin_[k] + 0.5 * extra;
  for (std::size_t k = 0; k < triangle_margin_.size(); ++k)
    triangle_grown[k] = triangle_margin_[k] + 0.5 * extra;
  scratch.broad_phase.find_point_triangle_pairs(q, points_.nodes, point_grown, triangles_.nodes,
                                                triangle_grown, scratch.found);
  pairs.clear();
  std::set_difference(scratch.found.begin(), scratch.found.end(), excluded_.begin(),
                      excluded_.end(), std::back_inserter(pairs));
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

double PointTrianglePairs::distance(const Vec12& x) {
  return point_triangle_closest_point(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6),
                                      x.segment<3>(9))
      .distance;
}

double PointTrianglePairs::collision_free_fraction(const Vec12& x, const Vec12& dx, double keep,
                                                   double t_max) {
  return point_triangle_collision_free_fraction(x, dx, keep, t_max);
}

PointTriangleContact::PointTriangleContact(ContactNodes points, ContactTriangles triangles,
                                           const std::vector<std::array<int, 2>>& graph_edges,
                                           const ContactParameters& params, const VecX& q_initial,
                                           bool collision_check)
    : PairContactTerm(PointTriangleFinder((params.validate("contact."), std::move(points)),
                                          std::move(triangles), graph_edges,
                                          params.distance_tolerance, q_initial),
                      params, q_initial, collision_check) {}

}  // namespace tendril::contact
