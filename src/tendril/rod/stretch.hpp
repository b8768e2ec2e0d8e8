#pragma once
/// Stretching energy of rod edges (mat_dismech 3.1, eqs. 9-10; docs/physics/rods.md#stretching):
///   E = 1/2 EA (|e| / |e_bar| - 1)^2 |e_bar|,   e = x_1 - x_0,
/// with EA the stretching stiffness [N] and |e_bar| the rest length [m].
/// Stencil DOFs: (x_0, x_1), 6 entries.

#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// E [J] of one edge with edge vector e [m], rest length |e_bar| [m] and stiffness EA [N].
double stretch_energy(const Vec3& edge, double rest_length, double stretch_stiffness);
/// dE/d(x_0, x_1) [N].
VecN<6> stretch_gradient(const Vec3& edge, double rest_length, double stretch_stiffness);
/// d2E/d(x_0, x_1)^2 [N/m] (symmetric).
MatN<6> stretch_hessian(const Vec3& edge, double rest_length, double stretch_stiffness);

/// Sum of the stretching energies of all edges of Model::rods.
class StretchEnergy final : public Energy {
 public:
  std::string_view name() const override { return "stretch"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  /// The rest lengths |e_bar| [m] (#edges); stress-free at q: the edge lengths there.
  std::size_t rest_state_size(const Model& model) const override;
  void get_rest_state(const Model& model, std::span<double> values) const override;
  void set_rest_state(std::span<const double> values, Model& model) const override;
  void stress_free_rest_state(const Model& model, const Kinematics& kin, const VecX& q,
                              std::span<double> values) const override;
};

}  // namespace tendril
