// Free cantilever released from a displacement (vine paper IV-B-1, Fig. 6 scenario): the chain of
// rigid pin-prismatic pairs with torsional springs K and dampers C is a linear spring-mass chain
// for small angles. Closed forms: one pair rotating about the base, I_b = sum (I_i + m_i r_i^2),
// theta'' I_b + C theta' + K theta = 0, so omega_d = sqrt(K / I_b - alpha^2), alpha = C / (2 I_b);
// two pairs: the 2x2 linearised mass matrix M and stiffness K [[2, -1], [-1, 1]] (damping
// proportional, C/K times it) give modes omega_i^2 = eig(M^-1 K), alpha_i = (C / K) omega_i^2 / 2.
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

constexpr double kMass = 1e-3, kInertia = 2e-4, kHalf = 0.2 / 30, kK = 0.5, kC = 5e-4;

struct Fit {
  double omega = 0.0;  ///< damped angular frequency [rad/s]
  double alpha = 0.0;  ///< decay rate [1/s]
};

/// Period from successive maxima (parabolic interpolation) and decay from their ratio.
Fit fit_oscillation(const std::vector<double>& y, double dt) {
  std::vector<double> t_peak, y_peak;
  for (std::size_t i = 1; i + 1 < y.size(); ++i)
    if (y[i] > y[i - 1] && y[i] >= y[i + 1] && y[i] > 0.0) {
      const double a = y[i - 1], b = y[i], c = y[i + 1];
      const double offset = 0.5 * (a - c) / (a - 2 * b + c);
      t_peak.push_back((static_cast<double>(i) + offset) * dt);
      y_peak.push_back(b - 0.25 * (a - c) * offset);
    }
  EXPECT_GE(t_peak.size(), 3u);
  const std::size_t last = t_peak.size() - 1;
  const double period = (t_peak[last] - t_peak[0]) / static_cast<double>(last);
  return {2 * M_PI / period, std::log(y_peak[0] / y_peak[last]) / (t_peak[last] - t_peak[0])};
}

VineModel chain(int bodies, double dt) {
  UniformVineParameters p;
  p.bodies = bodies;
  p.half_length = kHalf;
  p.mass = kMass;
  p.inertia = kInertia;
  p.stiffness = kK;
  p.damping = kC;
  p.dt = dt;
  return uniform_vine(p);
}

/// A chain of pairs with absolute pair angles `phi` (#pairs), at rest.
VineState bent_state(const VineModel& m, const std::vector<double>& phi) {
  VineState s;
  s.q.setZero(m.num_dofs());
  s.v.setZero(m.num_dofs());
  Vec2 end = Vec2::Zero();
  for (int i = 0; i < m.num_bodies; ++i) {
    const double a = phi[i / 2];
    const Vec2 e(std::cos(a), std::sin(a));
    const Vec2 centre = end + m.half_length[i] * e;
    s.q.segment<2>(3 * i) = centre;
    s.q(3 * i + 2) = a;
    end = centre + m.half_length[i] * e;
  }
  return s;
}

std::vector<double> base_angle_history(const VineModel& m, VineState s, double duration) {
  VineStepper stepper(m);
  std::vector<double> history;
  const int steps = static_cast<int>(duration / m.dt);
  for (int k = 0; k < steps; ++k) {
    EXPECT_EQ(stepper.step(s).status, QpStatus::solved);
    history.push_back(s.q(2));
  }
  return history;
}

TEST(CantileverOscillation, OnePairMatchesClosedForm) {
  const double dt = 2e-4;
  const VineModel m = chain(2, dt);
  const double d = kHalf;
  const double inertia = 2 * kInertia + kMass * (d * d + 9 * d * d);
  const double alpha = kC / (2 * inertia);
  const double omega = std::sqrt(kK / inertia - alpha * alpha);
  const std::vector<double> y = base_angle_history(m, bent_state(m, {0.02}), 4 * 2 * M_PI / omega);
  const Fit fit = fit_oscillation(y, dt);
  std::printf("one pair: omega %.5f (closed form %.5f) rad/s, alpha %.5f (%.5f) 1/s\n", fit.omega,
              omega, fit.alpha, alpha);
  EXPECT_NEAR(fit.omega, omega, 1e-3 * omega);
  EXPECT_NEAR(fit.alpha, alpha, 5e-3 * alpha);
}

TEST(CantileverOscillation, TwoPairsMatchLinearisedModes) {
  const double dt = 2e-4;
  const VineModel m = chain(4, dt);
  const double d = kHalf;
  Eigen::Matrix2d mass, stiff;
  mass << 2 * kInertia + 42 * kMass * d * d, 16 * kMass * d * d, 16 * kMass * d * d,
      2 * kInertia + 10 * kMass * d * d;
  stiff << 2 * kK, -kK, -kK, kK;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> eig(stiff, mass);
  for (int mode = 0; mode < 2; ++mode) {
    const double omega0_sq = eig.eigenvalues()(mode);
    const double alpha = kC / kK * omega0_sq / 2;
    const double omega = std::sqrt(omega0_sq - alpha * alpha);
    const Eigen::Vector2d shape =
        eig.eigenvectors().col(mode) / eig.eigenvectors().col(mode).cwiseAbs().maxCoeff();
    const std::vector<double> y = base_angle_history(
        m, bent_state(m, {0.01 * shape(0), 0.01 * shape(1)}), 4 * 2 * M_PI / omega);
    std::vector<double> signed_y = y;
    if (shape(0) < 0)
      for (double& value : signed_y) value = -value;
    const Fit fit = fit_oscillation(signed_y, dt);
    std::printf("two pairs, mode %d: omega %.5f (linearised %.5f) rad/s, alpha %.5f (%.5f) 1/s\n",
                mode, fit.omega, omega, fit.alpha, alpha);
    EXPECT_NEAR(fit.omega, omega, 1e-3 * omega) << "mode " << mode;
    EXPECT_NEAR(fit.alpha, alpha, 5e-3 * alpha) << "mode " << mode;
  }
}

}  // namespace
}  // namespace tendril::vine
