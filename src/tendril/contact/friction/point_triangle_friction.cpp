#include "tendril/contact/friction/point_triangle_friction.hpp"

#include <algorithm>

namespace tendril::contact {

PairFriction imc_point_triangle_friction(const Vec12& x, const Vec12& u, double radius_sum,
                                         const ContactParameters& params, bool with_jacobians) {
  const PointTriangleDistance d =
      point_triangle_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), with_jacobians);
  const Vec3& b = d.closest.barycentric;
  const std::array<double, 4> c = {1.0, -b[0], -b[1], -b[2]};
  std::array<Vec12, 4> dc;
  dc[0].setZero();
  for (int k = 0; k < 3; ++k) dc[k + 1] = -d.dbarycentric_dx.row(k).transpose();
  return imc_friction(x, u, c, dc, d.closest.w, d.closest.distance, radius_sum, params, with_jacobians);
}

PointTriangleFriction::PointTriangleFriction(ContactNodes points, ContactTriangles triangles,
                                             const std::vector<std::array<int, 2>>& graph_edges,
                                             const ContactParameters& params, const VecX& q_initial)
    : contact_(std::move(points), std::move(triangles), graph_edges, params, q_initial, false), params_(params) {}

void PointTriangleFriction::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  contact_.declare_sparsity(model, pattern);
}

void PointTriangleFriction::accumulate(const EvalInput& in, ForceOutput& out) const {
  if (params_.friction == 0.0) return;
  const PointTriangleFinder& finder = contact_.pairs();
  finder.find(in.q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const PairFriction f = imc_point_triangle_friction(finder.stencil(in.q, pair), finder.stencil(in.u, pair),
                                                       finder.radius_sum(pair), params_, out.jacobian);
    const std::array<int, 12> dofs = finder.stencil_dofs(pair);
    if (out.force)
      for (int k = 0; k < 12; ++k) (*out.force)[dofs[k]] += f.force[k];
    if (out.jacobian && f.active &&
        std::binary_search(contact_.candidates().begin(), contact_.candidates().end(), pair))
      out.jacobian->add(dofs, out.dq_scale * f.d_dx + out.du_scale * f.d_du);
  }
}

}  // namespace tendril::contact
