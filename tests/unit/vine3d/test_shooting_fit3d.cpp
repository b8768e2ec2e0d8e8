// Shooting fit of the 3D vine's K and C (src/tendril/vine3d/shooting_fit3d.hpp): tracked points
// made by a run with known K and C (a vine growing and swinging out of its plane under gravity,
// with rest bends about both axes) are fitted from guesses 2 and 3 times off; the fit recovers the
// known values (synthetic recovery: the reference is the K and C that made the points). Bad fit
// input is refused naming the key.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "support/vine3d_swinging.hpp"
#include "tendril/vine3d/shooting_fit3d.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

std::vector<TrackedFrame3> track(const Vine3dModel& m, const Vine3dState& start, int frames,
                                 int every) {
  Vine3dStepper stepper(m);
  Vine3dState s = start;
  std::vector<TrackedFrame3> out;
  for (int f = 1; f <= frames; ++f) {
    for (int k = 0; k < every; ++k) EXPECT_TRUE(stepper.step(s).ok());
    out.push_back({f * every, joint_points(m, s)});
  }
  return out;
}

TEST(Vine3dShootingFit, RecoversKAndCFromTrackedPoints) {
  const double k_true = 0.02, c_true = 2e-4;
  const Vine3dModel truth = testing::swinging_vine3d(k_true, c_true);
  const Vine3dState start = straight_state(truth, 0.001);
  const std::vector<TrackedFrame3> frames = track(truth, start, 12, 10);
  const ShootingFit3Result fit =
      fit_stiffness_damping(testing::swinging_vine3d(0.04, 6e-4), start, frames, 0.04, 6e-4);
  std::printf("K %.9g (true %.9g), C %.9g (true %.9g), rms %.3g m, %d iterations\n", fit.stiffness,
              k_true, fit.damping, c_true, fit.rms_error, fit.iterations);
  EXPECT_TRUE(fit.converged);
  EXPECT_NEAR(fit.stiffness, k_true, 1e-6 * k_true);
  EXPECT_NEAR(fit.damping, c_true, 1e-6 * c_true);
  EXPECT_LT(fit.rms_error, 1e-9);
}

// The fit compares the points a run saves (centerline.npy, what tracked data is made of): point 0
// is the fixed base even where body 0's proximal end has drifted off it.
TEST(Vine3dShootingFit, JointPointsAreTheRunsCenterlineWithTheBaseFirst) {
  const Vine3dModel m = testing::swinging_vine3d(0.02, 2e-4);
  Vine3dState s = straight_state(m, 0.001);
  s.position[0] += Vec3(2e-6, -3e-6, 1e-6);  // joint 0's position error
  const MatX points = joint_points(m, s);
  const std::vector<Vec3> centerline = centerline_points(m, s);
  ASSERT_EQ(points.rows(), m.num_bodies + 1);
  EXPECT_EQ(Vec3(points.row(0).transpose()), m.base);
  for (int i = 0; i <= m.num_bodies; ++i) EXPECT_EQ(Vec3(points.row(i).transpose()), centerline[i]);
  const Vec3 tip =
      s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX());
  EXPECT_EQ(Vec3(points.row(m.num_bodies).transpose()), tip);
}

TEST(Vine3dShootingFit, BadInputIsRefused) {
  const Vine3dModel m = testing::swinging_vine3d(0.02, 2e-4);
  const Vine3dState start = straight_state(m, 0.001);
  std::vector<TrackedFrame3> frames = {{2, joint_points(m, start)}, {1, joint_points(m, start)}};
  using testing::expect_input_error;
  expect_input_error([&] { fit_stiffness_damping(m, start, frames, 0.0, 1e-4); },
                     {"fit.stiffness", "> 0"});
  expect_input_error([&] { fit_stiffness_damping(m, start, frames, 0.1, -1.0); },
                     {"fit.damping", "> 0"});
  expect_input_error([&] { fit_stiffness_damping(m, start, {}, 0.1, 1e-4); }, {"fit.frames"});
  expect_input_error([&] { fit_stiffness_damping(m, start, frames, 0.1, 1e-4); },
                     {"fit.frames[1].step", "a step > 2"});
  frames[1].step = 3;
  frames[1].points = MatX::Zero(2, 3);
  expect_input_error([&] { fit_stiffness_damping(m, start, frames, 0.1, 1e-4); },
                     {"fit.frames[1].points", "2 x 3", "6 x 3"});
}

}  // namespace
}  // namespace tendril::vine3d
