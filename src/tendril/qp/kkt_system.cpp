#include "tendril/qp/kkt_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tendril/core/error.hpp"

namespace tendril::qp {
namespace {

template <class Index>
bool same_indices(const std::vector<int>& stored, const Index* begin, Eigen::Index count) {
  return stored.size() == static_cast<std::size_t>(count) &&
         std::equal(stored.begin(), stored.end(), begin);
}

bool same_pattern(const SparseMatrix& m, const std::vector<int>& outer,
                  const std::vector<int>& inner) {
  return same_indices(outer, m.outerIndexPtr(), m.outerSize() + 1) &&
         same_indices(inner, m.innerIndexPtr(), m.nonZeros());
}

void copy_pattern(const SparseMatrix& m, std::vector<int>& outer, std::vector<int>& inner) {
  outer.assign(m.outerIndexPtr(), m.outerIndexPtr() + m.outerSize() + 1);
  inner.assign(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros());
}

}  // namespace

bool KktSystem::matches(const QpProblem& problem) const {
  const int n = problem.num_variables();
  return k_.rows() == n + problem.num_equalities() + problem.num_inequalities() &&
         p_outer_.size() == std::size_t(n + 1) && same_pattern(problem.P, p_outer_, p_inner_) &&
         same_pattern(problem.A_eq, a_eq_outer_, a_eq_inner_) &&
         same_pattern(problem.A_in, a_in_outer_, a_in_inner_);
}

void KktSystem::analyse(const QpProblem& problem) {
  TENDRIL_ASSERT(
      problem.P.isCompressed() && problem.A_eq.isCompressed() && problem.A_in.isCompressed(),
      "KktSystem needs compressed matrices");
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int size = n + m_eq + problem.num_inequalities();

  // lower triangle, built column by column in row order: the diagonal, P (row > col), A_eq and
  // A_in below the variable block; the slot of every input entry is recorded on the way
  const SparseMatrix& p = problem.P;
  const SparseMatrix& a_eq = problem.A_eq;
  const SparseMatrix& a_in = problem.A_in;
  k_.resize(size, size);
  k_.resizeNonZeros(size + p.nonZeros() + a_eq.nonZeros() + a_in.nonZeros());
  int* outer = k_.outerIndexPtr();
  int* inner = k_.innerIndexPtr();
  p_diagonal_.resize(p.nonZeros());
  p_lower_.resize(p.nonZeros());
  int diagonal_count = 0, lower_count = 0;
  a_eq_slot_.resize(a_eq.nonZeros());
  a_in_slot_.resize(a_in.nonZeros());
  diag_slot_.resize(size);
  int next = 0;
  const auto append = [&](int row) {
    inner[next] = row;
    return next++;
  };
  for (int j = 0; j < size; ++j) {
    outer[j] = next;
    diag_slot_[j] = append(j);
    if (j >= n) continue;
    for (int q = p.outerIndexPtr()[j]; q < p.outerIndexPtr()[j + 1]; ++q) {
      const int row = p.innerIndexPtr()[q];
      if (row == j) p_diagonal_[diagonal_count++] = {q, j};
      if (row > j) p_lower_[lower_count++] = {q, append(row)};
    }
    for (int q = a_eq.outerIndexPtr()[j]; q < a_eq.outerIndexPtr()[j + 1]; ++q)
      a_eq_slot_[q] = append(n + a_eq.innerIndexPtr()[q]);
    for (int q = a_in.outerIndexPtr()[j]; q < a_in.outerIndexPtr()[j + 1]; ++q)
      a_in_slot_[q] = append(n + m_eq + a_in.innerIndexPtr()[q]);
  }
  outer[size] = next;
  k_.resizeNonZeros(next);
  p_diagonal_.resize(diagonal_count);
  p_lower_.resize(lower_count);
  std::fill(k_.valuePtr(), k_.valuePtr() + next, 0.0);  // defined values for the ordering

  copy_pattern(problem.P, p_outer_, p_inner_);
  copy_pattern(problem.A_eq, a_eq_outer_, a_eq_inner_);
  copy_pattern(problem.A_in, a_in_outer_, a_in_inner_);
  regularization_.resize(size);
  k0_diagonal_.resize(size);
  block_begin_ = {0, n, n + m_eq, size};
  residual_.resize(size);
  terms_.resize(size);
  signed_u_.resize(size);
  step_.resize(size);
  arnoldi_.resize(size);
  std::vector<signed char> sign(size, -1);
  std::fill(sign.begin(), sign.begin() + n, 1);
  ldl_.analyse(k_, sign);
}

// every stored entry of K is the slot of one entry of P's strict lower triangle, A_eq or A_in, or a
// diagonal entry: each is written once (P's diagonal entries summed into K0's diagonal), nothing is
// cleared first

void KktSystem::set_problem(const QpProblem& problem, double regularization) {
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  double* value = k_.valuePtr();
  double* k0_diagonal = k0_diagonal_.data();
  double k_max = 0.0;
  const double* p_value = problem.P.valuePtr();
  std::fill(k0_diagonal, k0_diagonal + n + m_eq, 0.0);
  for (const Entry& e : p_diagonal_) k0_diagonal[e.slot] += p_value[e.source];
  for (const Entry& e : p_lower_) {
    value[e.slot] = p_value[e.source];
    k_max = std::max(k_max, std::abs(p_value[e.source]));
  }
  const double* a_eq_value = problem.A_eq.valuePtr();
  const int a_eq_count = static_cast<int>(a_eq_slot_.size());
  for (int k = 0; k < a_eq_count; ++k) {
    value[a_eq_slot_[k]] = a_eq_value[k];
    k_max = std::max(k_max, std::abs(a_eq_value[k]));
  }
  double p_max = 0.0;
  for (int j = 0; j < n; ++j) {
    p_max = std::max(p_max, k0_diagonal[j]);
    k_max = std::max(k_max, std::abs(k0_diagonal[j]));
  }
  problem_k_max_ = k_max;

  // regularisation: rho_j = eps max(P_jj, 1e-3 max_k P_kk) relative to the primal diagonal (the
  // refinement then contracts by ~eps per step whatever the mass scale), delta = eps on the
  // multipliers
  const double p_floor = p_max > 0.0 ? 1e-3 * p_max : 1.0;
  for (int j = 0; j < n; ++j)
    regularization_[j] = regularization * std::max(k0_diagonal[j], p_floor);
  regularization_.tail(size() - n).setConstant(-regularization);
  for (int i = 0; i < n + m_eq; ++i) value[diag_slot_[i]] = k0_diagonal[i] + regularization_[i];
}

void KktSystem::set_inequality_rows(const QpProblem& problem, const std::vector<char>& row_on,
                                    const VecX& d) {
  const int first = problem.num_variables() + problem.num_equalities();
  double* value = k_.valuePtr();
  double* k0_diagonal = k0_diagonal_.data();
  double k_max = problem_k_max_;
  const double* a_in_value = problem.A_in.valuePtr();
  const int* a_in_row = problem.A_in.innerIndexPtr();
  const int a_in_count = static_cast<int>(a_in_slot_.size());
  for (int k = 0; k < a_in_count; ++k) {
    const double v = row_on[a_in_row[k]] ? a_in_value[k] : 0.0;
    value[a_in_slot_[k]] = v;
    k_max = std::max(k_max, std::abs(v));
  }
  for (int i = 0; i < problem.num_inequalities(); ++i) {
    const double dii = row_on[i] ? -d[i] : -1.0;
    k0_diagonal[first + i] = dii;
    k_max = std::max(k_max, std::abs(dii));
    value[diag_slot_[first + i]] = dii + regularization_[first + i];
  }
  k_max_ = k_max;
}

bool KktSystem::factorize() {
  // thresholds of the dynamic regularisation relative to the largest entry of K0, or to the terms
  // of the pivot if larger (1e-14 ~ the rounding error of a sum of ~100 terms, Higham, Accuracy and
  // Stability of Numerical Algorithms, 2nd ed., sec. 3.1; the shift stands 1e4 above it)
  if (!std::isfinite(k_max_)) return false;
  return ldl_.factorize(k_, std::max(1.0, k_max_), 1e-14, 1e-10) >= 0;
}

double KktSystem::backward_error(const VecX& rhs, const VecX& u) {
  // per row i the pair (r_i, m_i) of the residual r = rhs - K0 u of the unregularised system and
  // the magnitudes m = |K0| |u| + |rhs| of its terms, accumulated together: an entry v = K0_ij adds
  // (v, |v|) (-u_j, |u_j|) to row i's pair (column j of the lower triangle starts with its diagonal
  // entry, see analyse())
  const int size = this->size();
  const auto with_magnitude = [](double v) { return Eigen::Array2d(v, std::abs(v)); };
  Eigen::Array2d* terms = terms_.data();
  Eigen::Array2d* signed_u = signed_u_.data();
  for (int i = 0; i < size; ++i) {
    terms[i] = with_magnitude(rhs[i]);
    signed_u[i] = Eigen::Array2d(-u[i], std::abs(u[i]));
  }
  const int* outer = k_.outerIndexPtr();
  const int* inner = k_.innerIndexPtr();
  const double* value = k_.valuePtr();
  // blockwise backward error: per block of rows (stationarity, equalities, inequalities)
  // max |r_i| / max (|K0| |u| + |rhs|)_i, so each block is judged on its own scale; a non-finite
  // r_i has a non-finite m_i. Row j is complete after column j (later columns add to the rows
  // below them), so it is scored there.
  double error = 0.0;
  bool finite = true;
  smallest_block_scale_ = HUGE_VAL;
  for (int b = 0; b < 3; ++b) {
    double r_max = 0.0, m_max = 0.0;
    for (int j = block_begin_[b]; j < block_begin_[b + 1]; ++j) {
      const Eigen::Array2d u_j = signed_u[j];
      Eigen::Array2d row_j = terms[j] + with_magnitude(k0_diagonal_[j]) * u_j;
      const int end = outer[j + 1];
      for (int p = outer[j] + 1; p < end; ++p) {
        const int i = inner[p];
        const Eigen::Array2d v = with_magnitude(value[p]);
        terms[i] += v * u_j;
        row_j += v * signed_u[i];
      }
      residual_[j] = row_j[0];
      r_max = std::max(r_max, std::abs(row_j[0]));
      m_max = std::max(m_max, row_j[1]);
      finite &= row_j[1] <= std::numeric_limits<double>::max();
    }
    if (r_max > 0.0) error = std::max(error, r_max / m_max);
    if (m_max > 0.0) smallest_block_scale_ = std::min(smallest_block_scale_, m_max);
  }
  return finite ? error : HUGE_VAL;
}

void KktSystem::multiply_k0(const VecX& x, VecX& y) const {
  const int* outer = k_.outerIndexPtr();
  const int* inner = k_.innerIndexPtr();
  const double* value = k_.valuePtr();
  y = k0_diagonal_.cwiseProduct(x);
  for (int j = 0; j < k_.cols(); ++j) {
    double y_j = y[j];
    for (int p = outer[j] + 1; p < outer[j + 1]; ++p) {
      y[inner[p]] += value[p] * x[j];
      y_j += value[p] * x[inner[p]];
    }
    y[j] = y_j;
  }
}

int KktSystem::gmres_correction(int max_iterations, double tolerance) {
  const int size = static_cast<int>(residual_.size());
  if (basis_.rows() != size || basis_.cols() < max_iterations + 1) {
    basis_.resize(size, max_iterations + 1);
    hessenberg_.resize(max_iterations + 1, max_iterations);
    rotation_cos_.resize(max_iterations);
    rotation_sin_.resize(max_iterations);
    projected_residual_.resize(max_iterations + 1);
  }
  const double beta = residual_.norm();
  step_.setZero(size);
  if (!(beta > 0.0) || !std::isfinite(beta)) return 0;
  basis_.col(0) = residual_ / beta;
  projected_residual_.setZero();
  projected_residual_[0] = beta;
  int k = 0;
  while (k < max_iterations) {
    // Arnoldi with modified Gram-Schmidt on K0 M^-1 (M = the regularised LDL^T)
    step_ = basis_.col(k);
    ldl_.solve_in_place(step_);
    multiply_k0(step_, arnoldi_);
    for (int i = 0; i <= k; ++i) {
      hessenberg_(i, k) = arnoldi_.dot(basis_.col(i));
      arnoldi_ -= hessenberg_(i, k) * basis_.col(i);
    }
    const double next = arnoldi_.norm();
    // Givens rotations keep the Hessenberg matrix upper triangular; |projected_residual_[k + 1]| is
    // the 2-norm of the residual of the correction after k + 1 iterations
    for (int i = 0; i < k; ++i) {
      const double a = hessenberg_(i, k), b = hessenberg_(i + 1, k);
      hessenberg_(i, k) = rotation_cos_[i] * a + rotation_sin_[i] * b;
      hessenberg_(i + 1, k) = -rotation_sin_[i] * a + rotation_cos_[i] * b;
    }
    const double radius = std::hypot(hessenberg_(k, k), next);
    if (!(radius > 0.0) || !std::isfinite(radius)) break;
    rotation_cos_[k] = hessenberg_(k, k) / radius;
    rotation_sin_[k] = next / radius;
    hessenberg_(k, k) = radius;
    projected_residual_[k + 1] = -rotation_sin_[k] * projected_residual_[k];
    projected_residual_[k] *= rotation_cos_[k];
    ++k;
    if (std::abs(projected_residual_[k]) <= tolerance || next == 0.0) break;
    basis_.col(k) = arnoldi_ / next;
  }
  if (k == 0) {  // breakdown at the first iteration: the plain refinement step
    step_ = residual_;
    ldl_.solve_in_place(step_);
    return 1;
  }
  // correction M^-1 V y with H y = g (upper triangular k x k)
  for (int i = k - 1; i >= 0; --i) {
    double yi = projected_residual_[i];
    for (int j = i + 1; j < k; ++j) yi -= hessenberg_(i, j) * projected_residual_[j];
    projected_residual_[i] = yi / hessenberg_(i, i);
  }
  step_ = basis_.leftCols(k) * projected_residual_.head(k);
  ldl_.solve_in_place(step_);
  return k;
}

bool KktSystem::solve(const VecX& rhs, VecX& u, int max_steps, double backward_error_target,
                      bool krylov_rescue) {
  u = rhs;
  ldl_.solve_in_place(u);
  double previous = HUGE_VAL;
  bool krylov = false;
  for (int steps = 0;;) {
    const double error = backward_error(rhs, u);
    if (error <= backward_error_target) return true;
    if (!std::isfinite(error) || steps >= max_steps) return false;
    if (error > 0.5 * previous) {
      if (krylov || !krylov_rescue) return false;
      krylov = true;
    }
    previous = error;
    if (!krylov) {
      // plain refinement: contracts by ~ the regularisation per step when the factorisation is
      // accurate
      step_ = residual_;
      ldl_.solve_in_place(step_);
      ++steps;
    } else {
      // plain refinement stalled (pivots replaced by the dynamic regularisation, or a factorisation
      // spoilt by growth ~ 1 / rho): GMRES-based refinement (Carson & Higham, SIAM J. Sci. Comput.
      // 39(6), 2017) solves the correction K0 d = r by GMRES preconditioned by the regularised
      // LDL^T, until its residual is within the target on the smallest block's scale
      steps +=
          gmres_correction(max_steps - steps, 0.5 * backward_error_target * smallest_block_scale_);
    }
    u += step_;
  }
}

}  // namespace tendril::qp
