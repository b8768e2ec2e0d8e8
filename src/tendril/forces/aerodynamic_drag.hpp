#pragma once
/// Aerodynamic drag on shell triangles (mat_dismech 5.4, eq. 29, Appendix B): each node i of
/// triangle k feels a drag quadratic in its velocity along the triangle's normal,
///   F_i = - c_k sgn(s) s^2 n_hat_k = - c_k |s| s n_hat_k,   s = u_i . n_hat_k,   c_k = rho_med C_D
///   A_k / 6,
/// with n_hat_k the current unit normal, A_k the rest area [m^2], rho_med [kg/m^3], C_D [-], u_i
/// [m/s]. Jacobians (exact; |s| s is C^1 with derivative 2 |s|):
///   dF_i/du_i = - 2 c_k |s| n_hat n_hat^T,
///   dF_i/dx_j = - c_k (2 |s| n_hat u_i^T + |s| s I) dn_hat/dx_j,   dn_hat/dx = (I - n_hat n_hat^T)
///   / |n| dn/dx,
/// for the three nodes j of the triangle (geometry/triangle_normal.hpp). The Jacobian is not
/// symmetric. mat_dismech writes u_i as (x_i(t_n) - x_i(t_{n-1})) / dt; here u is the integrator's
/// velocity unknown, which the integrator differentiates itself (ForceOutput::du_scale), as for
/// viscous drag.

#include <vector>

#include "tendril/core/term.hpp"

namespace tendril {

class AerodynamicDrag final : public ForceTerm {
 public:
  /// Drag on every triangle of model.shells; medium_density rho_med [kg/m^3] >= 0, drag_coefficient
  /// C_D [-] >= 0 (InputError "aerodynamic_drag.density" / ".drag_coefficient" otherwise).
  AerodynamicDrag(const Model& model, double medium_density, double drag_coefficient);

  std::string_view name() const override { return "aerodynamic_drag"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;

 private:
  std::vector<double> coefficient_;  ///< c_k = rho_med C_D A_k / 6 [kg/m] (#triangles)
};

}  // namespace tendril
