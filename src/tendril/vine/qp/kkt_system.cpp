#include "tendril/vine/qp/kkt_system.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"

namespace tendril::vine {
namespace {

template <class Index>
bool same_indices(const std::vector<int>& stored, const Index* begin, Eigen::Index count) {
  return stored.size() == static_cast<std::size_t>(count) && std::equal(stored.begin(), stored.end(), begin);
}

bool same_pattern(const SparseMatrix& m, const std::vector<int>& outer, const std::vector<int>& inner) {
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
         same_pattern(problem.A_eq, a_eq_outer_, a_eq_inner_) && same_pattern(problem.A_in, a_in_outer_, a_in_inner_);
}

void KktSystem::analyse(const QpProblem& problem) {
  TENDRIL_ASSERT(problem.P.isCompressed() && problem.A_eq.isCompressed() && problem.A_in.isCompressed(),
                 "KktSystem needs compressed matrices");
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int size = n + m_eq + problem.num_inequalities();

  // lower triangle: P (row >= col), A_eq and A_in below the variable block, the whole diagonal
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(problem.P.nonZeros() + problem.A_eq.nonZeros() + problem.A_in.nonZeros() + size);
  for (int i = 0; i < size; ++i) entries.emplace_back(i, i, 0.0);
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(problem.P, j); it; ++it)
      if (it.row() >= j) entries.emplace_back(it.row(), j, 0.0);
    for (SparseMatrix::InnerIterator it(problem.A_eq, j); it; ++it) entries.emplace_back(n + it.row(), j, 0.0);
    for (SparseMatrix::InnerIterator it(problem.A_in, j); it; ++it) entries.emplace_back(n + m_eq + it.row(), j, 0.0);
  }
  k_.resize(size, size);
  k_.setFromTriplets(entries.begin(), entries.end());
  k_.makeCompressed();

  // slot of every input entry in the value array of k_
  p_slot_.assign(problem.P.nonZeros(), -1);
  a_eq_slot_.assign(problem.A_eq.nonZeros(), -1);
  a_in_slot_.assign(problem.A_in.nonZeros(), -1);
  for (int j = 0; j < n; ++j) {
    for (int k = problem.P.outerIndexPtr()[j]; k < problem.P.outerIndexPtr()[j + 1]; ++k) {
      const int row = problem.P.innerIndexPtr()[k];
      if (row >= j) p_slot_[k] = slot(row, j);
    }
    for (int k = problem.A_eq.outerIndexPtr()[j]; k < problem.A_eq.outerIndexPtr()[j + 1]; ++k)
      a_eq_slot_[k] = slot(n + problem.A_eq.innerIndexPtr()[k], j);
    for (int k = problem.A_in.outerIndexPtr()[j]; k < problem.A_in.outerIndexPtr()[j + 1]; ++k)
      a_in_slot_[k] = slot(n + m_eq + problem.A_in.innerIndexPtr()[k], j);
  }
  diag_slot_.resize(size);
  for (int i = 0; i < size; ++i) diag_slot_[i] = slot(i, i);
  TENDRIL_ASSERT(std::equal(diag_slot_.begin(), diag_slot_.end(), k_.outerIndexPtr()),
                 "the diagonal must lead every column of the KKT lower triangle");

  copy_pattern(problem.P, p_outer_, p_inner_);
  copy_pattern(problem.A_eq, a_eq_outer_, a_eq_inner_);
  copy_pattern(problem.A_in, a_in_outer_, a_in_inner_);
  regularization_.resize(size);
  block_begin_ = {0, n, n + m_eq, size};
  residual_.resize(size);
  magnitude_.resize(size);
  step_.resize(size);
  std::vector<signed char> sign(size, -1);
  std::fill(sign.begin(), sign.begin() + n, 1);
  ldl_.analyse(k_, sign);
}

int KktSystem::slot(int row, int col) const {
  const int k = value_index(k_, row, col);
  TENDRIL_ASSERT(k >= 0, "KKT entry missing from the pattern");
  return k;
}

