#pragma once
/// Membrane of shells as springs on the shell edges (mat_dismech 3.1, eqs. 9-10;
/// docs/physics/shells.md#edge-spring-membrane):
///   E = 1/2 k_s (|e| / |e_bar| - 1)^2 |e_bar|,  default k_s = sqrt(3)/4 E h |e_bar| [N],
/// the rod stretching stencil (rod/stretch.hpp) on each ShellEdgeSpring. Its Poisson ratio is set
/// by the mesh (1/3 on an equilateral mesh, anisotropic on others); CST (membrane_cst.hpp) has the
/// material's. Stencil DOFs: (x_0, x_1) of the shell edge, 6 entries.

#include <string_view>

#include "tendril/core/term.hpp"

namespace tendril {

/// Sum of the energies of Model::shells.edge_springs.
class MembraneSpringEnergy final : public Energy {
 public:
  std::string_view name() const override { return "membrane_springs"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

}  // namespace tendril
