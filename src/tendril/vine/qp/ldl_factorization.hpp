#pragma once
/// Sparse LDL^T of a symmetric quasi-definite matrix with a fixed pattern (internal to tendril_qp).
///
/// Up-looking LDL^T (T. A. Davis, "Algorithm 849: A concise sparse Cholesky factorization package",
/// ACM TOMS 31(4), 2005) after an approximate-minimum-degree ordering. The elimination tree, the
/// column counts of L, the row and column patterns of L and the permuted pattern are computed once
/// by analyse(); factorize() only does arithmetic (no allocation). Each pivot has a known sign (+ for primal, - for dual rows):
/// a pivot with the wrong sign or |d| <= pivot_threshold is replaced by sign * pivot_shift
/// (dynamic regularisation), so the factorisation always exists and the caller's iterative
/// refinement removes the perturbation.

#include <vector>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"

namespace tendril::vine {

class LdlFactorization {
 public:
  /// Pattern of the lower triangle `lower` (compressed, diagonal present) and the pivot signs (+1 / -1 per row).
  void analyse(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// Numeric factorisation of a matrix with the analysed pattern. Returns the number of replaced pivots.
  int factorize(const SparseMatrix& lower, double pivot_threshold, double pivot_shift);
  /// Overwrites b with L^-T D^-1 L^-1 b in the original ordering.
  void solve_in_place(VecX& b);
  int size() const { return n_; }

 private:
  int n_ = 0;
  std::vector<int> perm_;          // new index -> original index (n)
  std::vector<int> cp_, ci_;       // permuted upper triangle, compressed columns (n + 1, nnz)
  std::vector<int> value_source_;  // index into the values of `lower` of each entry of the permuted matrix (nnz)
  std::vector<signed char> sign_;  // pivot sign in the new ordering (n)
  std::vector<int> parent_, lp_, lnz_, li_;        // elimination tree, L columns (n, n + 1, n, nnz(L))
  std::vector<int> row_begin_, row_pattern_;       // pattern of each row of L, topological order (n + 1, nnz(L))
  std::vector<double> lx_, d_inverse_, y_, work_;  // L values, 1 / D, work vectors
};

}  // namespace tendril::vine
