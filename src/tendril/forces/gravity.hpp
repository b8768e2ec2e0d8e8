#pragma once
/// Gravity as a potential energy (mat_dismech 5.1):
///   E_g(q) = - sum_i m_i g . x_i,   dE_g/dx_i = - m_i g,   d2E_g/dq2 = 0,
/// with m_i the lumped mass of each position DOF (Model::mass) [kg] and g [m/s^2].
/// Buoyancy in a medium of density rho_med is the same term with g scaled by (rho - rho_med) / rho.
/// Twist DOFs carry no gravity. See docs/physics/time_integration.md.

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class GravityEnergy final : public Energy {
 public:
  /// g: gravitational acceleration [m/s^2], e.g. (0, 0, -9.81).
  explicit GravityEnergy(const Vec3& g);

  std::string_view name() const override { return "gravity"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  bool is_external_load() const override { return true; }

  const Vec3& acceleration() const { return g_; }

 private:
  Vec3 g_;  ///< g [m/s^2]
};

}  // namespace tendril
