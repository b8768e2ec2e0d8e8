#include "tendril/forces/viscous_drag.hpp"

#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/voronoi_length.hpp"

namespace tendril {

ViscousDrag::ViscousDrag(const Model& model, std::vector<int> nodes, double viscosity)
    : nodes_(std::move(nodes)) {
  if (!(std::isfinite(viscosity) && viscosity >= 0.0))
    throw InputError("viscosity", number_text(viscosity), "a finite viscosity eta >= 0 [Pa s]");
  const int num_nodes = model.dofs.num_nodes;
  if (nodes_.empty())
    for (int i = 0; i < num_nodes; ++i) nodes_.push_back(i);
  const std::vector<double> voronoi = node_voronoi_lengths(model);
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (nodes_[k] < 0 || nodes_[k] >= num_nodes)
      throw InputError("nodes[" + std::to_string(k) + "]", std::to_string(nodes_[k]),
                       "a node index in [0, " + std::to_string(num_nodes) + ")");
    coefficient_.push_back(viscosity * voronoi[nodes_[k]]);
  }
}

void ViscousDrag::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (int i : nodes_) pattern.add_stencil(model.dofs.node_dofs(i));
}

void ViscousDrag::accumulate(const EvalInput& in, ForceOutput& out) const {
  const double jacobian_scale = out.du_scale;  // dF/dq = 0
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const int d = in.model.dofs.node(nodes_[k]);
    const double c = coefficient_[k];
    // F_i = - eta Delta l_i u_i
    if (out.force) out.force->segment<3>(d) -= c * in.u.segment<3>(d);
    if (out.jacobian && jacobian_scale != 0.0)
      for (int a = 0; a < 3; ++a) out.jacobian->add_entry(d + a, d + a, -jacobian_scale * c);
  }
}

}  // namespace tendril
