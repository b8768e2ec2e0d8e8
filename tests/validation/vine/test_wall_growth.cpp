// Growth into a wall (vine paper IV-B-2, Fig. 7; measured data ../shared/data/vine_wall_growth,
// see its README): 10 bodies with the authors' initial-guess parameters (before their fit:
// K = 0.05 N m/rad, C = 1e-5 N m s/rad, heading 1.31 rad, 8 mm/s per prismatic joint), started
// straight through the measured base and tip of video frame 0, at rest. The paper reports a tip-x
// mean absolute error of 1.1 mm after fitting; we report the unfitted error and check that the
// tip stays on the wall and slides along it in the measured direction.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

std::vector<std::vector<double>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  EXPECT_TRUE(in.good()) << file;
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

TEST(WallGrowth, TipSlidesAlongWallLikeTheVideo) {
  const char* source = std::getenv("TENDRIL_SOURCE_DIR");
  const std::filesystem::path dir =
      std::filesystem::path(source ? source : ".") / ".." / "shared" / "data" / "vine_wall_growth";
  // the data ships beside the project (../shared), never inside it (no redistribution): CI has it, a
  // clone of the repository alone does not (README, "Tests that need ../shared")
  if (!std::filesystem::exists(dir))
    GTEST_SKIP() << "measured data not found at " << dir.lexically_normal()
                 << " (it ships beside the repository in ../shared, not inside it; CI has it)";
  const auto tip = read_csv(dir / "wall_growth_video_tip_mm.csv");        // frame, step, t, x, y
  const auto wall = read_csv(dir / "wall_growth_wall_polygon_mm.csv");    // edge, x1, y1, x2, y2, nx, ny
  ASSERT_EQ(tip.size(), 8u);
  ASSERT_EQ(wall.size(), 4u);

  UniformVineParameters p;
  p.bodies = 10;
  p.half_length = 0.016845;
  p.tube_diameter = 0.024;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = 0.05;
  p.damping = 1e-5;
  p.heading = 1.31;
  p.dt = 1.0 / 90.0;
  VineModel m = uniform_vine(p);
  m.growth = GrowthSchedule::constant(0.040);
  std::vector<Vec2> corners;
  for (const auto& edge : wall) corners.push_back(1e-3 * Vec2(edge[1], edge[2]));
  m.obstacles = {make_polygon(corners, 0.0, "wall")};

  // straight through the measured tip of frame 0, prismatic joints extended to its length
  const Vec2 tip0 = 1e-3 * Vec2(tip[0][3], tip[0][4]);
  const double extension = (tip0.norm() - 2 * p.bodies * p.half_length) / m.num_prismatic();
  VineState s = straight_state(m, std::atan2(tip0.y(), tip0.x()), extension);
  check_no_penetration(m, s.q, "initial_state");

  VineStepper stepper(m);
  auto tip_of = [&](const VecX& q) {
    const int b = m.num_bodies - 1;
    return Vec2(q.segment<2>(3 * b) + m.half_length[b] * Vec2(std::cos(q(3 * b + 2)), std::sin(q(3 * b + 2))));
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
    std::printf("frame %zu  t = %.4f s  tip x: video %.2f mm, simulated %.2f mm\n", frame, s.time, tip[frame][3], x_sim);
  }
  const double mae = abs_error_sum / static_cast<double>(tip.size() - 1);
  const double video_travel = tip.back()[3] - tip.front()[3];
  const double travel_ratio = (last_x_sim - tip.front()[3]) / video_travel;
  std::printf("tip-x mean absolute error over frames 1-7 (unfitted initial guess) = %.2f mm; paper after fitting: "
              "1.1 mm; travel by frame 7: %.0f%% of the video's\n", mae, 100.0 * travel_ratio);
  RecordProperty("tip_x_mae_mm", std::to_string(mae));
  // the tip stays on the wall (within a millimetre) and moves to +x like the video
  EXPECT_LT(max_wall_gap, 1e-3);
  EXPECT_GT(tip_of(s.q).x(), tip0.x());
  // measured with these unfitted parameters: 1.50 mm over frames 1-7 (the paper: 1.1 mm after fitting K and
  // C), and the tip lags the video late in the clip, by 4.3 mm at frame 7 (79% of the video's 20.6 mm
  // travel). The bounds guard against regressions, fitting is a later issue: a mean error above 2 mm, or
  // a tip that covers less than 70% of the video's travel by the last frame
  EXPECT_LT(mae, 2.0);
  EXPECT_GT(travel_ratio, 0.7);
}

}  // namespace
}  // namespace tendril::vine
