// Recovering the flagellated robot's medium parameters C1, C2, mu (granular_flagella V-C: fitted to
// v(omega_T) and omega_h(omega_T) for n = 2, then used to predict n = 3) from data the simulator
// made with known values (the paper's C1 = 2.420, C2 = 0.039, mu = 6.828) plus Gaussian noise.
// Short runs (2 s, observables over the last 1 s) at three motor speeds keep it to seconds of CPU
// per fit. Stated bounds: without noise the values come back to 1e-4 relative; with noise of
// relative size eps (on the RMS of each observable) every value is within 4 of its own one-sigma
// estimate, and the sigmas shrink in proportion to eps (the same noise draws scaled by 10: sigma
// ratio 10 within 20%). The n = 3 prediction with the values fitted at the larger noise is within 4
// sigma of the simulator's n = 3 at the truth, sigma propagated from the fit's covariance through
// the n = 3 runs' sensitivities. Slow-ish: about 23 s of CPU (some 300 runs of 2 s);
// docs/physics/fitting.md.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "support/scratch_dir.hpp"
#include "tendril/fit/run_least_squares.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

const std::vector<double> kTruth = {2.420, 0.039, 6.828};
const std::vector<std::string> kObservables = {"speed", "head_rotation_rate"};

fs::path robot_scene() {
  const fs::path p = testing::scratch_dir("robot_fit") / "robot.yaml";
  std::ofstream(p) << "duration: 2\nflagellated_robot: {tails: 2, motor_rpm: 100}\n"
                      "integrator: {type: implicit_euler, dt: 0.01}\n";
  return p;
}

std::vector<FitParameter> parameters(double start_factor) {
  const char* keys[] = {"flagellated_robot.C1", "flagellated_robot.C2", "flagellated_robot.mu"};
  std::vector<FitParameter> p;
  for (int j = 0; j < 3; ++j)
    p.push_back({keys[j], start_factor * kTruth[j], 0.1 * kTruth[j], 10.0 * kTruth[j], kTruth[j]});
  return p;
}

RunSettings at(int tails, double rpm, const std::vector<double>& theta) {
  RunSettings s = {"flagellated_robot.tails=" + std::to_string(tails),
                   "flagellated_robot.motor_rpm=" + std::to_string(rpm)};
  for (std::size_t j = 0; j < 3; ++j)
    s.push_back(parameter_setting(parameters(1.0)[j].key, theta[j]));
  return s;
}

/// The simulator's observables (rows: motor speeds; columns: kObservables) at theta.
MatX simulate(const RunBatchEvaluator& evaluate, int tails, const std::vector<double>& rpms,
              const std::vector<double>& theta) {
  std::vector<RunSettings> batch;
  for (double rpm : rpms) batch.push_back(at(tails, rpm, theta));
  const std::vector<RunOutcome> out = evaluate(batch);
  MatX y(static_cast<Eigen::Index>(rpms.size()), 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_TRUE(out[i].ok) << out[i].message;
    for (int k = 0; k < 2; ++k)
      y(static_cast<Eigen::Index>(i), k) = out[i].values[static_cast<std::size_t>(k)];
  }
  return y;
}

