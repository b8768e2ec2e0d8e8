#pragma once
/// Mehrotra predictor-corrector interior-point method with active-set polishing (internal to
/// tendril_qp). Mehrotra, "On the implementation of a primal-dual interior point method", SIAM J.
/// Optim. 2(4), 1992; Nocedal & Wright, Numerical Optimization, 2nd ed., sec. 16.6; see
/// docs/physics/qp_solver.md.

#include "tendril/qp/qp_solver.hpp"
#include "tendril/qp/qp_workspace.hpp"

namespace tendril::qp {

struct InteriorPointResult {
  QpStatus status = QpStatus::max_iterations;
  int iterations = 0;
  int factorizations = 0;
  std::vector<char> active;  ///< active set of the returned point (m_in)
};

/// Solves `problem` from a cold start; `point` receives the solution (or the last iterate, or the
/// certificate direction for infeasible / unbounded). The KKT matrix of `work` must be analysed for
/// `problem`.
InteriorPointResult solve_interior_point(const QpProblem& problem, const QpOptions& options,
                                         QpWorkspace& work, QpPoint& point);

}  // namespace tendril::qp
