#pragma once
/// The fitting tests' synthetic case: the swinging vine (support/swinging_vine_model.hpp) and its
/// own simulated centre line as "measured" frames with Gaussian noise added.

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "support/swinging_vine_model.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::testing {

/// The centre line of `m` (11 points) every `every` steps from 0 through `last`, simulated with
/// the true K, C, plus Gaussian noise of `noise` [m] on every coordinate (from frame
/// `first_noisy`).
inline std::vector<fit::MeasuredFrame> swinging_frames(const vine::VineModel& m, int every,
                                                       int last, double noise, unsigned seed,
                                                       int first_noisy = 0) {
  std::vector<fit::MeasuredFrame> frames;
  for (int step = 0; step <= last; step += every) frames.push_back({step, MatX::Zero(11, 2)});
  const fit::ShootingResiduals truth =
      fit::shooting_residuals(m, swinging_start(m), frames, fit::Observation::points,
                              kSwingStiffness, kSwingDamping, false);
  EXPECT_TRUE(truth.ok) << truth.message;
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    frames[f].points = truth.simulated[f];
    if (static_cast<int>(f) >= first_noisy)
      for (int i = 0; i < frames[f].points.size(); ++i)
        frames[f].points.data()[i] += noise * gauss(rng);
  }
  return frames;
}

/// The recovery tests' initial guess: the swinging vine with K = 0.03 N m/rad, C = 1e-3 N m s/rad.
inline vine::VineModel swinging_guess() {
  vine::VineModel m = swinging_vine();
  m.stiffness.assign(m.stiffness.size(), 0.03);
  m.damping.assign(m.damping.size(), 1e-3);
  return m;
}

/// The swinging vine with point contact and its tip at `gap` [m] from a wall whose normal is `tilt`
/// [rad] from its growth direction (point contact, as in the paper).
inline vine::VineModel vine_before_a_wall(double gap, double tilt) {
  vine::VineModel m = swinging_vine();
  m.contact_model = vine::ContactModel::point;
  const vine::VineState s = swinging_start(m);
  const std::vector<Vec2> line = vine::centerline_points(m, s.q);
  const Vec2 tip = line.back(), growth = (tip - line.front()).normalized();
  const Vec2 axis(std::cos(tilt) * growth.x() - std::sin(tilt) * growth.y(),
                  std::sin(tilt) * growth.x() + std::cos(tilt) * growth.y());
  const Vec2 across(-axis.y(), axis.x());
  const Vec2 face = tip + (m.contact_radius + gap) * axis;
  m.obstacles = {
      vine::make_polygon({face - 0.2 * across, face + 0.2 * across,
                          face + 0.2 * across + 0.03 * axis, face - 0.2 * across + 0.03 * axis},
                         0.0, "wall")};
  return m;
}

}  // namespace tendril::testing
