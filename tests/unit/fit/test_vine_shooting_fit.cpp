// Single-shooting fit of the vine's pin stiffness and damping (fit/vine_shooting_fit.hpp): the
// residual Jacobian (forward sensitivities through the step derivatives) against finite differences
// of whole runs, and recovery of known K, C from trajectories the simulator made, with noise: the
// fit is exact without noise, and with noise the error stays within four of its own estimated
// standard deviations, which shrink in proportion to the noise.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/swinging_vine.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {
namespace {

using vine::VineModel;
using vine::VineState;

using testing::swinging_vine;
constexpr double kStiffness = testing::kSwingStiffness, kDamping = testing::kSwingDamping;

VineState start_of(const VineModel& m) {
  return testing::swinging_start(m);
}

// the simulator's own centre line at every third step through 1 s, P = 11 points, noise after the
// start
std::vector<MeasuredFrame> synthetic_frames(double noise, unsigned seed) {
  return testing::swinging_frames(swinging_vine(), 3, 90, noise, seed, 1);
}

TEST(VineShootingFit, ResidualJacobianMatchesFiniteDifferencesOfWholeRuns) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = synthetic_frames(0.0, 1);
  for (const Observation obs : {Observation::points, Observation::tip}) {
    const double k = 0.07, c = 3e-4;  // away from the data's values
    const ShootingResiduals r = shooting_residuals(m, start_of(m), frames, obs, k, c, true);
    ASSERT_TRUE(r.ok) << r.message;
    const double h = 1e-6;
    for (int p = 0; p < 2; ++p) {
      const double up = std::exp(h), down = std::exp(-h);
      const ShootingResiduals plus = shooting_residuals(
          m, start_of(m), frames, obs, p == 0 ? k * up : k, p == 1 ? c * up : c, false);
      const ShootingResiduals minus = shooting_residuals(
          m, start_of(m), frames, obs, p == 0 ? k * down : k, p == 1 ? c * down : c, false);
      const VecX fd = (plus.residual - minus.residual) / (2 * h);
      EXPECT_LT((fd - r.jacobian.col(p)).norm(), 1e-6 * fd.norm()) << "parameter " << p;
      EXPECT_GT(fd.norm(),
                1e-5);  // the residual depends on the parameter: the check is not vacuous
    }
  }
}

TEST(VineShootingFit, RecoversKnownStiffnessAndDampingWithoutNoise) {
  VineModel guess = swinging_vine();
  guess.stiffness.assign(guess.stiffness.size(), 0.02);
  guess.damping.assign(guess.damping.size(), 2e-3);
  const VineFitResult fit = fit_stiffness_damping(guess, start_of(guess), synthetic_frames(0.0, 1));
  ASSERT_TRUE(fit.converged) << fit.message;
  EXPECT_NEAR(fit.stiffness, kStiffness, 1e-6 * kStiffness);
  EXPECT_NEAR(fit.damping, kDamping, 1e-5 * kDamping);
  EXPECT_LT(fit.cost, 1e-16);
}

TEST(VineShootingFit, ErrorsWithNoiseStayWithinTheEstimatedUncertaintyAndShrinkWithIt) {
  VineModel guess = swinging_vine();
  guess.stiffness.assign(guess.stiffness.size(), 0.03);
  guess.damping.assign(guess.damping.size(), 1e-3);
  double sigma_k[2], sigma_c[2];
  const double noise[2] = {1e-3, 1e-4};  // 1 mm and 0.1 mm on every coordinate
  for (int level = 0; level < 2; ++level) {
    const VineFitResult fit =
        fit_stiffness_damping(guess, start_of(guess), synthetic_frames(noise[level], 11));
    ASSERT_TRUE(fit.converged) << fit.message;
    std::printf("noise %.1e m: K = %.6g +- %.2g, C = %.6g +- %.2g, %d iterations\n", noise[level],
                fit.stiffness, fit.stiffness_sigma, fit.damping, fit.damping_sigma, fit.iterations);
    EXPECT_LT(std::abs(fit.stiffness - kStiffness), 4 * fit.stiffness_sigma);
    EXPECT_LT(std::abs(fit.damping - kDamping), 4 * fit.damping_sigma);
    // the residual is the noise: RMS of r close to the noise level
    const double rms = std::sqrt(2 * fit.cost / static_cast<double>(fit.fitted.residual.size()));
    EXPECT_NEAR(rms, noise[level], 0.2 * noise[level]);
    sigma_k[level] = fit.stiffness_sigma;
    sigma_c[level] = fit.damping_sigma;
  }
  // ten times less noise, ten times smaller uncertainty (linearised least squares)
  EXPECT_NEAR(sigma_k[0] / sigma_k[1], 10.0, 1.0);
  EXPECT_NEAR(sigma_c[0] / sigma_c[1], 10.0, 1.0);
  EXPECT_LT(sigma_k[1], 0.01 * kStiffness);
}

// A Levenberg-Marquardt step in ln K that overflows K (exp(ln K) = inf) is a failed trial, not bad
// input: the residuals report it (the model refuses an infinite K with InputError, so it is never
// built with one), and the fit's history records every trial, the start and the rejected ones too.
TEST(VineShootingFit, AnOverflowingStepIsAFailedTrialAndEveryTrialIsReported) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = synthetic_frames(0.0, 1);
  for (const double k : {std::exp(800.0), std::nan("")}) {
    ShootingResiduals r;
    EXPECT_NO_THROW(
        r = shooting_residuals(m, start_of(m), frames, Observation::points, k, kDamping, true))
        << k;
    EXPECT_FALSE(r.ok) << k;
    EXPECT_NE(r.message.find("not finite"), std::string::npos) << r.message;
  }
  VineModel guess = m;
  guess.stiffness.assign(guess.stiffness.size(), 0.02);
  guess.damping.assign(guess.damping.size(), 2e-3);
  std::vector<FitIteration> reported;
  VineFitOptions options;
  options.progress = [&](const FitIteration& line) {
    reported.push_back(line);
    return true;
  };
  const VineFitResult fit = fit_stiffness_damping(guess, start_of(guess), frames, options);
  ASSERT_TRUE(fit.converged) << fit.message;
  ASSERT_EQ(reported.size(), fit.history.size());
  int accepted = 0;
  for (const FitIteration& line : fit.history) accepted += line.accepted ? 1 : 0;
  EXPECT_EQ(accepted, 1 + fit.iterations);  // the start and every accepted step
  EXPECT_EQ(fit.history.front().objective, fit.initial_cost);
  EXPECT_EQ(fit.history.front().values[0], 0.02);
  EXPECT_GT(fit.simulations, fit.iterations);
}

}  // namespace
}  // namespace tendril::fit
