#pragma once
/// The fitting tests' synthetic case: six vine bodies released 0.3 rad off their rest heading while
/// growing (the base spring swings the robot back: K sets the period, about 0.4 s; C the decay, about
/// 1 / s), and its own simulated centre line as "measured" frames with Gaussian noise added.

#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::testing {

inline constexpr double kSwingStiffness = 0.05, kSwingDamping = 5e-4;  // [N m/rad], [N m s/rad]

inline vine::VineModel swinging_vine() {
  vine::UniformVineParameters p;
  p.bodies = 6;
  p.half_length = 0.02;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = kSwingStiffness;
  p.damping = kSwingDamping;
  p.heading = 1.2;
  p.dt = 1.0 / 90.0;
  vine::VineModel m = vine::uniform_vine(p);
  m.growth = vine::GrowthSchedule::constant(0.02);
  return m;
}

inline vine::VineState swinging_start(const vine::VineModel& m) { return vine::straight_state(m, 1.5, 0.002); }

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
