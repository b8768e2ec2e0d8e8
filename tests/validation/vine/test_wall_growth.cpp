// Growth into a wall (vine paper IV-B-2, Fig. 7; measured data ../shared/data/vine_wall_growth,
// see its README): 10 bodies with the authors' initial-guess parameters (before their fit:
// K = 0.05 N m/rad, C = 1e-5 N m s/rad, heading 1.31 rad, 8 mm/s per prismatic joint), started
// straight through the measured base and tip of video frame 0, at rest. The paper reports a tip-x
// mean absolute error of 1.1 mm after fitting; we report the unfitted error and check that the
// tip stays on the wall and slides along it in the measured direction.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/wall_growth.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

TEST(WallGrowth, TipSlidesAlongWallLikeTheVideo) {
  // the data ships beside the project (../shared), never inside it (no redistribution): CI has it,
  // a clone of the repository alone does not (README, "Tests that need ../shared")
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository "
                    "(it ships "
                    "beside the repository, not inside it; CI has it)";
  const testing::WallGrowthCase c = testing::wall_growth_case(dir);
  const auto& tip = c.tip;  // frame, step, t, x, y
  ASSERT_EQ(tip.size(), 8u);
  const VineModel& m = c.model;
  VineState s = c.start;
  const Vec2 tip0 = 1e-3 * Vec2(tip[0][3], tip[0][4]);
  check_no_penetration(m, s.q, "initial_state");

  VineStepper stepper(m);
  auto tip_of = [&](const VecX& q) {
    const int b = m.num_bodies - 1;
    return Vec2(q.segment<2>(3 * b) +
                m.half_length[b] * Vec2(std::cos(q(3 * b + 2)), std::sin(q(3 * b + 2))));
  };
  // frame 0 is the initial state, placed on the measured tip: the error is taken over frames 1-7
  double abs_error_sum = 0.0, max_wall_gap = 0.0, last_x_sim = 0.0;
  for (std::size_t frame = 0; frame < tip.size(); ++frame) {
    const int step = static_cast<int>(tip[frame][1]) - 1;  // 1-based simulation step of the frame
    while (std::lround(s.time / m.dt) < step) {
      ASSERT_EQ(stepper.step(s).status, QpStatus::solved);
      const VecX phi = stepper.contact_distances_at(s.q);
      max_wall_gap = std::max(max_wall_gap, phi(phi.size() - 1));  // the tip row
    }
    const double x_sim = 1e3 * tip_of(s.q).x();
    if (frame > 0) abs_error_sum += std::abs(x_sim - tip[frame][3]);
    last_x_sim = x_sim;
    std::printf("frame %zu  t = %.4f s  tip x: video %.2f mm, simulated %.2f mm\n", frame, s.time,
                tip[frame][3], x_sim);
  }
  const double mae = abs_error_sum / static_cast<double>(tip.size() - 1);
  const double video_travel = tip.back()[3] - tip.front()[3];
  const double travel_ratio = (last_x_sim - tip.front()[3]) / video_travel;
  std::printf(
      "tip-x mean absolute error over frames 1-7 (unfitted initial guess) = %.2f mm; paper after "
      "fitting: "
      "1.1 mm; travel by frame 7: %.0f%% of the video's\n",
      mae, 100.0 * travel_ratio);
  RecordProperty("tip_x_mae_mm", std::to_string(mae));
  // the tip stays on the wall (within a millimetre) and moves to +x like the video
  EXPECT_LT(max_wall_gap, 1e-3);
  EXPECT_GT(tip_of(s.q).x(), tip0.x());
  // measured with these unfitted parameters: 1.50 mm over frames 1-7 (the paper: 1.1 mm after
  // fitting K and C), and the tip lags the video late in the clip, by 4.3 mm at frame 7 (79% of the
  // video's 20.6 mm travel). The bounds guard against regressions, fitting is a later issue: a mean
  // error above 2 mm, or a tip that covers less than 70% of the video's travel by the last frame
  EXPECT_LT(mae, 2.0);
  EXPECT_GT(travel_ratio, 0.7);
}

}  // namespace
}  // namespace tendril::vine
