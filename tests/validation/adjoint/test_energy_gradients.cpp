// Gradients of energy objectives (adjoint/energy_objective.hpp) against central differences of
// whole runs: the curled 3D rod with an initial twist rate in a viscous medium (its reference
// frames turn out of plane, so the elastic energy's frame-angle gradient is needed), with the
// parameters each energy does not read itself and with those it reads (the kinetic energy the
// density, the elastic energy the stiffness and the natural curvatures: their explicit derivative
// at the fixed state is part of the gradient).
#include <cmath>
#include <functional>
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

/// The energy objective at a step on the model with `parameters` (energy_objective.hpp).
using EnergyObjective = std::function<adjoint::Objective(
    const Model& model, const std::vector<adjoint::Parameter>& parameters)>;

/// The gradient of the objective `energy` makes over c's run with the parameters `chosen` (indices
/// into c.parameters) and of the initial twist rate of edge 5, against converged central
/// differences of whole runs (each with the objective of its moved parameters).
void expect_energy_gradient(const test::CurledRod& c, const EnergyObjective& energy,
                            const std::vector<std::size_t>& chosen) {
  std::vector<adjoint::Parameter> parameters;
  for (std::size_t i : chosen) parameters.push_back(c.parameters[i]);
  const adjoint::Objective objective = energy(c.model, parameters);
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
          return adjoint::run_objective(c.model, c.options, c.initial, kSteps,
                                        energy(c.model, moved), moved);
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

/// The kinetic energy at step 25 and the elastic energy at the run's end.
adjoint::Objective kinetic(const Model& model, const std::vector<adjoint::Parameter>& parameters) {
  return adjoint::kinetic_energy(model, 25, parameters);
}
adjoint::Objective elastic(const Model& model, const std::vector<adjoint::Parameter>& parameters) {
  return adjoint::elastic_energy(model, kSteps, parameters);
}

TEST(EnergyGradients, KineticEnergyOfTheCurledRod) {
  const test::CurledRod c = test::curled_rod();
  // E, both uniform natural curvatures, spring 6's kappa_1, the viscosity (not the density)
  expect_energy_gradient(c, kinetic, {0, 2, 3, 4, 5});
}

TEST(EnergyGradients, ElasticEnergyOfTheCurledRod) {
  const test::CurledRod c = test::curled_rod();
  // the density and the viscosity (not the stiffness or the natural curvatures)
  expect_energy_gradient(c, elastic, {1, 5});
}

TEST(EnergyGradients, KineticEnergyWithTheDensityItReads) {
  const test::CurledRod c = test::curled_rod();
  // the masses scale with the density: dL/drho = L / rho at the fixed state, plus the path
  expect_energy_gradient(c, kinetic, {0, 1, 2, 3, 4, 5});
}

TEST(EnergyGradients, ElasticEnergyWithTheStiffnessAndCurvaturesItReads) {
  const test::CurledRod c = test::curled_rod();
  // E scales the energy, the natural curvatures are its rest quantities (quadratic in them)
  expect_energy_gradient(c, elastic, {0, 1, 2, 3, 4, 5});
}

}  // namespace
}  // namespace tendril
