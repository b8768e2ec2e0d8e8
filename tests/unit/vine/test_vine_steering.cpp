// Steering by bending actuation (vine paper V, future work): schedules of the pin joints' rest
// angles. A damped vine follows its scheduled rest angles to static equilibrium (no load: the pin
// angles equal the rest angles, eq. 7 with tau = 0).
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

TEST(Steering, PinAnglesFollowTheScheduledRestAngles) {
  UniformVineParameters p;
  p.bodies = 5;
  p.half_length = 0.02;
  p.stiffness = 0.05;
  p.damping = 2e-3;
  p.dt = 0.01;
  VineModel m = uniform_vine(p);
  m.springs = SpringIntegration::implicit;
  // pin 0 held at 0, pin 1 bends to 0.3 rad over 0.5 s, pin 2 to -0.2 rad at t = 1 s
  m.rest_angle_schedule = {table_schedule({0.0}, {0.0}), table_schedule({0.0, 0.5}, {0.0, 0.3}),
                           table_schedule({0.0, 1.0, 1.01}, {0.0, 0.0, -0.2})};
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  for (int k = 0; k < 300; ++k) {
    ASSERT_TRUE(stepper.step(s).ok());
    if (k == 50) {
      EXPECT_NEAR(stepper.model().rest_angle[1], 0.3, 1e-12);
      EXPECT_GT(pin_angle_deviation(stepper.model(), s.q, 1), -0.3);  // lagging, moving towards it
    }
  }
  EXPECT_NEAR(stepper.model().rest_angle[2], -0.2, 1e-12);
  for (int j = 0; j < m.num_pins(); ++j)
    EXPECT_NEAR(pin_angle_deviation(stepper.model(), s.q, j), 0.0, 1e-4) << j;
  EXPECT_NEAR(s.q(3 * 2 + 2) - s.q(3 * 1 + 2), 0.3, 1e-4);  // pin 1: theta_2 - theta_1
}

}  // namespace
}  // namespace tendril::vine
