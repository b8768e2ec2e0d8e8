#pragma once
/// A small 3D rod run shared by the adjoint unit tests: the cantilever (11 nodes, clamped
/// at x = 0) under gravity with natural curvature about both material axes and an initial twist
/// rate, so its reference frames turn out of plane.

#include <memory>
#include <utility>

#include <gtest/gtest.h>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril::test {

struct CurledRod {
  Model model;  ///< with the parameters applied
  State initial;
  DynamicsOptions options;
  std::vector<adjoint::Parameter> parameters;
};

inline CurledRod curled_rod() {
  BuiltRod rod = clamped_benchmark_rod(11);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  rod.model.forces.push_back(std::make_shared<ViscousDrag>(rod.model, std::vector<int>{}, 0.2));
  CurledRod c;
  c.initial = rest_state(rod);
  for (int e = 1; e < 10; ++e) c.initial.u[rod.model.dofs.twist(e)] = 3.0 * e;
  c.options.dt = 2e-3;
  c.options.newton.force_tolerance = 1e-14;
  c.parameters = {adjoint::youngs_modulus(rod.model, 1e7),
                  adjoint::density(rod.model, 1273.52),
                  adjoint::uniform_natural_curvature(0, 2.0),
                  adjoint::uniform_natural_curvature(1, -1.5),
                  adjoint::spring_natural_curvature(rod.model, 6, 0),
                  adjoint::viscosity(rod.model, 0, {}, 0.2)};
  c.model = adjoint::with_parameters(rod.model, c.parameters);
  return c;
}

/// The states before and after step `k` + 1 of c's run.
inline std::pair<State, State> step_of_run(const CurledRod& c, int k) {
  State start = c.initial;
  TimeStepper stepper(c.model, c.options, c.initial.q);
  for (int i = 0; i < k; ++i) EXPECT_TRUE(stepper.step(start).ok());
  State end = start;
  EXPECT_TRUE(stepper.step(end).ok());
  return {start, end};
}

}  // namespace tendril::test
