// Fitting K and C to the measured wall growth (vine paper IV-B-2, Fig. 7: tip-x mean absolute error
// 1.1 mm after the authors' fit; data ../shared/data/vine_wall_growth). Single shooting on all 21
// measured points of video frames 1-7 from the authors' initial guess (K = 0.05 N m/rad,
// C = 1e-5 N m s/rad), with the paper's point contact. The fit must converge, lower the point residual, and not worsen the tip-x
// error of the unfitted guess; the numbers are printed for the notes and docs/physics/fitting.md.
#include <gtest/gtest.h>

#include <cmath>

#include <fstream>

#include "support/scratch_dir.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {
namespace {

// tip-x mean absolute error over frames 1-7 [mm]: simulated[i] is video frame i + 1
double tip_x_mae(const ShootingResiduals& r, const testing::WallGrowthCase& c) {
  double sum = 0.0;
  for (std::size_t i = 0; i < r.simulated.size(); ++i)
    sum += std::abs(1e3 * r.simulated[i](r.simulated[i].rows() - 1, 0) - c.tip[i + 1][3]);
  return sum / static_cast<double>(r.simulated.size());
}

TEST(WallGrowthFit, StiffnessAndDampingFromTheVideo) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  testing::WallGrowthCase c = testing::wall_growth_case(dir);
  // the paper's point contact (the tip on the wall): its step derivatives are exact (with body contact
  // the contact point's motion along the body is not differentiated; docs/physics/vine.md)
  c.model.contact_model = vine::ContactModel::point;
  // frames 1-7 (frame 0 is the start), 21 points each, at their simulation steps
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
  const VineFitResult fit = fit_stiffness_damping(c.model, c.start, frames);
  ASSERT_TRUE(fit.converged) << fit.message;
  const double mae_before = tip_x_mae(before, c), mae_after = tip_x_mae(fit.fitted, c);
  const double rms_before = std::sqrt(before.residual.squaredNorm() / before.residual.size());
  const double rms_after = std::sqrt(fit.fitted.residual.squaredNorm() / fit.fitted.residual.size());
  std::printf("K = %.3g +- %.2g N m/rad, C = %.3g +- %.2g N m s/rad after %d iterations (%s)\n", fit.stiffness,
              fit.stiffness_sigma, fit.damping, fit.damping_sigma, fit.iterations, fit.message.c_str());
  std::printf("point RMS %.2f -> %.2f mm; tip-x MAE (frames 1-7) %.2f -> %.2f mm (paper after fitting: 1.1 mm)\n",
              1e3 * rms_before, 1e3 * rms_after, mae_before, mae_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_LT(fit.cost, fit.initial_cost);
  EXPECT_LT(mae_after, mae_before + 0.05);
}

// The same single-shooting fit as a `tendril fit` method (vine_shooting): a fit file naming the example
// scene (examples/vine_wall_growth.yaml, the paper's point contact) and the measured points CSV in mm with
// 1-based steps. Its frames must be the CSV's (8 frames of 21 points at steps 0, 3, ..., 21 in metres),
// and its result the library fit's on those frames read independently (support/wall_growth.hpp).
TEST(WallGrowthFit, AsATendrilFitMethodFromAFitFile) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const std::filesystem::path source = std::getenv("TENDRIL_SOURCE_DIR") ? std::getenv("TENDRIL_SOURCE_DIR") : ".";
  const std::filesystem::path fit_yaml = testing::scratch_dir("wall_fit") / "wall.yaml";
  std::ofstream(fit_yaml) << "scene: " << (source / "examples/vine_wall_growth.yaml").string()
                          << "\nmethod: vine_shooting\nparameters:\n"
                             "  - {key: vine.stiffness, initial: 0.05, lower: 0}\n"
                             "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\n"
                             "data:\n  csv: " << (dir / "wall_growth_video_points_mm.csv").string()
                          << "\n  frames: {step: sim_step_1based, step_offset: 1, x: x_mm, y: y_mm, factor: 1e-3}\n";
  const FitFile file = read_fit_file(fit_yaml);
  const testing::WallGrowthCase c = testing::wall_growth_case(dir);
  ASSERT_EQ(file.frames.size(), 8u);
  for (const auto& row : c.points) {
    const MeasuredFrame& f = file.frames[static_cast<std::size_t>(row[0])];
    EXPECT_EQ(f.step, static_cast<int>(row[1]) - 1);
    EXPECT_EQ(f.points(static_cast<int>(row[3]), 0), 1e-3 * row[4]);
    EXPECT_EQ(f.points(static_cast<int>(row[3]), 1), 1e-3 * row[5]);
  }
  const FitReport report = fit_method("vine_shooting").run(file, {});
  const vine::VineScene scene = vine::load_vine_scene_file(source / "examples/vine_wall_growth.yaml");
  // the fit file's options (its defaults: 30 iterations, step 1e-6, cost 1e-10)
  const VineFitResult direct =
      fit_stiffness_damping(scene.model, scene.initial, file.frames,
                            {.max_iterations = file.options.max_iterations, .step_tolerance = file.options.step_tolerance,
                             .cost_tolerance = file.options.cost_tolerance});
  ASSERT_TRUE(report.converged) << report.message;
  std::printf("tendril fit vine_shooting: K = %.3g, C = %.3g +- %.2g after %d iterations (%s)\n", report.values[0],
              report.values[1], report.sigma[1], report.iterations, report.message.c_str());
  EXPECT_LT(report.cost, report.initial_cost);
  EXPECT_EQ(report.values[0], direct.stiffness);
  EXPECT_EQ(report.values[1], direct.damping);
  EXPECT_EQ(report.history.size(), direct.history.size());
}

}  // namespace
}  // namespace tendril::fit
