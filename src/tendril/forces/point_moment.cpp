#include "tendril/forces/point_moment.hpp"

#include <array>
#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

PointMoment::PointMoment(int edge, const Vec3& moment)
    : edge_(edge), moment_of_time_([moment](double) { return moment; }) {
  if (!moment.allFinite())
    throw InputError("point_moment.moment", "non-finite moment", "a finite moment [N m]");
}

PointMoment::PointMoment(int edge, ForceHistory moment_of_time)
    : edge_(edge), moment_of_time_(std::move(moment_of_time)) {
  if (!moment_of_time_)
    throw InputError("point_moment.moment", "empty function", "a callable M(t) [N m]");
}

void PointMoment::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  if (edge_ < 0 || edge_ >= model.dofs.num_edges)
    throw InputError("point_moment.edge", std::to_string(edge_),
                     "an edge index in [0, " + std::to_string(model.dofs.num_edges) + ")");
  const auto& nodes = model.rods.edges[static_cast<std::size_t>(edge_)];
  const int n0 = model.dofs.node(nodes[0]), n1 = model.dofs.node(nodes[1]);
  const std::array<int, 7> dofs{n0, n0 + 1, n0 + 2, n1, n1 + 1, n1 + 2, model.dofs.twist(edge_)};
  pattern.add_stencil(dofs);
}

void PointMoment::accumulate(const EvalInput& in, ForceOutput& out) const {
  const DofMap& dofs = in.model.dofs;
  const auto& nodes = in.model.rods.edges[static_cast<std::size_t>(edge_)];
  const int n0 = dofs.node(nodes[0]), n1 = dofs.node(nodes[1]), twist = dofs.twist(edge_);
  const Vec3 e = in.q.segment<3>(n1) - in.q.segment<3>(n0);
  const double length2 = e.squaredNorm(), length = std::sqrt(length2);
  const Vec3 m = moment_of_time_(in.time);
  const Vec3 couple = m.cross(e) / length2;  // F_1 [N]
  if (out.force != nullptr) {
    out.force->segment<3>(n1) += couple;
    out.force->segment<3>(n0) -= couple;
    (*out.force)[twist] += m.dot(e) / length;
  }
  if (out.jacobian == nullptr || out.dq_scale == 0.0) return;
  // dF_1/de = [M]_x / |e|^2 - 2 (M x e) e^T / |e|^4, d(M . t)/de = (M - (M . t) t)^T / |e|
  const Mat3 d_couple = cross_matrix(m) / length2 - 2.0 * couple * e.transpose() / length2;
  const Vec3 t = e / length;
  const Vec3 d_twist = (m - m.dot(t) * t) / length;
  MatX local = MatX::Zero(7, 7);
  local.block<3, 3>(3, 3) = d_couple;
  local.block<3, 3>(3, 0) = -d_couple;
  local.block<3, 3>(0, 3) = -d_couple;
  local.block<3, 3>(0, 0) = d_couple;
  local.block<1, 3>(6, 3) = d_twist.transpose();
  local.block<1, 3>(6, 0) = -d_twist.transpose();
  const std::array<int, 7> stencil{n0, n0 + 1, n0 + 2, n1, n1 + 1, n1 + 2, twist};
  out.jacobian->add(stencil, local, out.dq_scale);
}

}  // namespace tendril
