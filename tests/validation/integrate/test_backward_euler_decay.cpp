// Backward Euler on the linear oscillator m x'' = -k x damps the amplitude by exactly
//   |A_{n+1}| / |A_n| = 1 / sqrt(1 + (omega dt)^2),  omega = sqrt(k/m),  A = sqrt(|x|^2 + |u|^2 /
//   omega^2)
// per step: with w = u/omega the update is (I + omega dt J)^{-1}, J the 2x2 rotation generator,
// a rotation scaled by 1/sqrt(1 + (omega dt)^2) (Hairer & Wanner, Solving ODEs II, sec. IV.2;
// the numerical damping mat_dismech sec. 6.2 names).
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/integrate/time_stepper.hpp"
#include "unit/integrate/springs.hpp"

namespace tendril {
namespace {

TEST(BackwardEulerDecay, AmplitudeRatioPerStepMatchesClosedForm) {
  const double m = 0.3, k = 12.0, omega = std::sqrt(k / m);
  for (double omega_dt : {0.01, 0.1, 1.0, 10.0}) {
    SCOPED_TRACE("omega dt = " + std::to_string(omega_dt));
    // a zero-length spring to the origin: E = k |x|^2 / 2, no edges
    const Vec3 x0(1.0, 0.5, -0.3);
    Model model = testing::make_particles(x0, m);
    model.energies.push_back(std::make_shared<testing::LinearSprings>(
        std::vector<testing::LinearSpring>{{0, -1, k, Vec3::Zero()}}));
    State state = testing::make_state(model, x0, Vec3(0.2, -1.0, 0.4));
    DynamicsOptions options;
    options.dt = omega_dt / omega;
    TimeStepper stepper(model, options, state.q);
    const double expected = 1.0 / std::sqrt(1.0 + omega_dt * omega_dt);
    auto amplitude = [&] {
      return std::sqrt(state.q.squaredNorm() + state.u.squaredNorm() / (omega * omega));
    };
    for (int n = 0; n < 20; ++n) {
      const double before = amplitude();
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << report.message;
      EXPECT_LE(report.iterations, 1) << "a linear problem needs one Newton step";
      EXPECT_NEAR(amplitude() / before, expected, 1e-9 * expected);
    }
  }
}

}  // namespace
}  // namespace tendril
