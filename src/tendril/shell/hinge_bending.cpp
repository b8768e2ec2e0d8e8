#include "tendril/shell/hinge_bending.hpp"

#include "tendril/geometry/dihedral_angle.hpp"

namespace tendril {
namespace {

std::array<int, 12> stencil_dofs(const DofMap& dofs, const ShellHinge& hinge) {
  std::array<int, 12> out{};
  for (int k = 0; k < 4; ++k)
    for (int d = 0; d < 3; ++d)
      out[static_cast<std::size_t>(3 * k + d)] =
          dofs.node(hinge.nodes[static_cast<std::size_t>(k)]) + d;
  return out;
}

/// The hinge's node positions from its stencil DOFs.
HingeStencil gather(const EvalInput& in, const std::array<int, 12>& dofs) {
  HingeStencil x;
  for (std::size_t k = 0; k < 4; ++k) x[k] = in.q.segment<3>(dofs[3 * k]);
  return x;
}

}  // namespace

double hinge_bending_energy(const HingeStencil& x, const ShellHinge& hinge) {
  const double strain = dihedral_angle(x[0], x[1], x[2], x[3]) - hinge.natural_angle;
  return 0.5 * hinge.stiffness * strain * strain;
}

double hinge_bending_derivatives(const HingeStencil& x, const ShellHinge& hinge, VecN<12>* gradient,
                                 MatN<12>* hessian) {
  // dE = k (phi - phi_bar) dphi, d2E = k (phi - phi_bar) d2phi + k dphi dphi^T
  VecN<12> dphi;
  const AngleSpring spring{hinge.stiffness, hinge.natural_angle};
  const double strain =
      dihedral_angle_derivatives(x[0], x[1], x[2], x[3], &dphi, hessian, &spring) -
      hinge.natural_angle;
  if (gradient) *gradient = hinge.stiffness * strain * dphi;
  return 0.5 * hinge.stiffness * strain * strain;
}

void HingeBendingEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const ShellHinge& hinge : model.shells.hinges)
    pattern.add_stencil(stencil_dofs(model.dofs, hinge));
}

void HingeBendingEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const auto& hinges = in.model.shells.hinges;
  for (std::size_t i = 0; i < hinges.size(); ++i) {
    const ShellHinge& hinge = hinges[i];
    const std::array<int, 12> dofs = stencil_dofs(in.model.dofs, hinge);
    const HingeStencil x = gather(in, dofs);
    if (!out.gradient && !out.hessian) {
      out.energy += hinge_bending_energy(x, hinge);
      continue;
    }
    VecN<12> g;
    MatN<12> h;
    out.energy += hinge_bending_derivatives(x, hinge, &g, out.hessian ? &h : nullptr);
    if (out.gradient)
      for (std::size_t k = 0; k < 12; ++k)
        (*out.gradient)[dofs[k]] += g[static_cast<Eigen::Index>(k)];
    if (out.hessian) out.hessian->add_cached_symmetric(this, i, dofs, h);
  }
}

}  // namespace tendril