TEST(FlagellatedRobotFit, RecoversC1C2MuFromNoisyDataAndPredictsThreeTails) {
  const fs::path scene = robot_scene();
  const RunBatchEvaluator evaluate = thread_pool_evaluator(scene, kObservables, 1);
  const std::vector<double> rpms = {100.0, 175.0, 250.0};
  const MatX truth = simulate(evaluate, 2, rpms, kTruth);
  MeasurementTable data;
  data.observables = kObservables;
  for (double rpm : rpms)
    data.experiments.push_back(
        {"flagellated_robot.tails=2", "flagellated_robot.motor_rpm=" + std::to_string(rpm)});
  const VecX rms = (truth.colwise().squaredNorm() / 3.0).cwiseSqrt().transpose();
  std::mt19937 rng(2026);
  std::normal_distribution<double> gauss;
  MatX draws(3, 2);
  for (Eigen::Index i = 0; i < draws.size(); ++i) draws.data()[i] = gauss(rng);

  std::vector<VecX> sigma_at;
  std::vector<VecX> fitted_at;
  std::vector<MatX> covariance_at;
  for (const double eps : {0.0, 3e-3, 3e-4}) {
    data.sigma = eps > 0.0 ? VecX(eps * rms) : VecX(rms);
    data.measured = truth + draws * (eps * rms).asDiagonal();
    // steps below 1e-5 of each value (far below the sigmas) end the fit
    const RunFitResult r =
        fit_runs(parameters(eps > 0.0 ? 1.0 : 1.15), data, evaluate, {.step_tolerance = 1e-5});
    ASSERT_TRUE(r.converged) << "noise " << eps << ": " << r.message;
    std::printf(
        "noise %g: C1 = %.5f +- %.2g, C2 = %.6f +- %.2g, mu = %.4f +- %.2g (%d iterations, %ld "
        "runs)\n",
        eps, r.values[0], r.sigma[0], r.values[1], r.sigma[1], r.values[2], r.sigma[2],
        r.iterations, r.runs);
    for (int j = 0; j < 3; ++j) {
      if (eps == 0.0)
        EXPECT_NEAR(r.values[j], kTruth[static_cast<std::size_t>(j)],
                    1e-4 * kTruth[static_cast<std::size_t>(j)]);
      else
        EXPECT_LT(std::abs(r.values[j] - kTruth[static_cast<std::size_t>(j)]), 4.0 * r.sigma[j])
            << "parameter " << j;
    }
    if (eps > 0.0) {
      sigma_at.push_back(r.sigma);
      fitted_at.push_back(r.values);
      covariance_at.push_back(r.covariance);
    }
  }
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR(sigma_at[0][j] / sigma_at[1][j], 10.0, 2.0) << "parameter " << j;

  // predict n = 3 with the values fitted at the larger noise, against the simulator's n = 3 at the
  // truth; the prediction's sigma: d y3 / d theta (forward differences of 1e-4 theta) through the
  // covariance
  const std::vector<double> rpm3 = {100.0, 250.0};
  const std::vector<double> fitted(fitted_at[0].data(), fitted_at[0].data() + 3);
  const MatX predicted = simulate(evaluate, 3, rpm3, fitted),
             truth3 = simulate(evaluate, 3, rpm3, kTruth);
  std::vector<MatX> sensitivity(2, MatX(2, 3));  // per observable: (rpm x parameter)
  for (int j = 0; j < 3; ++j) {
    std::vector<double> shifted = fitted;
    const double h = 1e-4 * fitted[static_cast<std::size_t>(j)];
    shifted[static_cast<std::size_t>(j)] += h;
    const MatX y = simulate(evaluate, 3, rpm3, shifted);
    for (int k = 0; k < 2; ++k)
      sensitivity[static_cast<std::size_t>(k)].col(j) = (y.col(k) - predicted.col(k)) / h;
  }
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) {
      const Eigen::RowVectorXd g = sensitivity[static_cast<std::size_t>(k)].row(i);
      const double sigma = std::sqrt((g * covariance_at[0] * g.transpose())(0, 0));
      const double error = predicted(i, k) - truth3(i, k);
      std::printf("n = 3 at %g rpm: %s predicted %.5g, truth %.5g (error %.2g, %.2g sigma)\n",
                  rpm3[static_cast<std::size_t>(i)],
                  kObservables[static_cast<std::size_t>(k)].c_str(), predicted(i, k), truth3(i, k),
                  error, error / sigma);
      EXPECT_LT(std::abs(error), 4.0 * sigma);
    }
}

}  // namespace
}  // namespace tendril::fit
