// Gradients of energy objectives (adjoint/energy_objective.hpp) against central differences of
// whole runs: the curled 3D rod with an initial twist rate in a viscous medium (its reference
// frames turn out of plane, so the elastic energy's frame-angle gradient is needed), with the
// parameters each energy does not read itself (the objective's explicit dependence on a parameter
// is not part of the gradient; energy_objective.hpp).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/adjoint/energy_objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "unit/adjoint/curled_rod.hpp"
#include "validation/adjoint/whole_run_difference.hpp"

namespace tendril {
namespace {

constexpr int kSteps = 40;

/// The gradient of `objective` over c's run with the parameters `chosen` (indices into
/// c.parameters) and of the initial twist rate of edge 5, against converged central differences.
void expect_energy_gradient(const test::CurledRod& c, const adjoint::Objective& objective,
                            const std::vector<std::size_t>& chosen) {
  std::vector<adjoint::Parameter> parameters;
  for (std::size_t i : chosen) parameters.push_back(c.parameters[i]);
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, kSteps, objective, parameters);
  ASSERT_TRUE(g.ok) << g.message;
  const auto check = [](double value, double difference, double uncertainty, const std::string& w) {
    EXPECT_NEAR(value, difference, 1e-6 * std::abs(difference))
        << w << " (converged to " << uncertainty << ")";
    EXPECT_GT(std::abs(difference), 1e3 * uncertainty) << w << ": the difference is resolved";
  };
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    double uncertainty = 0.0;
    const double difference = test::converged_central_difference(
        [&](double v) {
          std::vector<adjoint::Parameter> moved = parameters;
          moved[i].value = v;
          return adjoint::run_objective(c.model, c.options, c.initial, kSteps, objective, moved);
        },
        parameters[i].value, 1e-2 * parameters[i].difference_step(), &uncertainty);
    check(g.parameters[static_cast<Eigen::Index>(i)], difference, uncertainty, parameters[i].name);
  }
  const int twist = c.model.dofs.twist(5);
  double uncertainty = 0.0;
  const double difference = test::converged_central_difference(
      [&](double v) {
        State initial = c.initial;
        initial.u[twist] = v;
        return adjoint::run_objective(c.model, c.options, initial, kSteps, objective, parameters);
      },
      c.initial.u[twist], 1e-1, &uncertainty);
  check(g.initial_velocity[twist], difference, uncertainty, "initial twist rate of edge 5");
}

TEST(EnergyGradients, KineticEnergyOfTheCurledRod) {
  const test::CurledRod c = test::curled_rod();
  // E, both uniform natural curvatures, spring 6's kappa_1, the viscosity (not the density)
  expect_energy_gradient(c, adjoint::kinetic_energy(c.model, 25), {0, 2, 3, 4, 5});
}

TEST(EnergyGradients, ElasticEnergyOfTheCurledRod) {
  const test::CurledRod c = test::curled_rod();
  // the density and the viscosity (not the stiffness or the natural curvatures)
  expect_energy_gradient(c, adjoint::elastic_energy(c.model, kSteps), {1, 5});
}

}  // namespace
}  // namespace tendril
