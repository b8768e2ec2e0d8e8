#pragma once
/// Sparse convex QP solver for the vine-robot steps (replaces OSQP of the vine paper, eq. 15).
/// Method and the reasons for it: docs/physics/qp_solver.md.
///
/// A primal-dual active-set method on the inequalities, warm-started from the previous call's
/// active set, solves each equality-constrained subproblem with one LDL^T factorisation of the
/// regularised quasi-definite KKT matrix (a chain's block-tridiagonal ordering and envelope
/// factorisation, else AMD and a sparse one; the analysis is reused while the sparsity patterns
/// of P, A_eq, A_in are unchanged) plus iterative refinement against the unregularised matrix, so
/// degenerate problems (dependent rows, singular P) still reach the exact solution. If the
/// active-set iteration cycles or fails (dependent active rows), the dual active-set method of
/// Goldfarb and Idnani, whose working set stays linearly independent, takes over from the warm
/// start (first, if the last solve ended in it); if that fails
/// too (P singular, an infeasible or unbounded problem), a Mehrotra predictor-corrector
/// interior-point method on the same KKT pattern, polished by the active-set method, which detects
/// infeasible and unbounded problems.
///
/// Sign convention: see qp_problem.hpp (stationarity P x + c - A_eq^T y - A_in^T z = 0, z >= 0).

#include <memory>
#include <vector>

#include "tendril/qp/qp_problem.hpp"

namespace tendril::qp {

/// Options of QpSolver; validate() throws InputError naming "qp_options.<field>".
struct QpOptions {
  /// Target of the scaled KKT residual (QpResiduals::kkt) [-]
  double tolerance = 1e-10;
  /// Limit of interior-point iterations per solve [-]
  int max_iterations = 100;
  /// Limit of active-set iterations (one factorisation each) per attempt [-]
  int max_active_set_iterations = 30;
  /// Relative regularisation eps of the KKT matrix: +eps max(P_jj, 1e-3 max_k P_kk) on the diagonal
  /// of P, -eps on the multiplier block; removed again by iterative refinement [-]
  double regularization = 1e-9;
  /// Limit of iterative-refinement steps per KKT solve [-]
  int max_refinement_steps = 12;
  /// Blockwise backward error at which iterative refinement stops: 1e-2 tolerance, so the refined
  /// KKT solution contributes ~1 % of the tolerated KKT residual and no further sweep is spent [-]
  double refinement_target() const { return 1e-2 * tolerance; }
  /// Relative threshold of the interior-point method's early checks for infeasibility /
  /// unboundedness [-]
  double certificate_tolerance = 1e-7;
  /// Start the active-set method from the previous call's active set when the problem's
  /// dimensions and sparsity patterns are unchanged.
  bool warm_start = true;

  void validate() const;
};

/// Solves QpProblem instances; keeps the KKT symbolic analysis and the last active set between
/// calls. A status `infeasible` or `unbounded` is only reported after the certificate was computed
/// as the solution of an auxiliary strictly convex QP (docs/physics/qp_solver.md): then (y_eq,
/// z_in) hold the Farkas certificate, or x holds the direction of unboundedness.
class QpSolver {
 public:
  explicit QpSolver(QpOptions options = {});
  ~QpSolver();
  QpSolver(QpSolver&&) noexcept;
  QpSolver& operator=(QpSolver&&) noexcept;
  QpSolver(const QpSolver&) = delete;
  QpSolver& operator=(const QpSolver&) = delete;

  /// Solves `problem` (validated first; bad dimensions throw InputError). Numerical outcomes are in
  /// the status.
  QpSolution solve(const QpProblem& problem);
  /// Same, writing into `solution`, whose vectors are reused: a warm-started solve of a problem
  /// with an unchanged pattern that the active-set method finishes does not allocate.
  void solve(const QpProblem& problem, QpSolution& solution);
  /// Forgets the warm start (the next solve starts from an empty active set).
  void reset_warm_start();
  /// The active set the next solve starts from (one flag per inequality row; empty: none), as left
  /// by the last solve of a problem with unchanged patterns: 0 inactive, 1 active, 2 active in the
  /// working set of the dual active-set method (the next solve then starts with that method).
  std::vector<char> warm_start() const;
  /// Makes the next solve start from `active` (one flag per inequality row) even if it is the first
  /// solve or the patterns changed: restores the warm start of a saved run (a restart continues
  /// exactly). A size that differs from the next problem's inequality count starts from empty.
  void set_warm_start(std::vector<char> active);
  const QpOptions& options() const { return options_; }

 private:
  struct Workspace;
  /// Replaces a failed status by infeasible / unbounded if the certificate QP has a solution.
  void classify_failure(const QpProblem& problem, QpSolution& solution) const;

  QpOptions options_;
  bool classify_failures_ = true;  // false in the solvers of the certificate QPs
  std::unique_ptr<Workspace> work_;
};

}  // namespace tendril::qp
