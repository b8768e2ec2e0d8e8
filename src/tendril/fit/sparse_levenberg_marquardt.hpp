#pragma once
/// The one Levenberg-Marquardt of src/tendril/fit: minimise C(y) = 1/2 |r(y)|^2 over lower <= y <=
/// upper, for large sparse problems (the joint estimation's trust-region pass) and small dense ones
/// (fit_runs over whole runs, the vine's single shooting) alike. Each iteration solves
/// (J^T J [+ S] + lambda D) dy = -J^T r on the free variables (D = diag(J^T J), Marquardt's
/// scaling; sparse LDL^T), projects y + dy onto the bounds and accepts it if C falls by a fraction
/// of the decrease the linear model predicts; lambda follows Nielsen's rule (shrinks after good
/// steps, doubles its growth factor after each rejection). A trial point where the residuals cannot
/// be evaluated (a run fails, a parameter overflows) is rejected like a bad step: the trust region
/// shrinks, and the iterates stay where r is defined. One stopping rule: converged when the
/// projected gradient is below gradient_tolerance (absolute) or relative_gradient_tolerance |J| |r|
/// (r orthogonal to J's columns to round-off), or when a step, or the relative decrease it gives,
/// is below its tolerance even undamped: times 1 + lambda (Marquardt's damping shortens a step by
/// about that factor). A short step under large damping is a stall, not a minimum, and the solver
/// goes on until max_rejections or max_iterations ends it unconverged. docs/physics/fitting.md.

#include <functional>
#include <limits>
#include <string>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"

namespace tendril::fit {

/// The residuals at y and, when asked, their Jacobian dr/dy (sparse, #residuals x #y).
struct SparseResiduals {
  bool ok = false;  ///< false: r is not defined at y (then `message` says why)
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
  int max_iterations = 200;       ///< accepted steps, >= 0
  double initial_damping = 1e-3;  ///< lambda at the start
  double step_tolerance = 1e-10;  ///< converged when (1 + lambda) |dy|_inf < this (1 + |y|_inf)
  double cost_tolerance = 1e-10;  ///< converged when an accepted step lowers C by less than this
                                  ///< fraction / (1 + lambda)
  double gradient_tolerance =
      0.0;  ///< converged when the projected gradient |dC/dy|_inf <= this (0: never)
  /// converged when |dC/dy|_inf <= this |J|_F |r| (projected): r orthogonal to J's columns to
  /// round-off, a minimum however small the steps the damping allows
  double relative_gradient_tolerance = 1e-8;
  int max_rejections = 30;  ///< rejected trial steps in a row before giving up
};

/// One trial of the solver, as its progress callback sees it (the start: iteration 0, accepted).
struct SparseLmIteration {
  int iteration = 0;     ///< accepted steps so far
  bool accepted = true;  ///< false: the trial was rejected
  double cost =
      0.0;  ///< C at the accepted point, or the rejected trial's (+inf where r is undefined)
  double step = 0.0;        ///< |dy|_inf of the trial (0 at the start)
  double damping = 0.0;     ///< lambda of the trial
  int evaluations = 0;      ///< residual evaluations so far
  const VecX* y = nullptr;  ///< the accepted point, or the rejected trial point
  std::string failure;      ///< why r was not defined at a rejected trial point
};

/// Called at the start and after every trial; returning false stops the solver (message
/// "interrupted").
using SparseLmProgress = std::function<bool(const SparseLmIteration&)>;

struct SparseLmResult {
  bool converged = false;
  bool interrupted = false;    ///< the progress callback asked to stop
  bool stalled = false;        ///< max_rejections trials in a row were rejected
  std::string message;         ///< why it stopped
  int iterations = 0;          ///< accepted steps
  int evaluations = 0;         ///< residual evaluations (trial points and the start)
  int failed_evaluations = 0;  ///< trial points where r was not defined
  VecX y;                      ///< the last accepted point
  double initial_cost = 0.0, cost = 0.0;
  SparseResiduals at;  ///< the residuals and their Jacobian at y
};

/// Minimises 1/2 |r(y)|^2 from y0 (inside the bounds) keeping lower <= y <= upper.
/// With `curvature` the steps solve (J^T J + S + lambda D) dy = -J^T r instead (a trust-region
/// Newton method: lambda grows until the damped matrix is positive definite, the predicted decrease
/// is the quadratic model's), for problems where S is not small beside J^T J and Gauss-Newton
/// stalls. Throws std::runtime_error if r is not defined at y0.
SparseLmResult minimise_sparse_least_squares(const SparseResidualFunction& residuals,
                                             const VecX& y0, const VecX& lower, const VecX& upper,
                                             const SparseLmOptions& options = {},
                                             const SparseCurvatureFunction& curvature = {},
                                             const SparseLmProgress& progress = {});

/// The Gauss-Newton covariance s2 (J^T J)^-1 of a least-squares optimum (J dense, #residuals x #y),
/// by eigen-decomposition: directions of (numerically) zero curvature, eigenvalues below 1e-12 of
/// the largest, are undetermined, and the variables in them get NaN rows and columns (a
/// rank-deficient problem: their sigma is +inf).
MatX least_squares_covariance(const MatX& jacobian, double s2);

}  // namespace tendril::fit
