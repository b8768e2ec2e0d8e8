#pragma once
/// A run whose objective's gradient is checked against central differences of whole runs, and the
/// check (shared by the validation tests of the adjoint).

#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/geometry/parallel_transport.hpp"
#include "unit/rod/rod_shapes.hpp"
#include "validation/adjoint/whole_run_difference.hpp"

namespace tendril::test {

/// A run whose objective's gradient is checked.
struct GradientCase {
  Model model;
  State initial;
  DynamicsOptions options;
  int steps = 0;
  adjoint::Objective objective;
  std::vector<adjoint::Parameter> parameters;
  adjoint::GradientOptions gradient;  ///< the static start, if any
};

/// Implicit Euler at dt [s], Newton to its round-off floor so that whole-run differences resolve
/// the gradient.
inline DynamicsOptions tight_euler(double dt) {
  DynamicsOptions options;
  options.dt = dt;
  options.newton.force_tolerance = 1e-14;
  return options;
}

/// The cantilever (L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52 kg/m^3) with 11 nodes, clamped at
/// x = 0, under gravity along -z.
inline GradientCase cantilever() {
  test::BuiltRod rod = test::clamped_benchmark_rod(11);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  GradientCase c;
  c.initial = test::rest_state(rod);
  c.options = tight_euler(2e-3);
  c.steps = 50;
  // the tip's distance to a point below it at the end, plus the time integral of its height
  c.objective = adjoint::sum({adjoint::distance_to_targets(rod.model, {{10, 50, {0.9, 0.0, -0.1}}}),
                              adjoint::position_time_integral(rod.model, 10, Vec3::UnitZ(), 2e-3)});
  c.parameters = {adjoint::youngs_modulus(rod.model, 1e7), adjoint::density(rod.model, 1273.52),
                  adjoint::uniform_natural_curvature(0, 0.0),
                  adjoint::spring_natural_curvature(rod.model, 4, 0)};
  c.model = std::move(rod.model);
  return c;
}

/// The cantilever with natural curvature about both material axes (it curls out of the plane)
/// and an initial twist rate.
inline GradientCase curled_cantilever() {
  GradientCase c = cantilever();
  c.parameters = {adjoint::youngs_modulus(c.model, 1e7), adjoint::density(c.model, 1273.52),
                  adjoint::uniform_natural_curvature(0, 2.0),
                  adjoint::uniform_natural_curvature(1, -1.5),
                  adjoint::spring_natural_curvature(c.model, 6, 0)};
  for (int e = 1; e < 10; ++e) c.initial.u[c.model.dofs.twist(e)] = 3.0 * e;
  return c;
}

/// The curled cantilever with steps of 20 ms and at most 4 Newton iterations: the first steps of
/// the release fail whole and are split (dt halved, once or more). L: the tip's distance to a point
/// at the end plus the time integral of its height.
inline GradientCase halved_steps_cantilever() {
  GradientCase c = curled_cantilever();
  c.options.dt = 0.02;
  c.options.newton.max_iterations = 4;
  c.steps = 5;
  c.objective =
      adjoint::sum({adjoint::distance_to_targets(c.model, {{10, 5, {0.6, 0.0, -0.5}}}),
                    adjoint::position_time_integral(c.model, 10, Vec3::UnitZ(), c.options.dt)});
  return c;
}

/// Which entry of the initial state a difference moves.
enum class InitialEntry { velocity, position };

/// L with parameter i at `value`.
inline double objective_at(const GradientCase& c, std::size_t i, double value) {
  std::vector<adjoint::Parameter> parameters = c.parameters;
  parameters[i].value = value;
  return adjoint::run_objective(c.model, c.options, c.initial, c.steps, c.objective, parameters,
                                c.gradient);
}

/// L with initial velocity or position of DOF `dof` at `value`; a moved position carries each
/// reference director to its edge's new tangent by parallel transport (the initial state's
/// coordinates, docs/physics/gradients.md).
inline double objective_at(const GradientCase& c, InitialEntry entry, int dof, double value) {
  State initial = c.initial;
  (entry == InitialEntry::velocity ? initial.u : initial.q)[dof] = value;
  const Model& model = c.model;
  for (std::size_t e = 0; entry == InitialEntry::position && e < model.rods.edges.size(); ++e) {
    const auto& nodes = model.rods.edges[e];
    const Vec3 t = (initial.q.segment<3>(model.dofs.node(nodes[1])) -
                    initial.q.segment<3>(model.dofs.node(nodes[0])))
                       .normalized();
    initial.frames.reference_director[e] = parallel_transport_normal(
        initial.frames.reference_director[e], initial.frames.tangent[e], t);
    initial.frames.tangent[e] = t;
  }
  return adjoint::run_objective(c.model, c.options, initial, c.steps, c.objective, c.parameters,
                                c.gradient);
}

inline void expect_matches(double adjoint_value, double difference, double uncertainty,
                           const std::string& what) {
  EXPECT_NEAR(adjoint_value, difference, 1e-6 * std::abs(difference))
      << what << ": whole-run difference " << difference << " (converged to " << uncertainty << ")";
  EXPECT_GT(std::abs(difference), 1e3 * uncertainty) << what << ": the difference is resolved";
}

/// Every parameter's and the listed initial velocities' and positions' gradients against
/// converged central differences of whole runs (relative error <= 1e-6); velocity steps from 1e-2
/// m/s (rad/s), position steps from 1e-3 m (rad). Returns the gradient.
inline adjoint::RunGradient expect_gradient_matches_differences(
    const GradientCase& c, const std::vector<int>& velocity_dofs,
    const std::vector<int>& position_dofs = {}) {
  const adjoint::RunGradient g = adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps,
                                                            c.objective, c.parameters, c.gradient);
  EXPECT_TRUE(g.ok) << g.message;
  if (!g.ok) return g;
  EXPECT_DOUBLE_EQ(g.value, adjoint::run_objective(c.model, c.options, c.initial, c.steps,
                                                   c.objective, c.parameters, c.gradient));
  for (std::size_t i = 0; i < c.parameters.size(); ++i) {
    const adjoint::Parameter& p = c.parameters[i];
    double uncertainty = 0.0;
    const double difference =
        test::converged_central_difference([&](double v) { return objective_at(c, i, v); }, p.value,
                                           1e-2 * p.difference_step(), &uncertainty);
    expect_matches(g.parameters[static_cast<Eigen::Index>(i)], difference, uncertainty, p.name);
  }
  for (const auto& [entry, dofs, h0] : {std::tuple{InitialEntry::velocity, velocity_dofs, 1e-2},
                                        std::tuple{InitialEntry::position, position_dofs, 1e-3}})
    for (int dof : dofs) {
      double uncertainty = 0.0;
      const VecX& start = entry == InitialEntry::velocity ? c.initial.u : c.initial.q;
      const double difference = test::converged_central_difference(
          [&](double v) { return objective_at(c, entry, dof, v); }, start[dof], h0, &uncertainty);
      const VecX& adjoint_value =
          entry == InitialEntry::velocity ? g.initial_velocity : g.initial_position;
      expect_matches(adjoint_value[dof], difference, uncertainty,
                     (entry == InitialEntry::velocity ? "initial velocity of DOF "
                                                      : "initial position of DOF ") +
                         std::to_string(dof));
    }
  return g;
}

}  // namespace tendril::test
