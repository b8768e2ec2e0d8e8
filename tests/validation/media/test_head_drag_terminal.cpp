// Closed form: a head pulled by a constant force F through a medium with the head drag of
// granular_flagella eq. 11 reaches the terminal velocity v = F / (6 pi C1 mu a) (Stokes' law with
// the shape factor C1), and under a constant torque T on the head edge's twist the terminal spin
// omega = T / (8 pi C2 mu a^3) (eq. 12). The head is a single stiff edge x_0 - x_h; force and drag
// act on x_h, the torque on the edge's twist.
#include <cmath>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/custom_force.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril {
namespace {

TEST(HeadDragTerminal, VelocityAndSpinReachStokesValues) {
  const double a = 0.02, C1 = 2.420, C2 = 0.039, mu = 6.828;  // granular_flagella IV-F, V-C
  RodMaterial m;
  m.youngs_modulus = 1.2e9;
  m.poisson_ratio = 0.5;
  m.density = 1000;
  m.radius = 3.2e-3;
  RodNetworkInput in;
  in.nodes = {Vec3(0, 0, 0), Vec3(-2 * a, 0, 0)};
  in.edges = {{0, 1}};
  in.materials = {m};
  Model model = build_rod_model(in);
  const Vec3 F(-0.02, 0.0, 0.0);  // [N], along the edge: the edge is towed without turning
  const double T = 2e-5;          // [N m]
  model.forces.push_back(std::make_shared<HeadDrag>(1, 0, HeadDragParameters{C1, C2, mu, a}));
  model.forces.push_back(std::make_shared<PointLoad>(1, F));
  const int twist = model.dofs.twist(0);
  model.forces.push_back(std::make_shared<CustomForce>(
      "torque", [twist, T](const VecX&, const VecX&, double, VecX& f) { f[twist] += T; }));
  State state;
  state.q = rest_configuration(model);
  state.u = VecX::Zero(state.q.size());
  initialize_frames(model, state.q, state.frames);
  DynamicsOptions options;
  options.dt = 1e-3;
  TimeStepper stepper(model, options, state.q);
  // relaxation times: m / (6 pi C1 mu a) = 2.1e-3 s, I / (8 pi C2 mu a^3) = 1e-4 s
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(stepper.step(state).ok());
  const double pi = std::numbers::pi;
  const Vec3 v_expected = F / (6 * pi * C1 * mu * a);
  const Vec3 v = 0.5 * (state.u.segment<3>(0) + state.u.segment<3>(3));
  EXPECT_LE((v - v_expected).norm(), 1e-6 * v_expected.norm());
  EXPECT_NEAR(state.u[twist], T / (8 * pi * C2 * mu * a * a * a),
              1e-6 * T / (8 * pi * C2 * mu * a * a * a));
}

}  // namespace
}  // namespace tendril
