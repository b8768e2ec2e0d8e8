// Tracked video in, fitted model and trajectory out (docs/physics/fitting.md, "Tracked video"):
// - A synthetic video track with known K, C and growth: the six-body swinging vine
//   (support/swinging_vine.hpp: K = 0.05 N m/rad, C = 5e-4 N m s/rad, growing at 20 mm/s, released
//   0.3 rad off its rest heading) simulated by the simulator, its centre-line rendered as a
//   tracker's skeleton would give it: points every pixel of arc length (0.5 mm per pixel) in image
//   coordinates (origin at pixel (400, 300), rows growing downwards), Gaussian noise of 0.2 pixel,
//   the first 12 pixels next to the base missing, a 20-pixel side spur off the middle, the points
//   of each frame shuffled, 30 frames per second (every third step of dt = 1/90 s) with frames 4
//   and 7 dropped, and a wall as a segment in pixels. Imported through the fit file's data.track
//   and fitted by vine_shooting from K = 0.02, C = 2e-3: K and C within four of the reported
//   sigmas of the truth, the shape error of every frame after the first below the unfitted
//   guess's, and the fitted trajectory written as a vine run folder with the wall in its scene;
//   through the real command too (exit 0, fit.json with the track's record and the shape error).
// - The measured wall-growth track (../shared/data/vine_wall_growth; skipped without it) through
//   the same import (examples/fit/vine_wall_growth_track.yaml): exit 0, the shape error per frame
//   after the first below the guess's, K flagged not identifiable (docs/physics/fitting.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include <fmt/format.h>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/swinging_vine.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/fitted_trajectory.hpp"
#include "tendril/vine/vine_run.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using robustness::run_cli;
using robustness::slurp;
using robustness::write_text;

constexpr double kScale = 5e-4;             // m per pixel
constexpr double kU0 = 400.0, kV0 = 300.0;  // the base's pixel
constexpr double kNoise = 0.2;              // pixels
constexpr double kMissingBase = 12.0;       // pixels of arc length not tracked next to the base
constexpr double kSpur = 20.0;              // pixels
constexpr int kLastStep = 30;

/// The swinging vine as a scene file with stiffness K and damping C; a wall segment (metres)
/// above and to the left, which it does not reach.
std::string scene_text(double stiffness, double damping) {
  return fmt::format(
      "vine:\n  bodies: 6\n  half_length: 0.02\n  mass: 0.001\n  inertia: 2.0e-4\n"
      "  stiffness: [{}]\n  damping: [{}]\n  heading: 1.5\n  rest_angles: [1.2, 0, 0]\n"
      "  dt: 0.011111111111111112\n  steps: {}\n  growth: {{rate: 0.02}}\n"
      "  initial_state: {{extension: 0.002}}\n",
      stiffness, damping, kLastStep);
}

/// Pixel (u, v) of a point [m]: u = u0 + x / s, v = v0 - y / s.
Vec2 pixel(const Vec2& x) {
  return Vec2(kU0 + x.x() / kScale, kV0 - x.y() / kScale);
}

/// One frame of the synthetic track: the centre-line's points every pixel of arc length from
/// kMissingBase on and the tip, a spur off the middle, noise, shuffled; CSV rows "frame,x,y".
std::string render_frame(const std::vector<Vec2>& line, int frame, std::mt19937& rng) {
  std::vector<Vec2> pixels;
  std::vector<double> arc = {0.0};
  for (std::size_t i = 1; i < line.size(); ++i)
    arc.push_back(arc.back() + (pixel(line[i]) - pixel(line[i - 1])).norm());
  for (double s = kMissingBase; s <= arc.back(); s += 1.0) {
    std::size_t i = 1;
    while (i + 1 < line.size() && arc[i] < s) ++i;
    const double t = (s - arc[i - 1]) / (arc[i] - arc[i - 1]);
    pixels.push_back(pixel(line[i - 1]) + t * (pixel(line[i]) - pixel(line[i - 1])));
  }
  pixels.push_back(pixel(line.back()));  // the tip, which a tracker finds
  // a spur at 60 degrees to the line from its middle point
  const std::size_t mid = pixels.size() / 2;
  const Vec2 along = (pixels[mid + 1] - pixels[mid - 1]).normalized();
  const Vec2 side(0.5 * along.x() - 0.866 * along.y(), 0.866 * along.x() + 0.5 * along.y());
  for (double s = 1.0; s <= kSpur; s += 1.0) pixels.push_back(pixels[mid] + s * side);
  std::normal_distribution<double> noise(0.0, kNoise);
  for (Vec2& p : pixels) p += Vec2(noise(rng), noise(rng));
  std::shuffle(pixels.begin(), pixels.end(), rng);
  std::string csv;
  for (const Vec2& p : pixels) csv += fmt::format("{},{:.4f},{:.4f}\n", frame, p.x(), p.y());
  return csv;
}

