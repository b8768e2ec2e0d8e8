// The vine paper's joint state and parameter estimation (section III, eq. 16) on its measured growth
// into a wall (IV-B-2, Fig. 7: tip-x mean absolute error 1.1 mm after the authors' IPOPT fit; data
// ../shared/data/vine_wall_growth). Same data as the single-shooting fit (test_wall_growth_fit.cpp:
// all 21 points of video frames 1-7, the authors' initial guess K = 0.05 N m/rad, C = 1e-5 N m s/rad,
// point contact) with the tip on the wall as a known contact at every step (the data's README: in
// contact throughout the clip). IPOPT must report Solve_Succeeded, and the fitted trajectory must
// be closer to the video than the unfitted simulation (tip-x MAE and point RMS).
// DISABLED: it does not converge yet. With the Gauss-Newton Hessian IPOPT lowers the objective from
// 5592 to about 100 in ~30 iterations, then its trial points leave the region where the step QP
// solves (QP max_iterations) and it stops with Invalid_Number_Detected; with L-BFGS it reaches
// max_iter (docs/physics/fitting.md). Run with --gtest_also_run_disabled_tests.
#include <gtest/gtest.h>

#include <cmath>

#include "support/wall_growth.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit {
namespace {

// tip-x mean absolute error over frames 1-7 [mm]: simulated[i] is video frame i + 1
double tip_x_mae(const std::vector<MatX>& simulated, const testing::WallGrowthCase& c) {
  double sum = 0.0;
  for (std::size_t i = 0; i < simulated.size(); ++i)
    sum += std::abs(1e3 * simulated[i](simulated[i].rows() - 1, 0) - c.tip[i + 1][3]);
  return sum / static_cast<double>(simulated.size());
}

double point_rms(const std::vector<MatX>& simulated, const std::vector<MeasuredFrame>& frames) {
  double sum = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < simulated.size(); ++i) {
    sum += (simulated[i] - frames[i].points).squaredNorm();
    count += static_cast<int>(simulated[i].size());
  }
  return std::sqrt(sum / count);
}

TEST(WallGrowthJointEstimation, DISABLED_ConvergesAndFitsTheVideoBetterThanTheGuess) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  testing::WallGrowthCase c = testing::wall_growth_case(dir);
  c.model.contact_model = vine::ContactModel::point;
  std::vector<MeasuredFrame> frames;
  for (int f = 1; f < 8; ++f) {
    MeasuredFrame frame{0, MatX(21, 2)};
    for (const auto& row : c.points)
      if (static_cast<int>(row[0]) == f) {
        frame.step = static_cast<int>(row[1]) - 1;
        frame.points.row(static_cast<int>(row[3])) << 1e-3 * row[4], 1e-3 * row[5];
      }
    frames.push_back(frame);
  }
  const ShootingResiduals before = shooting_residuals(c.model, c.start, frames, Observation::points,
                                                      c.model.stiffness[0], c.model.damping[0], false);
  ASSERT_TRUE(before.ok) << before.message;
  JointEstimationOptions options;
  const int tip = static_cast<int>(c.model.contact_points.size()) - 1;
  options.contacts = {{tip, 0, frames.front().step, frames.back().step}};
  options.print_level = std::getenv("TENDRIL_IPOPT_LOG") ? 5 : 0;
  if (std::getenv("TENDRIL_LBFGS")) options.hessian = EstimationHessian::limited_memory;
  const JointEstimationResult fit = estimate_vine_states_and_parameters(c.model, c.start, frames, options);
  const double mae_before = tip_x_mae(before.simulated, c), mae_after = tip_x_mae(fit.simulated, c);
  const double rms_before = point_rms(before.simulated, frames), rms_after = point_rms(fit.simulated, frames);
  std::printf("IPOPT %s after %d iterations in %.2f s (%.1f ms per iteration); objective %.4g -> %.4g "
              "(data %.4g, model %.4g), constraint violation %.2e\n",
              fit.status.c_str(), fit.iterations, fit.seconds, 1e3 * fit.seconds / std::max(1, fit.iterations),
              fit.initial_objective, fit.objective, fit.data_term, fit.model_term, fit.constraint_violation);
  std::printf("K = %.4g +- %.2g N m/rad, C = %.4g +- %.2g N m s/rad\n", fit.stiffness[0], fit.stiffness_sigma[0],
              fit.damping[0], fit.damping_sigma[0]);
  std::printf("point RMS %.2f -> %.2f mm; tip-x MAE (frames 1-7) %.2f -> %.2f mm (paper after fitting: 1.1 mm; "
              "single shooting: 0.89 mm)\n",
              1e3 * rms_before, 1e3 * rms_after, mae_before, mae_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 1e-8);
  EXPECT_LT(mae_after, mae_before);
  EXPECT_LT(rms_after, rms_before);
}

}  // namespace
}  // namespace tendril::fit
