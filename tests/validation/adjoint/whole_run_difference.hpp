#pragma once
/// Central differences of whole runs, the independent reference of the adjoint gradients.

#include <cmath>
#include <functional>
#include <limits>

namespace tendril::test {

/// (f(x + h) - f(x - h)) / (2 h), with h chosen by a convergence check: the estimates D(h_j) for
/// h_j = h0 10^-j, j = 0..5, change by O(h^2) between neighbours while truncation dominates and
/// grow again once round-off (and the Newton tolerance) dominate; the estimate D(h_j) whose change
/// |D(h_j) - D(h_{j+1})| is the smallest is returned, and that change in `uncertainty`.
inline double converged_central_difference(const std::function<double(double)>& f, double x,
                                           double h0, double* uncertainty = nullptr) {
  double previous = std::numeric_limits<double>::quiet_NaN();
  double best = previous, best_change = std::numeric_limits<double>::infinity();
  double h = h0;
  for (int j = 0; j <= 5; ++j, h *= 0.1) {
    const double estimate = (f(x + h) - f(x - h)) / (2.0 * h);
    const double change = std::abs(estimate - previous);
    if (j > 0 && change < best_change) {
      best_change = change;
      best = previous;
    }
    previous = estimate;
  }
  if (uncertainty) *uncertainty = best_change;
  return best;
}

}  // namespace tendril::test
