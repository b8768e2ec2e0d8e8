#include "tendril/qp/dual_active_set.hpp"

#include <algorithm>
#include <cmath>

namespace tendril::qp {
namespace {

// A row whose curvature a_p' dx is below this fraction of a_p' diag(P)^-1 a_p counts as dependent
// on the working set: W's KKT matrix then keeps a condition number below ~1e6, where iterative
// refinement against the regularisation (1e-9) gains >= 3 digits per step.
constexpr double kDependence = 1e-6;
// A warm start whose rows have negative multipliers loses them and is solved again at most this
// many times before the method starts from an empty working set.
constexpr int kWarmStartDrops = 2;

/// Solves the equality-constrained QP on A_eq and the rows of `working` with right-hand side
/// (rhs_x, b_eq or 0, b_W or 0) into work.u. False if the factorisation breaks down.
bool solve_working_set(const QpProblem& problem, const QpOptions& options,
                       const std::vector<char>& working, QpWorkspace& work,
                       ActiveSetResult& result) {
  work.kkt.set_inequality_rows(problem, working, work.d);
  ++result.factorizations;
  if (!work.kkt.factorize()) {
    result.numerical_failure = true;
    return false;
  }
  work.kkt.solve(work.rhs, work.u, options.max_refinement_steps, options.refinement_target());
  if (!work.u.allFinite()) {
    result.numerical_failure = true;
    return false;
  }
  return true;
}

/// The equality-constrained QP's solution on `working` into `point`.
bool solve_subproblem(const QpProblem& problem, const QpOptions& options,
                      const std::vector<char>& working, QpWorkspace& work, QpPoint& point,
                      ActiveSetResult& result) {
  const int n = problem.num_variables(), m_eq = problem.num_equalities();
  work.rhs.head(n) = -problem.c;
  work.rhs.segment(n, m_eq) = problem.b_eq;
  for (int i = 0; i < problem.num_inequalities(); ++i)
    work.rhs[n + m_eq + i] = working[i] ? problem.b_in[i] : 0.0;
  if (!solve_working_set(problem, options, working, work, result)) return false;
  work.unpack(point);
  return true;
}

/// The start of the dual method: the minimiser on the equalities and the rows of `working` (the
/// warm start, m_in flags; empty or of another size: none) if its multipliers are >= 0, after
/// dropping the rows with negative multipliers at most kWarmStartDrops times; else the minimiser
/// on the equalities alone (W empty).
bool dual_feasible_start(const QpProblem& problem, const QpOptions& options,
                         std::vector<char>& working, QpWorkspace& work, QpPoint& point,
                         ActiveSetResult& result) {
  const int m_in = problem.num_inequalities();
  if (static_cast<int>(working.size()) != m_in) working.assign(m_in, 0);
  for (int drop = 0; std::find(working.begin(), working.end(), 1) != working.end(); ++drop) {
    if (!solve_subproblem(problem, options, working, work, point, result)) return false;
    const double dual_tol = options.tolerance * std::max(1.0, inf_norm(point.z));
    bool feasible = true;
    for (int i = 0; i < m_in; ++i)
      if (working[i] && point.z[i] < -dual_tol) {
        working[i] = 0;
        feasible = false;
      }
    if (feasible) {
      point.z = point.z.cwiseMax(0.0);
      return true;
    }
    if (drop == kWarmStartDrops) working.assign(m_in, 0);
  }
  return solve_subproblem(problem, options, working, work, point, result);
}

/// The direction of a dual step for row p (its coefficients a_p):
/// P dx - A_eq' dy - A_W' dz = a_p, A_eq dx = 0, A_W dx = 0, so that x, y, z_W moving by
/// t (dx, dy, dz) while z_p grows by t keep stationarity and the equalities on W.
bool direction(const QpProblem& problem, const QpOptions& options, const std::vector<char>& working,
               const VecX& a_p, QpWorkspace& work, VecX& dx, VecX& dy, VecX& dz,
               ActiveSetResult& result) {
  const int n = problem.num_variables(), m_eq = problem.num_equalities();
  work.rhs.setZero();
  work.rhs.head(n) = a_p;
  if (!solve_working_set(problem, options, working, work, result)) return false;
  dx = work.u.head(n);
  dy = -work.u.segment(n, m_eq);
  dz = -work.u.tail(problem.num_inequalities());
  return true;
}

/// The most violated row outside the working set (slack_i < -primal_tol), -1 if none.
int most_violated(const QpProblem& problem, const QpOptions& options,
                  const std::vector<char>& working, const VecX& x, VecX& slack) {
  slack.noalias() = problem.A_in * x;
  const double primal_tol =
      options.tolerance * std::max({1.0, inf_norm(problem.b_in), inf_norm(slack)});
  slack -= problem.b_in;
  int p = -1;
  for (int i = 0; i < problem.num_inequalities(); ++i)
    if (!working[i] && slack[i] < -primal_tol && (p < 0 || slack[i] < slack[p])) p = i;
  return p;
}

}  // namespace

ActiveSetResult solve_dual_active_set(const QpProblem& problem, const QpOptions& options,
                                      int max_iterations, QpWorkspace& work,
                                      std::vector<char>& working, QpPoint& point) {
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int m_in = problem.num_inequalities();
  ActiveSetResult result;
  work.d.setZero(m_in);
  work.rhs.resize(n + m_eq + m_in);
  point.resize(n, m_eq, m_in);
  if (!dual_feasible_start(problem, options, working, work, point, result)) return result;
  const SparseMatrix a_in_t = problem.A_in.transpose();
  VecX diag_inverse(n);
  for (int j = 0; j < n; ++j) {
    const double pjj = problem.P.coeff(j, j);
    diag_inverse[j] = pjj > 0.0 ? 1.0 / pjj : 0.0;
  }
  VecX a_p(n), dx(n), dy(m_eq), dz(m_in);
  // the iterates accumulate the directions' rounding: at most two restarts from the exact solution
  // of the equality-constrained QP on W
  for (int restart = 0; restart < 3; ++restart) {
    int p = most_violated(problem, options, working, point.x, work.slack);
    while (p >= 0 && result.iterations < max_iterations) {
      ++result.iterations;
      a_p = a_in_t.col(p);
      if (!direction(problem, options, working, a_p, work, dx, dy, dz, result)) return result;
      const double curvature = a_p.dot(dx);  // a_p' dx = dx' P dx >= 0
      const bool dependent = !(curvature > kDependence * a_p.cwiseAbs2().dot(diag_inverse));
      // full step: row p holds (and joins W unless dependent on it); partial step: a multiplier of
      // W reaches 0 and its row leaves W
      double t = curvature > 0.0 ? -work.slack[p] / curvature : HUGE_VAL;
      int leaving = -1;
      for (int i = 0; i < m_in; ++i)
        if (working[i] && dz[i] < 0.0 && -point.z[i] / dz[i] < t) {
          t = -point.z[i] / dz[i];
          leaving = i;
        }
      if (t == HUGE_VAL) return result;  // no multiplier of W can give way to row p: infeasible
      point.x += t * dx;
      point.y += t * dy;
      for (int i = 0; i < m_in; ++i)
        if (working[i]) point.z[i] = std::max(0.0, point.z[i] + t * dz[i]);
      point.z[p] += t;
      if (leaving >= 0) {
        working[leaving] = 0;
        point.z[leaving] = 0.0;
        work.slack[p] += t * curvature;
        continue;  // the same row p, with W smaller
      }
      if (!dependent) working[p] = 1;
      p = most_violated(problem, options, working, point.x, work.slack);
    }
    if (p >= 0) return result;
    if (qp_residuals(problem, point.x, point.y, point.z, work.residual_work).kkt <=
        options.tolerance) {
      result.converged = true;
      return result;
    }
    if (!solve_subproblem(problem, options, working, work, point, result)) return result;
    point.z = point.z.cwiseMax(0.0);  // W's multipliers are >= 0 up to rounding
  }
  return result;
}

}  // namespace tendril::qp