void KktSystem::set_values(const QpProblem& problem, double regularization, const std::vector<char>& row_on,
                           const VecX& d) {
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int m_in = problem.num_inequalities();
  double* value = k_.valuePtr();
  std::fill(value, value + k_.nonZeros(), 0.0);

  for (std::size_t k = 0; k < p_slot_.size(); ++k)
    if (p_slot_[k] >= 0) value[p_slot_[k]] += problem.P.valuePtr()[k];
  for (std::size_t k = 0; k < a_eq_slot_.size(); ++k) value[a_eq_slot_[k]] = problem.A_eq.valuePtr()[k];
  for (std::size_t k = 0; k < a_in_slot_.size(); ++k)
    value[a_in_slot_[k]] = row_on[problem.A_in.innerIndexPtr()[k]] ? problem.A_in.valuePtr()[k] : 0.0;
  for (int i = 0; i < m_in; ++i) value[diag_slot_[n + m_eq + i]] = row_on[i] ? -d[i] : -1.0;

  // regularisation: rho_j = eps max(P_jj, 1e-3 max_k P_kk) relative to the primal diagonal (the
  // refinement then contracts by ~eps per step whatever the mass scale), delta = eps on the multipliers
  k_max_ = 0.0;
  for (int k = 0; k < k_.nonZeros(); ++k) k_max_ = std::max(k_max_, std::abs(value[k]));
  double p_max = 0.0;
  for (int j = 0; j < n; ++j) p_max = std::max(p_max, value[diag_slot_[j]]);
  const double p_floor = p_max > 0.0 ? 1e-3 * p_max : 1.0;
  for (int j = 0; j < n; ++j) regularization_[j] = regularization * std::max(value[diag_slot_[j]], p_floor);
  regularization_.tail(m_eq + m_in).setConstant(-regularization);
  for (int i = 0; i < size(); ++i) value[diag_slot_[i]] += regularization_[i];
}

bool KktSystem::factorize() {
  // thresholds of the dynamic regularisation relative to the largest entry of K0, or to the terms of
  // the pivot if larger (1e-14 ~ the rounding error of a sum of ~100 terms, Higham, Accuracy and
  // Stability of Numerical Algorithms, 2nd ed., sec. 3.1; the shift stands 1e4 above it)
  if (!std::isfinite(k_max_)) return false;
  return ldl_.factorize(k_, std::max(1.0, k_max_), 1e-14, 1e-10) >= 0;
}

bool KktSystem::solve(const VecX& rhs, VecX& u, int max_steps, double backward_error) {
  u = rhs;
  ldl_.solve_in_place(u);
  double previous = HUGE_VAL;
  for (int step = 0;; ++step) {
    // residual r = rhs - K0 u of the unregularised system and the magnitudes |K0| |u| + |rhs| of its terms
    residual_ = rhs;
    magnitude_ = rhs.cwiseAbs();
    // (column j of the lower triangle starts with its diagonal entry, see analyse())
    const int* outer = k_.outerIndexPtr();
    const int* inner = k_.innerIndexPtr();
    const double* value = k_.valuePtr();
    for (int j = 0; j < k_.cols(); ++j) {
      const double uj = u[j];
      const double diagonal = (value[outer[j]] - regularization_[j]) * uj;
      double r_j = residual_[j] - diagonal;
      double m_j = magnitude_[j] + std::abs(diagonal);
      for (int p = outer[j] + 1; p < outer[j + 1]; ++p) {
        const int i = inner[p];
        const double v = value[p];
        residual_[i] -= v * uj;
        magnitude_[i] += std::abs(v * uj);
        r_j -= v * u[i];
        m_j += std::abs(v * u[i]);
      }
      residual_[j] = r_j;
      magnitude_[j] = m_j;
    }
    // blockwise backward error: per block of rows (stationarity, equalities, inequalities)
    // max |r_i| / max (|K0| |u| + |rhs|)_i, so each block is judged on its own scale
    if (!residual_.allFinite()) return false;
    double error = 0.0;
    for (int b = 0; b < 3; ++b) {
      double r_max = 0.0, m_max = 0.0;
      for (int i = block_begin_[b]; i < block_begin_[b + 1]; ++i) {
        r_max = std::max(r_max, std::abs(residual_[i]));
        m_max = std::max(m_max, magnitude_[i]);
      }
      if (r_max > 0.0) error = std::max(error, r_max / m_max);
    }
    if (error <= backward_error) return true;
    if (step >= max_steps || error > 0.5 * previous) return false;
    previous = error;
    step_ = residual_;
    ldl_.solve_in_place(step_);
    u += step_;
  }
}

}  // namespace tendril::vine
