#include "tendril/fit/eliminated_problem.hpp"

#include <algorithm>
#include <exception>
#include <limits>

namespace tendril::fit::detail {

using Triplet = Eigen::Triplet<double, int>;

EliminatedProblem::EliminatedProblem(StepMapProblem& problem) : p_(problem) {
  const int first = p_.num_dynamics_rows();
  for (std::size_t e = 0; e < p_.jacobian_rows().size(); ++e)
    if (p_.jacobian_rows()[e] >= first) {
      jac_entries_.push_back(static_cast<int>(e));
      jac_rows_.push_back(p_.jacobian_rows()[e] - first);
      jac_cols_.push_back(p_.reduced_column(p_.jacobian_cols()[e]));
    }
  // the Hessian's pattern: that of J^T J for J with every structural entry of de/dy (the dynamics
  // rows' pattern, and a dense row over q_i for every state as the data rows' superset)
  std::vector<Triplet> t;
  for (std::size_t e = 0; e < p_.jacobian_rows().size(); ++e) {
    const int col = p_.jacobian_cols()[e];
    if (p_.jacobian_rows()[e] < first && (col < p_.r(0) || col >= p_.k(0)))
      t.emplace_back(p_.jacobian_rows()[e], p_.reduced_column(col), 1.0);
  }
  for (int i = 0; i <= p_.steps(); ++i)
    for (int b = 0; b < p_.dofs(); ++b) t.emplace_back(first + i, p_.z(i) + b, 1.0);
  SparseMatrix pattern(first + p_.steps() + 1, num_variables());
  pattern.setFromTriplets(t.begin(), t.end());
  const SparseMatrix h = SparseMatrix(pattern.transpose() * pattern).triangularView<Eigen::Lower>();
  for (int col = 0; col < h.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(h, col); it; ++it) {
      hess_rows_.push_back(static_cast<int>(it.row()));
      hess_cols_.push_back(col);
    }
}

void EliminatedProblem::bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
  VecX xl(p_.num_variables()), xu(p_.num_variables()), gl(p_.num_constraints()),
      gu(p_.num_constraints());
  p_.bounds(xl.data(), xu.data(), gl.data(), gu.data());
  const VecX yl = p_.reduced(xl), yu = p_.reduced(xu);
  std::copy(yl.data(), yl.data() + num_variables(), x_l);
  std::copy(yu.data(), yu.data() + num_variables(), x_u);
  std::copy(gl.data() + p_.num_dynamics_rows(), gl.data() + gl.size(), g_l);
  std::copy(gu.data() + p_.num_dynamics_rows(), gu.data() + gu.size(), g_u);
}

double EliminatedProblem::objective(const VecX& y, VecX* gradient) {
  if (!evaluate(y, gradient != nullptr)) {
    if (gradient) gradient->setConstant(y.size(), std::numeric_limits<double>::quiet_NaN());
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (gradient) *gradient = 2.0 * (at_.jacobian.transpose() * at_.residual);
  return at_.residual.squaredNorm();
}

bool EliminatedProblem::constraints(const VecX& y, VecX& g, VecX* jacobian, std::string& message) {
  if (!evaluate(y, jacobian != nullptr)) {
    message = at_.message;
    return false;
  }
  g = g_.tail(num_constraints());
  if (jacobian) {
    jacobian->resize(static_cast<Eigen::Index>(jac_entries_.size()));
    for (std::size_t e = 0; e < jac_entries_.size(); ++e)
      (*jacobian)(static_cast<Eigen::Index>(e)) = values_(jac_entries_[e]);
  }
  return true;
}

bool EliminatedProblem::hessian(const VecX& y, double factor, const VecX&, double* values,
                                std::string&) {
  const bool ok = evaluate(y, true);
  const SparseMatrix h =
      ok ? SparseMatrix(at_.jacobian.transpose() * at_.jacobian) : SparseMatrix();
  for (std::size_t e = 0; e < hess_rows_.size(); ++e)
    values[e] = ok ? 2.0 * factor * h.coeff(hess_rows_[e], hess_cols_[e]) : 0.0;
  return true;
}

SparseResiduals EliminatedProblem::residuals(const VecX& y) {
  evaluate(y, true);
  return at_;
}

bool EliminatedProblem::evaluate(const VecX& y, bool with_jacobian) {
  if (y.size() != y_.size() || y != y_ || (with_jacobian && !have_jacobian_)) {
    y_ = y;
    have_jacobian_ = with_jacobian;
    at_ = least_squares(y, with_jacobian);
  }
  return at_.ok;
}

SparseResiduals EliminatedProblem::least_squares(const VecX& y, bool with_jacobian) {
  SparseResiduals out;
  const VecX x = p_.with_zero_residuals(y);
  try {
    if (!p_.constraints(x, g_, with_jacobian ? &values_ : nullptr, out.message)) return out;
  } catch (const std::exception& e) {  // the model rejects the state
    out.message = e.what();
    return out;
  }
  std::vector<Triplet> t;
  const VecX data = p_.data_residuals(x, with_jacobian ? &t : nullptr);
  const int row = static_cast<int>(data.size()), rows = p_.num_dynamics_rows(), nz = 2 * p_.dofs();
  const VecX sqrt_weights = p_.model_weights().cwiseSqrt();  // |sqrt(R) r|^2 = r^T R r
  out.residual.resize(row + rows);
  out.residual.head(row) = data;
  for (int i = 0; i < p_.steps(); ++i)
    out.residual.segment(row + nz * i, nz) = sqrt_weights.cwiseProduct(g_.segment(nz * i, nz));
  if (with_jacobian) {
    const std::vector<int>&jac_rows = p_.jacobian_rows(), &jac_cols = p_.jacobian_cols();
    for (std::size_t e = 0; e < jac_rows.size(); ++e) {
      const int col = jac_cols[e];
      if ((col >= p_.r(0) && col < p_.k(0)) || jac_rows[e] >= rows) continue;  // r is eliminated
      t.emplace_back(row + jac_rows[e], p_.reduced_column(col),
                     sqrt_weights(jac_rows[e] % nz) * values_(static_cast<Eigen::Index>(e)));
    }
    out.jacobian.resize(static_cast<Eigen::Index>(out.residual.size()), num_variables());
    out.jacobian.setFromTriplets(t.begin(), t.end());
  }
  out.ok = out.residual.allFinite();
  if (!out.ok) out.message = "a residual is not finite";
  return out;
}

}  // namespace tendril::fit::detail
