#pragma once
/// Buoyancy as a potential energy (mat_dismech 5.1): a body in a medium of density rho_med feels
///   F_i = - rho_med V_i g   on each node,   E_b(q) = rho_med sum_i V_i g . x_i,   d2E_b/dq2 = 0,
/// with V_i [m^3] the node's share of the displaced volume and g [m/s^2] gravity. With V_i = m_i /
/// rho this is the paper's replacement of g by (rho - rho_med) / rho g in the gravity term; a
/// per-node volume also covers parts of different densities and point masses (which displace
/// nothing). docs/physics/media.md.

#include <vector>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class BuoyancyEnergy final : public Energy {
 public:
  /// node_volume: V_i [m^3] >= 0 (#nodes of the model); g [m/s^2]; medium_density: rho_med [kg/m^3]
  /// >= 0. InputError ("buoyancy.density", "node_volume[i]") for negative or non-finite values.
  BuoyancyEnergy(std::vector<double> node_volume, const Vec3& g, double medium_density);

  std::string_view name() const override { return "buoyancy"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  bool is_external_load() const override { return true; }

 private:
  std::vector<double> node_volume_;  ///< V_i [m^3] (#nodes)
  Vec3 weight_density_;              ///< rho_med g [N/m^3]
};

}  // namespace tendril
