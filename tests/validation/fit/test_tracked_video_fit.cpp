// Tracked video in, fitted model and trajectory out (docs/physics/fitting.md, "Tracked video"):
// - The synthetic tracked video shipped in examples/fit/track (examples/fit/vine_track.yaml): a
//   run of the six-body swinging vine (track/swinging_vine.yaml: K = 0.05 N m/rad,
//   C = 5e-4 N m s/rad, growing at 20 mm/s, released 0.3 rad off its rest heading) drawn by
//   track/render_track.py as a tracker's points in pixels (0.5 mm per pixel, rows growing
//   downwards, 0.2 pixel of Gaussian noise, the 12 pixels next to the base missing, a 20-pixel
//   spur, shuffled, 30 frames per second with frames 4 and 7 dropped) and a wall in pixels.
//   Imported through data.track and fitted by vine_shooting from K = 0.02, C = 2e-3: the frames
//   at the right steps with the spur dropped and the base added, K and C within four of the
//   reported sigmas of the truth, the shape error of every frame after the first (the start, the
//   same for both) below the unfitted guess's, the fitted trajectory written as a vine run folder
//   with the wall in its scene, and the measured frames as a vine run folder (its centre-line
//   the frames' points at their times); through the real command too (exit 0, fit.json with the
//   track's record and the shape error, both folders). The same track fitted by joint_estimation
//   (measurement_sigma the noise): K and C within four sigmas, the shape error below the guess's.
// - The measured wall-growth track (../shared/data/vine_wall_growth; skipped without it) through
//   the same import (examples/fit/vine_wall_growth_track.yaml): the shape error per frame after
//   the first below the guess's, K flagged not identifiable (docs/physics/fitting.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/fitted_trajectory.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using robustness::run_cli;
using robustness::slurp;

constexpr double kTrueStiffness = 0.05, kTrueDamping = 5e-4;  // track/swinging_vine.yaml

/// The shape error of every frame after the first is below the guess's.
void expect_below_the_guess(const FitReport& report) {
  ASSERT_EQ(report.shape_error.size(), report.guess_shape_error.size());
  for (std::size_t f = 1; f < report.shape_error.size(); ++f)
    EXPECT_LT(report.shape_error[f].mean_distance, report.guess_shape_error[f].mean_distance)
        << "step " << report.shape_error[f].step;
}

TEST(TrackedVideoFit, SyntheticVideoRecoversKAndCAndTheFitBeatsTheGuessInEveryFrame) {
  const FitFile file = read_fit_file(testing::source_tree() / "examples/fit/vine_track.yaml");
  // frames 0 .. 10 less the dropped 4 and 7, at steps 3 f
  std::vector<int> steps;
  for (const MeasuredFrame& f : file.frames) steps.push_back(f.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 3, 6, 9, 15, 18, 24, 27, 30}));
  const std::string record = file.track.dump(-1);
  for (const char* part : {"\"dropped_frames\": 2",
                           "\"base_added\": [true, true, true, true, "
                           "true, true, true, true, true]"})
    EXPECT_NE(record.find(part), std::string::npos) << part << " in " << record;
  const FitReport report = fit_method("vine_shooting").run(file, FitContext{});
  std::printf("%s", fit_summary(report).c_str());
  ASSERT_TRUE(report.converged) << report.message;
  const double truth[2] = {kTrueStiffness, kTrueDamping};
  for (int p = 0; p < 2; ++p) {
    EXPECT_TRUE(std::isfinite(report.sigma[p]));
    EXPECT_LT(std::abs(report.values[p] - truth[p]), 4.0 * report.sigma[p])
        << report.names[p] << " = " << report.values[p] << " +- " << report.sigma[p];
  }
  expect_below_the_guess(report);
  // the fitted trajectory: a vine run through the last frame, with the imported wall in its scene
  const fs::path dir = testing::scratch_dir("tracked_video");
  const io::RunResult run = write_fitted_trajectory(file, report, dir / "trajectory");
  ASSERT_TRUE(run.ok) << run.message;
  EXPECT_EQ(run.steps, 30);
  const std::string meta = slurp(dir / "trajectory" / "run.json");
  EXPECT_NE(meta.find("\"kind\": \"vine\""), std::string::npos);
  EXPECT_NE(meta.find("\"segment\""), std::string::npos) << meta.substr(0, 2000);
  // the measured frames as a run folder beside it: its centre-line the frames' points, at their
  // times
  const io::RunData measured = io::read_run(write_measured_run(file, dir / "measured"));
  EXPECT_EQ(measured.kind, "vine");
  const io::NpyArray& line = measured.array("centerline");
  const io::NpyArray& time = measured.array("frame_time");
  ASSERT_EQ(line.shape, (std::vector<std::size_t>{file.frames.size(), 21, 2}));
  for (std::size_t f = 0; f < file.frames.size(); ++f) {
    EXPECT_DOUBLE_EQ(time.data[f], file.frames[f].step / 90.0);
    for (std::size_t k = 0; k < 21; ++k)
      for (std::size_t c = 0; c < 2; ++c)
        EXPECT_EQ(
            line.data[(f * 21 + k) * 2 + c],
            file.frames[f].points(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(c)));
  }
  // frames with different numbers of points: no folder
  FitFile uneven = file;
  uneven.frames[1].points.conservativeResize(20, 2);
  EXPECT_TRUE(write_measured_run(uneven, dir / "uneven").empty());
  EXPECT_FALSE(fs::exists(dir / "uneven"));
}

