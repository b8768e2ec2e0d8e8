#include "tendril/forces/follower_load.hpp"

#include <array>
#include <cmath>
#include <string>

#include "tendril/core/error.hpp"

namespace tendril {

FollowerLoad::FollowerLoad(int edge, std::function<double(double)> magnitude_of_time)
    : edge_(edge), magnitude_of_time_(std::move(magnitude_of_time)) {
  if (!magnitude_of_time_)
    throw InputError("follower_load.force", "empty function", "a callable P(t) [N]");
}

void FollowerLoad::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  if (edge_ < 0 || edge_ >= model.dofs.num_edges)
    throw InputError("follower_load.edge", std::to_string(edge_),
                     "an edge index in [0, " + std::to_string(model.dofs.num_edges) + ")");
  const auto& nodes = model.rods.edges[static_cast<std::size_t>(edge_)];
  const int n0 = model.dofs.node(nodes[0]), n1 = model.dofs.node(nodes[1]);
  pattern.add_stencil(std::array<int, 6>{n0, n0 + 1, n0 + 2, n1, n1 + 1, n1 + 2});
}

void FollowerLoad::accumulate(const EvalInput& in, ForceOutput& out) const {
  const DofMap& dofs = in.model.dofs;
  const auto& nodes = in.model.rods.edges[static_cast<std::size_t>(edge_)];
  const int n0 = dofs.node(nodes[0]), n1 = dofs.node(nodes[1]);
  const Vec3 e = in.q.segment<3>(n1) - in.q.segment<3>(n0);
  const double length = e.norm();
  const Vec3 t = e / length;
  const double p = magnitude_of_time_(in.time);
  if (out.force != nullptr) out.force->segment<3>(n1) += p * t;
  if (out.jacobian == nullptr || out.dq_scale == 0.0) return;
  // dF/de = P (I - t t^T) / |e| on node n_1's rows; e = x_1 - x_0
  const Mat3 d_force = p * (Mat3::Identity() - t * t.transpose()) / length;
  MatX local = MatX::Zero(6, 6);
  local.block<3, 3>(3, 3) = d_force;
  local.block<3, 3>(3, 0) = -d_force;
  out.jacobian->add(std::array<int, 6>{n0, n0 + 1, n0 + 2, n1, n1 + 1, n1 + 2}, local,
                    out.dq_scale);
}

}  // namespace tendril
