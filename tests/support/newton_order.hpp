#pragma once
/// Observed convergence order of a Newton residual history, for the tests that check a term's
/// Jacobian inside the integrator.

#include <algorithm>
#include <cmath>
#include <vector>

namespace tendril::testing {

/// Largest observed convergence order log(r_{k+1}/r_k) / log(r_k/r_{k-1}) over the residual triples
/// above `floor`: about 2 or more once Newton reaches its quadratic phase, about 1 or less
/// throughout when the Newton matrix is not the Jacobian of the residual (linear convergence). 0
/// when fewer than three residuals are above the floor (nothing to measure).
inline double best_order(const std::vector<double>& r, double floor) {
  double order = 0.0;
  for (std::size_t k = 2; k < r.size() && r[k] > floor; ++k)
    order = std::max(order, std::log(r[k] / r[k - 1]) / std::log(r[k - 1] / r[k - 2]));
  return order;
}

}  // namespace tendril::testing
