#include "tendril/forces/buoyancy.hpp"

#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril {

BuoyancyEnergy::BuoyancyEnergy(std::vector<double> node_volume, const Vec3& g,
                               double medium_density)
    : node_volume_(std::move(node_volume)), weight_density_(medium_density * g) {
  if (!(std::isfinite(medium_density) && medium_density >= 0.0))
    throw InputError("buoyancy.density", number_text(medium_density),
                     "a finite density rho_med >= 0 [kg/m^3]");
  for (std::size_t i = 0; i < node_volume_.size(); ++i)
    if (!(std::isfinite(node_volume_[i]) && node_volume_[i] >= 0.0))
      throw InputError("node_volume[" + std::to_string(i) + "]", number_text(node_volume_[i]),
                       "a finite volume >= 0 [m^3]");
  if (!weight_density_.allFinite())
    throw InputError("gravity", "a non-finite vector", "a finite acceleration [m/s^2]");
}

void BuoyancyEnergy::declare_sparsity(const Model&, SparsityBuilder&) const {}

void BuoyancyEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  TENDRIL_ASSERT(node_volume_.size() == static_cast<std::size_t>(in.model.dofs.num_nodes),
                 "buoyancy: one volume per node");
  // E = rho_med sum_i V_i g . x_i, dE/dx_i = rho_med V_i g
  for (std::size_t i = 0; i < node_volume_.size(); ++i) {
    const int d = in.model.dofs.node(static_cast<int>(i));
    const Vec3 weight = node_volume_[i] * weight_density_;
    out.energy += weight.dot(in.q.segment<3>(d));
    if (out.gradient) out.gradient->segment<3>(d) += weight;
  }
}

}  // namespace tendril
