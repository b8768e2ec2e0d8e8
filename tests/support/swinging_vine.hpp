#pragma once
/// The fitting tests' synthetic case: the swinging vine (support/swinging_vine_model.hpp) and its own
/// simulated centre line as "measured" frames with Gaussian noise added.

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "support/swinging_vine_model.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::testing {

/// The centre line of `m` (11 points) every `every` steps from 0 through `last`, simulated with
/// the true K, C, plus Gaussian noise of `noise` [m] on every coordinate (from frame `first_noisy`).
inline std::vector<fit::MeasuredFrame> swinging_frames(const vine::VineModel& m, int every, int last, double noise,
                                                       unsigned seed, int first_noisy = 0) {
  std::vector<fit::MeasuredFrame> frames;
  for (int step = 0; step <= last; step += every) frames.push_back({step, MatX::Zero(11, 2)});
  const fit::ShootingResiduals truth = fit::shooting_residuals(m, swinging_start(m), frames, fit::Observation::points,
                                                               kSwingStiffness, kSwingDamping, false);
  EXPECT_TRUE(truth.ok) << truth.message;
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    frames[f].points = truth.simulated[f];
    if (static_cast<int>(f) >= first_noisy)
      for (int i = 0; i < frames[f].points.size(); ++i) frames[f].points.data()[i] += noise * gauss(rng);
  }
  return frames;
}

}  // namespace tendril::testing
