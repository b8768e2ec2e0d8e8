#pragma once
/// Constant-strain-triangle membrane with the St. Venant-Kirchhoff material in plane stress
/// (docs/physics/shells.md#cst-membrane). Per triangle, F = [x_1 - x_0, x_2 - x_0] D_m^{-1} (3 x
/// 2), Green strain G = (F^T F - I) / 2 and
///   E = h A_bar (mu Tr(G^2) + lambda/2 Tr(G)^2),  mu = E/(2(1+nu)), lambda = E nu/(1 - nu^2) [Pa],
/// which has the material's Poisson ratio nu on any mesh.
/// Stencil DOFs: (x_0, x_1, x_2) of the triangle, 9 entries.

#include <array>
#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// E [J], and when requested dE/dx [N] and d2E/dx2 [N/m] (symmetric) of one triangle with nodes x.
double membrane_cst_derivatives(const std::array<Vec3, 3>& x, const MembraneTriangle& triangle,
                                VecN<9>* gradient, MatN<9>* hessian);

/// Sum of the energies of Model::shells.membrane_triangles.
class MembraneCstEnergy final : public Energy {
 public:
  std::string_view name() const override { return "membrane_cst"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

}  // namespace tendril
