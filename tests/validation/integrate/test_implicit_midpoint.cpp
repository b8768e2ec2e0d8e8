// Implicit midpoint on oscillators:
// (1) linear oscillator m x'' = -k x: the update is the Cayley transform of the rotation generator,
//     an exact rotation in (x, u/omega) by 2 atan(omega dt / 2) per step, so the energy
//     E = m|u|^2/2 + k|x|^2/2 is conserved to round-off over any number of periods and the discrete
//     frequency is omega_h = (2/dt) atan(omega dt / 2) (phase error ~ (omega dt)^2 / 12 relative);
//     Hairer, Lubich & Wanner, Geometric Numerical Integration, sec. IV.2 (quadratic invariants)
//     and I.1 (symplectic Euler/midpoint on the harmonic oscillator).
// (2) a nonlinear spring pendulum under gravity: midpoint is symplectic and symmetric, so its
// energy
//     error stays bounded (no drift) over long times (ibid. sec. IX.8), while backward Euler's
//     decays.
// (3) the generalised midpoint rule (forces at q_alpha = (1 - alpha) q_k + alpha q_{k+1}) on the
// linear
//     oscillator: with K the rotation generator the update is (I + alpha dt K)^{-1} (I - (1 -
//     alpha) dt K), so E is multiplied by rho^2 = (1 + (1 - alpha)^2 (omega dt)^2) / (1 + alpha^2
//     (omega dt)^2) every step exactly (1 at alpha = 1/2, backward Euler's 1/(1 + (omega dt)^2) at
//     alpha = 1).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/integrate/springs.hpp"

