// Does the reported sigma of a fit to tracked video match the real scatter?
// (docs/physics/fitting.md, "Uncertainty with a measured start"). The synthetic video of
// examples/fit/track (the six-body swinging vine with K = 0.05 N m/rad, C = 5e-4 N m s/rad) is
// drawn from its true run as a tracker would give it, as track/render_track.py draws it (points
// every pixel of arc length and the tip, 0.5 mm per pixel, image axes, 0.2 pixel of Gaussian noise,
// the 12 pixels next to the base missing, a 20-pixel spur, shuffled, frames 4 and 7 dropped), with
// 40 noise seeds; each track is imported through data.track (the start from its first frame) and
// fitted by vine_shooting. With honest sigmas the errors in sigma units z = (value - truth) / sigma
// are standard normal, so the RMS of the 40 z of a parameter has the distribution sqrt(chi^2_40 /
// 40): asserted within its 1 % and 99 % quantiles, 0.745 .. 1.262 (chi^2_40 quantiles 22.16
// and 63.69), for K and for C. With the start held at the first frame's (its error not in the
// model) and sigma = s^2 (J^T J)^-1 (one error level for every point) they are 1.26 and 1.89 here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/cli_process.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

constexpr double kTrueStiffness = 0.05, kTrueDamping = 5e-4;  // track/swinging_vine.yaml
// render_track.py's video: m per pixel, the base's pixel, noise [pixels], the untracked pixels
// next to the base, the spur's length [pixels], every third step a frame, the dropped frames
constexpr double kScale = 5e-4, kNoise = 0.2, kMissingBase = 12.0, kSpur = 20.0;
const Vec2 kOrigin(400.0, 560.0);
constexpr int kEvery = 3;

/// The true run's centre-line (base, joints, tip) at every step [m].
std::vector<std::vector<Vec2>> true_centerlines(const fs::path& scene_file) {
  vine::VineScene scene = vine::load_vine_scene_file(scene_file);
  vine::VineStepper stepper(scene.model);
  vine::VineState s = scene.initial;
  std::vector<std::vector<Vec2>> lines{vine::centerline_points(scene.model, s.q)};
  for (long k = 0; k < scene.steps; ++k) {
    EXPECT_TRUE(stepper.step(s).ok());
    lines.push_back(vine::centerline_points(scene.model, s.q));
  }
  return lines;
}

/// One frame's tracked pixels from its centre-line [m], as render_track.py draws them.
std::vector<Vec2> render(const std::vector<Vec2>& line, std::mt19937_64& rng) {
  std::vector<Vec2> p;
  for (const Vec2& x : line) p.push_back(kOrigin + Vec2(x.x(), -x.y()) / kScale);
  std::vector<double> arc{0.0};
  for (std::size_t i = 1; i < p.size(); ++i) arc.push_back(arc.back() + (p[i] - p[i - 1]).norm());
  std::vector<Vec2> track;
  std::size_t i = 1;
  for (double s = kMissingBase; s < arc.back(); s += 1.0) {
    while (arc[i] < s) ++i;
    const double w = (s - arc[i - 1]) / (arc[i] - arc[i - 1]);
    track.push_back(p[i - 1] + w * (p[i] - p[i - 1]));
  }
  track.push_back(p.back());  // the tip
  const std::size_t mid = track.size() / 2;
  const Vec2 along = (track[mid + 1] - track[mid - 1]).normalized();
  const Vec2 side(0.5 * along.x() - 0.866 * along.y(), 0.866 * along.x() + 0.5 * along.y());
  for (double k = 1.0; k <= kSpur; k += 1.0) track.push_back(track[mid] + k * side);
  std::normal_distribution<double> noise(0.0, kNoise);
  for (Vec2& x : track) x += Vec2(noise(rng), noise(rng));
  std::shuffle(track.begin(), track.end(), rng);
  return track;
}

/// The tracked video of `seed` as the CSV frame,x,y [pixels].
std::string tracked_video(const std::vector<std::vector<Vec2>>& lines, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::string csv = "frame,x,y\n";
  for (std::size_t step = 0; step < lines.size(); step += kEvery) {
    const std::size_t frame = step / kEvery;
    if (frame == 4 || frame == 7) continue;  // dropped
    for (const Vec2& x : render(lines[step], rng))
      csv += fmt::format("{},{:.3f},{:.3f}\n", frame, x.x(), x.y());
  }
  return csv;
}

double rms(const std::vector<double>& z) {
  double sum = 0.0;
  for (double v : z) sum += v * v;
  return std::sqrt(sum / static_cast<double>(z.size()));
}

TEST(TrackedVideoSigma, ErrorsOverFortyNoiseSeedsHaveUnitSpreadInSigmaUnits) {
  const fs::path track = testing::source_tree() / "examples/fit/track";
  const auto lines = true_centerlines(track / "swinging_vine.yaml");
  const fs::path dir = testing::scratch_dir("tracked_video_sigma");
  std::vector<double> z_stiffness, z_damping;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    robustness::write_text(dir / "track.csv", tracked_video(lines, seed));
    robustness::write_text(
        dir / "fit.yaml",
        fmt::format("scene: {0}/swinging_vine.yaml\nmethod: vine_shooting\nparameters:\n"
                    "  - {{key: vine.stiffness, initial: 0.02, lower: 0}}\n"
                    "  - {{key: vine.damping, initial: 2.0e-3, lower: 0}}\n"
                    "data:\n  track: {{points: {1}/track.csv, frame_rate: 30, scale: 5.0e-4, "
                    "flip_y: true, origin: [400, 560], walls: {0}/walls.csv, "
                    "wall_half_thickness: 0.002}}\n",
                    track.string(), dir.string()));
    const FitReport r = fit_method("vine_shooting").run(read_fit_file(dir / "fit.yaml"), {});
    ASSERT_TRUE(r.converged) << "seed " << seed << ": " << r.message;
    z_stiffness.push_back((r.values[0] - kTrueStiffness) / r.sigma[0]);
    z_damping.push_back((r.values[1] - kTrueDamping) / r.sigma[1]);
    std::printf("seed %2u: K = %.7f +- %.2e (%+.2f sigma), C = %.4e +- %.2e (%+.2f sigma)\n", seed,
                r.values[0], r.sigma[0], z_stiffness.back(), r.values[1], r.sigma[1],
                z_damping.back());
  }
  const auto [k_min, k_max] = std::minmax_element(z_stiffness.begin(), z_stiffness.end());
  const auto [c_min, c_max] = std::minmax_element(z_damping.begin(), z_damping.end());
  std::printf("K: RMS %.3f sigma, from %+.2f to %+.2f; C: RMS %.3f sigma, from %+.2f to %+.2f\n",
              rms(z_stiffness), *k_min, *k_max, rms(z_damping), *c_min, *c_max);
  for (const auto* z : {&z_stiffness, &z_damping}) {
    EXPECT_GT(rms(*z), 0.745);
    EXPECT_LT(rms(*z), 1.262);
  }
}

}  // namespace
}  // namespace tendril::fit
