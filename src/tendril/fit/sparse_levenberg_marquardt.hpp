#pragma once
/// Bounded Levenberg-Marquardt for large sparse least squares: minimise C(y) = 1/2 |r(y)|^2 over
/// lower <= y <= upper. Each iteration solves (J^T J [+ S] + lambda D) dy = -J^T r (D = diag(J^T J),
/// Marquardt's scaling; sparse LDL^T), projects y + dy onto the bounds and accepts it if C falls by
/// a fraction of the decrease the linear model predicts; lambda follows Nielsen's rule (shrinks after
/// good steps, doubles its growth factor after each rejection). A trial point where the residuals
/// cannot be evaluated is rejected like a bad step (the trust region shrinks), so the iterates stay
/// where r is defined. Used by the joint estimation (fit/vine_joint_estimation.hpp) to bring its
/// iterates near the optimum before IPOPT; docs/physics/fitting.md.

#include <functional>
#include <string>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"

namespace tendril::fit {

/// The residuals at y and, when asked, their Jacobian dr/dy (sparse, #residuals x #y).
struct SparseResiduals {
  bool ok = false;      ///< false: r is not defined at y (then `message` says why)
  std::string message;
  VecX residual;
  SparseMatrix jacobian;
};

/// Evaluates r(y); with_jacobian false at trial points (only the value is needed there).
using SparseResidualFunction = std::function<SparseResiduals(const VecX& y, bool with_jacobian)>;

/// The residuals' own curvature S(y) = sum_k r_k d2r_k/dy2 (sparse, symmetric, both triangles; #y x
/// #y) at y, whose residuals are `residual`, for the full Hessian J^T J + S of C.
using SparseCurvatureFunction = std::function<SparseMatrix(const VecX& y, const VecX& residual)>;

struct SparseLmOptions {
  int max_iterations = 200;         ///< accepted steps, >= 1
  double initial_damping = 1e-3;    ///< lambda at the start
  double step_tolerance = 1e-10;    ///< converged when |dy|_inf < this (1 + |y|_inf)
  double cost_tolerance = 1e-10;    ///< converged when an accepted step lowers C by less than this fraction
  int max_rejections = 30;          ///< rejected trial steps in a row before giving up
};

struct SparseLmResult {
  bool converged = false;
  std::string message;     ///< why it stopped
  int iterations = 0;      ///< accepted steps
  int evaluations = 0;     ///< residual evaluations (trial points and the start)
  int failed_evaluations = 0;  ///< trial points where r was not defined
  VecX y;                  ///< the last accepted point
  double initial_cost = 0.0, cost = 0.0;
};

/// Minimises 1/2 |r(y)|^2 from y0 (inside the bounds) keeping lower <= y <= upper.
/// With `curvature` the steps solve (J^T J + S + lambda D) dy = -J^T r instead (a trust-region
/// Newton method: lambda grows until the damped matrix is positive definite, the predicted decrease
/// is the quadratic model's), for problems where S is not small beside J^T J and Gauss-Newton
/// stalls. Throws std::runtime_error if r is not defined at y0.
SparseLmResult minimise_sparse_least_squares(const SparseResidualFunction& residuals, const VecX& y0,
                                             const VecX& lower, const VecX& upper, const SparseLmOptions& options = {},
                                             const SparseCurvatureFunction& curvature = {});

}  // namespace tendril::fit
