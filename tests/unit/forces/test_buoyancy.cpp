// BuoyancyEnergy: E = rho_med sum_i V_i g . x_i, F_i = - rho_med V_i g (mat_dismech 5.1).
#include <gtest/gtest.h>

#include "support/conformance.hpp"
#include "support/input_error.hpp"
#include "tendril/forces/buoyancy.hpp"
#include "tendril/forces/gravity.hpp"
#include "unit/shell/shell_meshes.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(Buoyancy, ConformsAndIsMinusTheWeightOfTheDisplacedMedium) {
  const test::BuiltShell s =
      test::build(test::irregular_mesh(5), ShellBending::midedge, ShellMembrane::cst);
  const int n = s.model.dofs.num_nodes;
  std::vector<double> volume(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) volume[static_cast<std::size_t>(i)] = 1e-3 * (1 + i % 3);
  const Vec3 g(0.0, 0.0, -9.81);
  const BuoyancyEnergy buoyancy(volume, g, 1000.0);
  for (unsigned seed : {1u, 2u})
    expect_energy_conforms(buoyancy, s.model, s.frames, perturbed(s.model, s.q, 0.1, 0.0, seed));
  const EnergyEval e = evaluate_energy(buoyancy, s.model, s.frames, s.q);
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(
        (e.gradient.segment<3>(3 * i) - 1000.0 * volume[static_cast<std::size_t>(i)] * g).norm(),
        0.0, 1e-12);
  EXPECT_EQ(e.gradient.tail(s.model.dofs.num_shell_edges).norm(), 0.0);
  EXPECT_TRUE(buoyancy.is_external_load());
}

TEST(Buoyancy, NeutrallyBuoyantShellFeelsNoNetLoad) {
  // V_i = m_i / rho: with rho_med = rho, gravity and buoyancy cancel on every node (the paper's
  // (rho - rho_med) / rho g)
  const test::BuiltShell s =
      test::build(io::disc_mesh(0.5, 3), ShellBending::hinge, ShellMembrane::cst);
  const double rho =
      test::shell_input(io::disc_mesh(0.5, 3), ShellBending::hinge, ShellMembrane::cst)
          .material.density;
  std::vector<double> volume;
  for (int i = 0; i < s.model.dofs.num_nodes; ++i) volume.push_back(s.model.mass[3 * i] / rho);
  const Vec3 g(0.0, -3.0, -9.81);
  const EnergyEval weight = evaluate_energy(GravityEnergy(g), s.model, s.frames, s.q);
  const EnergyEval lift = evaluate_energy(BuoyancyEnergy(volume, g, rho), s.model, s.frames, s.q);
  EXPECT_LT((weight.gradient + lift.gradient).norm(), 1e-14 * weight.gradient.norm());
}

TEST(Buoyancy, BadInputNamesTheKey) {
  testing::expect_input_error([] { BuoyancyEnergy({1.0}, Vec3(0, 0, -1), -5.0); },
                              {"buoyancy.density", "-5"});
  testing::expect_input_error(
      [] {
        BuoyancyEnergy({1.0, -2.0}, Vec3(0, 0, -1), 1.0);
      },
      {"node_volume[1]", "-2"});
}

}  // namespace
}  // namespace tendril