/// Writes the true scene, the guess scene, the track, the wall and the fit file (fit.yaml) into
/// `dir`.
void write_synthetic_video(const fs::path& dir) {
  write_text(dir / "truth.yaml", scene_text(testing::kSwingStiffness, testing::kSwingDamping));
  write_text(dir / "guess.yaml", scene_text(0.02, 2e-3));
  vine::VineRun run(vine::load_vine_scene_file(dir / "truth.yaml"));
  std::mt19937 rng(27);
  std::string csv = "frame,x,y\n";
  for (int step = 0; step <= kLastStep; ++step) {
    if (step > 0) {
      ASSERT_EQ(run.step().failure, vine::VineFailure::none) << "step " << step;
    }
    const int frame = step / 3;
    if (step % 3 == 0 && frame != 4 && frame != 7)
      csv += render_frame(vine::centerline_points(run.model(), run.state().q), frame, rng);
  }
  write_text(dir / "track.csv", csv);
  // a wall from (-0.10, 0.20) m to (-0.02, 0.22) m, in pixels
  const Vec2 a = pixel(Vec2(-0.10, 0.20)), b = pixel(Vec2(-0.02, 0.22));
  write_text(dir / "walls.csv",
             fmt::format("x0,y0,x1,y1\n{},{},{},{}\n", a.x(), a.y(), b.x(), b.y()));
  write_text(dir / "fit.yaml", fmt::format(R"(scene: guess.yaml
method: vine_shooting
parameters:
  - {{key: vine.stiffness, initial: 0.02, lower: 0}}
  - {{key: vine.damping, initial: 2.0e-3, lower: 0}}
data:
  track:
    points: track.csv
    frame_rate: 30
    scale: {}
    flip_y: true
    origin: [{}, {}]
    walls: walls.csv
    wall_half_thickness: 0.002
)",
                                           kScale, kU0, kV0));
}

TEST(TrackedVideoFit, SyntheticVideoRecoversKAndCAndTheFitBeatsTheGuessInEveryFrame) {
  const fs::path dir = testing::scratch_dir("tracked_video");
  ASSERT_NO_FATAL_FAILURE(write_synthetic_video(dir));
  const FitFile file = read_fit_file(dir / "fit.yaml");
  // frames 0 .. 10 less the dropped 4 and 7, at steps 3 f
  std::vector<int> steps;
  for (const MeasuredFrame& f : file.frames) steps.push_back(f.step);
  EXPECT_EQ(steps, (std::vector<int>{0, 3, 6, 9, 15, 18, 24, 27, 30}));
  const FitReport report = fit_method("vine_shooting").run(file, FitContext{});
  std::printf("%s", fit_summary(report).c_str());
  ASSERT_TRUE(report.converged) << report.message;
  const double truth[2] = {testing::kSwingStiffness, testing::kSwingDamping};
  for (int p = 0; p < 2; ++p) {
    EXPECT_TRUE(std::isfinite(report.sigma[p]));
    EXPECT_LT(std::abs(report.values[p] - truth[p]), 4.0 * report.sigma[p])
        << report.names[p] << " = " << report.values[p] << " +- " << report.sigma[p];
  }
  ASSERT_EQ(report.shape_error.size(), file.frames.size());
  for (std::size_t f = 1; f < report.shape_error.size(); ++f) {
    EXPECT_LT(report.shape_error[f].mean_distance, report.guess_shape_error[f].mean_distance)
        << "step " << report.shape_error[f].step;
  }
  // the fitted trajectory: a vine run through the last frame, with the imported wall in its scene
  const io::RunResult run = write_fitted_trajectory(file, report, dir / "trajectory");
  ASSERT_TRUE(run.ok) << run.message;
  EXPECT_EQ(run.steps, kLastStep);
  const std::string meta = slurp(dir / "trajectory" / "run.json");
  EXPECT_NE(meta.find("\"kind\": \"vine\""), std::string::npos);
  EXPECT_NE(meta.find("\"segment\""), std::string::npos) << meta.substr(0, 2000);
}

TEST(TrackedVideoFit, TheCommandWritesTheTrackRecordShapeErrorAndTrajectory) {
  const fs::path dir = testing::scratch_dir("tracked_video_cli");
  ASSERT_NO_FATAL_FAILURE(write_synthetic_video(dir));
  const robustness::CliResult r = run_cli({"fit", "fit.yaml", "--out", "fit", "--no-plot"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("shape error per frame"), std::string::npos) << r.err;
  const std::string json = slurp(dir / "fit" / "fit.json");
  for (const char* key :
       {"\"shape_error\"", "\"track\"", "\"dropped_frames\": 2", "\"start\"", "\"pixel_to_metre\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_TRUE(fs::exists(dir / "fit" / "trajectory" / "centerline.npy"));
}

TEST(TrackedVideoFit, TheWallGrowthTrackThroughTheSameImport) {
  if (testing::wall_growth_data_dir().empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const char* source = std::getenv("TENDRIL_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  const FitFile file = read_fit_file(fs::path(source) / "examples/fit/vine_wall_growth_track.yaml");
  ASSERT_EQ(file.frames.size(), 8u);
  const FitReport report = fit_method(file.method).run(file, FitContext{});
  std::printf("%s", fit_summary(report).c_str());
  ASSERT_TRUE(report.converged) << report.message;
  for (std::size_t f = 1; f < report.shape_error.size(); ++f)
    EXPECT_LT(report.shape_error[f].mean_distance, report.guess_shape_error[f].mean_distance)
        << "step " << report.shape_error[f].step;
  EXPECT_FALSE(identifiable(report.converged, report.values[0], report.sigma[0]));
  const fs::path dir = testing::scratch_dir("tracked_wall_growth");
  EXPECT_TRUE(write_fitted_trajectory(file, report, dir / "trajectory").ok);
}

}  // namespace
}  // namespace tendril::fit
