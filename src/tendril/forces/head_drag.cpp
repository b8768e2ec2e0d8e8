#include "tendril/forces/head_drag.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril {

double HeadDragParameters::force_coefficient() const {
  return 6.0 * std::numbers::pi * shape_factor_force * mu * radius;
}

double HeadDragParameters::torque_coefficient() const {
  return 8.0 * std::numbers::pi * shape_factor_torque * mu * radius * radius * radius;
}

void HeadDragParameters::validate() const {
  auto non_negative = [](const char* key, double v, const char* what) {
    if (!(std::isfinite(v) && v >= 0.0)) throw InputError(key, number_text(v), what);
  };
  non_negative("C1", shape_factor_force, "a finite shape factor C1 >= 0");
  non_negative("C2", shape_factor_torque, "a finite shape factor C2 >= 0");
  non_negative("mu", mu, "a finite mu >= 0 [Pa s]");
  if (!(std::isfinite(radius) && radius > 0.0))
    throw InputError("radius", number_text(radius), "a finite head radius a > 0 [m]");
}

HeadDrag::HeadDrag(int node, int edge, const HeadDragParameters& parameters)
    : node_(node), edge_(edge), parameters_(parameters) {
  parameters_.validate();
  force_coefficient_ = parameters_.force_coefficient();
  torque_coefficient_ = parameters_.torque_coefficient();
}

void HeadDrag::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  if (node_ < 0 || node_ >= model.dofs.num_nodes)
    throw InputError("node", std::to_string(node_),
                     "a node index in [0, " + std::to_string(model.dofs.num_nodes) + ")");
  if (edge_ < 0 || edge_ >= model.dofs.num_edges)
    throw InputError("edge", std::to_string(edge_),
                     "an edge index in [0, " + std::to_string(model.dofs.num_edges) + ")");
  pattern.add_stencil(model.dofs.node_dofs(node_));
  const int twist = model.dofs.twist(edge_);
  pattern.add_stencil(std::span<const int>(&twist, 1));
}

void HeadDrag::accumulate(const EvalInput& in, ForceOutput& out) const {
  const int d = in.model.dofs.node(node_);
  const int twist = in.model.dofs.twist(edge_);
  // F_h = - 6 pi C1 mu a v_h,  T_h = - 8 pi C2 mu a^3 omega_h
  if (out.force) {
    out.force->segment<3>(d) -= force_coefficient_ * in.u.segment<3>(d);
    (*out.force)[twist] -= torque_coefficient_ * in.u[twist];
  }
  if (out.jacobian && out.du_scale != 0.0) {
    for (int a = 0; a < 3; ++a)
      out.jacobian->add_entry(d + a, d + a, -out.du_scale * force_coefficient_);
    out.jacobian->add_entry(twist, twist, -out.du_scale * torque_coefficient_);
  }
}

}  // namespace tendril
