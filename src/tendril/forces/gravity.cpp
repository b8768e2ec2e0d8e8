#include "tendril/forces/gravity.hpp"

#include <cmath>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril {

GravityEnergy::GravityEnergy(const Vec3& g) : g_(g) {
  if (!g.allFinite())
    throw InputError(
        "gravity",
        "(" + number_text(g.x()) + ", " + number_text(g.y()) + ", " + number_text(g.z()) + ")",
        "a finite acceleration vector [m/s^2]");
}

void GravityEnergy::declare_sparsity(const Model&, SparsityBuilder&) const {}

void GravityEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const int num_nodes = in.model.dofs.num_nodes;
  const VecX& mass = in.model.mass;
  // E = - sum_i m_i g . x_i over the position DOFs only
  double energy = 0.0;
  for (int i = 0; i < num_nodes; ++i) {
    const int d = in.model.dofs.node(i);
    for (int a = 0; a < 3; ++a) energy -= mass[d + a] * g_[a] * in.q[d + a];
  }
  out.energy += energy;
  if (out.gradient != nullptr) {
    VecX& gradient = *out.gradient;
    for (int i = 0; i < num_nodes; ++i) {
      const int d = in.model.dofs.node(i);
      for (int a = 0; a < 3; ++a) gradient[d + a] -= mass[d + a] * g_[a];
    }
  }
}

}  // namespace tendril
