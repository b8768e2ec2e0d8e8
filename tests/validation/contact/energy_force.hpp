#pragma once
/// The force some of a simulation's energies put on a set of nodes, for the contact validations.

#include <vector>

#include "tendril/sim/simulation.hpp"

namespace tendril::testing {

/// Sum over `nodes` of -dE/dx of the model's energies for which select(const Energy&) is true, at
/// the simulation's current state [N].
template <class Select>
Vec3 energy_force_on(const sim::Simulation& sim, const std::vector<int>& nodes, Select select) {
  const Model& m = sim.model();
  Kinematics kin;
  compute_kinematics(m, sim.state().frames, sim.state().q, kin);
  const EvalInput in{m, sim.state().q, sim.state().u, sim.state().time, kin};
  VecX gradient = VecX::Zero(m.dofs.size());
  EnergyOutput out;
  out.gradient = &gradient;
  for (const auto& e : m.energies)
    if (select(*e)) e->accumulate(in, out);
  Vec3 total = Vec3::Zero();
  for (int n : nodes) total -= gradient.segment<3>(m.dofs.node(n));
  return total;
}

}  // namespace tendril::testing
