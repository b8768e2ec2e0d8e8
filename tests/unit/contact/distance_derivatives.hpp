#pragma once
/// Central-difference check of a 12-stencil distance's gradient and Hessian (edge-edge and
/// point-triangle distances).

#include <gtest/gtest.h>

#include <algorithm>

#include "tendril/core/types.hpp"

namespace tendril::testing {

/// Gradient vs central differences of Delta, Hessian vs central differences of the gradient, and
/// symmetry. at(x) returns the distance result (with .gradient, .hessian); value(d) its Delta and
/// regime(d) its regime, which the FD step must not change. `h` is the FD step [m], errors relative
/// to the largest entry.
template <class At, class Value, class Regime>
void expect_distance_derivatives_conform(At at, Value value, Regime regime, const VecN<12>& x,
                                         double h, double tol) {
  const auto d = at(x);
  VecN<12> grad_fd;
  MatN<12> hess_fd;
  for (int i = 0; i < 12; ++i) {
    VecN<12> p = x, m = x;
    p[i] += h;
    m[i] -= h;
    const auto dp = at(p), dm = at(m);
    ASSERT_EQ(regime(dp), regime(d)) << "FD step changed the regime; choose another point";
    grad_fd[i] = (value(dp) - value(dm)) / (2 * h);
    hess_fd.col(i) = (dp.gradient - dm.gradient) / (2 * h);
  }
  EXPECT_LE((d.gradient - grad_fd).norm(), tol * std::max(1.0, grad_fd.norm()))
      << d.gradient.transpose() << "\n"
      << grad_fd.transpose();
  EXPECT_LE((d.hessian - hess_fd).norm(), tol * std::max(1e-8, hess_fd.norm()))
      << "Hessian regime " << int(regime(d)) << "\n"
      << d.hessian << "\n\n"
      << hess_fd;
  EXPECT_LE((d.hessian - d.hessian.transpose()).norm(), 1e-12 * d.hessian.norm());
}

}  // namespace tendril::testing
