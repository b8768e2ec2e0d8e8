#include "tendril/qp/active_set.hpp"

#include <algorithm>

namespace tendril::qp {
namespace {

// FNV-1a hash of the active flags, to detect cycling
unsigned long long hash_of(const std::vector<char>& flags) {
  unsigned long long h = 1469598103934665603ull;
  for (char f : flags) h = (h ^ static_cast<unsigned char>(f)) * 1099511628211ull;
  return h;
}

}  // namespace

ActiveSetResult solve_active_set(const QpProblem& problem, const QpOptions& options,
                                 int max_iterations, QpWorkspace& work, std::vector<char>& active,
                                 QpPoint& point) {
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int m_in = problem.num_inequalities();
  ActiveSetResult result;
  work.visited.clear();
  work.visited.reserve(max_iterations);
  work.rhs.resize(n + m_eq + m_in);
  work.d.setZero(m_in);
  point.resize(n, m_eq, m_in);

  while (result.iterations < max_iterations) {
    ++result.iterations;
    work.visited.push_back(hash_of(active));

    // equality-constrained subproblem on the working set: active rows get D_i = 0, the others z_i =
    // 0
    work.kkt.set_inequality_rows(problem, active, work.d);
    ++result.factorizations;
    if (!work.kkt.factorize()) {
      result.numerical_failure = true;
      return result;
    }
    work.rhs.head(n) = -problem.c;
    work.rhs.segment(n, m_eq) = problem.b_eq;
    for (int i = 0; i < m_in; ++i) work.rhs[n + m_eq + i] = active[i] ? problem.b_in[i] : 0.0;
    work.kkt.solve(work.rhs, work.u, options.max_refinement_steps, options.refinement_target());
    if (!work.u.allFinite()) {
      result.numerical_failure = true;
      return result;
    }
    work.unpack(point);

    // new working set: keep rows with z_i >= -tol, add rows violated by more than tol (scaled as in
    // qp_residuals)
    VecX& slack = work.slack;
    slack.noalias() = problem.A_in * point.x;
    const double primal_tol =
        options.tolerance * std::max({1.0, inf_norm(problem.b_in), inf_norm(slack)});
    slack -= problem.b_in;
    const double dual_tol = options.tolerance * std::max(1.0, inf_norm(point.z));
    work.next_active.resize(m_in);
    for (int i = 0; i < m_in; ++i)
      work.next_active[i] = active[i] ? point.z[i] >= -dual_tol : slack[i] < -primal_tol;

    if (work.next_active == active) {
      result.converged = true;
      return result;
    }
    active.swap(work.next_active);
    if (std::find(work.visited.begin(), work.visited.end(), hash_of(active)) != work.visited.end())
      return result;
  }
  return result;
}

}  // namespace tendril::qp
