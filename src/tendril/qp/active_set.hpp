#pragma once
/// Primal-dual active-set method on the inequalities (internal to tendril_qp).
/// Hintermueller, Ito, Kunisch, "The primal-dual active set strategy as a semismooth Newton
/// method", SIAM J. Optim. 13(3), 2002; see docs/physics/qp_solver.md.

#include <vector>

#include "tendril/qp/qp_solver.hpp"
#include "tendril/qp/qp_workspace.hpp"

namespace tendril::qp {

struct ActiveSetResult {
  bool converged = false;          ///< the active set repeated (the caller checks the KKT residual)
  bool numerical_failure = false;  ///< a factorisation broke down
  int iterations = 0;
  int factorizations = 0;
};

/// Runs at most `max_iterations` active-set iterations from `active` (m_in flags, updated in
/// place). Each iteration solves the equality-constrained QP with A_eq and the active rows of A_in
/// as equalities (one LDL^T + refinement), then activates violated rows (A_in x - b_in < -tol s_i)
/// and releases active rows with negative multipliers (z_i < -tol s_z). `point` receives the last
/// iterate. The KKT matrix of `work` must have been analysed for `problem`.
ActiveSetResult solve_active_set(const QpProblem& problem, const QpOptions& options,
                                 int max_iterations, QpWorkspace& work, std::vector<char>& active,
                                 QpPoint& point);

}  // namespace tendril::qp
