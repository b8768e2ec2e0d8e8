#pragma once
/// Golden-section search for the minimum of a unimodal (e.g. convex) function of one variable
/// (Kiefer 1953; Press et al., Numerical Recipes, 3rd ed., sec. 10.2).

#include <cmath>

namespace tendril {

/// The minimiser of f on [a, b], f unimodal there: the midpoint of the bracketing interval once it
/// is no longer than `tolerance` (in the units of a and b).
template <class F>
double golden_section_minimum(F&& f, double a, double b, double tolerance) {
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
  double f1 = f(x1), f2 = f(x2);
  while (b - a > tolerance) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - ratio * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + ratio * (b - a);
      f2 = f(x2);
    }
  }
  return 0.5 * (a + b);
}

}  // namespace tendril
