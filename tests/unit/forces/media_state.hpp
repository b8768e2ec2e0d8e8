#pragma once
/// Seeded random velocities for the media-force tests.

#include <random>

#include "tendril/core/types.hpp"

namespace tendril::testing {

/// u with every entry uniform in (-scale, scale) (fixed seed).
inline VecX random_velocity(Eigen::Index size, double scale, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  VecX u(size);
  for (Eigen::Index i = 0; i < size; ++i) u[i] = scale * unit(rng);
  return u;
}

}  // namespace tendril::testing