namespace tendril {
namespace {

TEST(ImplicitMidpoint, LinearOscillatorEnergyIsConservedOverManyPeriods) {
  const double m = 0.3, k = 12.0, omega = std::sqrt(k / m);
  const Vec3 x0(1.0, 0.0, 0.0);
  Model model = testing::make_particles(x0, m);
  model.energies.push_back(std::make_shared<testing::LinearSprings>(
      std::vector<testing::LinearSpring>{{0, -1, k, Vec3::Zero()}}));
  State state = testing::make_state(model, x0, Vec3(0.0, 0.7, 0.0));
  DynamicsOptions options;
  options.scheme = Scheme::implicit_midpoint;
  options.dt = 0.1 / omega;  // omega dt = 0.1
  TimeStepper stepper(model, options, state.q);
  auto energy = [&] { return 0.5 * m * state.u.squaredNorm() + 0.5 * k * state.q.squaredNorm(); };
  const double e0 = energy();
  const int steps_per_period = static_cast<int>(std::ceil(2.0 * std::numbers::pi / 0.1));
  double worst = 0.0;
  for (int n = 0; n < 100 * steps_per_period; ++n) {
    ASSERT_TRUE(stepper.step(state).ok());
    worst = std::max(worst, std::abs(energy() - e0) / e0);
  }
  EXPECT_LT(worst, 1e-10) << "over 100 periods";
}

TEST(ImplicitMidpoint, PhaseFollowsTheDiscreteFrequency) {
  const double m = 1.0, k = 4.0, omega = 2.0;
  for (double omega_dt : {0.05, 0.2, 0.5}) {
    const Vec3 x0(1.0, 0.0, 0.0);
    Model model = testing::make_particles(x0, m);
    model.energies.push_back(std::make_shared<testing::LinearSprings>(
        std::vector<testing::LinearSpring>{{0, -1, k, Vec3::Zero()}}));
    State state = testing::make_state(model, x0, Vec3::Zero());
    DynamicsOptions options;
    options.scheme = Scheme::implicit_midpoint;
    options.dt = omega_dt / omega;
    TimeStepper stepper(model, options, state.q);
    const double omega_h = 2.0 / options.dt * std::atan(omega_dt / 2.0);
    const int steps = 400;
    for (int n = 0; n < steps; ++n) ASSERT_TRUE(stepper.step(state).ok());
    const double t = steps * options.dt;
    EXPECT_NEAR(state.q[0], std::cos(omega_h * t), 1e-9) << "omega dt " << omega_dt;
    EXPECT_NEAR(state.u[0], -omega * std::sin(omega_h * t), 1e-9) << "omega dt " << omega_dt;
    // and the phase lags the exact solution by (omega - omega_h) t ~ omega^3 dt^2 t / 12
    const double lag = (omega - omega_h) * t;
    EXPECT_NEAR(lag, omega * omega_dt * omega_dt * t / 12.0, 0.05 * lag + 1e-12);
  }
}

TEST(ImplicitMidpoint, GeneralisedMidpointDampsByTheClosedFormFactor) {
  const double m = 0.5, k = 8.0, omega = 4.0;
  for (double alpha : {0.5, 0.52, 0.75, 1.0}) {
    for (double omega_dt : {0.3, 3.0, 30.0}) {
      const Vec3 x0(1.0, 0.0, 0.0);
      Model model = testing::make_particles(x0, m);
      model.energies.push_back(std::make_shared<testing::LinearSprings>(
          std::vector<testing::LinearSpring>{{0, -1, k, Vec3::Zero()}}));
      State state = testing::make_state(model, x0, Vec3(0.0, 1.5, 0.0));
      DynamicsOptions options;
      options.scheme = Scheme::implicit_midpoint;
      options.midpoint_alpha = alpha;
      options.dt = omega_dt / omega;
      TimeStepper stepper(model, options, state.q);
      auto energy = [&] {
        return 0.5 * m * state.u.squaredNorm() + 0.5 * k * state.q.squaredNorm();
      };
      const double e0 = energy();
      const double a = alpha * omega_dt, b = (1.0 - alpha) * omega_dt;
      const double rho2 = (1.0 + b * b) / (1.0 + a * a);
      const int steps = 20;
      for (int n = 0; n < steps; ++n) ASSERT_TRUE(stepper.step(state).ok());
      EXPECT_NEAR(energy() / (e0 * std::pow(rho2, steps)), 1.0, 1e-10)
          << "alpha " << alpha << ", omega dt " << omega_dt;
    }
  }
}

/// A mass on an elastic spring (rest length 1 m) hanging from the origin, swinging in 3D.
struct SpringPendulum {
  double m = 0.2, k = 40.0;
  Model model;
  State state;
  SpringPendulum() {
    const Vec3 x0(0.8, 0.0, -0.9);
    model = testing::make_particles(x0, m);
    model.energies.push_back(std::make_shared<testing::ElasticSprings>(
        std::vector<testing::ElasticSpring>{{0, -1, k, 1.0, Vec3::Zero()}}));
    model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
    state = testing::make_state(model, x0, Vec3(0.0, 0.9, 0.0));
  }
  double energy() const {
    const double stretch = state.q.head<3>().norm() - 1.0;
    return 0.5 * m * state.u.squaredNorm() + 0.5 * k * stretch * stretch + m * 9.81 * state.q[2];
  }
};

TEST(ImplicitMidpoint, NonlinearEnergyErrorStaysBoundedWithoutDrift) {
  SpringPendulum p;
  DynamicsOptions options;
  options.scheme = Scheme::implicit_midpoint;
  options.dt = 5e-3;
  options.newton.force_tolerance = 1e-12;
  TimeStepper stepper(p.model, options, p.state.q);
  const double e0 = p.energy();
  const double scale =
      0.5 * p.m * p.state.u.squaredNorm() + p.m * 9.81 * 1.0;  // typical energy exchanged [J]
  const int steps = 20000;                                     // 100 s, ~50 pendulum periods
  double worst = 0.0, early = 0.0, late = 0.0;
  for (int n = 0; n < steps; ++n) {
    ASSERT_TRUE(stepper.step(p.state).ok());
    const double error = (p.energy() - e0) / scale;
    worst = std::max(worst, std::abs(error));
    if (n < steps / 10) early += error / (steps / 10);
    if (n >= steps - steps / 10) late += error / (steps / 10);
  }
  EXPECT_LT(worst, 2e-3) << "bounded energy error";
  EXPECT_LT(std::abs(late - early), 2e-4) << "no drift between the first and last tenth";

  // backward Euler on the same pendulum loses a visible fraction of its energy
  SpringPendulum q;
  options.scheme = Scheme::implicit_euler;
  TimeStepper euler(q.model, options, q.state.q);
  for (int n = 0; n < steps; ++n) ASSERT_TRUE(euler.step(q.state).ok());
  EXPECT_LT((q.energy() - e0) / scale, -0.05);
}

}  // namespace
}  // namespace tendril
