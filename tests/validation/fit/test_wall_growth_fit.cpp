// Fitting K and C to the measured wall growth (vine paper IV-B-2, Fig. 7: tip-x mean absolute error
// 1.1 mm after the authors' fit; data ../shared/data/vine_wall_growth), both methods on the same data:
// all 21 measured points of video frames 1-7, the authors' initial guess (K = 0.05 N m/rad,
// C = 1e-5 N m s/rad), the paper's point contact (its step derivatives are exact; with body contact
// the contact point's motion along the body is not differentiated, docs/physics/vine.md).
// - Single shooting must converge, lower the point residual, and not worsen the tip-x error of the
//   unfitted guess.
// - The joint state and parameter estimation (section III, eq. 16), with the tip on the wall as a
//   known contact at every step (the data's README: in contact throughout the clip), must end with
//   IPOPT's Solve_Succeeded and fit the video better than the guess. DISABLED: it does not converge
//   yet. With the Gauss-Newton Hessian IPOPT lowers the objective from 5592 to about 100-1500 in ~30
//   iterations, then its trial points leave the region where the step QP solves and it stops with
//   Invalid_Number_Detected; with L-BFGS it reaches max_iter (docs/physics/fitting.md). Run with
//   --gtest_also_run_disabled_tests (TENDRIL_IPOPT_LOG=1: IPOPT's log; TENDRIL_LBFGS=1: L-BFGS).
// The numbers are printed for the notes and docs/physics/fitting.md; TENDRIL_FIT_PLOT_DIR=DIR writes
// the measured and fitted points as CSV into DIR for apps/cli/plot_fit.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "support/wall_growth.hpp"
#include "tendril/fit/fit_points_csv.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {
namespace {

/// The case with point contact, video frames 1-7 and the unfitted simulation's points.
struct WallGrowthData {
  testing::WallGrowthCase c;
  std::vector<MeasuredFrame> frames;
  ShootingResiduals before;
};

std::optional<WallGrowthData> wall_growth_data() {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) return std::nullopt;
  WallGrowthData d{testing::wall_growth_case(dir), {}, {}};
  d.c.model.contact_model = vine::ContactModel::point;
  d.frames = testing::wall_growth_frames(d.c, 1, 7);
  d.before = shooting_residuals(d.c.model, d.c.start, d.frames, Observation::points, d.c.model.stiffness[0],
                                d.c.model.damping[0], false);
  EXPECT_TRUE(d.before.ok) << d.before.message;
  return d;
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

// prints the point RMS and tip-x MAE before and after [mm], writes the plot table if asked
void report(const WallGrowthData& d, const std::vector<MatX>& fitted, const std::string& method,
            double& mae_before, double& mae_after, double& rms_before, double& rms_after) {
  mae_before = testing::wall_growth_tip_x_mae(d.before.simulated, d.c, 1);
  mae_after = testing::wall_growth_tip_x_mae(fitted, d.c, 1);
  rms_before = point_rms(d.before.simulated, d.frames);
  rms_after = point_rms(fitted, d.frames);
  std::printf("%s: point RMS %.2f -> %.2f mm; tip-x MAE (frames 1-7) %.2f -> %.2f mm (paper after fitting: 1.1 mm)\n",
              method.c_str(), 1e3 * rms_before, 1e3 * rms_after, mae_before, mae_after);
  if (const char* plot_dir = std::getenv("TENDRIL_FIT_PLOT_DIR"))
    write_fit_points_csv(std::filesystem::path(plot_dir) / ("wall_growth_" + method + "_points.csv"), d.frames, fitted);
}

TEST(WallGrowthFit, StiffnessAndDampingFromTheVideo) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const VineFitResult fit = fit_stiffness_damping(d->c.model, d->c.start, d->frames);
  ASSERT_TRUE(fit.converged) << fit.message;
  std::printf("K = %.3g +- %.2g N m/rad, C = %.3g +- %.2g N m s/rad after %d iterations (%s)\n", fit.stiffness,
              fit.stiffness_sigma, fit.damping, fit.damping_sigma, fit.iterations, fit.message.c_str());
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.fitted.simulated, "shooting", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_LT(fit.cost, fit.initial_cost);
  EXPECT_LT(mae_after, mae_before + 0.05);
}

TEST(WallGrowthJointEstimation, DISABLED_ConvergesAndFitsTheVideoBetterThanTheGuess) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  JointEstimationOptions options;
  const int tip = static_cast<int>(d->c.model.contact_points.size()) - 1;
  options.contacts = {{tip, 0, d->frames.front().step, d->frames.back().step}};
  options.print_level = std::getenv("TENDRIL_IPOPT_LOG") ? 5 : 0;
  if (std::getenv("TENDRIL_LBFGS")) options.hessian = EstimationHessian::limited_memory;
  const JointEstimationResult fit = estimate_vine_states_and_parameters(d->c.model, d->c.start, d->frames, options);
  std::printf("IPOPT %s after %d iterations in %.2f s (%.1f ms per iteration); objective %.4g -> %.4g "
              "(data %.4g, model %.4g), constraint violation %.2e\n",
              fit.status.c_str(), fit.iterations, fit.seconds, 1e3 * fit.seconds / std::max(1, fit.iterations),
              fit.initial_objective, fit.objective, fit.data_term, fit.model_term, fit.constraint_violation);
  std::printf("K = %.4g +- %.2g N m/rad, C = %.4g +- %.2g N m s/rad\n", fit.stiffness[0], fit.stiffness_sigma[0],
              fit.damping[0], fit.damping_sigma[0]);
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.simulated, "joint_estimation", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 1e-8);
  EXPECT_LT(mae_after, mae_before);
  EXPECT_LT(rms_after, rms_before);
}

}  // namespace
}  // namespace tendril::fit
