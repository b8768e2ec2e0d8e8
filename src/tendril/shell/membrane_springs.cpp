#include "tendril/shell/membrane_springs.hpp"

#include <array>

#include "tendril/rod/stretch.hpp"

namespace tendril {
namespace {

std::array<int, 6> stencil_dofs(const Model& model, const ShellEdgeSpring& spring) {
  const auto& nodes = model.shells.edges[static_cast<std::size_t>(spring.edge)];
  const int a = model.dofs.node(nodes[0]);
  const int b = model.dofs.node(nodes[1]);
  return {a, a + 1, a + 2, b, b + 1, b + 2};
}

}  // namespace

void MembraneSpringEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const ShellEdgeSpring& spring : model.shells.edge_springs)
    pattern.add_stencil(stencil_dofs(model, spring));
}

void MembraneSpringEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const auto& springs = in.model.shells.edge_springs;
  for (std::size_t i = 0; i < springs.size(); ++i) {
    const ShellEdgeSpring& spring = springs[i];
    const std::array<int, 6> dofs = stencil_dofs(in.model, spring);
    const Vec3 edge = in.q.segment<3>(dofs[3]) - in.q.segment<3>(dofs[0]);
    out.energy += stretch_energy(edge, spring.rest_length, spring.stiffness);
    if (out.gradient) {
      const VecN<6> g = stretch_gradient(edge, spring.rest_length, spring.stiffness);
      out.gradient->segment<3>(dofs[0]) += g.head<3>();
      out.gradient->segment<3>(dofs[3]) += g.tail<3>();
    }
    if (out.hessian)
      out.hessian->add_cached_symmetric(
          this, i, dofs, stretch_hessian(edge, spring.rest_length, spring.stiffness));
  }
}

}  // namespace tendril
