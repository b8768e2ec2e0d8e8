#pragma once
/// Hinge bending energy of shells (mat_dismech 3.3.1, eq. 17; Grinspun et al. 2003;
/// docs/physics/shells.md#hinge-bending):
///   E = 1/2 k_b (phi - phi_bar)^2
/// per hinge, with phi the signed dihedral angle (geometry/dihedral_angle.hpp), phi_bar the natural
/// angle [rad] (ShellHinge::natural_angle, changeable between steps) and k_b [N m]
/// (ShellHinge::stiffness, by default 2 D / sqrt(3): default_hinge_stiffness in
/// shell/shell_builder.hpp). Stencil DOFs: (x_0, x_1, x_2, x_3) of ShellHinge::nodes, 12 entries.

#include <array>
#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// The four nodes of one hinge, in ShellHinge::nodes order.
using HingeStencil = std::array<Vec3, 4>;

/// E [J] of one hinge.
double hinge_bending_energy(const HingeStencil& x, const ShellHinge& hinge);
/// E [J], and when requested dE/dq [N] and d2E/dq2 [N/m] (symmetric) of one hinge.
double hinge_bending_derivatives(const HingeStencil& x, const ShellHinge& hinge, VecN<12>* gradient,
                                 MatN<12>* hessian);

/// Sum of the hinge energies of Model::shells.hinges.
class HingeBendingEnergy final : public Energy {
 public:
  std::string_view name() const override { return "hinge_bending"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

}  // namespace tendril
