#include "tendril/qp/qp_problem.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::qp {
namespace {

std::string shape(const SparseMatrix& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

void check_shape(const SparseMatrix& m, Eigen::Index rows, Eigen::Index cols, const char* key) {
  if (m.rows() != rows || m.cols() != cols)
    throw InputError(key, shape(m), std::to_string(rows) + " x " + std::to_string(cols));
}

void check_finite(const SparseMatrix& m, const char* key) {
  // vectorised test of the stored values first (the usual case), the entry is located only on
  // failure
  if (m.isCompressed() && Eigen::Map<const VecX>(m.valuePtr(), m.nonZeros()).allFinite()) return;
  for (int k = 0; k < m.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(m, k); it; ++it)
      if (!std::isfinite(it.value()))
        throw InputError(std::string(key) + "(" + std::to_string(it.row()) + "," +
                             std::to_string(it.col()) + ")",
                         number_text(it.value()), "a finite number");
}

void check_finite(const VecX& v, const char* key) {
  if (v.allFinite()) return;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw InputError(std::string(key) + "[" + std::to_string(i) + "]", std::to_string(v[i]),
                       "a finite number");
}

}  // namespace

void QpProblem::validate() const {
  const Eigen::Index n = c.size();
  check_shape(P, n, n, "qp.P");
  check_shape(A_eq, b_eq.size(), n, "qp.A_eq");
  check_shape(A_in, b_in.size(), n, "qp.A_in");
  check_finite(P, "qp.P");
  check_finite(A_eq, "qp.A_eq");
  check_finite(A_in, "qp.A_in");
  check_finite(c, "qp.c");
  check_finite(b_eq, "qp.b_eq");
  check_finite(b_in, "qp.b_in");
}

std::string_view to_string(QpStatus status) {
  switch (status) {
    case QpStatus::solved:
      return "solved";
    case QpStatus::infeasible:
      return "infeasible";
    case QpStatus::unbounded:
      return "unbounded";
    case QpStatus::max_iterations:
      return "max_iterations";
    case QpStatus::numerical_failure:
      return "numerical_failure";
  }
  return "unknown";
}

QpResiduals qp_residuals(const QpProblem& problem, const VecX& x, const VecX& y, const VecX& z,
                         QpResidualWork& work) {
  QpResiduals r;
  work.px.noalias() = problem.P * x;
  work.aty.noalias() = problem.A_eq.transpose() * y;
  work.atz.noalias() = problem.A_in.transpose() * z;
  const double s_d = std::max(
      {1.0, inf_norm(problem.c), inf_norm(work.px), inf_norm(work.aty), inf_norm(work.atz)});
  double stationarity = 0.0;
  for (Eigen::Index j = 0; j < x.size(); ++j)
    stationarity =
        std::max(stationarity, std::abs(work.px[j] + problem.c[j] - work.aty[j] - work.atz[j]));
  r.stationarity = stationarity / s_d;

  work.ax_eq.noalias() = problem.A_eq * x;
  const double s_e = std::max({1.0, inf_norm(problem.b_eq), inf_norm(work.ax_eq)});
  work.ax_eq -= problem.b_eq;
  r.equality = inf_norm(work.ax_eq) / s_e;

  // inequality slack A_in x - b_in, its violation, the sign of z and complementarity
  work.slack.noalias() = problem.A_in * x;
  const double s_i = std::max({1.0, inf_norm(problem.b_in), inf_norm(work.slack)});
  work.slack -= problem.b_in;
  const double s_z = std::max(1.0, inf_norm(z));
  for (Eigen::Index i = 0; i < work.slack.size(); ++i) {
    r.inequality = std::max(r.inequality, -work.slack[i] / s_i);
    r.dual_sign = std::max(r.dual_sign, -z[i] / s_z);
    r.complementarity = std::max(r.complementarity, std::abs(z[i] * work.slack[i]) / (s_z * s_i));
  }
  r.kkt = std::max({r.stationarity, r.equality, r.inequality, r.dual_sign, r.complementarity});
  // std::max drops NaN operands: a point with a non-finite entry (or an overflowing product) must
  // never look converged
  if (!x.allFinite() || !y.allFinite() || !z.allFinite() || !std::isfinite(s_d) ||
      !std::isfinite(s_i) || !std::isfinite(s_z) || !std::isfinite(r.kkt))
    r = QpResiduals{HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL};
  return r;
}

QpResiduals qp_residuals(const QpProblem& problem, const VecX& x, const VecX& y, const VecX& z) {
  QpResidualWork work;
  return qp_residuals(problem, x, y, z, work);
}

double qp_objective(const QpProblem& problem, const VecX& x) {
  return 0.5 * x.dot(problem.P * x) + problem.c.dot(x);
}

}  // namespace tendril::qp
