#include "tendril/qp/qp_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

/// True if no value is infinite or NaN, tested on the exponent bits (all set) so that the loop
/// vectorises.
bool all_finite(const double* v, Eigen::Index count) {
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ull;
  std::uint64_t nonfinite = 0;
  for (Eigen::Index i = 0; i < count; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, v + i, sizeof bits);
    nonfinite |= (bits & kExponent) == kExponent;
  }
  return nonfinite == 0;
}

/// True if every stored value of m is finite (vectorised when m is compressed).
bool all_finite(const SparseMatrix& m) {
  if (m.isCompressed()) return all_finite(m.valuePtr(), m.nonZeros());
  for (int k = 0; k < m.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(m, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  return true;
}

void check_finite(const SparseMatrix& m, const char* key) {
  // vectorised test of the stored values first (the usual case), the entry is located only on
  // failure
  if (all_finite(m)) return;
  for (int k = 0; k < m.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(m, k); it; ++it)
      if (!std::isfinite(it.value()))
        throw InputError(std::string(key) + "(" + std::to_string(it.row()) + "," +
                             std::to_string(it.col()) + ")",
                         number_text(it.value()), "a finite number");
}

void check_finite(const VecX& v, const char* key) {
  if (all_finite(v.data(), v.size())) return;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw InputError(std::string(key) + "[" + std::to_string(i) + "]", std::to_string(v[i]),
                       "a finite number");
}

/// a x into ax and a' w into atw in one pass over a's columns.
void multiply_and_transpose(const SparseMatrix& a, const VecX& x, const VecX& w, VecX& ax,
                            VecX& atw) {
  ax.setZero(a.rows());
  atw.resize(a.cols());
  const int* outer = a.outerIndexPtr();
  const int* inner = a.innerIndexPtr();
  const int* inner_count = a.innerNonZeroPtr();  // null when compressed
  const double* value = a.valuePtr();
  for (int j = 0; j < a.outerSize(); ++j) {
    const double x_j = x[j];
    double dot = 0.0;
    const int end = inner_count ? outer[j] + inner_count[j] : outer[j + 1];
    for (int p = outer[j]; p < end; ++p) {
      ax[inner[p]] += value[p] * x_j;
      dot += value[p] * w[inner[p]];
    }
    atw[j] = dot;
  }
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

bool QpProblem::all_finite() const {
  return qp::all_finite(P) && qp::all_finite(A_eq) && qp::all_finite(A_in) &&
         qp::all_finite(c.data(), c.size()) && qp::all_finite(b_eq.data(), b_eq.size()) &&
         qp::all_finite(b_in.data(), b_in.size());
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
  multiply_and_transpose(problem.A_eq, x, y, work.ax_eq, work.aty);
  multiply_and_transpose(problem.A_in, x, z, work.slack, work.atz);
  const double s_d = std::max(
      {1.0, inf_norm(problem.c), inf_norm(work.px), inf_norm(work.aty), inf_norm(work.atz)});
  double stationarity = 0.0;
  for (Eigen::Index j = 0; j < x.size(); ++j)
    stationarity =
        std::max(stationarity, std::abs(work.px[j] + problem.c[j] - work.aty[j] - work.atz[j]));
  r.stationarity = stationarity / s_d;

  const double s_e = std::max({1.0, inf_norm(problem.b_eq), inf_norm(work.ax_eq)});
  work.ax_eq -= problem.b_eq;
  r.equality = inf_norm(work.ax_eq) / s_e;

  // inequality slack A_in x - b_in, its violation, the sign of z and complementarity
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
  if (!all_finite(x.data(), x.size()) || !all_finite(y.data(), y.size()) ||
      !all_finite(z.data(), z.size()) || !std::isfinite(s_d) || !std::isfinite(s_i) ||
      !std::isfinite(s_z) || !std::isfinite(r.kkt))
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