// The same track fitted by joint_estimation (which estimates the first state too), with
// measurement_sigma the track's noise (0.2 pixel = 1e-4 m).
TEST(TrackedVideoFit, JointEstimationOnTheSameTrackRecoversKAndC) {
  const fs::path track = testing::source_tree() / "examples/fit/track";
  const fs::path fit_yaml = testing::scratch_dir("tracked_video_joint") / "joint.yaml";
  robustness::write_text(
      fit_yaml,
      fmt::format("scene: {0}/swinging_vine.yaml\nmethod: joint_estimation\nparameters:\n"
                  "  - {{key: vine.stiffness, initial: 0.02}}\n"
                  "  - {{key: vine.damping, initial: 2.0e-3}}\n"
                  "data:\n  track: {{points: {0}/video_track.csv, frame_rate: 30, scale: 5.0e-4, "
                  "flip_y: true, origin: [400, 560], walls: {0}/walls.csv, "
                  "wall_half_thickness: 0.002}}\noptions: {{measurement_sigma: 1.0e-4}}\n",
                  track.string()));
  const FitFile file = read_fit_file(fit_yaml);
  const FitReport report = fit_method("joint_estimation").run(file, FitContext{});
  std::printf("%s", fit_summary(report).c_str());
  ASSERT_TRUE(report.converged) << report.message;
  const double truth[2] = {kTrueStiffness, kTrueDamping};
  for (int p = 0; p < 2; ++p)
    EXPECT_LT(std::abs(report.values[p] - truth[p]), 4.0 * report.sigma[p])
        << report.names[p] << " = " << report.values[p] << " +- " << report.sigma[p];
  expect_below_the_guess(report);
}

TEST(TrackedVideoFit, TheCommandWritesTheTrackRecordShapeErrorAndTrajectory) {
  const fs::path dir = testing::scratch_dir("tracked_video_cli");
  const robustness::CliResult r =
      run_cli({"fit", (testing::source_tree() / "examples/fit/vine_track.yaml").string(), "--out",
               "fit", "--no-plot"},
              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("shape error per frame"), std::string::npos) << r.err;
  const std::string json = slurp(dir / "fit" / "fit.json");
  for (const char* key :
       {"\"shape_error\"", "\"track\"", "\"dropped_frames\": 2", "\"start\"", "\"pixel_to_metre\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_TRUE(fs::exists(dir / "fit" / "trajectory" / "centerline.npy"));
  EXPECT_TRUE(fs::exists(dir / "fit" / "measured" / "centerline.npy"));
}

TEST(TrackedVideoFit, TheWallGrowthTrackThroughTheSameImport) {
  if (testing::wall_growth_data_dir().empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const FitFile file =
      read_fit_file(testing::source_tree() / "examples/fit/vine_wall_growth_track.yaml");
  ASSERT_EQ(file.frames.size(), 8u);
  const FitReport report = fit_method(file.method).run(file, FitContext{});
  std::printf("%s", fit_summary(report).c_str());
  ASSERT_TRUE(report.converged) << report.message;
  expect_below_the_guess(report);
  EXPECT_FALSE(identifiable(report.converged, report.values[0], report.sigma[0]));
  const fs::path dir = testing::scratch_dir("tracked_wall_growth");
  EXPECT_TRUE(write_fitted_trajectory(file, report, dir / "trajectory").ok);
}

}  // namespace
}  // namespace tendril::fit
