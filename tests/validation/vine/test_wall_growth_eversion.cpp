// Growth by eversion on the vine paper's wall-growth case (IV-B-2, Fig. 7; measured data
// ../shared/data/vine_wall_growth, support/wall_growth.hpp): the same run with the material everted
// at the tip carrying its mass (VineModel::everted_density = the bodies' 1 g per 33.69 mm) and
// without (the paper). Both tips stay on the wall; with eversion the tip body carries the grown
// length's material (rate control: the length grows at u = 40 mm/s at most), and
// the difference of the two tips against the video is printed
// (docs/physics/vine.md#growth-by-eversion).
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/wall_growth.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

struct TipRun {
  std::vector<Vec2> tips;     ///< per video frame [m]
  double max_wall_gap = 0.0;  ///< largest distance of the tip body from the wall [m]
  VineState end;
};

TipRun run_to_frames(const testing::WallGrowthCase& c, const VineModel& m) {
  TipRun run;
  VineStepper stepper(m);
  VineState s = c.start;
  const int b = m.num_bodies - 1;
  for (const auto& frame : c.tip) {
    const int step = static_cast<int>(frame[1]) - 1;  // 1-based simulation step of the frame
    while (std::lround(s.time / m.dt) < step) {
      const VineStepReport r = stepper.step(s);
      EXPECT_TRUE(r.ok()) << "t = " << s.time;
      if (!r.ok()) return run;
      const VecX phi = stepper.contact_distances_at(s.q);
      run.max_wall_gap = std::max(run.max_wall_gap, phi(phi.size() - 1));
    }
    const double theta = s.q(3 * b + 2);
    run.tips.push_back(s.q.segment<2>(3 * b) +
                       m.half_length[b] * Vec2(std::cos(theta), std::sin(theta)));
  }
  run.end = s;
  return run;
}

TEST(WallGrowthEversion, TipMassGrowsWithTheLengthAndBothTipsFollowTheWall) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository "
                    "(it ships beside the repository, not inside it; CI has it)";
  const testing::WallGrowthCase c = testing::wall_growth_case(dir);
  VineModel everting = c.model;
  everting.everted_density = c.model.mass[0] / (2.0 * c.model.half_length[0]);
  const TipRun rigid = run_to_frames(c, c.model);
  const TipRun everted = run_to_frames(c, everting);
  ASSERT_EQ(rigid.tips.size(), c.tip.size());
  ASSERT_EQ(everted.tips.size(), c.tip.size());
  double mae_rigid = 0.0, mae_everted = 0.0, largest_difference = 0.0;
  for (std::size_t f = 1; f < c.tip.size(); ++f) {
    mae_rigid += std::abs(1e3 * rigid.tips[f].x() - c.tip[f][3]) / (c.tip.size() - 1.0);
    mae_everted += std::abs(1e3 * everted.tips[f].x() - c.tip[f][3]) / (c.tip.size() - 1.0);
    largest_difference = std::max(largest_difference, (everted.tips[f] - rigid.tips[f]).norm());
  }
  const int tip = c.model.num_bodies - 1;
  const double grown = grown_length(everting, everted.end.q);
  const double start = grown_length(everting, c.start.q);
  std::printf(
      "tip-x mean absolute error over frames 1-7: %.3f mm (bodies of fixed mass), %.3f mm "
      "(eversion); largest tip difference %.3f mm; tip body mass %.3f g at the end (1 g without)\n",
      mae_rigid, mae_everted, 1e3 * largest_difference,
      1e3 * body_mass(everting, everted.end.q, tip));
  std::printf("grown %.3f mm in %.4f s (u t = %.3f mm); tip body mass %.3f g at the start\n",
              1e3 * (grown - start), everted.end.time, 40.0 * everted.end.time,
              1e3 * body_mass(everting, c.start.q, tip));
  // the length grows at most at u (eq. 14 lags by the lateral motion's second-order term)
  EXPECT_GT(grown - start, 0.0);
  EXPECT_LE(grown - start, 0.040 * everted.end.time);
  EXPECT_NEAR(body_mass(everting, everted.end.q, tip),
              c.model.mass[tip] + everting.everted_density * grown, 1e-15);
  EXPECT_LT(rigid.max_wall_gap, 1e-3);
  EXPECT_LT(everted.max_wall_gap, 1e-3);
}

}  // namespace
}  // namespace tendril::vine
