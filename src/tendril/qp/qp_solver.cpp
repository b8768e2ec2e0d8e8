#include "tendril/qp/qp_solver.hpp"

#include <algorithm>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/qp/active_set.hpp"
#include "tendril/qp/dual_active_set.hpp"
#include "tendril/qp/interior_point.hpp"

namespace tendril::qp {

void QpOptions::validate() const {
  if (!(tolerance > 0.0 && tolerance <= 1e-2))
    throw InputError("qp_options.tolerance", std::to_string(tolerance), "a number in (0, 1e-2]");
  if (max_iterations < 1)
    throw InputError("qp_options.max_iterations", std::to_string(max_iterations),
                     "an integer >= 1");
  if (max_active_set_iterations < 1)
    throw InputError("qp_options.max_active_set_iterations",
                     std::to_string(max_active_set_iterations), "an integer >= 1");
  if (!(regularization > 0.0 && regularization <= 1e-3))
    throw InputError("qp_options.regularization", std::to_string(regularization),
                     "a number in (0, 1e-3]");
  if (max_refinement_steps < 0)
    throw InputError("qp_options.max_refinement_steps", std::to_string(max_refinement_steps),
                     "an integer >= 0");
  if (!(certificate_tolerance > 0.0 && certificate_tolerance < 1.0))
    throw InputError("qp_options.certificate_tolerance", std::to_string(certificate_tolerance),
                     "a number in (0, 1)");
}

namespace {

/// Warm-start flag of a row of the working set the dual active-set method ended with.
constexpr char kDualWorkingSet = 2;

/// Clears the warm-start flag of each inequality row whose coefficients are all zero and that holds
/// (0 >= b_i): no x changes it and its multiplier is 0, while in the working set it would make the
/// subproblem inconsistent and cost an iteration only to leave it again (a contact row the caller
/// emptied since the last solve). `has_entry` is work storage (m_in).
void drop_empty_rows(const QpProblem& problem, std::vector<char>& active,
                     std::vector<char>& has_entry) {
  if (std::find(active.begin(), active.end(), 1) == active.end()) return;
  has_entry.assign(active.size(), 0);
  const double* value = problem.A_in.valuePtr();
  const int* row = problem.A_in.innerIndexPtr();
  for (int k = 0; k < static_cast<int>(problem.A_in.nonZeros()); ++k)
    if (value[k] != 0.0) has_entry[row[k]] = 1;
  for (std::size_t i = 0; i < active.size(); ++i)
    if (!has_entry[i] && problem.b_in[i] <= 0.0) active[i] = 0;
}

SparseMatrix to_sparse_identity(int size) {
  SparseMatrix identity(size, size);
  identity.setIdentity();
  return identity;
}

}  // namespace

struct QpSolver::Workspace : QpWorkspace {
  QpProblem compressed;          // copy of a problem given with uncompressed matrices
  std::vector<char> active;      // warm-start active set (m_in)
  std::vector<char> dual_start;  // the warm start, kept for the dual active-set method (m_in)
  std::vector<char> has_entry;   // inequality rows with a nonzero coefficient (m_in)
  bool has_warm_start = false;
  bool restored_warm_start = false;  // set_warm_start: kept through the next pattern analysis
  QpPoint point;
};

QpSolver::QpSolver(QpOptions options) : options_(options), work_(std::make_unique<Workspace>()) {
  options_.validate();
}
QpSolver::~QpSolver() = default;
QpSolver::QpSolver(QpSolver&&) noexcept = default;
QpSolver& QpSolver::operator=(QpSolver&&) noexcept = default;

void QpSolver::reset_warm_start() {
  work_->has_warm_start = false;
}

std::vector<char> QpSolver::warm_start() const {
  return work_->has_warm_start ? work_->active : std::vector<char>{};
}

void QpSolver::set_warm_start(std::vector<char> active) {
  work_->active = std::move(active);
  work_->has_warm_start = true;
  work_->restored_warm_start = true;
}

QpSolution QpSolver::solve(const QpProblem& problem) {
  QpSolution solution;
  solve(problem, solution);
  return solution;
}

void QpSolver::solve(const QpProblem& input, QpSolution& solution) {
  input.validate();
  Workspace& work = *work_;
  const QpProblem* problem = &input;
  if (!input.P.isCompressed() || !input.A_eq.isCompressed() || !input.A_in.isCompressed()) {
    work.compressed = input;
    work.compressed.P.makeCompressed();
    work.compressed.A_eq.makeCompressed();
    work.compressed.A_in.makeCompressed();
    problem = &work.compressed;
  }
  const int m_in = problem->num_inequalities();
  if (!work.kkt.matches(*problem)) {
    work.kkt.analyse(*problem);
    work.has_warm_start = work.restored_warm_start;
  }
  work.kkt.set_problem(*problem, options_.regularization);
  work.restored_warm_start = false;
  if (!options_.warm_start || !work.has_warm_start || static_cast<int>(work.active.size()) != m_in)
    work.active.assign(m_in, 0);

  // the primal-dual active-set method from the warm start; if it fails the dual active-set method
  // (dependent active rows) from the warm start too, then the interior-point method. A warm start
  // the dual method left (flags kDualWorkingSet) goes to the dual method first: its rows are
  // dependent, the primal-dual method would cycle on them again.
  solution.used_interior_point = false;
  solution.iterations = solution.factorizations = 0;
  solution.status = QpStatus::max_iterations;
  const bool dual_first =
      std::find(work.active.begin(), work.active.end(), kDualWorkingSet) != work.active.end();
  for (char& flag : work.active) flag = flag != 0;
  drop_empty_rows(*problem, work.active, work.has_entry);
  work.dual_start.assign(work.active.begin(), work.active.end());
  QpResiduals res;
  bool by_dual = false;
  const auto attempt = [&](bool dual) {
    const ActiveSetResult result =
        dual ? solve_dual_active_set(*problem, options_, 2 * m_in + 10, work, work.active,
                                     work.point)
             : solve_active_set(*problem, options_, options_.max_active_set_iterations, work,
                                work.active, work.point);
    solution.iterations += result.iterations;
    solution.factorizations += result.factorizations;
    if (!result.converged) return false;
    res = qp_residuals(*problem, work.point.x, work.point.y, work.point.z, work.residual_work);
    by_dual = dual;
    return res.kkt <= options_.tolerance;
  };
  if (attempt(dual_first)) {
    solution.status = QpStatus::solved;
  } else {
    work.active.swap(work.dual_start);
    if (attempt(!dual_first)) solution.status = QpStatus::solved;
  }
  if (solution.status == QpStatus::solved && by_dual)
    for (char& flag : work.active) flag = flag ? kDualWorkingSet : 0;
  if (solution.status != QpStatus::solved) {
    InteriorPointResult ip = solve_interior_point(*problem, options_, work, work.point);
    solution.used_interior_point = true;
    solution.iterations += ip.iterations;
    solution.factorizations += ip.factorizations;
    solution.status = ip.status;
    work.active.swap(ip.active);
  }
  work.has_warm_start = solution.status == QpStatus::solved;
  solution.x = work.point.x;
  solution.y_eq = work.point.y;
  solution.z_in = work.point.z;
  if (solution.status != QpStatus::solved && classify_failures_)
    classify_failure(*problem, solution);

  // residuals of the returned point (already known when the active-set method finished)
  if (solution.used_interior_point)
    res = qp_residuals(*problem, solution.x, solution.y_eq, solution.z_in, work.residual_work);
  solution.kkt_residual = res.kkt;
  solution.primal_residual = std::max(res.equality, res.inequality);
  solution.dual_residual = res.stationarity;
  solution.complementarity = res.complementarity;
  solution.objective = 0.5 * solution.x.dot(work.residual_work.px) + problem->c.dot(solution.x);
}

void QpSolver::classify_failure(const QpProblem& problem, QpSolution& solution) const {
  // the interior-point method's early certificates are heuristic: only the certificate QPs decide
  if (solution.status == QpStatus::infeasible || solution.status == QpStatus::unbounded)
    solution.status = QpStatus::max_iterations;
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int m_in = problem.num_inequalities();
  QpSolver certificate_solver(options_);
  certificate_solver.classify_failures_ = false;
  std::vector<Eigen::Triplet<double, int>> entries;

  // Farkas: min 1/2 |(y, z)|^2 s.t. A_eq^T y + A_in^T z = 0, b_eq^T y + b_in^T z = 1, z >= 0
  QpProblem farkas;
  const int m = m_eq + m_in;
  farkas.P = to_sparse_identity(m);
  farkas.c.setZero(m);
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(problem.A_eq, j); it; ++it)
      entries.emplace_back(j, it.row(), it.value());
    for (SparseMatrix::InnerIterator it(problem.A_in, j); it; ++it)
      entries.emplace_back(j, m_eq + it.row(), it.value());
  }
  for (int i = 0; i < m_eq; ++i) entries.emplace_back(n, i, problem.b_eq[i]);
  for (int i = 0; i < m_in; ++i) entries.emplace_back(n, m_eq + i, problem.b_in[i]);
  farkas.A_eq.resize(n + 1, m);
  farkas.A_eq.setFromTriplets(entries.begin(), entries.end());
  farkas.b_eq.setZero(n + 1);
  farkas.b_eq[n] = 1.0;
  entries.clear();
  for (int i = 0; i < m_in; ++i) entries.emplace_back(i, m_eq + i, 1.0);
  farkas.A_in.resize(m_in, m);
  farkas.A_in.setFromTriplets(entries.begin(), entries.end());
  farkas.b_in.setZero(m_in);
  const QpSolution f = certificate_solver.solve(farkas);
  if (f.status == QpStatus::solved) {
    solution.status = QpStatus::infeasible;
    solution.x.setZero(n);
    solution.y_eq = f.x.head(m_eq);
    solution.z_in = f.x.tail(m_in);
    return;
  }

  // direction of unboundedness: min 1/2 |d|^2 s.t. A_eq d = 0, P d = 0, c^T d = -1, A_in d >= 0
  QpProblem direction;
  direction.P = to_sparse_identity(n);
  direction.c.setZero(n);
  entries.clear();
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(problem.A_eq, j); it; ++it)
      entries.emplace_back(it.row(), j, it.value());
    for (SparseMatrix::InnerIterator it(problem.P, j); it; ++it)
      entries.emplace_back(m_eq + it.row(), j, it.value());
    entries.emplace_back(m_eq + n, j, problem.c[j]);
  }
  direction.A_eq.resize(m_eq + n + 1, n);
  direction.A_eq.setFromTriplets(entries.begin(), entries.end());
  direction.b_eq.setZero(m_eq + n + 1);
  direction.b_eq[m_eq + n] = -1.0;
  direction.A_in = problem.A_in;
  direction.b_in.setZero(m_in);
  const QpSolution d = certificate_solver.solve(direction);
  if (d.status == QpStatus::solved) {
    solution.status = QpStatus::unbounded;
    solution.x = d.x;
    solution.y_eq.setZero(m_eq);
    solution.z_in.setZero(m_in);
  }
}

}  // namespace tendril::qp
